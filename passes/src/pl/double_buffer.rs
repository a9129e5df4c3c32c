//! `pl-double-buffer`: unroll the loops that bring tiles on chip so that
//! each copy of the body has its own buffers and one copy's transfers run
//! while the other copy computes. What it does and why: [`PASS`]`.description`
//! (also docs/passes/pl-double-buffer.md).

use melior::{
    dialect::arith::{self, CmpiPredicate},
    ir::{
        BlockLike, OperationRef,
        operation::{OperationLike, WalkOrder},
    },
};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    enums::Pipe,
    op_table::{Family, OpKind},
    ops::{Checked, op_name},
};

use std::collections::BTreeSet;

use super::{
    estimate_cycles::instruction_cycles,
    linear::Linear,
    pipes::{PIPES, issued_pipes, slot},
    plan_memory::BUFFER_SET,
    unroll_loops::trip_count,
};
use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed, Run},
};

/// The most buffers per tile the pass makes.
pub const MAX_FACTOR: i64 = 4;

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-double-buffer",
    class_name: "DoubleBuffer",
    summary: "Unroll tile-transfer loops so each copy of the body gets its own buffers",
    description: r#"A kernel loop that loads a tile, computes with it and stores the result
keeps one buffer per tile: the next iteration's load writes the buffer
this iteration's compute still reads, so the load waits for the compute
and the pipes take turns. This pass unrolls such loops by `factor`
(upstream `loopUnrollByFactor`: a loop of `factor` copies of the body,
then a loop of the iterations left over when the trip count is not known
to be a multiple of `factor`) and marks each copy's ops with
`pl.buffer_set = k` (copy k). `pl-plan-memory` then gives the tiles of
different copies of one loop different memory (when they all fit; else
it plans them as before and drops the marks), so copy 1's loads do not
wait for copy 0's compute, and `pl-insert-sync` orders only what really
conflicts: the classic ping-pong of two buffers per stage.

The same holds for any two pipes an iteration keeps busy: a loop that
computes a tile on V and stores it on MTE3 overwrites the tile the
previous store still reads. A loop is unrolled when it is in an InCore
kernel, nests no other loop, has work on at least two pipes besides S
(by the op table's pipes), has no synchronisation of its own, does not
run fewer than `factor` times (its bounds are constants, or not known),
and is worth it: by the a2a3 cost table (docs/cost-model.md), overlapping
its two busiest pipes must be able to save at least `min-overlap` percent
of the iteration, that is the less busy of the two is at least that share
of their sum (a loop of many vector ops around one small load gains
little and keeps its size). Nothing else changes: the program computes
what it did.

```mlir
// before
scf.for %i = %c0 to %c4 step %c1 {
  %a = pl.tile.load %x[%i, %c0] : !X -> !T
  %b = pl.tile.exp %a : !T
  %r = pl.tile.store %b, %y[%i, %c0] : !T, !Y
}
// after
scf.for %i = %c0 to %c4 step %c2 {
  %a = pl.tile.load %x[%i, %c0] {pl.buffer_set = 0 : i64} : !X -> !T
  %b = pl.tile.exp %a {pl.buffer_set = 0 : i64} : !T
  %r = pl.tile.store %b, %y[%i, %c0] {pl.buffer_set = 0 : i64} : !T, !Y
  %i1 = arith.addi %i, %c1 {pl.buffer_set = 1 : i64} : index
  %a1 = pl.tile.load %x[%i1, %c0] {pl.buffer_set = 1 : i64} : !X -> !T
  ...
}
```

`pto-a2a3-pipeline` runs it right before `pl-plan-memory`."#,
    example_options: "factor=2",
    anchor: Some("func.func"),
    options: &[
        OptionSpec {
            name: "factor",
            kind: OptionKind::Int { min: 2 },
            description: "How many copies of the body, each with its own buffers (at most 4)",
            default: "2",
        },
        OptionSpec {
            name: "min-overlap",
            kind: OptionKind::Int { min: 0 },
            description: "The least share of an iteration (percent, at most 50) the overlap must be able to save",
            default: "10",
        },
    ],
    dependent_dialects: Vec::new,
    run: Run::Op(run),
};

