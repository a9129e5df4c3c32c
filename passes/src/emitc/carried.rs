//! Loops carrying tensors: a loop that updates a tensor in place
//! (assembles into it, writes it, or passes it to a kernel that returns it)
//! carries one buffer, so the carried value can be dropped and the body
//! and the code after the loop use the init's buffer, as kernels do with
//! their tensors (docs/translate.md). A loop that carries another tensor (a
//! fresh one each iteration, `x = layer(x)`) is a rebinding carry: where
//! the target keeps a tensor's descriptor in a variable (the runtime and
//! the host simulation), the loop keeps it and the translator assigns the
//! variable at each yield ([`is_rebinding`]); elsewhere it is refused,
//! unless the kernel making it may write it over the carried tensor
//! (share_carried_outputs).

use melior::ir::{
    BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
    operation::OperationMutLike,
    operation::{OperationLike, OperationResult, WalkOrder, WalkResult},
};
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{Checked, op_name, operand_at};
use pto_dialects::types::TensorLike;

use crate::emitc::orchestration::calls::{Failure, call_arguments, callee};

/// Checks that every tensor an `scf.for` of `function` carries is updated
/// in place, or, where `rebinding` allows it, is a rebinding carry.
/// `returned(kernel, k)` is the parameter kernel `kernel` returns as its
/// result `k`.
pub fn check_updates_in_place<'c, 'a>(
    function: OperationRef<'c, 'a>,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
    what: &str,
    rebinding: bool,
) -> Result<(), Failure<'c, 'a>> {
    let mut loops = Vec::new();
    let mut tensor_while = None;
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        if op_name(op) == "scf.for" {
            loops.push(op);
        }
        // An scf.while's carries are not dropped onto one buffer (its
        // before and after regions each take them): refused.
        if op_name(op) == "scf.while"
            && tensor_while.is_none()
            && op
                .operands()
                .chain(op.results().map(Value::from))
                .any(|v| TensorLike::try_from(v.r#type()).is_ok())
        {
            tensor_while = Some(op);
        }
        WalkResult::Advance
    });
    if let Some(while_op) = tensor_while {
        return Err((
            while_op,
            format!(
                "an scf.while carrying a tensor is not {what} yet (an scf.for carrying one updated in place is)"
            ),
        ));
    }
    for for_op in loops {
        for i in 0..for_op.result_count() {
            if is_rebinding(for_op, i, returned)? && !rebinding {
                return Err((
                    for_op,
                    format!(
                        "loop-carried tensor #{i} is not updated in place (assembled into, written, viewed, or returned by a kernel it is passed to): a loop carrying a fresh tensor each iteration is not {what}"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Whether the carry `i` of `for_op` is a tensor its body does not update
/// in place: each iteration yields another tensor (a rebinding carry).
pub fn is_rebinding<'c, 'a>(
    for_op: OperationRef<'c, 'a>,
    i: usize,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
) -> Result<bool, Failure<'c, 'a>> {
    let Some(result) = for_op.result_opt(i) else {
        return Ok(false);
    };
    if TensorLike::try_from(result.r#type()).is_err() {
        return Ok(false);
    }
    let body = for_op
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((for_op, "a loop without a body".to_string()))?;
    let terminator = body
        .terminator()
        .ok_or((for_op, "a loop body without a yield".to_string()))?;
    let carried: Value = body
        .argument(i + 1)
        .map_err(|_| (for_op, "a loop without its iteration argument".to_string()))?
        .into();
    let yielded = operand_at(terminator, i).ok_or((for_op, "a yield".to_string()))?;
    Ok(!updates_in_place(yielded, carried, returned))
}

/// Whether `value` is `carried` after in-place updates.
fn updates_in_place(
    value: Value,
    carried: Value,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
) -> bool {
    let mut value = value;
    // The chain ends at a block argument or an op that makes a fresh tensor.
    for _ in 0..10_000 {
        if ValueKey::of(value) == ValueKey::of(carried) {
            return true;
        }
        match updated(value, returned) {
            Some(next) => value = next,
            None => return false,
        }
    }
    false
}

/// The tensor `value` is after in-place updates: the start of the chain
/// [`updated`] follows.
pub fn in_place_root<'c: 'a, 'a>(
    value: Value<'c, 'a>,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
) -> Value<'c, 'a> {
    let mut value = value;
    for _ in 0..10_000 {
        match updated(value, returned) {
            Some(next) => value = next,
            None => break,
        }
    }
    value
}

/// The tensor `value` is an in-place update of, if it is one: the target
/// of an assemble, the tensor of a write, the argument a kernel returns,
/// the init of a loop updating it in place (not of one rebinding it), the
/// tensor a view reinterprets (the same buffer).
fn updated<'c: 'a, 'a>(
    value: Value<'c, 'a>,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
) -> Option<Value<'c, 'a>> {
    let result = OperationResult::try_from(value).ok()?;
    let op = result.owner();
    match OpKind::of(&op) {
        Some(OpKind::PlTensorAssemble) => operand_at(op, 1),
        Some(OpKind::PlTensorWrite | OpKind::PlTensorView) => operand_at(op, 0),
        Some(OpKind::PlCall | OpKind::PlSubmit) => returned(&callee(op), result.result_number())
            .and_then(|parameter| call_arguments(op).get(parameter).copied()),
        // A loop rebinding it yields another tensor.
        None if op_name(op) == "scf.for" => {
            let i = result.result_number();
            if is_rebinding(op, i, returned).unwrap_or(true) {
                None
            } else {
                operand_at(op, 3 + i)
            }
        }
        _ => None,
    }
}

/// Gives a kernel's fresh output the buffer of the tensor a loop carries,
/// where that is what makes the loop update it in place: the loop yields
/// the call's result, the kernel's output is a `pl.tensor.create` made for
/// this call alone, the loop's init is a tensor the function creates (or
/// fills), the carried tensor is used by this call alone, as an
/// input whose buffer the output may share (`shares(kernel)`, from
/// crate::emitc::orchestration::kernels::shareable_outputs). PyPTO's
/// `acc = kernel(acc, x)` accumulations are such loops.
pub fn share_carried_outputs(
    function: OperationRef,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
    shares: &dyn Fn(&str) -> Vec<(usize, usize)>,
) {
    let loops = pto_dialects::ir::collect_named(function, &["scf.for"]);
    for for_op in loops {
        let Some(body) = for_op.region_opt(0).and_then(|r| r.first_block()) else {
            continue;
        };
        let Some(terminator) = body.terminator() else {
            continue;
        };
        for i in 0..for_op.result_count() {
            let (Ok(carried), Some(yielded)) = (body.argument(i + 1), operand_at(terminator, i))
            else {
                continue;
            };
            let carried: Value = carried.into();
            if TensorLike::try_from(carried.r#type()).is_err() {
                continue;
            }
            // The accumulator must be the function's own: a parameter
            // would be overwritten where its caller still holds it.
            let own = operand_at(for_op, 3 + i)
                .map(|init| in_place_root(init, returned))
                .and_then(pto_dialects::ir::defining_op)
                .is_some_and(|op| {
                    matches!(
                        OpKind::of(&op),
                        Some(OpKind::PlTensorCreate | OpKind::PlTensorFull)
                    )
                });
            if !own {
                continue;
            }
            let Ok(result) = OperationResult::try_from(yielded) else {
                continue;
            };
            let call = result.owner();
            if !matches!(OpKind::of(&call), Some(OpKind::PlCall | OpKind::PlSubmit)) {
                continue;
            }
            let kernel = callee(call);
            let Some(output) = returned(&kernel, result.result_number()) else {
                continue;
            };
            let arguments = call_arguments(call);
            let Some(&fresh) = arguments.get(output) else {
                continue;
            };
            let created = pto_dialects::ir::defining_op(fresh)
                .filter(|op| OpKind::of(op) == Some(OpKind::PlTensorCreate));
            let alone = |v: Value| pto_dialects::ir::uses(v).len() == 1;
            let Some(create) = created.filter(|_| alone(fresh) && alone(carried)) else {
                continue;
            };
            let input = arguments
                .iter()
                .position(|a| ValueKey::of(*a) == ValueKey::of(carried));
            let shareable = input.is_some_and(|input| shares(&kernel).contains(&(input, output)));
            if !shareable || fresh.r#type() != carried.r#type() {
                continue;
            }
            let first = if OpKind::of(&call) == Some(OpKind::PlSubmit) {
                pto_dialects::ops::operand_segments(call)
                    .first()
                    .map_or(0, |&(start, _)| start)
            } else {
                0
            };
            pto_dialects::ir::set_operand(call, first + output, carried);
            pto_dialects::ir::erase(create);
        }
    }
}

/// Whether `type` is a task id.
pub fn is_task_id(r#type: Type) -> bool {
    r#type.to_string() == "!pl.task_id"
}

/// The task ids `function`'s loops and branches carry become `held`
/// (each such result and block argument), what the lowering makes of the
/// ids they carry.
pub fn retype_carried_tasks<'c>(function: OperationRef<'c, '_>, held: Type<'c>) {
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        if !op_name(op).starts_with("scf.") {
            return WalkResult::Advance;
        }
        for result in op.results() {
            let result: Value = result.into();
            if is_task_id(result.r#type()) {
                result.set_type(held);
            }
        }
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                for k in 0..b.argument_count() {
                    let argument: Value = b.argument(k).unwrap().into();
                    if is_task_id(argument.r#type()) {
                        argument.set_type(held);
                    }
                }
                block = b.next_in_region();
            }
        }
        WalkResult::Advance
    });
}

