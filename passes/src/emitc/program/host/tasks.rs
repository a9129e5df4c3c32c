//! Task ids and launch sizes in a simulator program: its tasks run when
//! they are submitted, so a task id is only a dependency, which holds by
//! construction; what is left of an id is whether it is valid, an `i1`
//! the program computes where it makes the id (a submit's is, the invalid
//! id is not, a dummy task's is when it has no dependencies or one of them
//! is), carries through its loops and keeps in its arrays
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{
    OperationRef, Type, Value, ValueLike, attribute::IntegerAttribute, operation::OperationLike,
    r#type::IntegerType,
};
use pto_dialects::{op_table::OpKind, ops::result_at};

use super::{Failure, Host};
use crate::emitc::convert_pl_to_emitc::{TaskIds, lower_array_op};
use crate::emitc::program::emit::i32;

use crate::emitc::carried::is_task_id;

impl<'c, 'a> Host<'c, 'a, '_> {
    /// The `i1` constant `valid`, before `op`.
    fn validity(&self, op: OperationRef<'c, 'a>, valid: bool) -> Value<'c, 'a> {
        let i1: Type = IntegerType::new(self.context, 1).into();
        self.before(
            op,
            melior::dialect::arith::constant(
                self.context,
                IntegerAttribute::new(i1, i64::from(valid)).into(),
                op.location(),
            ),
        )
    }

    /// A submit's task id (its last result) is valid.
    pub(super) fn submitted(&self, op: OperationRef<'c, 'a>) {
        if let Some(task) =
            result_at(op, op.result_count().saturating_sub(1)).filter(|t| is_task_id(t.r#type()))
        {
            let valid = self.validity(op, true);
            pto_dialects::ir::replace_all_uses(task, valid);
        }
    }

    /// `pl.system.task_dummy` (valid without dependencies, else when one of
    /// them is), `task_invalid` (not valid), `task_is_valid` (the id's
    /// validity).
    pub(super) fn task_op(&mut self, op: OperationRef<'c, 'a>, kind: OpKind) {
        let valid = match kind {
            OpKind::PlSystemTaskInvalid => self.validity(op, false),
            OpKind::PlSystemTaskIsValid => op.operand(0).expect("a task id"),
            _ => {
                let mut deps = op.operands();
                match deps.next() {
                    None => self.validity(op, true),
                    Some(first) => deps.fold(first, |any, dep| {
                        self.before(op, melior::dialect::arith::ori(any, dep, op.location()))
                    }),
                }
            }
        };
        pto_dialects::ir::replace_all_uses(result_at(op, 0).unwrap(), valid);
    }

    /// `pl.array.*`: a C array, task ids held as their validity.
    pub(super) fn array(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let array = (kind != OpKind::PlArrayCreate).then(|| op.operand(0).unwrap());
        let value = lower_array_op(op, kind, array, TaskIds::Validity)?;
        pto_dialects::ir::replace_all_uses(result_at(op, 0).unwrap(), value);
        Ok(())
    }

    /// `pl.system.available_cluster_count` / `available_aiv_count`: the
    /// simulated device's (pto/sim/a2a3.hpp).
    pub(super) fn core_count(&mut self, op: OperationRef<'c, 'a>, kind: OpKind) {
        let callee = if kind == OpKind::PlSystemAvailableClusterCount {
            "pto::sim::available_cluster_count"
        } else {
            "pto::sim::available_aiv_count"
        };
        let count = self.call_before(op, callee, &[], &[], i32(self.context));
        pto_dialects::ir::replace_all_uses(result_at(op, 0).unwrap(), count);
    }
}
