//! The invariant behind the self-clearing signal protocol (docs/pld-guide.md,
//! "Signals"),
//! checked on every collective `pld-lower-composite-ops` expands: a call with
//! B barriers sends B `+1` credit rounds, waits for generations exactly
//! 1..=B, and refunds B, so every signal cell is zero again after the call;
//! and no composite is left behind.

use melior::{
    ir::{
        BlockLike, Module, OperationRef,
        attribute::IntegerAttribute,
        operation::{OperationLike, OperationResult, WalkOrder, WalkResult},
    },
    pass::PassManager,
};

const SIG: &str = "!pld.dtensor<?x1xi32>";

/// What the lowered body of one function does with credits.
#[derive(Debug, Default, PartialEq)]
struct CreditLedger {
    /// `atomic_add` notify values, in program order (`None`: computed at
    /// run time).
    credits: Vec<Option<i64>>,
    /// `ge` wait generations, in program order (`None`: computed at run
    /// time, as for mesh allreduce chunks).
    generations: Vec<Option<i64>>,
    /// Collectives still present.
    composites: usize,
}

fn constant(value: melior::ir::Value) -> Option<i64> {
    let result = OperationResult::try_from(value).ok()?;
    let owner = result.owner();
    if owner.name().as_string_ref().as_str().ok()? != "arith.constant" {
        return None;
    }
    Some(
        IntegerAttribute::try_from(owner.attribute("value").ok()?)
            .ok()?
            .value(),
    )
}

fn ledger(function: OperationRef) -> CreditLedger {
    let mut ledger = CreditLedger::default();
    function.walk(WalkOrder::PreOrder, |op| {
        let name = op
            .name()
            .as_string_ref()
            .as_str()
            .unwrap_or_default()
            .to_string();
        let kind = op
            .attribute("op")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value());
        let last = op.operand_count().saturating_sub(1);
        match name.as_str() {
            "pld.system.notify" if kind == Some(0) => {
                ledger.credits.push(constant(op.operand(last).unwrap()))
            }
            "pld.system.wait" => ledger.generations.push(constant(op.operand(last).unwrap())),
            n if n.starts_with("pld.tensor.") => ledger.composites += 1,
            _ => {}
        }
        WalkResult::Advance
    });
    ledger
}

fn lowered_ledger(body: &str, arguments: &str) -> CreditLedger {
    let context = pto_dialects::create_context();
    let source = format!(
        "func.func @f({arguments}) attributes {{pl.kind = #pl.kind<aiv>}} {{\n{body}\n  return\n}}"
    );
    let mut module = Module::parse(&context, &source).expect("program parses");
    let manager = PassManager::new(&context);
    manager.add_pass(pto_passes::create_pass("pld-lower-composite-ops", "").unwrap());
    manager.run(&mut module).expect("pass runs");
    assert!(module.as_operation().verify(), "lowered IR verifies");
    let function = module.body().first_operation().expect("one function");
    ledger(function)
}

/// B barriers: +1 B times, generations 1..=B, one refund of -B.
fn balanced(barriers: i64) -> CreditLedger {
    let mut credits = vec![Some(1); barriers as usize];
    credits.push(Some(-barriers));
    CreditLedger {
        credits,
        generations: (1..=barriers).map(Some).collect(),
        composites: 0,
    }
}

#[test]
fn barrier_balances_one_round() {
    let ledger = lowered_ledger(
        &format!("  %r = pld.tensor.barrier %s : {SIG}"),
        &format!("%s: {SIG}"),
    );
    assert_eq!(ledger, balanced(1));
}

#[test]
fn broadcast_allgather_all_to_all_balance_one_round() {
    let cases = [
        (
            format!("  %r = pld.tensor.broadcast %d, %s root 1 : !pld.dtensor<4x64xf32>, {SIG}"),
            format!("%d: !pld.dtensor<4x64xf32>, %s: {SIG}"),
        ),
        (
            format!(
                "  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x64xf32>, !pld.dtensor<?x64xf32>, {SIG}"
            ),
            format!("%i: !pl.tensor<1x64xf32>, %d: !pld.dtensor<?x64xf32>, %s: {SIG}"),
        ),
        (
            format!(
                "  %r = pld.tensor.all_to_all %i, %d, %s : !pl.tensor<4x64xf32>, !pld.dtensor<4x64xf32>, {SIG}"
            ),
            format!("%i: !pl.tensor<4x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: {SIG}"),
        ),
    ];
    for (body, arguments) in &cases {
        assert_eq!(lowered_ledger(body, arguments), balanced(1), "{body}");
    }
}

