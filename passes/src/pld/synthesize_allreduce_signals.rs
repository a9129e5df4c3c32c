//! `pld-synthesize-allreduce-signals`: give every host
//! allreduce without a signal one of its own. What it does and why:
//! [`PASS`]`.description` (also docs/passes/pld-synthesize-allreduce-signals.md).

use pto_dialects::op_table::OpKind;
use std::collections::BTreeSet;

use melior::{
    IrRewriter,
    dialect::{DialectHandle, arith},
    ir::{
        Attribute, Identifier, Type, Value, ValueLike,
        attribute::{IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike, OperationRef, WalkOrder, WalkResult},
        r#type::IntegerType,
    },
};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    types::DistributedTensorType,
};

use super::ir::{is_host, op_name};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pld-synthesize-allreduce-signals",
    class_name: "SynthesizeAllReduceSignals",
    summary: "Allocate a signal for every host allreduce that has none",
    description: r#"A host orchestrator may call `pld.tensor.allreduce` without a signal; the
host builtin needs one. For each such call this pass allocates a window
buffer of `world_size * cores` i32 cells, views it as a
`[world_size, cores]` signal and passes it to the allreduce. Buffer names
are `__allreduce_signal_buf_<n>`, unique in the program. Functions other
than host orchestrators are left alone, and so are allreduces that already
have a signal.

Before:

```mlir
func.func @main(%x: !pld.dtensor<4x256xf32>) attributes {pl.level = #pl.level<host>} {
  %r = pld.tensor.allreduce %x sum mesh cores 2 : !pld.dtensor<4x256xf32>
  return
}
```

After:

```mlir
%world = pld.system.world_size : i64
%cells = arith.constant 8 : i64          // cores * 4 bytes
%bytes = arith.muli %world, %cells : i64
%buf = pld.tensor.alloc_window_buffer %bytes name "__allreduce_signal_buf_0" : i64 -> !pl.ptr
%sig = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<?x2xi32>
%r = pld.tensor.allreduce %x, %sig sum mesh cores 2 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x2xi32>
```

Precondition: a signal-less allreduce is not inside an `scf` loop (one
window per iteration would leak); pass an explicit signal or hoist it.
Ring allreduces always carry a signal (the verifier requires it)."#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || {
        vec![
            DialectHandle::arith(),
            pto_dialects::pld_handle(),
            pto_dialects::pl_handle(),
        ]
    },
    run: Run::Op(run),
};

fn in_loop(op: OperationRef) -> bool {
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if matches!(op_name(parent), "scf.for" | "scf.while" | "scf.parallel") {
            return true;
        }
        if op_name(parent) == "func.func" {
            return false;
        }
        current = parent.parent_operation();
    }
    false
}

/// Builds an op from a generic builder (the pld ops it makes always build).
fn build<'c>(builder: OperationBuilder<'c>) -> melior::ir::Operation<'c> {
    builder.build().expect("pld ops build")
}

fn run(root: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    if synthesize_signals(root)? == 0 {
        crate::registry::left_unchanged();
    }
    Ok(())
}

/// Adds a signal to every signal-less allreduce in the host orchestrators
/// under `root`; returns how many it added.
pub fn synthesize_signals(root: OperationRef) -> Result<usize, PassFailed> {
    // Every window buffer name in use, so that new names stay unique.
    let mut names = BTreeSet::new();
    // Each allreduce to give a signal, with its core count.
    let mut targets: Vec<(OperationRef, i64)> = Vec::new();
    let mut failed = false;
    pto_dialects::ir::walk(root, WalkOrder::PreOrder, |op| {
        let name = op_name(op);
        let kind = OpKind::of(&op);
        if kind == Some(OpKind::PldTensorAllocWindowBuffer)
            && let Some(text) = pto_dialects::attrs::text_of(op, "name")
        {
            names.insert(text);
        }
        if name == "func.func" && !is_host(op) {
            return WalkResult::Skip;
        }
        if kind == Some(OpKind::PldTensorAllreduce) && op.operand_count() == 1 {
            if in_loop(op) {
                OpDiagnostic::new(
                    "without an explicit signal is not supported inside a loop on the host path; \
                     pass an explicit signal or hoist the allreduce",
                )
                .emit(op, Severity::Error);
                failed = true;
            } else {
                let cores = op
                    .attribute("cores")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map_or(1, |a| a.value());
                // The signal holds one i32 cell per core and rank.
                if cores.checked_mul(4).is_none() {
                    OpDiagnostic::new(format!(
                        "cores {cores} is too many for a synthesized signal ({cores} x 4 bytes per rank overflows)"
                    ))
                    .emit(op, Severity::Error);
                    failed = true;
                } else {
                    targets.push((op, cores));
                }
            }
        }
        WalkResult::Advance
    });
    if failed {
        return Err(PassFailed);
    }
    let context = pto_dialects::ir::context(&root);
    let ir_rewriter = IrRewriter::new(context);
    let rewriter = ir_rewriter.as_rewriter_base();
    let i64_type: Type = IntegerType::new(context, 64).into();
    let i32_type: Type = IntegerType::new(context, 32).into();
    let mut next = 0;
    for &(raw, cores) in &targets {
        let op = raw;
        let location = op.location();
        while names.contains(&format!("__allreduce_signal_buf_{next}")) {
            next += 1;
        }
        let buffer_name = format!("__allreduce_signal_buf_{next}");
        names.insert(buffer_name.clone());

        rewriter.set_insertion_point_before(op);
        let world = rewriter.insert(build(
            OperationBuilder::new(OpKind::PldSystemWorldSize.name(), location)
                .add_results(&[i64_type]),
        ));
        let cell_bytes = rewriter.insert(arith::constant(
            context,
            IntegerAttribute::new(i64_type, cores * 4).into(),
            location,
        ));
        let bytes = rewriter.insert(arith::muli(
            world.result(0).unwrap().into(),
            cell_bytes.result(0).unwrap().into(),
            location,
        ));
        let ptr_type = Type::parse(context, "!pl.ptr").expect("the pl dialect is loaded");
        let buffer = rewriter.insert(build(
            OperationBuilder::new(OpKind::PldTensorAllocWindowBuffer.name(), location)
                .add_operands(&[bytes.result(0).unwrap().into()])
                .add_attributes(&[(
                    Identifier::new(context, "name"),
                    StringAttribute::new(context, &buffer_name).into(),
                )])
                .add_results(&[ptr_type]),
        ));
        let signal_type: Type =
            DistributedTensorType::new(context, &[None, Some(cores)], i32_type).into();
        let signal = rewriter.insert(build(
            OperationBuilder::new(OpKind::PldTensorWindow.name(), location)
                .add_operands(&[buffer.result(0).unwrap().into()])
                .add_results(&[signal_type]),
        ));
        let target: Value = op.operand(0).expect("allreduce has a target");
        let attributes: Vec<(Identifier, Attribute)> = ["op", "mode", "cores"]
            .iter()
            .filter_map(|name| {
                op.attribute(name)
                    .ok()
                    .map(|a| (Identifier::new(context, name), a))
            })
            .collect();
        let result_type = op.result(0).expect("allreduce has a result").r#type();
        let replacement = rewriter.insert(build(
            OperationBuilder::new(OpKind::PldTensorAllreduce.name(), location)
                .add_operands(&[target, signal.result(0).unwrap().into()])
                .add_attributes(&attributes)
                .add_results(&[result_type]),
        ));
        rewriter.replace_op_with_values(op, &[replacement.result(0).unwrap().into()]);
    }
    Ok(targets.len())
}