fn run(function: OperationRef, options: &OptionValues) -> Result<(), PassFailed> {
    let factor = options.int("factor");
    let min_overlap = options.int("min-overlap");
    let refusal = if factor > MAX_FACTOR {
        Some(format!(
            "factor={factor} is more than the {MAX_FACTOR} buffers per tile the pass makes"
        ))
    } else if min_overlap > 50 {
        Some(format!(
            "min-overlap={min_overlap}: an overlap saves at most half an iteration (50)"
        ))
    } else {
        None
    };
    if let Some(refusal) = refusal {
        OpDiagnostic::new(format!("pl-double-buffer: {refusal}")).emit(function, Severity::Error);
        return Err(PassFailed);
    }
    if !super::is_kernel(function) {
        crate::registry::left_unchanged();
        return Ok(());
    }
    let linear = Linear::of(function);
    let loops = pto_dialects::ir::collect(function, WalkOrder::PostOrder, |op| {
        op_name(op) == "scf.for"
    });
    let chosen: Vec<OperationRef> = loops
        .into_iter()
        .filter(|&op| worth_unrolling(op, factor, min_overlap, &linear))
        .collect();
    if chosen.is_empty() {
        crate::registry::left_unchanged();
    }
    for op in chosen {
        if trip_count(op).is_none() {
            clamp_upper_bound(op);
        }
        if !pto_dialects::ir::unroll_loop_by_factor(op, factor as u32, BUFFER_SET) {
            OpDiagnostic::new("pl-double-buffer: the loop could not be unrolled")
                .emit(op, Severity::Error);
            return Err(PassFailed);
        }
    }
    Ok(())
}

/// Whether unrolling `op` lets two of its pipes overlap: an innermost
/// loop, running at least `factor` times if its trip count is known, with
/// no synchronisation written in it, whose two busiest pipes but S each
/// take at least `min_overlap` percent of their sum.
fn worth_unrolling(op: OperationRef, factor: i64, min_overlap: i64, linear: &Linear) -> bool {
    if op.attribute("pl.unroll").is_ok()
        || trip_count(op).is_some_and(|trips| trips < i128::from(factor))
    {
        return false;
    }
    let mut work = [0u64; PIPES.len()];
    let mut uncosted = BTreeSet::new();
    for &inner in &linear.ops[linear.position(op) + 1..=linear.end(op)] {
        if op_name(inner) == "scf.for" {
            return false;
        }
        if OpKind::of(&inner).is_some_and(|kind| kind.family() == Family::Sync) {
            return false;
        }
        for pipe in issued_pipes(inner) {
            work[slot(pipe)] += instruction_cycles(inner, pipe, &mut uncosted);
        }
    }
    // The two busiest pipes but S (which issues the others' instructions
    // and runs scalars in order): copies of the body overlapping save at
    // most the lesser's time an iteration.
    let mut busy: Vec<u64> = PIPES
        .iter()
        .filter(|&&pipe| pipe != Pipe::S)
        .map(|&pipe| work[slot(pipe)])
        .collect();
    busy.sort_unstable_by(|a, b| b.cmp(a));
    let (first, second) = (busy[0], busy[1]);
    second > 0 && u128::from(second) * 100 >= u128::from(first + second) * min_overlap as u128
}

/// Makes the upper bound of `op` (bounds not known here) at least its
/// lower bound: `select(ub < lb, lb, ub)`. The loop runs as often as
/// before (no iteration either way), and the trip count the unrolling
/// computes, `(ub - lb + step - 1) / step` with an unsigned division, is
/// right only for `ub >= lb`.
fn clamp_upper_bound(op: OperationRef) {
    let (Some(lower), Some(upper), Some(block)) =
        (op.operand_opt(0), op.operand_opt(1), op.block())
    else {
        return;
    };
    let context = pto_dialects::ir::context(&op);
    let location = op.location();
    let below = block.insert_operation_before(
        op,
        arith::cmpi(context, CmpiPredicate::Slt, upper, lower, location),
    );
    let Some(below) = below.result_opt(0) else {
        return;
    };
    let clamped =
        block.insert_operation_before(op, arith::select(below.into(), lower, upper, location));
    if let Some(clamped) = clamped.result_opt(0) {
        pto_dialects::ir::set_operand(op, 1, clamped.into());
    }
}