#[test]
fn all_to_all_v_counts_are_set_not_credited() {
    let ledger = lowered_ledger(
        "  %v = pld.tensor.all_to_all_v %in, %out, %s4, %send, %recv : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pl.tensor<4xi32>, !pld.dtensor<4x1xi32>",
        "%in: !pl.tensor<8x64xf32>, %out: !pld.dtensor<8x64xf32>, %s4: !pld.dtensor<4x1xi32>, %send: !pl.tensor<4xi32>, %recv: !pld.dtensor<4x1xi32>",
    );
    assert_eq!(ledger, balanced(1));
}

#[test]
fn reduce_scatter_balances_two_rounds() {
    let ledger = lowered_ledger(
        &format!("  %r = pld.tensor.reduce_scatter %d, %s sum : !pld.dtensor<?x64xf32>, {SIG}"),
        &format!("%d: !pld.dtensor<?x64xf32>, %s: {SIG}"),
    );
    assert_eq!(ledger, balanced(2));
}

#[test]
fn consecutive_calls_each_balance() {
    // Two calls on one signal: each restarts at generation 1 because the
    // previous one refunded its credits.
    let ledger = lowered_ledger(
        &format!(
            "  %a = pld.tensor.barrier %s : {SIG}\n  %b = pld.tensor.reduce_scatter %d, %s sum : !pld.dtensor<?x64xf32>, {SIG}"
        ),
        &format!("%d: !pld.dtensor<?x64xf32>, %s: {SIG}"),
    );
    let (first, second) = (balanced(1), balanced(2));
    assert_eq!(ledger.credits, [first.credits, second.credits].concat());
    assert_eq!(
        ledger.generations,
        [first.generations, second.generations].concat()
    );
    assert_eq!(ledger.composites, 0);
}

#[test]
fn mesh_allreduce_refunds_one_plus_chunks() {
    // The ready barrier (generation 1) plus one barrier per chunk, whose
    // generation k + 2 is computed in the chunk loop; the refund covers all.
    for (shape, element, chunks) in [
        ("4x256", "f32", 1),
        ("16x1000", "f16", 2),
        ("8x4096", "f32", 8),
    ] {
        let target = format!("!pld.dtensor<{shape}x{element}>");
        let ledger = lowered_ledger(
            &format!("  %r = pld.tensor.allreduce %d, %s sum mesh cores 1 : {target}, {SIG}"),
            &format!("%d: {target}, %s: {SIG}"),
        );
        assert_eq!(
            ledger.credits,
            vec![Some(1), Some(1), Some(-(1 + chunks))],
            "{target}"
        );
        assert_eq!(ledger.generations, vec![Some(1), None], "{target}");
        assert_eq!(ledger.composites, 0);
    }
}

#[test]
fn ring_allreduce_refunds_two_per_sub_chunk_on_every_row() {
    // Four barrier sites (ready and read-complete, in each phase), all with
    // generations computed per sub-chunk; each row holds 2·sub-chunks
    // credits per peer at the end, refunded row by row.
    for (shape, element, signal, refund) in [
        ("4x256", "f32", "6x4", 2),
        ("1x8193", "f32", "2x2", 4),
        ("16x1000", "f16", "?x?", -1),
    ] {
        let target = format!("!pld.dtensor<{shape}x{element}>");
        let signal = format!("!pld.dtensor<{signal}xi32>");
        let ledger = lowered_ledger(
            &format!("  %r = pld.tensor.allreduce %d, %s sum ring cores 1 : {target}, {signal}"),
            &format!("%d: {target}, %s: {signal}"),
        );
        assert_eq!(ledger.generations, vec![None; 4], "{target}");
        assert_eq!(ledger.composites, 0);
        // With a `?x?` signal the refund is computed at run time (the
        // executable check in collectives_execute.rs covers its value).
        let refund = (refund > 0).then_some(-refund);
        assert_eq!(
            ledger.credits,
            vec![Some(1), Some(1), Some(1), Some(1), refund],
            "{target}"
        );
    }
}
