//! Branches yielding tensors in orchestrations and host programs. A tensor
//! is one buffer there, so an `scf.if` result must be one buffer whichever
//! branch runs (docs/translate.md):
//!
//! - a branch result assembled into a tensor defined before the branch is
//!   assembled in each branch instead (`assemble(if(c, a, b), t)` is
//!   `if(c, assemble(a, t), assemble(b, t))`), so each branch's kernel can
//!   write the window itself;
//! - a branch result that both branches update in place from one tensor is
//!   that tensor: the result is dropped and its uses take the tensor.
//!
//! A branch choosing between two tensors is refused.

use melior::ir::{
    BlockLike, OperationRef, RegionLike, Type, Value, ValueLike, operation::OperationLike,
};
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::operand_at;
use pto_dialects::types::TensorLike;

use crate::emitc::carried::in_place_root;
use crate::emitc::convert_pl_to_emitc::{keep_results, rebuild};
use crate::emitc::orchestration::calls::{Failure, available_before};

/// Moves into its branches every assemble of an `scf.if` result of
/// `function` into a tensor (at offsets) defined before the branch, when
/// the assemble is the result's one use.
pub fn sink_assembles<'c, 'a>(function: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
    // Inner branches first: an outer one then sees their results.
    let mut branches = pto_dialects::ir::collect_named(function, &["scf.if"]);
    branches.reverse();
    for branch in branches {
        let mut branch = branch;
        while let Some(rebuilt) = sink_one(branch)? {
            branch = rebuilt;
        }
    }
    Ok(())
}

/// Sinks the first assemble of a result of `branch` that can be, and
/// returns the branch that replaces `branch`; `None` when none can.
fn sink_one<'c, 'a>(
    branch: OperationRef<'c, 'a>,
) -> Result<Option<OperationRef<'c, 'a>>, Failure<'c, 'a>> {
    let Some(block) = branch.block() else {
        return Ok(None);
    };
    for i in 0..branch.result_count() {
        let result: Value = branch.result(i).unwrap().into();
        if TensorLike::try_from(result.r#type()).is_err() {
            continue;
        }
        let uses = pto_dialects::ir::uses(result);
        let [(assemble, 0)] = uses[..] else {
            continue;
        };
        if OpKind::of(&assemble) != Some(OpKind::PlTensorAssemble) {
            continue;
        }
        let window: Vec<Value> = (1..assemble.operand_count())
            .filter_map(|k| operand_at(assemble, k))
            .collect();
        if !window.iter().all(|v| available_before(*v, branch, block)) {
            continue;
        }
        let regions: Vec<_> = branch.regions().collect();
        if regions.len() != 2 {
            continue;
        }
        // Each branch assembles what it yields and yields the assembled.
        for region in regions {
            let body = region
                .first_block()
                .ok_or((branch, "a branch without a body".to_string()))?;
            let terminator = body
                .terminator()
                .ok_or((branch, "a branch without a yield".to_string()))?;
            let yielded = operand_at(terminator, i)
                .ok_or((branch, "a branch yielding less than it returns".to_string()))?;
            let copy = body.insert_operation_before(terminator, pto_dialects::ir::clone(&assemble));
            pto_dialects::ir::set_operand(copy, 0, yielded);
            pto_dialects::ir::set_operand(terminator, i, copy.result(0).unwrap().into());
        }
        let assembled: Value = assemble.result(0).unwrap().into();
        let types: Vec<Type> = (0..branch.result_count())
            .map(|k| {
                if k == i {
                    assembled.r#type()
                } else {
                    branch.result(k).unwrap().r#type()
                }
            })
            .collect();
        let condition = operand_at(branch, 0).ok_or((branch, "a condition".to_string()))?;
        let rebuilt = rebuild(branch, "scf.if", &[condition], &types)?;
        pto_dialects::ir::replace_all_uses(assembled, rebuilt.result(i).unwrap());
        pto_dialects::ir::erase(assemble);
        for k in (0..branch.result_count()).filter(|&k| k != i) {
            pto_dialects::ir::replace_all_uses(
                branch.result(k).unwrap(),
                rebuilt.result(k).unwrap(),
            );
        }
        pto_dialects::ir::erase(branch);
        return Ok(Some(rebuilt));
    }
    Ok(None)
}

/// Drops every tensor result of the `scf.if`s of `function`: both branches
/// must yield in-place updates of one tensor, which the result's uses then
/// take. `returned(kernel, k)` is the parameter kernel `kernel` returns as
/// its result `k`; `what` says what is refused ("simulated on the host").
pub fn drop_branch_tensors<'c, 'a>(
    function: OperationRef<'c, 'a>,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
    what: &str,
) -> Result<(), Failure<'c, 'a>> {
    let mut branches = pto_dialects::ir::collect_named(function, &["scf.if"]);
    branches.reverse();
    for branch in branches {
        let yields: Vec<OperationRef> = branch
            .regions()
            .filter_map(|r| r.first_block().and_then(|b| b.terminator()))
            .collect();
        let mut kept = Vec::new();
        for i in 0..branch.result_count() {
            let result: Value = branch.result(i).unwrap().into();
            if TensorLike::try_from(result.r#type()).is_err() {
                kept.push(i);
                continue;
            }
            let roots: Vec<Value> = yields
                .iter()
                .filter_map(|y| operand_at(*y, i))
                .map(|v| in_place_root(v, returned))
                .collect();
            // Through views the root may have another shape: only a root of
            // the result's own type is the result.
            let one = roots.len() == 2
                && ValueKey::of(roots[0]) == ValueKey::of(roots[1])
                && roots[0].r#type() == result.r#type();
            if !one {
                return Err((
                    branch,
                    format!(
                        "branch result #{i} is not one tensor both branches update in place (assembled into, written, viewed, or returned by a kernel it is passed to): a branch choosing between tensors is not {what}"
                    ),
                ));
            }
            pto_dialects::ir::replace_all_uses(result, roots[0]);
        }
        if kept.len() < branch.result_count() {
            let condition = operand_at(branch, 0).ok_or((branch, "a condition".to_string()))?;
            keep_results(branch, "scf.if", &[condition], &kept)?;
        }
    }
    Ok(())
}
