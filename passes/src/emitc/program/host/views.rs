//! Views of host tensors: `pl.tensor.slice` a window of a buffer's elements
//! (`pto::sim::slice`), `pl.tensor.view` and `pl.tensor.reshape` its
//! elements with another shape (`pto::sim::reshape`). Views own no
//! elements and live as long as the program, so a dispatch may use one
//! after the loop iteration that made it
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{
    Attribute, OperationRef, Type, Value, ValueLike, attribute::IntegerAttribute,
    operation::OperationLike,
};
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{operand_at, result_at};
use pto_dialects::types::{TensorLike, TensorType};

use super::super::Failure;
use super::super::emit::{call_with_args, operand_index, pointer};
use super::Host;
use crate::emitc::orchestration::calls::segment;

impl<'c, 'a> Host<'c, 'a, '_> {
    /// `pl.tensor.slice`, `pl.tensor.view` or `pl.tensor.reshape` of a host
    /// tensor.
    pub(super) fn view(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let fail = |message: &str| -> Failure<'c, 'a> { (op, message.to_string()) };
        let source = operand_at(op, 0).ok_or_else(|| fail("a view without a source"))?;
        let Some(element) = self.buffers.get(&ValueKey::of(source)).copied() else {
            return Err(fail(
                "a view of a tensor that is not a host tensor is not simulated on the host",
            ));
        };
        let result = result_at(op, 0).ok_or_else(|| fail("a view without a result"))?;
        let source_shape = self
            .shapes
            .get(&ValueKey::of(source))
            .cloned()
            .ok_or_else(|| fail("a view of a host tensor whose shape is not known here"))?;
        let result_type = TensorLike::try_from(result.r#type())
            .map_err(|_| fail("a view that is not a tensor"))?;
        if let Ok(tensor) = TensorType::try_from(result.r#type()) {
            let view = tensor.view();
            if view.layout.is_some() || view.has_strides || view.has_valid_shape {
                return Err(fail(
                    "a host tensor viewed with a layout, strides or a valid shape is not simulated (only its shape may change)",
                ));
            }
        }
        let mut bounds: Vec<Value<'c, 'a>> = Vec::new();
        if kind == OpKind::PlTensorSlice {
            let operands = |index: usize| segment(op, index);
            if op.attribute("clamp").is_ok() {
                return Err(fail(
                    "a clamped slice of a host tensor is not simulated yet",
                ));
            }
            if let Some(axis) =
                crate::emitc::dense::non_contiguous_axis(&source_shape, &result_type.shape())
            {
                return Err((
                    op,
                    format!(
                        "a slice of a host tensor that is not contiguous in it (axis {axis} is partial inside a wider outer axis) is not simulated: kernels take dense tensors"
                    ),
                ));
            }
            bounds.extend(operands(1).into_iter().map(|v| self.as_i64(op, v)));
            let mut sizes = operands(2).into_iter();
            for extent in result_type.shape() {
                let value = match extent {
                    Some(fixed) => self.constant_i64(op, fixed),
                    None => {
                        let size = sizes
                            .next()
                            .ok_or_else(|| fail("a dynamic extent without its size"))?;
                        self.as_i64(op, size)
                    }
                };
                bounds.push(value);
            }
        } else {
            for (axis, extent) in result_type.shape().into_iter().enumerate() {
                let value = match extent {
                    Some(fixed) => self.constant_i64(op, fixed),
                    None if source_shape.len() == result_type.rank()
                        && source_shape[axis].is_none() =>
                    {
                        let dim = self.dim_of(op, source, axis);
                        self.as_i64(op, dim)
                    }
                    None => {
                        return Err(fail(
                            "a view to a dynamic extent the source does not have at that axis is not simulated on the host",
                        ));
                    }
                };
                bounds.push(value);
            }
        }
        let callee = if kind == OpKind::PlTensorSlice {
            format!("pto::sim::slice<{element}>")
        } else {
            format!("pto::sim::reshape<{element}>")
        };
        let args: Vec<Attribute> = (0..=bounds.len())
            .map(|i| operand_index(self.context, i))
            .collect();
        let mut operands = vec![source];
        operands.extend(bounds);
        let view_type = pointer(self.context, &format!("pto::sim::Buffer<{element}>"));
        let view = self.before(
            op,
            call_with_args(self.context, &callee, &args, &operands, Some(view_type)),
        );
        self.buffers.insert(ValueKey::of(view), element);
        self.shapes.insert(ValueKey::of(view), result_type.shape());
        pto_dialects::ir::replace_all_uses(result, view);
        Ok(())
    }

    /// `value` as an i64 constant before `op`.
    fn constant_i64(&self, op: OperationRef<'c, 'a>, value: i64) -> Value<'c, 'a> {
        let i64_type = melior::ir::r#type::IntegerType::new(self.context, 64).into();
        let attribute = IntegerAttribute::new(i64_type, value).into();
        let location = melior::ir::Location::unknown(self.context);
        self.before(
            op,
            melior::dialect::arith::constant(self.context, attribute, location),
        )
    }

    /// `pto::sim::dim(tensor, axis)` before `op`, as an index.
    fn dim_of(
        &self,
        op: OperationRef<'c, 'a>,
        tensor: Value<'c, 'a>,
        axis: usize,
    ) -> Value<'c, 'a> {
        let size = super::super::emit::size_t(self.context);
        let dim = self.call_before(op, "pto::sim::dim", &[tensor], &[axis.to_string()], size);
        let location = melior::ir::Location::unknown(self.context);
        self.before(
            op,
            melior::dialect::arith::index_cast(dim, Type::index(self.context), location),
        )
    }
}
