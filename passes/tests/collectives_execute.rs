//! Every collective `pld-lower-composite-ops` expands is executed at
//! P = 1, 2, 3, 4, 8 under adversarial schedules (support/collective_sim.rs)
//! and its result compared with one computed directly here: the expansion
//! is correct, deadlock-free, and leaves every credit-signal cell at zero.

#[path = "support/collective_sim.rs"]
mod collective_sim;

use collective_sim::{Memory, Schedule, run};
use melior::{
    Context,
    ir::{BlockLike, Module, operation::OperationLike},
    pass::PassManager,
};

const RANKS: [i64; 5] = [1, 2, 3, 4, 8];
const SCHEDULES: [Schedule; 3] = [Schedule::Forward, Schedule::Backward, Schedule::Lockstep];

/// A one-function module `@f(arguments) { body }`, optionally lowered.
fn build<'c>(context: &'c Context, arguments: &str, body: &str, lower: bool) -> Module<'c> {
    let source = format!(
        "func.func @f({arguments}) attributes {{pl.kind = #pl.kind<aiv>}} {{\n{body}\n  return\n}}"
    );
    let mut module = Module::parse(context, &source).unwrap_or_else(|| panic!("parses:\n{source}"));
    if lower {
        let manager = PassManager::new(context);
        manager.add_pass(pto_passes::create_pass("pld-lower-composite-ops", "").unwrap());
        manager.run(&mut module).expect("pass runs");
        assert!(module.as_operation().verify(), "lowered IR verifies");
    }
    module
}

/// Runs the lowered `body` under every schedule; all must agree.
fn execute(arguments: &str, body: &str, nranks: i64, initial: &Memory) -> Memory {
    let context = pto_dialects::create_context();
    let module = build(&context, arguments, body, true);
    let function = module.body().first_operation().unwrap();
    let mut outcome: Option<Memory> = None;
    for schedule in SCHEDULES {
        let mut memory = initial.clone();
        if let Err(error) = run(function, nranks, &mut memory, schedule) {
            panic!("P = {nranks}, {schedule:?}: {error}\n{body}");
        }
        if let Some(first) = &outcome {
            assert_eq!(
                first, &memory,
                "P = {nranks}: {schedule:?} disagrees with Forward\n{body}"
            );
        }
        outcome = Some(memory);
    }
    outcome.unwrap()
}

/// Small integers, distinct per rank and element (exact in f16 and f32
/// sums over 8 ranks, and in products when `unit` keeps them in {-1, 1, 2}).
fn sample(rank: i64, index: usize, unit: bool) -> f32 {
    if unit {
        [1.0, -1.0, 2.0, 1.0, 1.0][(rank as usize * 7 + index * 3) % 5]
    } else {
        ((rank * 131 + index as i64 * 17) % 61 - 30) as f32
    }
}

fn assert_signal_clear(memory: &Memory, signal: usize, what: &str) {
    for (rank, arguments) in memory.arguments.iter().enumerate() {
        assert!(
            arguments[signal].iter().all(|&v| v == 0.0),
            "{what}: rank {rank} signal left at {:?}",
            arguments[signal]
        );
    }
}

#[test]
fn barrier_runs_and_clears() {
    for p in RANKS {
        let initial = Memory::new(p, vec![vec![p, 1]], |_, _, _| 0.0);
        let after = execute(
            "%s: !pld.dtensor<?x1xi32>",
            "  %r = pld.tensor.barrier %s : !pld.dtensor<?x1xi32>",
            p,
            &initial,
        );
        assert_signal_clear(&after, 0, "barrier");
    }
}

