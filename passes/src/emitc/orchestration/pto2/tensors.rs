//! Tensors the orchestration makes and asks about: `pl.tensor.create` as
//! an `alloc_tensors` (or the output the runtime hands in), `pl.tensor.dim`
//! as the descriptor's extent.

use melior::ir::{
    Attribute, BlockLike, BlockRef, Identifier, Location, OperationRef, Type, Value, ValueLike,
    attribute::{ArrayAttribute, IntegerAttribute, StringAttribute},
    operation::{OperationBuilder, OperationLike},
};
use pto_dialects::ir::ValueKey;
use pto_dialects::ops::result_at;
use pto_dialects::types::TensorLike;

use super::{Lowering, value};
use crate::emitc::build::{self, opaque, opaque_attribute};
use crate::emitc::orchestration::calls::{Failure, replace_with_index};

/// The runtime's `DataType` of an element type. The runtime has no
/// unsigned 16- or 32-bit type; it sizes and copies buffers by their type,
/// so those are the signed type of their width (the same bytes).
fn data_type(element: &str) -> Result<&'static str, String> {
    Ok(match element {
        "uint32_t" => "DataType::INT32",
        "uint16_t" => "DataType::INT16",
        "float" => "DataType::FLOAT32",
        "half" => "DataType::FLOAT16",
        "bfloat16_t" => "DataType::BFLOAT16",
        "int32_t" => "DataType::INT32",
        "int16_t" => "DataType::INT16",
        "int8_t" => "DataType::INT8",
        "int64_t" => "DataType::INT64",
        "uint8_t" => "DataType::UINT8",
        other => return Err(format!("no runtime data type for {other}")),
    })
}

impl<'c, 'a> Lowering<'c, 'a, '_> {
    /// A returned tensor is the argument the runtime hands in; any other
    /// is `pto_orch_ref(pto_orch_alloc(dtype, extents...), 0)`.
    pub(super) fn tensor_create(
        &self,
        block: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let before = |new: melior::ir::Operation<'c>| block.insert_operation_before(op, new);
        let result = result_at(op, 0).unwrap();
        let replacement = match self.outputs.get(&ValueKey::of(result)) {
            Some(&index) => value(before(self.call(
                "pto_orch_tensor",
                &[self.orch_args],
                &[index.to_string()],
                Some(self.tensor_type),
            ))),
            None => {
                let alloc = value(before(self.alloc(op, &before)?));
                value(before(self.call(
                    "pto_orch_ref",
                    &[alloc],
                    &["0".into()],
                    Some(self.tensor_type),
                )))
            }
        };
        pto_dialects::ir::replace_all_uses(result, replacement);
        Ok(())
    }

    /// `pto_orch_alloc(dtype, extents...)` for the tensor `op` creates: the
    /// dtype, then each extent, a literal or the next dynamic operand (cast
    /// to `size_t` before `op` with `before`).
    fn alloc(
        &self,
        op: OperationRef<'c, 'a>,
        before: &impl Fn(melior::ir::Operation<'c>) -> OperationRef<'c, 'a>,
    ) -> Result<melior::ir::Operation<'c>, Failure<'c, 'a>> {
        let context = self.context;
        let result = result_at(op, 0).unwrap();
        let tensor = TensorLike::try_from(result.r#type()).unwrap();
        let element = crate::emitc::cpp_types::element(tensor.element()).map_err(|m| (op, m))?;
        let dtype = data_type(element).map_err(|m| (op, m))?;
        let mut dynamic = op.operands();
        let mut extents: Vec<Value> = Vec::new();
        let mut args: Vec<Attribute> = vec![opaque_attribute(context, dtype)];
        for extent in tensor.shape() {
            match extent {
                Some(fixed) => args.push(opaque_attribute(context, &fixed.to_string())),
                None => {
                    let extent = dynamic
                        .next()
                        .ok_or_else(|| (op, "a dynamic extent without its operand".to_string()))?;
                    args.push(
                        IntegerAttribute::new(Type::index(context), extents.len() as i64).into(),
                    );
                    extents.push(value(before(build::cast(context, extent, self.size_t))));
                }
            }
        }
        Ok(
            OperationBuilder::new("emitc.call_opaque", Location::unknown(context))
                .add_attributes(&[
                    (
                        Identifier::new(context, "callee"),
                        StringAttribute::new(context, "pto_orch_alloc").into(),
                    ),
                    (
                        Identifier::new(context, "args"),
                        ArrayAttribute::new(context, &args).into(),
                    ),
                ])
                .add_operands(&extents)
                .add_results(&[opaque(context, "TaskOutputTensors")])
                .build()
                .expect("emitc.call_opaque builds"),
        )
    }

    /// `pto_orch_extent(tensor, axis)`, as an index.
    pub(super) fn tensor_dim(&self, block: BlockRef<'c, 'a>, op: OperationRef<'c, 'a>) {
        let axis = op
            .attribute("axis")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(0, |a| a.value());
        let tensor = pto_dialects::ops::operand_at(op, 0).unwrap();
        let size = value(block.insert_operation_before(
            op,
            self.call(
                "pto_orch_extent",
                &[tensor],
                &[axis.to_string()],
                Some(self.size_t),
            ),
        ));
        replace_with_index(self.context, op, size);
    }
}
