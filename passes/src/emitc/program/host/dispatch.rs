//! `pld.dispatch`: the chip orchestration launched on the domain's device
//! thread — as the program's own function of the device's pointers, or
//! with `runtime=pto2` its PTO2 entry with `ChipTaskArgs` of the device's
//! windows, ordering tokens and CommContexts
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{OperationRef, Value, ValueLike, operation::OperationLike, r#type::TypeLike};
use pto_dialects::ir::{OpKey, ValueKey};
use pto_dialects::ops::operand_at;

use super::super::Failure;
use super::super::emit::{launch_call, pointer, size_t};
use super::Host;
use crate::emitc::build::call_opaque;

impl<'c, 'a> Host<'c, 'a, '_> {
    pub(super) fn dispatch(&mut self, op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let domain = self.domain(op, "a dispatch")?;
        let callee = pto_dialects::attrs::text_of(op, "callee").unwrap_or_default();
        let Some(tokens) = self.facts.chips.get(&callee).copied() else {
            let message = format!("@{callee} is not a simulated chip orchestration");
            return Err((op, message));
        };
        if op.result_count() > 0 {
            let message = "dispatches with results are not simulated yet";
            return Err((op, message.into()));
        }
        let n = op.operand_count();
        let device = self.as_i64(op, operand_at(op, n - 1).unwrap());
        let mut operands = vec![domain, device];
        for i in 0..n - 1 {
            let argument = operand_at(op, i).unwrap();
            operands.push(self.passed(op, argument));
        }
        let launch = if self.pto2 {
            let literals = [
                format!("pto_chip_entry_{callee}"),
                format!("pto_chip_config_{callee}"),
                tokens.to_string(),
            ];
            launch_call(
                self.context,
                "pto::sim::runtime::launch_chip",
                &literals,
                &operands,
                &[],
            )
        } else {
            // The dynamic extents of window views follow, in order.
            for i in 0..n - 1 {
                let argument = operand_at(op, i).unwrap();
                operands.extend(self.dynamic_extents(op, argument));
            }
            let literals = std::slice::from_ref(&callee);
            launch_call(self.context, "pto::sim::launch", literals, &operands, &[])
        };
        self.emit_before(op, launch);
        if self.joined_alone.contains(&OpKey::of(&op)) {
            let join = call_opaque(self.context, "pto::sim::join", &[domain], &[], None);
            self.emit_before(op, join);
        }
        Ok(())
    }

    /// A dispatch's argument as passed: host tensors by reference (the
    /// threads share them), an index as an int64 (the chip's size_t),
    /// anything else as it is.
    fn passed(&self, op: OperationRef<'c, 'a>, argument: Value<'c, 'a>) -> Value<'c, 'a> {
        match self.buffers.get(&ValueKey::of(argument)) {
            Some(element) => {
                let reference = pointer(self.context, &format!("pto::sim::Buffer<{element}>"));
                self.call_before(op, "pto::sim::ref", &[argument], &[], reference)
            }
            None if argument.r#type().is_index() => self.as_i64(op, argument),
            None => argument,
        }
    }

    /// `pto::sim::dim(view, axis)` of each dynamic axis of a window view.
    fn dynamic_extents(
        &self,
        op: OperationRef<'c, 'a>,
        argument: Value<'c, 'a>,
    ) -> Vec<Value<'c, 'a>> {
        let axes = self
            .window_axes
            .get(&ValueKey::of(argument))
            .cloned()
            .unwrap_or_default();
        axes.into_iter()
            .map(|axis| {
                let size = size_t(self.context);
                self.call_before(op, "pto::sim::dim", &[argument], &[axis.to_string()], size)
            })
            .collect()
    }
}
