//! Kernel calls in orchestrations: their arguments, and their results as
//! the arguments the kernel writes in place and returns.

use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        BlockLike, BlockRef, OperationRef, Type, Value, operation::OperationLike,
        operation::OperationResult,
    },
};
use pto_dialects::ir::{OpKey, ValueKey};
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{operand_at, operand_segments, result_at};

use super::kernels::KernelCall;

/// A failure at an op: the op and what went wrong.
pub type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

/// The callee of a `pl.call` or `pl.submit`.
pub fn callee(op: OperationRef) -> String {
    pto_dialects::attrs::text_of(op, "callee").unwrap_or_default()
}

/// Whether `op` is a `pl.call` or a `pl.submit`.
pub fn is_call(op: OperationRef) -> bool {
    matches!(OpKind::of(&op), Some(OpKind::PlCall | OpKind::PlSubmit))
}

/// The arguments of a `pl.call` or `pl.submit` (without a submit's deps and
/// launch operands).
pub fn call_arguments<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let (start, count) = crate::pl::signature::argument_range(op);
    (start..start + count)
        .filter_map(|i| operand_at(op, i))
        .collect()
}

/// Operand segment `index` of `op` (empty when it has none).
pub fn segment<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Vec<Value<'c, 'a>> {
    operand_segments(op)
        .get(index)
        .map(|&(start, count)| {
            (start..start + count)
                .filter_map(|i| operand_at(op, i))
                .collect()
        })
        .unwrap_or_default()
}

/// The argument each result of a call stands for: result i is the
/// argument at the parameter the kernel returns as result i (`None` when
/// it returns something else).
pub fn returned_arguments<T: Copy>(arguments: &[T], returns: &[Option<usize>]) -> Vec<Option<T>> {
    returns
        .iter()
        .map(|r| r.and_then(|j| arguments.get(j).copied()))
        .collect()
}

/// A kernel call's results are the tensors the kernel writes in place and
/// returns: their uses move to the arguments at those parameters. (A
/// `pl.submit`'s task id, its last result, is the caller's: each lowering
/// replaces it before.)
pub fn forward_call_results<'c, 'a>(
    op: OperationRef<'c, 'a>,
    arguments: &[Value],
    returns: &[Option<usize>],
) -> Result<(), Failure<'c, 'a>> {
    let fail = |message: &str| -> Failure { (op, message.to_string()) };
    let returned = returned_arguments(arguments, returns);
    let submit = OpKind::of(&op) == Some(OpKind::PlSubmit);
    let tensor_results = op.result_count() - usize::from(submit);
    for i in 0..tensor_results {
        let target = returned.get(i).copied().flatten().ok_or_else(|| {
            fail(&format!("result #{i} of the call is not a tensor the kernel was given: only results that return a parameter are translated"))
        })?;
        pto_dialects::ir::replace_all_uses(result_at(op, i).unwrap(), target);
    }
    Ok(())
}

/// `op`'s result (an `index`) becomes `size` (a `size_t` computed before
/// it), through a cast the EmitC conversions reconcile.
pub fn replace_with_index<'c>(context: &'c Context, op: OperationRef<'c, '_>, size: Value<'c, '_>) {
    let cast = melior::ir::operation::OperationBuilder::new(
        "builtin.unrealized_conversion_cast",
        op.location(),
    )
    .add_operands(&[size])
    .add_results(&[Type::index(context)])
    .build()
    .expect("a cast builds");
    let index = op
        .block()
        .expect("the op is in a block")
        .insert_operation_before(op, cast)
        .result(0)
        .unwrap();
    pto_dialects::ir::replace_all_uses(result_at(op, 0).unwrap(), index);
}

/// Where a tensor value comes from once call results are their out
/// arguments and loops carry no tensors.
pub fn root<'c: 'a, 'a>(
    value: Value<'c, 'a>,
    kernels: &HashMap<String, KernelCall>,
) -> Value<'c, 'a> {
    let Ok(result) = OperationResult::try_from(value) else {
        return value;
    };
    let owner = result.owner();
    if !is_call(owner) {
        return value;
    }
    let Some(kernel) = kernels.get(&callee(owner)) else {
        return value;
    };
    let arguments = call_arguments(owner);
    let returned = returned_arguments(&arguments, &kernel.returns);
    match returned.get(result.result_number()).copied().flatten() {
        Some(argument) => root(argument, kernels),
        None => value,
    }
}

/// Whether `value` is defined where `op`, in `block`, can use it: an
/// argument of `block` or of a block it is nested in, or a result of an op
/// before `op` (or before the op `op` is nested in) in one of them.
pub fn available_before<'c, 'a>(
    value: Value<'c, 'a>,
    op: OperationRef<'c, 'a>,
    block: BlockRef<'c, 'a>,
) -> bool {
    let key = ValueKey::of(value);
    let (mut current, mut anchor) = (Some(block), op);
    while let Some(b) = current {
        let argument = (0..b.argument_count())
            .any(|i| ValueKey::of(Value::from(b.argument(i).unwrap())) == key);
        if argument {
            return true;
        }
        let mut at = b.first_operation();
        while let Some(op) = at {
            if OpKey::of(&op) == OpKey::of(&anchor) {
                break;
            }
            if (0..op.result_count())
                .any(|i| ValueKey::of(Value::from(op.result(i).unwrap())) == key)
            {
                return true;
            }
            at = op.next_in_block();
        }
        let Some(parent) = b.parent_operation() else {
            return false;
        };
        anchor = parent;
        current = parent.block();
    }
    false
}