#[test]
fn two_calls_share_one_signal() {
    // The refund of the first call is what lets the second start at
    // generation 1 again.
    for p in RANKS {
        let initial = Memory::new(p, vec![vec![p, 64], vec![p, 1]], |r, a, i| {
            if a == 0 { sample(r, i, false) } else { 0.0 }
        });
        let body = "  %a = pld.tensor.barrier %s : !pld.dtensor<?x1xi32>\n  %b = pld.tensor.reduce_scatter %d, %s sum : !pld.dtensor<?x64xf32>, !pld.dtensor<?x1xi32>\n  %c = pld.tensor.barrier %s : !pld.dtensor<?x1xi32>";
        let after = execute(
            "%d: !pld.dtensor<?x64xf32>, %s: !pld.dtensor<?x1xi32>",
            body,
            p,
            &initial,
        );
        assert_signal_clear(&after, 1, "barrier; reduce_scatter; barrier");
    }
}

/// `reduce` over ranks of each element of argument 0.
fn reduced(initial: &Memory, how: &str) -> Vec<f32> {
    let ranks = &initial.arguments;
    (0..ranks[0][0].len())
        .map(|i| {
            let values = ranks.iter().map(|r| r[0][i]);
            match how {
                "sum" => values.sum(),
                "max" => values.fold(f32::MIN, f32::max),
                "min" => values.fold(f32::MAX, f32::min),
                _ => values.product(),
            }
        })
        .collect()
}

/// `mode`: mesh, ring (signal `[2(P-1), P]`), or ring? (the same signal
/// typed `?x?`: segments from the run-time rank count).
fn check_allreduce(mode: &str, how: &str, element: &str, rows: i64, cols: i64, p: i64) {
    let target = format!("!pld.dtensor<{rows}x{cols}x{element}>");
    let (signal, signal_shape) = if mode.starts_with("ring") {
        let rows = 2 * (p - 1);
        let signal = if mode == "ring?" {
            "!pld.dtensor<?x?xi32>".to_string()
        } else {
            format!("!pld.dtensor<{rows}x{p}xi32>")
        };
        (signal, vec![rows, p])
    } else {
        ("!pld.dtensor<?x1xi32>".to_string(), vec![p, 1])
    };
    let initial = Memory::new(p, vec![vec![rows, cols], signal_shape], |r, a, i| {
        if a == 0 {
            sample(r, i, how == "prod")
        } else {
            0.0
        }
    });
    let body = format!(
        "  %r = pld.tensor.allreduce %d, %s {how} {} cores 1 : {target}, {signal}",
        mode.trim_end_matches('?')
    );
    let after = execute(&format!("%d: {target}, %s: {signal}"), &body, p, &initial);
    let golden = reduced(&initial, how);
    for (rank, arguments) in after.arguments.iter().enumerate() {
        assert_eq!(
            arguments[0], golden,
            "{mode} {how} {element} {rows}x{cols}, P = {p}: rank {rank}"
        );
    }
    assert_signal_clear(&after, 1, &body);
}

#[test]
fn mesh_allreduce_matches_direct_reduction() {
    for p in RANKS {
        for (rows, cols) in [(1, 1), (1, 17), (4, 256), (1, 4097)] {
            check_allreduce("mesh", "sum", "f32", rows, cols, p);
        }
        for how in ["max", "min", "prod"] {
            check_allreduce("mesh", how, "f32", 3, 7, p);
        }
        for (rows, cols) in [(1, 17), (2, 4100)] {
            check_allreduce("mesh", "sum", "f16", rows, cols, p);
        }
    }
}

#[test]
fn ring_allreduce_matches_direct_reduction() {
    // A ring needs P >= 2: its signal has 2·(P-1) rows.
    for p in RANKS.into_iter().filter(|&p| p > 1) {
        // SIZE < P leaves some segments empty; 8193 at P = 2 needs two
        // 4096-column sub-chunks per segment; 4100 f16 splits unevenly.
        for mode in ["ring", "ring?"] {
            for (rows, cols) in [(1, 1), (1, 3), (1, 17), (4, 256), (1, 8193)] {
                check_allreduce(mode, "sum", "f32", rows, cols, p);
            }
            for how in ["max", "min", "prod"] {
                check_allreduce(mode, how, "f32", 3, 7, p);
            }
            for (rows, cols) in [(1, 5), (1, 17), (2, 4100)] {
                check_allreduce(mode, "sum", "f16", rows, cols, p);
            }
        }
    }
}

