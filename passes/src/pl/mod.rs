//! Passes over the tile language: lowering for a2a3.

pub mod a2a3_pipeline;
pub mod convert_tensor_to_tile;
pub mod derive_task_dependencies;
pub mod flatten_tile_nd;
pub mod infer_memory_space;
pub mod inline_functions;
pub mod insert_sync;
pub mod legalize_tile_cast;
pub mod linear;
pub mod lower_math_ops;
pub mod outline_incore_scopes;
pub mod pipes;
pub mod plan_memory;
pub(crate) mod scf_build;
pub mod tile_matmul_l0;
pub mod unroll_loops;
pub mod verify_constants;
pub mod verify_sync;

use melior::ir::operation::{OperationLike, OperationRef};
use pto_dialects::{
    attrs::{self, FunctionAttr},
    enums::FunctionKind,
};

/// Whether `function` is an InCore kernel (`incore`, `aic`, `aiv`): what
/// memory planning and pipe synchronisation apply to.
pub fn is_kernel(function: OperationRef) -> bool {
    matches!(
        function.attribute("pl.kind").ok().and_then(attrs::read),
        Some(FunctionAttr::Kind(
            FunctionKind::InCore | FunctionKind::Aic | FunctionKind::Aiv
        ))
    )
}
