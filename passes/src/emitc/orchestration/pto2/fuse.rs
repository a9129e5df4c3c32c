//! A tensor made to be assembled into another: `%t = pl.tensor.create`,
//! filled by the kernels it is passed to (through views), then
//! `pl.tensor.assemble`d into a window of `%d`. The runtime cannot copy
//! between tensors in the orchestration, so the kernels write into the
//! window instead: the create becomes `pl.tensor.slice %d[offsets]` (viewed
//! with the create's shape) and the assemble goes, its result being `%d`
//! (docs/passes/convert-pl-orchestration-to-emitc.md). Refused: an
//! assemble whose source is not such a tensor, or whose window is not
//! dense.

use melior::ir::{
    BlockLike, Identifier, OperationRef, Value, ValueLike,
    attribute::{Attribute, DenseI32ArrayAttribute},
    operation::{OperationBuilder, OperationLike, OperationResult, WalkOrder, WalkResult},
};
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::operand_at;
use pto_dialects::types::TensorLike;

use crate::emitc::orchestration::calls::{Failure, available_before, call_arguments, callee};
use crate::emitc::orchestration::kernels::KernelCall;

/// Fuses every `pl.tensor.assemble` of `orchestration` into the create of
/// its source.
pub(super) fn fuse_assembles<'c, 'a>(
    orchestration: OperationRef<'c, 'a>,
    kernels: &std::collections::HashMap<String, KernelCall>,
) -> Result<(), Failure<'c, 'a>> {
    let mut assembles = Vec::new();
    pto_dialects::ir::walk(orchestration, WalkOrder::PreOrder, |op| {
        if OpKind::of(&op) == Some(OpKind::PlTensorAssemble) {
            assembles.push(op);
        }
        WalkResult::Advance
    });
    for assemble in assembles {
        fuse(assemble, kernels)?;
    }
    Ok(())
}

fn fuse<'c, 'a>(
    assemble: OperationRef<'c, 'a>,
    kernels: &std::collections::HashMap<String, KernelCall>,
) -> Result<(), Failure<'c, 'a>> {
    let refuse = |why: &str| -> Failure<'c, 'a> {
        (
            assemble,
            format!("this assemble is not emitted for the runtime: {why}"),
        )
    };
    if assemble.attribute("atomic_add").is_ok() {
        return Err(refuse(
            "an atomic assemble needs a copy the orchestration cannot make",
        ));
    }
    let (Some(source), Some(target)) = (operand_at(assemble, 0), operand_at(assemble, 1)) else {
        return Err(refuse("no source or target"));
    };
    let offsets: Vec<Value> = (2..assemble.operand_count())
        .filter_map(|i| operand_at(assemble, i))
        .collect();
    let (Ok(source_type), Ok(target_type)) = (
        TensorLike::try_from(source.r#type()),
        TensorLike::try_from(target.r#type()),
    ) else {
        return Err(refuse("not tensors"));
    };
    if let Err(axis) =
        crate::emitc::dense::provably_dense(&target_type.shape(), &source_type.shape())
    {
        return Err(refuse(&format!(
            "its window is not dense in the target (axis {axis}), and kernels write dense tensors"
        )));
    }
    let create = created_by(source, kernels).ok_or_else(|| {
        refuse("its source is not a tensor the orchestration creates and only kernels fill (through views) for it")
    })?;
    let block = create.block().expect("the create is in a block");
    for value in std::iter::once(target).chain(offsets.iter().copied()) {
        if !available_before(value, create, block) {
            return Err(refuse(
                "its target or an offset is not defined before the tensor it assembles is created",
            ));
        }
    }
    // The window of the target, with the created tensor's shape (its
    // dynamic extents the create's).
    let location = create.location();
    let context = pto_dialects::ir::context(&create);
    let sizes: Vec<Value> = (0..create.operand_count())
        .filter_map(|i| operand_at(create, i))
        .collect();
    let segments: Attribute =
        DenseI32ArrayAttribute::new(context, &[1, offsets.len() as i32, sizes.len() as i32]).into();
    let slice = OperationBuilder::new(OpKind::PlTensorSlice.name(), location)
        .add_operands(&[&[target][..], &offsets, &sizes].concat())
        .add_results(&[source.r#type()])
        .add_attributes(&[(Identifier::new(context, "operandSegmentSizes"), segments)])
        .build()
        .map_err(|e| refuse(&e.to_string()))?;
    let slice = block.insert_operation_before(create, slice);
    let mut window: Value = slice.result(0).unwrap().into();
    let created: Value = create.result(0).unwrap().into();
    if created.r#type() != window.r#type() {
        let reshape = OperationBuilder::new(OpKind::PlTensorReshape.name(), location)
            .add_operands(&[window])
            .add_results(&[created.r#type()])
            .build()
            .map_err(|e| refuse(&e.to_string()))?;
        window = block
            .insert_operation_before(create, reshape)
            .result(0)
            .unwrap()
            .into();
    }
    pto_dialects::ir::replace_all_uses(created, window);
    let assembled: Value = assemble.result(0).unwrap().into();
    pto_dialects::ir::replace_all_uses(assembled, target);
    pto_dialects::ir::erase(assemble);
    pto_dialects::ir::erase(create);
    Ok(())
}

/// The `pl.tensor.create` `value` is, through views and the kernel calls
/// that return it, when each value on the way has that one use.
fn created_by<'c, 'a>(
    value: Value<'c, 'a>,
    kernels: &std::collections::HashMap<String, KernelCall>,
) -> Option<OperationRef<'c, 'a>> {
    let mut value = value;
    for _ in 0..10_000 {
        let result = OperationResult::try_from(value).ok()?;
        let op = result.owner();
        let next = match OpKind::of(&op)? {
            OpKind::PlTensorCreate => {
                return single_use_chain(value).then_some(op);
            }
            OpKind::PlTensorReshape | OpKind::PlTensorView => operand_at(op, 0)?,
            OpKind::PlCall | OpKind::PlSubmit => {
                let parameter = kernels
                    .get(&callee(op))?
                    .returns
                    .get(result.result_number())
                    .copied()
                    .flatten()?;
                call_arguments(op).get(parameter).copied()?
            }
            _ => return None,
        };
        // Each step's value has that one use (the next op on the way).
        if !single_use_chain(value) {
            return None;
        }
        value = next;
    }
    None
}

/// Whether `value` has exactly one use.
fn single_use_chain(value: Value) -> bool {
    pto_dialects::ir::uses(value).len() == 1
}