#[test]
fn allgather_and_all_to_all_deliver_rows() {
    for p in RANKS {
        let size = 33;
        let initial = Memory::new(
            p,
            vec![vec![1, size], vec![p, size], vec![p, 1]],
            |r, a, i| if a == 0 { sample(r, i, false) } else { 0.0 },
        );
        let body = format!(
            "  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x{size}xf32>, !pld.dtensor<?x{size}xf32>, !pld.dtensor<?x1xi32>"
        );
        let after = execute(
            &format!(
                "%i: !pl.tensor<1x{size}xf32>, %d: !pld.dtensor<?x{size}xf32>, %s: !pld.dtensor<?x1xi32>"
            ),
            &body,
            p,
            &initial,
        );
        let gathered: Vec<f32> = initial
            .arguments
            .iter()
            .flat_map(|r| r[0].clone())
            .collect();
        for arguments in &after.arguments {
            assert_eq!(arguments[1], gathered, "allgather P = {p}");
        }
        assert_signal_clear(&after, 2, "allgather");

        let initial = Memory::new(
            p,
            vec![vec![p, size], vec![p, size], vec![p, 1]],
            |r, a, i| if a == 0 { sample(r, i, false) } else { 0.0 },
        );
        let types = format!(
            "!pl.tensor<{p}x{size}xf32>, !pld.dtensor<{p}x{size}xf32>, !pld.dtensor<?x1xi32>"
        );
        let body = format!("  %r = pld.tensor.all_to_all %i, %d, %s : {types}");
        let after = execute(
            &format!(
                "%i: !pl.tensor<{p}x{size}xf32>, %d: !pld.dtensor<{p}x{size}xf32>, %s: !pld.dtensor<?x1xi32>"
            ),
            &body,
            p,
            &initial,
        );
        for (me, arguments) in after.arguments.iter().enumerate() {
            // Row src of my target is row me of src's input.
            let expected: Vec<f32> = initial
                .arguments
                .iter()
                .flat_map(|r| r[0][me * size as usize..(me + 1) * size as usize].to_vec())
                .collect();
            assert_eq!(arguments[1], expected, "all_to_all P = {p}, rank {me}");
        }
        assert_signal_clear(&after, 2, "all_to_all");
    }
}

#[test]
fn reduce_scatter_sums_own_row() {
    for p in RANKS {
        let size = 40usize;
        let initial = Memory::new(p, vec![vec![p, size as i64], vec![p, 1]], |r, a, i| {
            if a == 0 { sample(r, i, false) } else { 0.0 }
        });
        let body = format!(
            "  %r = pld.tensor.reduce_scatter %d, %s sum : !pld.dtensor<?x{size}xf32>, !pld.dtensor<?x1xi32>"
        );
        let after = execute(
            &format!("%d: !pld.dtensor<?x{size}xf32>, %s: !pld.dtensor<?x1xi32>"),
            &body,
            p,
            &initial,
        );
        let sums = reduced(&initial, "sum");
        for (me, arguments) in after.arguments.iter().enumerate() {
            for row in 0..p as usize {
                let range = row * size..(row + 1) * size;
                let expected = if row == me {
                    &sums[range.clone()]
                } else {
                    &initial.arguments[me][0][range.clone()]
                };
                assert_eq!(
                    &arguments[0][range], expected,
                    "reduce_scatter P = {p}, rank {me}, row {row}"
                );
            }
        }
        assert_signal_clear(&after, 1, "reduce_scatter");
    }
}

