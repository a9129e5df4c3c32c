//! `scf-while-index-to-i64`: `index` values an `scf.while` carries become
//! `i64` before the upstream SCF-to-EmitC conversion, which assigns a
//! while's initial values and condition arguments as they were written
//! (still `index`, not the `size_t` their variables are converted to) and
//! so fails on every `index` carry. What it does and why: [`PASS`]
//! `.description` (also docs/passes/scf-while-index-to-i64.md).

use melior::{
    dialect::arith,
    ir::{
        BlockLike, Location, RegionLike, Type, Value, ValueLike,
        operation::{OperationLike, OperationRef},
    },
};
use pto_dialects::ops::Checked;

use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "scf-while-index-to-i64",
    class_name: "ScfWhileIndexToI64",
    summary: "Carry the index values of scf.while as i64",
    description: r#"Upstream `convert-scf-to-emitc` lowers an `scf.while` to variables
assigned in an `emitc.do`; it assigns the loop's initial values and the
condition's arguments as they were written, so an `index` carry (whose
variable is converted to `!emitc.size_t`) fails with "'emitc.assign' op
requires value's type ('index') to match variable's type
('!emitc.size_t')". This pass carries each such value as `i64` instead:
`arith.index_cast`s to `i64` before the loop, before `scf.condition` and
before `scf.yield`, and back to `index` at the start of each region and
after the loop, so every use still sees an `index`. The loop computes the
same values (an `index` on a2a3 is 64 bits). `pto-translate` runs it
before the upstream conversions.

```mlir
%r = scf.while (%i = %c1) : (index) -> index { … }
// becomes
%c1_64 = arith.index_cast %c1 : index to i64
%w = scf.while (%i64 = %c1_64) : (i64) -> i64 {
  %i = arith.index_cast %i64 : i64 to index
  …
}
%r = arith.index_cast %w : i64 to index
```"#,
    example_options: "",
    anchor: None,
    options: &[],
    dependent_dialects: || vec![melior::dialect::DialectHandle::arith()],
    run: Run::Op(run),
};

fn run(root: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let loops = pto_dialects::ir::collect_named(root, &["scf.while"]);
    if loops.is_empty() {
        crate::registry::left_unchanged();
    }
    for op in loops {
        widen(op);
    }
    Ok(())
}

/// Carries the `index` operands and results of the `scf.while` `op` as
/// `i64`.
fn widen<'c, 'a>(op: OperationRef<'c, 'a>) {
    let context = pto_dialects::ir::context(&op);
    let index = Type::index(context);
    let i64 = melior::ir::r#type::IntegerType::new(context, 64).into();
    let location = op.location();
    let (Some(before), Some(after)) = (
        op.region_opt(0).and_then(|r| r.first_block()),
        op.region_opt(1).and_then(|r| r.first_block()),
    ) else {
        return;
    };
    let (Some(condition), Some(yield_op)) = (before.terminator(), after.terminator()) else {
        return;
    };
    let Some(block) = op.block() else {
        return;
    };
    for k in 0..op.operand_count() {
        let Some(init) = op.operand_opt(k) else {
            continue;
        };
        if init.r#type() != index {
            continue;
        }
        let wide = block.insert_operation_before(op, arith::index_cast(init, i64, location));
        pto_dialects::ir::set_operand(op, k, wide.result(0).unwrap().into());
        narrow_argument(before, k, i64, index, location);
        cast_operand(yield_op, k, i64, location);
    }
    for k in 0..op.result_count() {
        let result: Value = op.result(k).unwrap().into();
        if result.r#type() != index {
            continue;
        }
        cast_operand(condition, k + 1, i64, location);
        narrow_argument(after, k, i64, index, location);
        narrow_result(op, result, i64, index, location);
    }
}

/// Makes `result` of `op` an `i64` that a cast right after `op` gives its
/// uses back as an `index`.
pub(super) fn narrow_result<'c, 'a>(
    op: OperationRef<'c, 'a>,
    result: Value<'c, 'a>,
    i64: Type<'c>,
    index: Type<'c>,
    location: Location<'c>,
) {
    let Some(block) = op.block() else {
        return;
    };
    let uses = pto_dialects::ir::uses(result);
    result.set_type(i64);
    let narrow = block.insert_operation_after(op, arith::index_cast(result, index, location));
    if let Some(narrow) = narrow.result_opt(0) {
        for (user, operand) in uses {
            pto_dialects::ir::set_operand(user, operand, narrow.into());
        }
    }
}

/// Makes argument `k` of `block` an `i64` that a cast at the block's start
/// gives its uses back as an `index`.
fn narrow_argument<'c, 'a>(
    block: melior::ir::BlockRef<'c, 'a>,
    k: usize,
    i64: Type<'c>,
    index: Type<'c>,
    location: Location<'c>,
) {
    let Ok(argument) = block.argument(k) else {
        return;
    };
    let argument: Value = argument.into();
    let uses = pto_dialects::ir::uses(argument);
    argument.set_type(i64);
    let cast = arith::index_cast(argument, index, location);
    let narrow = match block.first_operation() {
        Some(first) => block.insert_operation_before(first, cast),
        None => block.append_operation(cast),
    };
    for (user, operand) in uses {
        pto_dialects::ir::set_operand(user, operand, narrow.result(0).unwrap().into());
    }
}

/// Casts operand `k` of `op` to `i64` just before it.
pub(super) fn cast_operand<'c, 'a>(
    op: OperationRef<'c, 'a>,
    k: usize,
    i64: Type<'c>,
    location: Location<'c>,
) {
    let (Some(value), Some(block)) = (op.operand_opt(k), op.block()) else {
        return;
    };
    let wide = block.insert_operation_before(op, arith::index_cast(value, i64, location));
    pto_dialects::ir::set_operand(op, k, wide.result(0).unwrap().into());
}
