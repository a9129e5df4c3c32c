//! Arrays are values: `pl.array.update_element` makes a new array and
//! leaves its operand as it was. The lowerings hold an array in one C
//! array that updates write in place (`v[i] = x;`) and loops carry by
//! name. Before they run, [`give_arrays_storage`] makes that sound for any
//! program the verifier accepts, with copies (a zeroed array and a loop of
//! element reads and updates, extent steps) where one storage would not do:
//!
//! - an update (or a loop that carries an array) whose array is read
//!   again later, is defined outside the block the update runs in (a loop
//!   body would update it again next iteration; a branch would change it
//!   for the code after), or is carried twice by one loop, works on a copy;
//! - a loop whose body yields, in place of a carried array, an array of
//!   other storage copies it into the carried one before the yield;
//! - an `scf.if` yielding an array yields it in a fresh array each branch
//!   copies into.
//!
//! Afterwards each array value names the storage it lives in, and the IR
//! is no longer value-semantic (it is the lowerings' input only). See
//! docs/passes/convert-pl-to-emitc.md.

use melior::ir::{
    Block, BlockLike, Location, OperationRef, RegionLike, Type, Value, ValueLike,
    operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
};
use pto_dialects::{
    ir::{argument_owner, block_argument, defining_block, uses},
    ops::Checked,
    ops::{OpKind, op_name, operand_at},
    types::ArrayType,
};

use super::Failure;
use crate::pl::scf_build::{for_op, yield_op};

