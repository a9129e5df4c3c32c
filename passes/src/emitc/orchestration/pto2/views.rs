//! Views of tensors in an orchestration (`pl.tensor.slice`,
//! `pl.tensor.view`, `pl.tensor.reshape`): descriptors of the same buffer,
//! `pto_orch_slice(t, offsets..., sizes...)` (the start offset moved, the
//! extents narrowed, the strides kept) and `pto_orch_reshape(t,
//! extents...)` (dense strides). Kernels take dense tensors, so a slice
//! must be dense whatever its dynamic extents are
//! (docs/passes/convert-pl-orchestration-to-emitc.md).

use melior::ir::{
    BlockLike, BlockRef, OperationRef, Type, Value, ValueLike,
    attribute::IntegerAttribute,
    operation::{OperationLike, WalkOrder, WalkResult},
};
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{operand_at, result_at};
use pto_dialects::types::{TensorLike, TensorType};

use super::{Lowering, value};
use crate::emitc::build;
use crate::emitc::orchestration::calls::{Failure, segment};

/// Refuses, before anything is lowered (the pl types are still there),
/// each view of `orchestration` the runtime's descriptors cannot be.
pub(super) fn check_views<'c, 'a>(
    orchestration: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let mut refused = None;
    pto_dialects::ir::walk(orchestration, WalkOrder::PreOrder, |op| {
        let Some(kind @ (OpKind::PlTensorSlice | OpKind::PlTensorView | OpKind::PlTensorReshape)) =
            OpKind::of(&op)
        else {
            return WalkResult::Advance;
        };
        if let Err(message) = check_view(op, kind) {
            refused = Some((op, message));
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    refused.map_or(Ok(()), Err)
}

fn check_view(op: OperationRef, kind: OpKind) -> Result<(), String> {
    let (Some(source), Some(result)) = (operand_at(op, 0), result_at(op, 0)) else {
        return Err("a view without its source or result".into());
    };
    let source_shape = TensorLike::try_from(source.r#type())
        .map_err(|_| "a view of a value that is not a tensor".to_string())?
        .shape();
    let result_type = TensorLike::try_from(result.r#type())
        .map_err(|_| "a view that is not a tensor".to_string())?;
    if let Ok(tensor) = TensorType::try_from(result.r#type()) {
        let view = tensor.view();
        if view.layout.is_some() || view.has_strides || view.has_valid_shape {
            return Err("a tensor viewed with a layout, strides or a valid shape is not emitted for the runtime (only its shape may change)".into());
        }
    }
    if kind == OpKind::PlTensorSlice {
        if op.attribute("clamp").is_ok() {
            return Err("a clamped slice is not emitted for the runtime yet".into());
        }
        if let Err(axis) = crate::emitc::dense::provably_dense(&source_shape, &result_type.shape())
        {
            return Err(format!(
                "a slice that is not dense in its tensor whatever its dynamic extents (axis {axis}) is not emitted for the runtime: kernels take dense tensors"
            ));
        }
        return Ok(());
    }
    let shape = result_type.shape();
    for (axis, extent) in shape.iter().enumerate() {
        if extent.is_none() && (source_shape.len() != shape.len() || source_shape[axis].is_some()) {
            return Err("a view to a dynamic extent the source does not have at that axis is not emitted for the runtime".into());
        }
    }
    Ok(())
}

impl<'c, 'a> Lowering<'c, 'a, '_> {
    /// `op` (checked by [`check_views`]) as its descriptor.
    pub(super) fn tensor_view(
        &self,
        block: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let before = |new: melior::ir::Operation<'c>| block.insert_operation_before(op, new);
        let source = operand_at(op, 0).ok_or_else(|| self.fail("a view without a source"))?;
        let result = result_at(op, 0).ok_or_else(|| self.fail("a view without a result"))?;
        let shape = TensorLike::try_from(result.r#type())
            .map_err(|_| self.fail("a view that is not a tensor"))?
            .shape();
        let segment = |index: usize| segment(op, index);
        let as_size = |v: Value<'c, 'a>| value(before(build::cast(self.context, v, self.size_t)));
        // Every bound an operand: a static extent as a constant.
        let constant = |fixed: i64| {
            let attribute = IntegerAttribute::new(Type::index(self.context), fixed).into();
            let location = melior::ir::Location::unknown(self.context);
            as_size(value(before(melior::dialect::arith::constant(
                self.context,
                attribute,
                location,
            ))))
        };
        let mut bounds: Vec<Value> = Vec::new();
        if kind == OpKind::PlTensorSlice {
            bounds.extend(segment(1).into_iter().map(as_size));
            let mut sizes = segment(2).into_iter();
            for extent in &shape {
                bounds.push(match extent {
                    Some(fixed) => constant(*fixed),
                    None => as_size(
                        sizes
                            .next()
                            .ok_or_else(|| self.fail("a dynamic extent without its size"))?,
                    ),
                });
            }
        } else {
            for (axis, extent) in shape.iter().enumerate() {
                bounds.push(match extent {
                    Some(fixed) => constant(*fixed),
                    None => value(before(self.call(
                        "pto_orch_extent",
                        &[source],
                        &[axis.to_string()],
                        Some(self.size_t),
                    ))),
                });
            }
        }
        let callee = if kind == OpKind::PlTensorSlice {
            "pto_orch_slice"
        } else {
            "pto_orch_reshape"
        };
        let mut operands = vec![source];
        operands.extend(bounds);
        let view = value(before(self.call(
            callee,
            &operands,
            &[],
            Some(self.tensor_type),
        )));
        pto_dialects::ir::replace_all_uses(result, view);
        Ok(())
    }
}
