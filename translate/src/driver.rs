//! What the host-side translators share: sizes, and the
//! builtin collective kernels the simulator programs include (the programs
//! themselves are built by `convert-pl-program-to-emitc`:
//! docs/passes/convert-pl-program-to-emitc.md).

pub(crate) use pto_passes::emitc::program::emit::checked_product;

/// The source of the builtin collective kernels
/// ([`pto_passes::emitc::program::BUILTINS_FILE`]), shipped with the
/// translation.
pub const BUILTINS_SOURCE: &str = include_str!("../builtins/collectives.hpp");
