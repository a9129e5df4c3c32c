//! The safe IR layer: the one module of this crate that holds `unsafe`.
//!
//! Passes, the translator and the interpreter handle IR only through safe
//! calls: melior's API, and what it lacks from here — handles with the IR's
//! lifetime ([`collect`], [`edit`], [`rebind`], [`argument_owner`]),
//! identities for maps ([`ValueKey`], [`OpKey`]), rewrites
//! ([`replace_all_uses`], [`erase`], [`detach`], [`clone`], [`take_body`],
//! [`erase_argument`]) and read-only queries. The C++ glue is reached
//! through [`glue`]; the C API and the hooks MLIR calls are here too. Each
//! `unsafe` block says why it is sound (docs/building.md, "Where unsafe
//! lives").

pub mod capi;
pub mod emitc;
pub mod glue;
mod glue_raw;
mod handles;
pub mod hooks;
mod names;
mod query;
mod rewrite;
pub mod strings;

pub use handles::{
    BlockKey, OpKey, ValueKey, argument_owner, block_argument, collect, collect_kinds,
    collect_named, context, defining_block, defining_op, edit, find, has_uses, previous_in_block,
    rebind, uses, walk,
};
pub use names::{location_name, name_arguments, parameter_name, unnamed, value_name};
pub use query::{
    BuiltinScalar, FloatFormat, Signedness, builtin_scalar, string_attr_text, type_in_dialect,
};
pub use rewrite::{
    clone, detach, dictionary, erase, erase_argument, inline_call, parse_file, replace_all_uses,
    set_operand, take_body, unroll_loop_by_factor, unroll_loop_full,
};