/// Gives the tensors `function`'s loops still carry (rebinding carries,
/// [`is_rebinding`]) the C++ type `held(tensor type)`, a variable the
/// upstream loop conversion assigns: the init and each yielded tensor,
/// already lowered, become `copy(tensor)` values of that type, `copy`
/// chosen by whether the tensor is made in the loop. Runs after the
/// tensors are lowered (their lowering reads the carried values' pl
/// types).
pub fn hold_rebinding_carries<'c, 'a>(
    function: OperationRef<'c, 'a>,
    held: &dyn Fn(Type<'c>) -> Type<'c>,
    copy: &dyn Fn(bool) -> &'static str,
) {
    let context = pto_dialects::ir::context(&function);
    for for_op in pto_dialects::ir::collect_named(function, &["scf.for"]) {
        let Some(body) = for_op.region_opt(0).and_then(|r| r.first_block()) else {
            continue;
        };
        let Some(terminator) = body.terminator() else {
            continue;
        };
        for i in 0..for_op.result_count() {
            let result: Value = for_op.result(i).unwrap().into();
            if TensorLike::try_from(result.r#type()).is_err() {
                continue;
            }
            let r#type = held(result.r#type());
            if let Some(init) = operand_at(for_op, 3 + i) {
                let init = copied(context, for_op, init, copy(false), r#type);
                pto_dialects::ir::edit(for_op).set_operand(3 + i, init);
            }
            if let Some(yielded) = operand_at(terminator, i) {
                let made_here =
                    pto_dialects::ir::defining_op(yielded).is_some_and(|op| inside(for_op, op));
                let yielded = copied(context, terminator, yielded, copy(made_here), r#type);
                pto_dialects::ir::edit(terminator).set_operand(i, yielded);
            }
            result.set_type(r#type);
            let carried: Value = body.argument(i + 1).unwrap().into();
            carried.set_type(r#type);
        }
    }
}

/// `copy(value)` of type `r#type`, before `before`.
fn copied<'c, 'a>(
    context: &'c melior::Context,
    before: OperationRef<'c, 'a>,
    value: Value<'c, 'a>,
    copy: &str,
    r#type: Type<'c>,
) -> Value<'c, 'a> {
    let block = before.block().expect("in a block");
    block
        .insert_operation_before(
            before,
            crate::emitc::build::call_opaque(context, copy, &[value], &[], Some(r#type)),
        )
        .result(0)
        .unwrap()
        .into()
}

/// Whether `op` lies in the regions of `owner` (at any depth).
fn inside(owner: OperationRef, op: OperationRef) -> bool {
    let mut parent = op.parent_operation();
    while let Some(p) = parent {
        if p == owner {
            return true;
        }
        parent = p.parent_operation();
    }
    false
}
