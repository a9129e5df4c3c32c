//! `pld-specialize-nranks`: fix the rank count of a program at compile
//! time. What it does and why: [`PASS`]`.description` (also
//! docs/passes/pld-specialize-nranks.md).

use melior::{
    IrRewriter,
    dialect::{DialectHandle, arith},
    ir::{
        Value,
        attribute::IntegerAttribute,
        operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
        r#type::IntegerType,
    },
};
use pto_dialects::op_table::OpKind;

use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pld-specialize-nranks",
    class_name: "SpecializeNRanks",
    summary: "Replace pld.system.nranks with a fixed rank count",
    description: r#"Programs read the rank count of a comm domain at run time
(`pld.system.nranks`), so one binary serves any number of ranks P. When P is
known at compile time, this pass replaces every `pld.system.nranks` with the
constant P, so that canonicalisation can fold loop bounds and peer arithmetic
and tile shapes that depend on P become static. Every comm domain of the
program is assumed to have P ranks.

Before:

```mlir
%ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?x1xi32>
%n = pld.system.nranks %ctx : i32
%peers = arith.index_cast %n : i32 to index
scf.for %peer = %c0 to %peers step %c1 { ... }
```

After `pld-specialize-nranks{nranks=4}` and `canonicalize`:

```mlir
%c4 = arith.constant 4 : index
scf.for %peer = %c0 to %c4 step %c1 { ... }
```

The pass runs on any op (schedule it on `func.func` to specialise functions
in parallel). `nranks` is required: the default 0 is rejected when the
pass manager starts, before anything runs."#,
    example_options: "nranks=4",
    anchor: None,
    options: &[OptionSpec {
        name: "nranks",
        kind: OptionKind::Int { min: 1 },
        description: "The rank count P of every comm domain (required, >= 1)",
        default: "0",
    }],
    dependent_dialects: || vec![DialectHandle::arith()],
    run: Run::Op(run),
};

fn run(root: OperationRef, options: &OptionValues) -> Result<(), PassFailed> {
    specialize_nranks(root, options.int("nranks"));
    Ok(())
}

/// Replaces every `pld.system.nranks` under `root` with the constant
/// `nranks`; returns how many were replaced.
pub fn specialize_nranks(root: OperationRef, nranks: i64) -> usize {
    let mut targets: Vec<OperationRef> = Vec::new();
    pto_dialects::ir::walk(root, WalkOrder::PostOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok(OpKind::PldSystemNranks.name()) {
            targets.push(op);
        }
        WalkResult::Advance
    });
    let context = pto_dialects::ir::context(&root);
    let ir_rewriter = IrRewriter::new(context);
    let rewriter = ir_rewriter.as_rewriter_base();
    let i32_type = IntegerType::new(context, 32);
    for raw in &targets {
        let op = *raw;
        rewriter.set_insertion_point_before(op);
        let constant = rewriter.insert(arith::constant(
            context,
            IntegerAttribute::new(i32_type.into(), nranks).into(),
            op.location(),
        ));
        let value: Value = constant
            .result(0)
            .expect("arith.constant has a result")
            .into();
        rewriter.replace_op_with_values(op, &[value]);
    }
    targets.len()
}
