//! Loops carrying tensors: a loop that updates a tensor in place
//! (assembles into it, writes it, or passes it to a kernel that returns it)
//! carries one buffer, so the carried value can be dropped and the body
//! and the code after the loop use the init's buffer, as kernels do with
//! their tensors (docs/translate.md). A loop that carries another tensor (a
//! fresh one each iteration) cannot, and is refused.

use melior::ir::{
    BlockLike, OperationRef, RegionLike, Value, ValueLike,
    operation::{OperationLike, OperationResult, WalkOrder, WalkResult},
};
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{Checked, op_name, operand_at};
use pto_dialects::types::TensorLike;

use crate::emitc::orchestration::calls::{Failure, call_arguments, callee};

/// Checks that every tensor an `scf.for` of `function` carries is updated
/// in place. `returned(kernel, k)` is the parameter kernel `kernel`
/// returns as its result `k`.
pub fn check_updates_in_place<'c, 'a>(
    function: OperationRef<'c, 'a>,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
    what: &str,
) -> Result<(), Failure<'c, 'a>> {
    let mut loops = Vec::new();
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        if op_name(op) == "scf.for" {
            loops.push(op);
        }
        WalkResult::Advance
    });
    for for_op in loops {
        let body = for_op
            .region_opt(0)
            .and_then(|r| r.first_block())
            .ok_or((for_op, "a loop without a body".to_string()))?;
        let terminator = body
            .terminator()
            .ok_or((for_op, "a loop body without a yield".to_string()))?;
        for i in 0..for_op.result_count() {
            if TensorLike::try_from(for_op.result(i).unwrap().r#type()).is_err() {
                continue;
            }
            let carried: Value = body.argument(i + 1).unwrap().into();
            let yielded = operand_at(terminator, i).ok_or((for_op, "a yield".to_string()))?;
            if !updates_in_place(yielded, carried, returned) {
                return Err((
                    for_op,
                    format!(
                        "loop-carried tensor #{i} is not updated in place (assembled into, written, or returned by a kernel it is passed to): a loop carrying a fresh tensor each iteration is not {what}"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Whether `value` is `carried` after in-place updates.
fn updates_in_place(
    value: Value,
    carried: Value,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
) -> bool {
    let mut value = value;
    // Each step goes to an operand of the op that made the value: the
    // chain ends at a block argument or an op that makes a fresh tensor.
    for _ in 0..10_000 {
        if ValueKey::of(value) == ValueKey::of(carried) {
            return true;
        }
        let Ok(result) = OperationResult::try_from(value) else {
            return false;
        };
        let op = result.owner();
        let next = match OpKind::of(&op) {
            Some(OpKind::PlTensorAssemble) => operand_at(op, 1),
            Some(OpKind::PlTensorWrite) => operand_at(op, 0),
            Some(OpKind::PlCall | OpKind::PlSubmit) => {
                returned(&callee(op), result.result_number())
                    .and_then(|parameter| call_arguments(op).get(parameter).copied())
            }
            // An inner loop that updates its init in place (checked on its
            // own) returns that init.
            None if op_name(op) == "scf.for" => operand_at(op, 3 + result.result_number()),
            _ => None,
        };
        match next {
            Some(next) => value = next,
            None => return false,
        }
    }
    false
}
