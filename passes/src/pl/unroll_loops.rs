//! `pl-unroll-loops`: expand every `scf.for` marked `pl.unroll` into one
//! copy of its body per iteration. What it does and why: [`PASS`]`.description`
//! (also docs/passes/pl-unroll-loops.md).

use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef, WalkOrder},
};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    ops::{Checked, op_name},
};

use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The most iterations one loop is unrolled into.
pub const MAX_UNROLLED_ITERATIONS: i128 = 4096;

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-unroll-loops",
    class_name: "UnrollLoops",
    summary: "Expand every scf.for marked pl.unroll into copies of its body",
    description: r#"A loop written `pl.unroll` in PyPTO (`ForKind.Unroll`) is an `scf.for`
with the unit attribute `pl.unroll`. As PyPTO's UnrollLoops, this pass
replaces each such loop by one copy of its body per iteration, the
induction variable replaced by that iteration's constant and the
iteration arguments threaded from copy to copy (upstream
`loopUnrollFull`); a loop of no iteration is replaced by its initial
values. Inner marked loops are unrolled before the loops around them.

The bounds and the step must be constants (`arith.constant`, after
folding), and a loop is unrolled into at most 4096 copies: anything else
is an error at the loop.

```mlir
// before
scf.for %i = %c0 to %c2 step %c1 {
  %t = pl.tile.load %x[%i, %c0] : !X -> !T
  ...
} {pl.unroll}
// after
%t0 = pl.tile.load %x[%c0, %c0] : !X -> !T
...
%t1 = pl.tile.load %x[%c1, %c0] : !X -> !T
...
```

`pto-a2a3-pipeline` runs it right after `pl-inline-functions`, as PyPTO
does."#,
    example_options: "",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: Vec::new,
    run: Run::Op(run),
};

fn run(function: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    // Post-order: inner loops first, so outer copies carry unrolled bodies.
    let loops = pto_dialects::ir::collect(function, WalkOrder::PostOrder, |op| {
        op_name(op) == "scf.for" && op.attribute("pl.unroll").is_ok()
    });
    if loops.is_empty() {
        crate::registry::left_unchanged();
    }
    let mut failed = false;
    for op in loops {
        let message = match trip_count(op) {
            None => Some("a loop marked pl.unroll needs constant bounds and step (fold them, or drop pl.unroll)".to_string()),
            Some(count) if count > MAX_UNROLLED_ITERATIONS => Some(format!(
                "a loop marked pl.unroll runs {count} iterations; at most {MAX_UNROLLED_ITERATIONS} are unrolled"
            )),
            Some(0) => {
                replace_by_initial_values(op);
                None
            }
            Some(_) if !pto_dialects::ir::unroll_loop_full(op) => Some("the loop could not be unrolled".to_string()),
            Some(_) => None,
        };
        if let Some(message) = message {
            OpDiagnostic::new(format!("pl-unroll-loops: {message}")).emit(op, Severity::Error);
            failed = true;
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// Replaces a loop of no iteration by its initial values (the operands
/// after the bounds and the step) and erases it.
fn replace_by_initial_values(op: OperationRef) {
    for index in 0..op.result_count() {
        if let (Some(result), Some(init)) = (op.result_opt(index), op.operand_opt(index + 3)) {
            pto_dialects::ir::replace_all_uses(result, init);
        }
    }
    pto_dialects::ir::erase(op);
}

/// The iterations of an `scf.for` with constant bounds and a positive
/// constant step.
pub fn trip_count(op: OperationRef) -> Option<i128> {
    let constant = |index: usize| -> Option<i128> {
        let value = op.operand_opt(index)?;
        let defining = pto_dialects::ir::defining_op(value)?;
        if op_name(defining) != "arith.constant" {
            return None;
        }
        let attribute = IntegerAttribute::try_from(defining.attribute("value").ok()?).ok()?;
        Some(i128::from(attribute.value()))
    };
    let (lower, upper, step) = (constant(0)?, constant(1)?, constant(2)?);
    (step > 0).then(|| {
        if upper > lower {
            (upper - lower + step - 1) / step
        } else {
            0
        }
    })
}