fn is_array(value: Value) -> bool {
    ArrayType::try_from(value.r#type()).is_ok()
}

/// The operands of `op` that it updates in place once lowered: an update's
/// array, the arrays a loop carries. Operand numbers.
fn destructive_operands(op: OperationRef) -> Vec<usize> {
    if OpKind::of(&op) == Some(OpKind::PlArrayUpdateElement) {
        return vec![0];
    }
    if op_name(op) == "scf.for" {
        return (3..op.operand_count())
            .filter(|&i| operand_at(op, i).is_some_and(is_array))
            .collect();
    }
    Vec::new()
}

/// The op standing for `user` in `block`: itself or the op nesting it.
fn ancestor_in<'c, 'a>(
    user: OperationRef<'c, 'a>,
    block: melior::ir::BlockRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    let mut op = user;
    loop {
        if op.block() == Some(block) {
            return Some(op);
        }
        op = op.parent_operation()?;
    }
}

/// Whether operand `index` of `op` may be updated in place: its array is
/// defined in `op`'s block, `op` does not take it at an earlier
/// destructive operand, and everything else that uses it runs before `op`.
fn in_place(op: OperationRef, index: usize, destructive: &[usize]) -> bool {
    let Some(array) = operand_at(op, index) else {
        return false;
    };
    let Some(block) = op.block() else {
        return false;
    };
    if defining_block(array) != Some(block) {
        return false;
    }
    uses(array).into_iter().all(|(user, number)| {
        if user == op {
            // A later destructive operand of `op` gets a copy.
            return !(destructive.contains(&number) && number < index);
        }
        ancestor_in(user, block).is_some_and(|a| a != op && a.is_before_in_block(op))
    })
}

/// Builds, before `at`, a loop over the elements of `source` that writes
/// each into `into` (an array of `source`'s type), and returns the loop's
/// result: `into` with `source`'s elements.
fn copy_into<'c, 'a>(
    at: OperationRef<'c, 'a>,
    source: Value<'c, 'a>,
    into: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
    let context = pto_dialects::ir::context(&at);
    let location = at.location();
    let block = at.block().expect("ops sit in blocks");
    let failure = |e: String| (at, e);
    let array = ArrayType::try_from(source.r#type()).map_err(|e| (at, e.to_string()))?;
    let index = Type::index(context);
    let constant = |value: i64| -> Value<'c, 'a> {
        let op = block.insert_operation_before(
            at,
            melior::dialect::arith::constant(
                context,
                melior::ir::attribute::IntegerAttribute::new(index, value).into(),
                location,
            ),
        );
        op.result(0).unwrap().into()
    };
    let bounds = [constant(0), constant(array.extent()), constant(1)];
    let body = Block::new(&[(index, location), (source.r#type(), location)]);
    let at_element: Value = body.argument(0).unwrap().into();
    let carried: Value = body.argument(1).unwrap().into();
    let element = body
        .append_operation(element_op(
            location,
            "pl.array.get_element",
            &[source, at_element],
            &[array.element()],
        )?)
        .result(0)
        .unwrap()
        .into();
    let updated = body
        .append_operation(element_op(
            location,
            "pl.array.update_element",
            &[carried, at_element, element],
            &[source.r#type()],
        )?)
        .result(0)
        .unwrap()
        .into();
    body.append_operation(yield_op(location, updated).map_err(failure)?);
    let copy =
        block.insert_operation_before(at, for_op(location, bounds, into, body).map_err(failure)?);
    Ok(copy.result(0).unwrap().into())
}

/// `pl.array.get_element` / `update_element` with `operands` and `results`.
fn element_op<'c, 'a>(
    location: Location<'c>,
    name: &str,
    operands: &[Value<'c, 'a>],
    results: &[Type<'c>],
) -> Result<melior::ir::Operation<'c>, Failure<'c, 'a>> {
    Ok(OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_results(results)
        .build()
        .expect("array element ops build"))
}

/// A fresh array of `r#type`, before `at`.
fn fresh<'c, 'a>(at: OperationRef<'c, 'a>, r#type: Type<'c>) -> Value<'c, 'a> {
    let block = at.block().expect("ops sit in blocks");
    let create = OperationBuilder::new("pl.array.create", at.location())
        .add_results(&[r#type])
        .build()
        .expect("pl.array.create builds");
    block
        .insert_operation_before(at, create)
        .result(0)
        .unwrap()
        .into()
}

/// A copy of `source` in a fresh array, before `at`.
fn copy_of<'c, 'a>(
    at: OperationRef<'c, 'a>,
    source: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
    let into = fresh(at, source.r#type());
    copy_into(at, source, into)
}

/// The array `value` lives in once updates write in place: an update's
/// operand's, a loop's carried array's (its init's), else its own.
fn storage<'c: 'a, 'a>(value: Value<'c, 'a>) -> Value<'c, 'a> {
    if let Some(argument) = block_argument(value) {
        let number = argument.argument_number();
        let owner = argument_owner(value).expect("an argument has a block");
        if let Some(parent) = owner.parent_operation()
            && op_name(parent) == "scf.for"
            && number > 0
            && let Some(init) = operand_at(parent, 2 + number)
        {
            return storage(init);
        }
        return value;
    }
    let Some(op) = pto_dialects::ir::defining_op(value) else {
        return value;
    };
    if OpKind::of(&op) == Some(OpKind::PlArrayUpdateElement) {
        return storage(operand_at(op, 0).expect("an update has an array"));
    }
    if op_name(op) == "scf.for" {
        let number = (0..op.result_count())
            .find(|&i| op.result(i).is_ok_and(|r| Value::from(r) == value))
            .expect("a result of its op");
        return storage(operand_at(op, 3 + number).expect("a carried init"));
    }
    value
}

/// The ops of `function` (pre-order) that `pick` selects.
fn ops_where<'c, 'a>(
    function: OperationRef<'c, 'a>,
    pick: impl Fn(OperationRef<'c, 'a>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        if pick(op) {
            found.push(op);
        }
        WalkResult::Advance
    });
    found
}

/// Gives each array of `function` one storage its updates may write in
/// place (see the module's comment). Refuses an `scf.while` that carries
/// an array.
pub(crate) fn give_arrays_storage<'c, 'a>(
    function: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let has_array_results = |op: OperationRef| op.results().any(|r| is_array(r.into()));
    if let Some(op) = ops_where(function, |op| {
        op_name(op) == "scf.while" && (has_array_results(op) || op.operands().any(is_array))
    })
    .first()
    {
        return Err((
            *op,
            "an array a while loop carries is not translated yet".to_string(),
        ));
    }
    // Copies where one storage would not do, decided on the program as
    // written (each copy sits right before its op, so it runs after
    // everything an in-place update was judged to follow).
    let mut copies = Vec::new();
    for op in ops_where(function, |op| !destructive_operands(op).is_empty()) {
        let destructive = destructive_operands(op);
        for &index in &destructive {
            if !in_place(op, index, &destructive) {
                copies.push((op, index));
            }
        }
    }
    for (op, index) in copies {
        let copy = copy_of(op, operand_at(op, index).expect("a destructive operand"))?;
        pto_dialects::ir::set_operand(op, index, copy);
    }
    // A branch's array result: a fresh array each branch copies into.
    for branch in ops_where(function, |op| {
        op_name(op) == "scf.if" && has_array_results(op)
    }) {
        for number in 0..branch.result_count() {
            let result: Value = branch.result(number).unwrap().into();
            if !is_array(result) {
                continue;
            }
            let joined = fresh(branch, result.r#type());
            for region in branch.regions() {
                let Some(terminator) = region.first_block().and_then(|b| b.terminator()) else {
                    continue;
                };
                let yielded = operand_at(terminator, number).expect("a yielded array");
                let copied = copy_into(terminator, yielded, joined)?;
                pto_dialects::ir::set_operand(terminator, number, copied);
            }
            pto_dialects::ir::replace_all_uses(result, joined);
        }
        let kept: Vec<usize> = (0..branch.result_count())
            .filter(|&i| !is_array(branch.result(i).unwrap().into()))
            .collect();
        let condition = operand_at(branch, 0).expect("a branch condition");
        super::keep_results(branch, "scf.if", &[condition], &kept)?;
    }
    // A loop that yields an array of other storage than it carries.
    for for_loop in ops_where(function, |op| op_name(op) == "scf.for") {
        let Some(body) = for_loop.region_opt(0).and_then(|r| r.first_block()) else {
            continue;
        };
        let Some(terminator) = body.terminator() else {
            continue;
        };
        let moved: Vec<usize> = (0..terminator.operand_count())
            .filter(|&i| {
                let yielded = operand_at(terminator, i).unwrap();
                let carried: Value = body.argument(i + 1).unwrap().into();
                is_array(yielded) && storage(yielded) != storage(carried)
            })
            .collect();
        // With more than one, a yielded array may live in another carried
        // one: each is copied out before any is written.
        let sources: Vec<Value> = if moved.len() > 1 {
            moved
                .iter()
                .map(|&i| copy_of(terminator, operand_at(terminator, i).unwrap()))
                .collect::<Result<_, _>>()?
        } else {
            moved
                .iter()
                .map(|&i| operand_at(terminator, i).unwrap())
                .collect()
        };
        for (&i, source) in moved.iter().zip(sources) {
            let carried = body.argument(i + 1).unwrap().into();
            let copied = copy_into(terminator, source, carried)?;
            pto_dialects::ir::set_operand(terminator, i, copied);
        }
    }
    Ok(())
}
