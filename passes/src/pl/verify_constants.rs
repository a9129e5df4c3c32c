//! `pl-verify-constants`: the op rules that constant operands decide. What
//! it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-verify-constants.md).

use melior::ir::operation::{OperationLike, OperationRef, WalkOrder, WalkResult};
use pto_dialects::{diag::Severity, op_table::OpKind, verify::verify_constant_operands};

use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-verify-constants",
    class_name: "VerifyConstants",
    summary: "Check the op rules that constant operands decide",
    description: r#"The verifiers of `pl` and `pld` check what types and attributes
guarantee. Some rules depend on the values of operands — a tile load's
offsets, a slice's window, `pl.tile.set_validshape`'s extents, a window
buffer's size, a wait's expected value — and can only be checked when
those operands are constants. Such a rule must not decide whether IR is
valid: folding (`canonicalize`, `sccp`, inlining) turns operands into
constants, and a load in a branch that never runs may then show an offset
past its tensor. This pass runs those rules with the constants visible and
reports each violation as an error at the op:

- windows of loads, stores, slices, assembles, remote loads and stores and
  put/get regions that provably leave their tensor or tile (a negative
  offset, or offset + extent past the bound);
- `pl.tile.set_validshape` extents that exceed the tile or disagree with
  a static valid extent of its result type;
- non-positive window buffer sizes, negative expected values of waits.

`pto-a2a3-pipeline` runs it first, on the program as written.

```mlir
%c16 = arith.constant 16 : index
// error: window leaves the source in dimension 0
%t = pl.tile.load %x[%c16, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
```"#,
    example_options: "",
    anchor: None,
    options: &[],
    dependent_dialects: Vec::new,
    run: Run::Op(run),
};

fn run(root: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    // A check: it changes nothing.
    crate::registry::left_unchanged();
    let mut failed = false;
    root.walk(WalkOrder::PreOrder, |op| {
        if OpKind::of(&op).is_some()
            && let Err(diagnostic) = verify_constant_operands(op)
        {
            diagnostic.emit(op, Severity::Error);
            failed = true;
        }
        WalkResult::Advance
    });
    if failed { Err(PassFailed) } else { Ok(()) }
}
