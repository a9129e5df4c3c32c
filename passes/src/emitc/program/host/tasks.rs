//! Task ids and launch sizes in a simulator program: its tasks run when
//! they are submitted, so a task id is only a dependency, which holds by
//! construction; what is left of an id is whether it is valid, known where
//! the program makes it (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{BlockLike, OperationRef, operation::OperationLike};
use pto_dialects::{
    op_table::OpKind,
    ops::{operand_at, result_at},
};

use super::{Failure, Host};
use crate::emitc::program::emit::i32;

/// Whether task id `value` names a task, where the program's own ops say:
/// a submit's does, `pl.system.task_invalid`'s does not, a dummy task's
/// does unless all of its (given) dependencies do not.
fn known_valid(value: melior::ir::Value) -> Option<bool> {
    let owner = melior::ir::operation::OperationResult::try_from(value)
        .ok()?
        .owner();
    match OpKind::of(&owner)? {
        OpKind::PlSubmit => Some(true),
        OpKind::PlSystemTaskInvalid => Some(false),
        OpKind::PlSystemTaskDummy => {
            let deps: Vec<Option<bool>> = owner.operands().map(known_valid).collect();
            if deps.is_empty() || deps.contains(&Some(true)) {
                Some(true)
            } else if deps.iter().all(|d| *d == Some(false)) {
                Some(false)
            } else {
                None
            }
        }
        _ => None,
    }
}

impl<'c, 'a> Host<'c, 'a, '_> {
    /// `pl.system.task_dummy` / `task_invalid`: nothing to run; the id may
    /// only be a dependency or be asked whether it is valid.
    pub(super) fn task_id(&mut self, op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let id = result_at(op, 0).expect("a task id");
        let dependency_only = pto_dialects::ir::uses(id).iter().all(|(user, _)| {
            matches!(
                OpKind::of(user),
                Some(OpKind::PlSubmit | OpKind::PlSystemTaskDummy | OpKind::PlSystemTaskIsValid)
            )
        });
        if !dependency_only {
            return Err((
                op,
                "a task id carried or passed other than as a dependency is not simulated on the host yet".into(),
            ));
        }
        Ok(())
    }

    /// `pl.system.task_is_valid` of an id whose validity the program's
    /// ops fix: that constant.
    pub(super) fn task_is_valid(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let task = operand_at(op, 0).expect("a task id");
        let valid = known_valid(task).ok_or_else(|| {
            (
                op,
                "whether this task id is valid depends on the run (a carried id); that is not simulated on the host yet".to_string(),
            )
        })?;
        let i1: melior::ir::Type = melior::ir::r#type::IntegerType::new(self.context, 1).into();
        let constant = melior::dialect::arith::constant(
            self.context,
            melior::ir::attribute::IntegerAttribute::new(i1, i64::from(valid)).into(),
            op.location(),
        );
        let constant = op
            .block()
            .expect("ops sit in blocks")
            .insert_operation_before(op, constant);
        let constant: melior::ir::Value = constant.result(0).unwrap().into();
        pto_dialects::ir::replace_all_uses(result_at(op, 0).unwrap(), constant);
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