#[test]
fn broadcast_copies_the_root() {
    for p in RANKS {
        let root = p - 1;
        let initial = Memory::new(p, vec![vec![4, 16], vec![p, 1]], |r, a, i| {
            if a == 0 { sample(r, i, false) } else { 0.0 }
        });
        let body = format!(
            "  %r = pld.tensor.broadcast %d, %s root {root} : !pld.dtensor<4x16xf32>, !pld.dtensor<?x1xi32>"
        );
        let after = execute(
            "%d: !pld.dtensor<4x16xf32>, %s: !pld.dtensor<?x1xi32>",
            &body,
            p,
            &initial,
        );
        for arguments in &after.arguments {
            assert_eq!(
                arguments[0], initial.arguments[root as usize][0],
                "broadcast P = {p}"
            );
        }
        assert_signal_clear(&after, 1, "broadcast");
    }
}

#[test]
fn all_to_all_v_sends_blocks_and_counts() {
    for p in RANKS {
        let (max_recv, size) = (2i64, 8i64);
        let rows = p * max_recv;
        let shapes = vec![
            vec![rows, size],
            vec![rows, size],
            vec![p, 1],
            vec![p],
            vec![p, 1],
        ];
        // send_counts[dest] = (rank + dest) % 4: 3 exceeds MAX_RECV and is clamped.
        let initial = Memory::new(p, shapes, |r, a, i| match a {
            0 => sample(r, i, false),
            3 => ((r + i as i64) % 4) as f32,
            _ => 0.0,
        });
        let types = format!(
            "!pl.tensor<{rows}x{size}xf32>, !pld.dtensor<{rows}x{size}xf32>, !pld.dtensor<{p}x1xi32>, !pl.tensor<{p}xi32>, !pld.dtensor<{p}x1xi32>"
        );
        let body = format!("  %v = pld.tensor.all_to_all_v %in, %out, %s, %send, %recv : {types}");
        let arguments = format!(
            "%in: !pl.tensor<{rows}x{size}xf32>, %out: !pld.dtensor<{rows}x{size}xf32>, %s: !pld.dtensor<{p}x1xi32>, %send: !pl.tensor<{p}xi32>, %recv: !pld.dtensor<{p}x1xi32>"
        );
        let after = execute(&arguments, &body, p, &initial);
        let block = (max_recv * size) as usize;
        for me in 0..p as usize {
            for src in 0..p as usize {
                assert_eq!(
                    after.arguments[me][1][src * block..(src + 1) * block],
                    initial.arguments[src][0][me * block..(me + 1) * block],
                    "all_to_all_v P = {p}: block {src} on rank {me}"
                );
                let sent = ((src + me) % 4) as f32;
                assert_eq!(
                    after.arguments[me][4][src],
                    sent.min(max_recv as f32),
                    "recv_counts P = {p}"
                );
            }
        }
        assert_signal_clear(&after, 2, "all_to_all_v");
    }
}

/// The model is not vacuous: a reduction without barriers reads a peer's
/// row after the peer overwrote it, and a wait nobody satisfies deadlocks.
#[test]
fn model_catches_races_and_deadlocks() {
    let context = pto_dialects::create_context();
    let racy = "  %ctx = pld.system.get_comm_ctx %d : !pld.dtensor<1x8xf32>
  %me = pld.system.rank %ctx : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : i32
  %peer = arith.subi %c1, %me : i32
  %own = pl.tile.load %d[%c0, %c0] : !pld.dtensor<1x8xf32> -> !pl.tile<1x8xf32, vec>
  %other = pld.tile.remote_load %d[%c0, %c0] from %peer : !pld.dtensor<1x8xf32> -> !pl.tile<1x8xf32, vec>
  %sum = pl.tile.add %own, %other : !pl.tile<1x8xf32, vec>, !pl.tile<1x8xf32, vec> -> !pl.tile<1x8xf32, vec>
  %stored = pl.tile.store %sum, %d[%c0, %c0] : !pl.tile<1x8xf32, vec>, !pld.dtensor<1x8xf32>";
    let module = build(&context, "%d: !pld.dtensor<1x8xf32>", racy, false);
    let function = module.body().first_operation().unwrap();
    let initial = Memory::new(2, vec![vec![1, 8]], |r, _, i| sample(r, i, false));
    let golden = reduced(&initial, "sum");
    let mut memory = initial.clone();
    run(function, 2, &mut memory, Schedule::Forward).unwrap();
    assert_eq!(
        memory.arguments[0][0], golden,
        "rank 0 ran first and saw rank 1's input"
    );
    assert_ne!(
        memory.arguments[1][0], golden,
        "rank 1 read rank 0's already-reduced row"
    );

    let stuck = "  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : i32
  pld.system.wait %s[%c0, %c0], %c2 ge : !pld.dtensor<?x1xi32>";
    let module = build(&context, "%s: !pld.dtensor<?x1xi32>", stuck, false);
    let function = module.body().first_operation().unwrap();
    let mut memory = Memory::new(2, vec![vec![2, 1]], |_, _, _| 0.0);
    let error = run(function, 2, &mut memory, Schedule::Lockstep).unwrap_err();
    assert!(
        error.starts_with("deadlock:") && error.contains("rank 1 waits"),
        "{error}"
    );
}

