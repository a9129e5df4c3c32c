//! Scalar accesses to host tensors: `pl.tensor.read` an element of a buffer
//! (`pto::sim::read`), `pl.tensor.write` one in place (`pto::sim::write`),
//! at row-major indices checked against the buffer's extents
//! (docs/passes/convert-pl-program-to-emitc.md). Kernel calls are made one
//! after another on the host's thread, so an access sees every call before
//! it; inside a comm domain, where dispatches run on the devices' threads,
//! an access would race them and is refused.

use melior::ir::{OperationRef, Value, ValueLike, operation::OperationLike};
use pto_dialects::ir::{OpKey, ValueKey};
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{operand_at, result_at};

use super::super::Failure;
use super::Host;

impl<'c, 'a> Host<'c, 'a, '_> {
    /// `pl.tensor.read %t[indices]` or `pl.tensor.write %t[indices], %v`.
    pub(super) fn access(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let fail = |message: &str| -> Failure<'c, 'a> { (op, message.to_string()) };
        if self.domain_of.contains_key(&OpKey::of(&op)) {
            return Err(fail(
                "a scalar access to a host tensor inside a comm domain would race the dispatches, which run on the devices' threads: it is not simulated",
            ));
        }
        let tensor = operand_at(op, 0).ok_or_else(|| fail("an access without a tensor"))?;
        let Some(element) = self.buffers.get(&ValueKey::of(tensor)).copied() else {
            return Err(fail(
                "a scalar access to a tensor that is not a host tensor is not simulated on the host",
            ));
        };
        let count = op.operand_count();
        let write = kind == OpKind::PlTensorWrite;
        let end = if write { count - 1 } else { count };
        let indices: Vec<Value<'c, 'a>> = (1..end)
            .filter_map(|i| operand_at(op, i))
            .map(|index| self.as_i64(op, index))
            .collect();
        if write {
            let value = operand_at(op, count - 1).ok_or_else(|| fail("a write without a value"))?;
            let mut operands = vec![tensor, value];
            operands.extend(indices);
            let callee = format!("pto::sim::write<{element}>");
            self.emit_before(
                op,
                crate::emitc::build::call_opaque(self.context, &callee, &operands, &[], None),
            );
            // The result is the tensor, written in place.
            let result = result_at(op, 0).ok_or_else(|| fail("a write without a result"))?;
            pto_dialects::ir::replace_all_uses(result, tensor);
        } else {
            let result = result_at(op, 0).ok_or_else(|| fail("a read without a result"))?;
            let mut operands = vec![tensor];
            operands.extend(indices);
            let callee = format!("pto::sim::read<{element}>");
            let value = self.call_before(op, &callee, &operands, &[], result.r#type());
            pto_dialects::ir::replace_all_uses(result, value);
        }
        Ok(())
    }
}

impl<'c, 'a> Host<'c, 'a, '_> {
    /// `pl.tensor.assemble %s into %t[offsets]`: the source's elements
    /// copied into the target's window at the offsets (added with
    /// `atomic_add`), `pto::sim::assemble`; the result is the target.
    pub(super) fn assemble(&mut self, op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let fail = |message: &str| -> Failure<'c, 'a> { (op, message.to_string()) };
        if self.domain_of.contains_key(&OpKey::of(&op)) {
            return Err(fail(
                "an assemble of host tensors inside a comm domain would race the dispatches, which run on the devices' threads: it is not simulated",
            ));
        }
        let source = operand_at(op, 0).ok_or_else(|| fail("an assemble without a source"))?;
        let target = operand_at(op, 1).ok_or_else(|| fail("an assemble without a target"))?;
        let (Some(element), Some(_)) = (
            self.buffers.get(&ValueKey::of(target)).copied(),
            self.buffers.get(&ValueKey::of(source)),
        ) else {
            return Err(fail(
                "an assemble of tensors that are not host tensors is not simulated on the host",
            ));
        };
        let add = op.attribute("atomic_add").is_ok();
        let mut operands = vec![target, source];
        for i in 2..op.operand_count() {
            let offset = operand_at(op, i).ok_or_else(|| fail("an offset"))?;
            operands.push(self.as_i64(op, offset));
        }
        let callee = format!(
            "pto::sim::assemble<{element}, {}>",
            if add { "true" } else { "false" }
        );
        self.emit_before(
            op,
            crate::emitc::build::call_opaque(self.context, &callee, &operands, &[], None),
        );
        let result = result_at(op, 0).ok_or_else(|| fail("an assemble without a result"))?;
        pto_dialects::ir::replace_all_uses(result, target);
        Ok(())
    }
}
