//! The entry's arguments: the orchestration's parameters read from
//! `orch_args` (tensors, then scalars, each counted from 0), and the
//! returned tensors the runtime hands in after the parameters.

use melior::ir::{
    BlockLike, BlockRef, OperationRef, Type, TypeLike, Value, ValueLike,
    operation::{OperationLike, OperationResult},
};
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::operand_at;
use pto_dialects::types::TensorLike;

use super::{Lowering, value};
use crate::emitc::build;
use crate::emitc::orchestration::calls::{Failure, callee, is_call, root};

impl<'c, 'a> Lowering<'c, 'a, '_> {
    /// Replaces each parameter with its read from `orch_args` and erases
    /// it; opens the entry's `PTO2_SCOPE`. Returns how many tensors and
    /// scalars were read.
    pub(super) fn read_parameters(
        &self,
        entry: BlockRef<'c, 'a>,
    ) -> Result<(usize, usize), Failure<'c, 'a>> {
        let first = entry
            .first_operation()
            .ok_or_else(|| self.fail("an orchestration without a return"))?;
        let insert = |op: melior::ir::Operation<'c>| -> OperationRef<'c, 'a> {
            entry.insert_operation_before(first, op)
        };
        let parameter_count = entry.argument_count() - 1;
        let (mut tensors, mut scalars) = (0usize, 0usize);
        for i in 0..parameter_count {
            let parameter: Value = entry.argument(i + 1).unwrap().into();
            let replacement = if TensorLike::try_from(parameter.r#type()).is_ok() {
                // A window view is a tensor too: the runtime hands in the
                // rank's window buffer.
                tensors += 1;
                value(insert(self.call(
                    "pto_orch_tensor",
                    &[self.orch_args],
                    &[(tensors - 1).to_string()],
                    Some(self.tensor_type),
                )))
            } else {
                scalars += 1;
                self.read_scalar(parameter.r#type(), scalars - 1, &insert)?
            };
            pto_dialects::ir::replace_all_uses(parameter, replacement);
        }
        // One automatic scope: the runtime tracks the tensors' producers and
        // consumers, and explicit dependencies add edges on top (a manual
        // scope would drop the tracked ones).
        insert(self.verbatim("PTO2_SCOPE() {", &[]));
        for i in (0..parameter_count).rev() {
            // The parameter has no uses left; `orch_args` stays.
            if !pto_dialects::ir::erase_argument(entry, i + 1) {
                return Err(self.fail(format!("parameter #{i} is still used")));
            }
        }
        Ok((tensors, scalars))
    }

    /// Scalar `index` of `orch_args` as a value of `r#type`. A CommContext
    /// is a 64-bit scalar, passed on to the kernels as one.
    fn read_scalar(
        &self,
        r#type: Type<'c>,
        index: usize,
        insert: &impl Fn(melior::ir::Operation<'c>) -> OperationRef<'c, 'a>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let (cpp, converted) = if r#type.is_index() {
            ("size_t".to_string(), self.size_t)
        } else if r#type.to_string() == "!pld.comm_ctx" {
            (
                "uint64_t".to_string(),
                Type::parse(self.context, "ui64").expect("ui64 parses"),
            )
        } else {
            (
                crate::emitc::cpp_types::element(r#type)
                    .map_err(|m| self.fail(m))?
                    .to_string(),
                r#type,
            )
        };
        let read = value(insert(self.call(
            &format!("pto_orch_scalar<{cpp}>"),
            &[self.orch_args],
            &[index.to_string()],
            Some(converted),
        )));
        Ok(if r#type.is_index() {
            value(insert(build::cast(self.context, read, r#type)))
        } else {
            read
        })
    }

    /// Records the tensor argument each returned tensor is handed in as
    /// (result `k` is tensor `tensors + k`); every result must be a tensor
    /// the orchestration creates (or fills). Returns how many results there are.
    pub(super) fn hand_in_outputs(
        &mut self,
        entry: BlockRef<'c, 'a>,
        tensors: usize,
    ) -> Result<usize, Failure<'c, 'a>> {
        let terminator = entry
            .terminator()
            .ok_or_else(|| self.fail("an orchestration without a return"))?;
        for k in 0..terminator.operand_count() {
            let value = root(operand_at(terminator, k).unwrap(), self.kernels);
            let result = OperationResult::try_from(value).ok();
            if let Some(result) = result.filter(|r| is_call(r.owner())) {
                let callee = callee(result.owner());
                return Err(self.fail(format!("@{callee} is not a translated kernel")));
            }
            if pto_dialects::dtype::ScalarKind::of(value.r#type()).is_some() {
                return Err(self.fail(format!(
                    "result #{k} is a scalar ({}); a runtime orchestration returns nothing (its outputs are tensors handed in as arguments), so a scalar result has nowhere to go",
                    value.r#type()
                )));
            }
            let made = |r: &OperationResult| {
                matches!(
                    OpKind::of(&r.owner()),
                    Some(OpKind::PlTensorCreate | OpKind::PlTensorFull)
                )
            };
            if result.is_none_or(|r| !made(&r)) {
                return Err(self.fail(format!(
                    "result #{k} is not a tensor this orchestration creates; the runtime hands outputs in as arguments"
                )));
            }
            self.outputs
                .entry(ValueKey::of(value))
                .or_insert(tensors + k);
        }
        Ok(terminator.operand_count())
    }
}