/// Collectives in a loop reuse one signal: each call refunds its credits,
/// so the next iteration's barriers start at generation 1 again.
#[test]
fn collectives_repeat_in_loops() {
    for p in RANKS.into_iter().filter(|&p| p > 1) {
        let ring_rows = 2 * (p - 1);
        let types = format!("!pld.dtensor<2x9xf32>, !pld.dtensor<{ring_rows}x{p}xi32>");
        let body = format!(
            "  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {{
    %r = pld.tensor.allreduce %d, %s sum ring cores 1 : {types}
    %m = pld.tensor.allreduce %d, %m_sig sum mesh cores 1 : !pld.dtensor<2x9xf32>, !pld.dtensor<?x1xi32>
  }}"
        );
        let arguments = format!(
            "%d: !pld.dtensor<2x9xf32>, %s: !pld.dtensor<{ring_rows}x{p}xi32>, %m_sig: !pld.dtensor<?x1xi32>"
        );
        let initial = Memory::new(
            p,
            vec![vec![2, 9], vec![ring_rows, p], vec![p, 1]],
            |r, a, i| if a == 0 { sample(r, i, false) } else { 0.0 },
        );
        let after = execute(&arguments, &body, p, &initial);
        // Six allreduces: the first sums, each later one multiplies by P.
        let scale = (p as f32).powi(5);
        let golden: Vec<f32> = reduced(&initial, "sum").iter().map(|v| v * scale).collect();
        for (rank, arguments) in after.arguments.iter().enumerate() {
            assert_eq!(arguments[0], golden, "P = {p}, rank {rank}");
        }
        assert_signal_clear(&after, 1, "ring in a loop");
        assert_signal_clear(&after, 2, "mesh in a loop");
    }
}

/// A collective under a branch every rank takes the same way (here: only
/// with more than one rank), and one a branch skips: the credits still
/// balance.
#[test]
fn collectives_under_uniform_branches() {
    for p in RANKS {
        let body = "  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<?x1xi32>
  %n = pld.system.nranks %ctx : i32
  %one = arith.constant 1 : i32
  %many = arith.cmpi sgt, %n, %one : i32
  scf.if %many {
    %r = pld.tensor.allreduce %d, %s max mesh cores 1 : !pld.dtensor<3x5xf32>, !pld.dtensor<?x1xi32>
  } else {
    %b = pld.tensor.barrier %s : !pld.dtensor<?x1xi32>
  }";
        let initial = Memory::new(p, vec![vec![3, 5], vec![p, 1]], |r, a, i| {
            if a == 0 { sample(r, i, false) } else { 0.0 }
        });
        let after = execute(
            "%d: !pld.dtensor<3x5xf32>, %s: !pld.dtensor<?x1xi32>",
            body,
            p,
            &initial,
        );
        let golden = reduced(&initial, "max");
        for arguments in &after.arguments {
            assert_eq!(arguments[0], golden, "P = {p}");
        }
        assert_signal_clear(&after, 1, "allreduce under a branch");
    }
}
