//! `arith-signed-index-to-i64`: signed division, remainder and right shift
//! of `index` values are computed on `i64` before the upstream Arith-to-
//! EmitC conversion, which turns `index` into the unsigned `size_t` and so
//! divides negative values as huge unsigned ones. What it does and why:
//! [`PASS`]`.description` (also docs/passes/arith-signed-index-to-i64.md).

use melior::ir::{
    Type, ValueLike,
    operation::{OperationLike, OperationRef, WalkOrder},
};
use pto_dialects::ops::{Checked, op_name};

use super::while_index::{cast_operand, narrow_result};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The ops whose result depends on their operands' sign.
const SIGNED: &[&str] = &[
    "arith.divsi",
    "arith.remsi",
    "arith.shrsi",
    "arith.ceildivsi",
    "arith.floordivsi",
];

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "arith-signed-index-to-i64",
    class_name: "ArithSignedIndexToI64",
    summary: "Compute signed division, remainder and shifts of index values on i64",
    description: r#"Upstream `convert-arith-to-emitc` turns `index` into `size_t`, an
unsigned type, and lowers `arith.divsi`, `arith.remsi` and `arith.shrsi`
of `index` operands to C's `/`, `%` and `>>` on it: -9 divided by 4
becomes a huge number instead of -2. This pass computes each such op
(and `arith.ceildivsi`, `arith.floordivsi`) of `index` on `i64`: its
operands go through `arith.index_cast` to `i64`, its result is an `i64`
cast back to `index` for its users, so the C++ divides `int64_t` values.
The program computes what it says (an `index` on a2a3 is 64 bits).
`pto-translate` runs it before the upstream conversions.

```mlir
%q = arith.divsi %n, %c4 : index
// becomes
%n64 = arith.index_cast %n : index to i64
%c4_64 = arith.index_cast %c4 : index to i64
%q64 = arith.divsi %n64, %c4_64 : i64
%q = arith.index_cast %q64 : i64 to index
```"#,
    example_options: "",
    anchor: None,
    options: &[],
    dependent_dialects: || vec![melior::dialect::DialectHandle::arith()],
    run: Run::Op(run),
};

fn run(root: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let context = pto_dialects::ir::context(&root);
    let index = Type::index(context);
    let ops = pto_dialects::ir::collect(root, WalkOrder::PreOrder, |op| {
        SIGNED.contains(&op_name(op)) && op.result_opt(0).is_some_and(|r| r.r#type() == index)
    });
    if ops.is_empty() {
        crate::registry::left_unchanged();
    }
    for op in ops {
        widen(op);
    }
    Ok(())
}

/// Computes the `index` op `op` on `i64`.
fn widen(op: OperationRef) {
    let context = pto_dialects::ir::context(&op);
    let (index, i64) = (
        Type::index(context),
        melior::ir::r#type::IntegerType::new(context, 64).into(),
    );
    let Some(result) = op.result_opt(0) else {
        return;
    };
    let location = op.location();
    for k in 0..op.operand_count() {
        cast_operand(op, k, i64, location);
    }
    narrow_result(op, result.into(), i64, index, location);
}
