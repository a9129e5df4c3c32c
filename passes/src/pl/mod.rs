//! Passes over the tile language: lowering for a2a3.

pub mod a2a3_pipeline;
pub mod convert_tensor_to_tile;
pub mod derive_task_dependencies;
pub mod double_buffer;
pub mod estimate_cycles;
pub mod expand_mixed_kernel;
pub mod flatten_tile_nd;
pub mod infer_memory_space;
pub mod inject_gm_pipe_buffer;
pub mod inline_functions;
pub mod insert_sync;
pub mod legalize_tile_cast;
pub mod linear;
pub mod lower_auto_vector_split;
pub mod lower_math_ops;
pub mod materialize_valid_shapes;
pub mod outline_incore_scopes;
pub mod parameter_aliases;
pub mod pipes;
pub mod plan_memory;
pub(crate) mod scf_build;
pub(crate) mod signature;
pub mod tile_matmul_l0;
pub mod unroll_loops;
pub mod verify_constants;
pub mod verify_sync;

use melior::{
    Context,
    ir::{
        Attribute, Identifier, Location, Operation, Type, Value,
        attribute::FlatSymbolRefAttribute,
        operation::{OperationBuilder, OperationLike, OperationRef},
    },
};
use pto_dialects::{
    attrs::{self, FunctionAttr},
    enums::FunctionKind,
    op_table::OpKind,
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

/// `pl.submit @callee(arguments) deps(deps) blocks %blocks`, its results
/// `results` and then the task id; `sync_start` the launch's flag, if set.
#[allow(clippy::too_many_arguments)]
pub(crate) fn submit_op<'c>(
    context: &'c Context,
    location: Location<'c>,
    callee: &str,
    arguments: &[Value<'c, '_>],
    deps: &[Value<'c, '_>],
    blocks: Option<Value<'c, '_>>,
    sync_start: Option<Attribute<'c>>,
    results: &[Type<'c>],
) -> Result<Operation<'c>, String> {
    let task_id = Type::parse(context, "!pl.task_id").ok_or("no task id type")?;
    let mut attributes = vec![(
        Identifier::new(context, "callee"),
        FlatSymbolRefAttribute::new(context, callee).into(),
    )];
    if let Some(sync_start) = sync_start {
        attributes.push((Identifier::new(context, "sync_start"), sync_start));
    }
    let blocks: Vec<Value> = blocks.into_iter().collect();
    let submit = OperationBuilder::new(OpKind::PlSubmit.name(), location)
        .add_attributes(&attributes)
        .add_operands(&[arguments, deps, &blocks].concat())
        .add_results(&[results, &[task_id]].concat())
        .build()
        .map_err(|e| e.to_string())?;
    Ok(pto_dialects::ops::with_operand_segments(
        context,
        submit,
        &[
            arguments.len() as i32,
            deps.len() as i32,
            blocks.len() as i32,
        ],
    ))
}
