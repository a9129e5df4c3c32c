//! Differential tests: every collective runs as written (pto-run's
//! reference semantics, gathered across ranks) and after
//! pld-lower-composite-ops (notify/wait, remote loads, puts) and after the
//! whole pld-lower-distributed pipeline; the outputs must agree bit for
//! bit (the reference combines in the lowerings' order), and every credit
//! signal must be clear afterwards.
//!
//! The fast subset runs with `cargo test`; the full matrix (P = 1, 2, 3,
//! 4, 8; sizes 1, 17, 4097; every ReduceOp and dtype) with
//! `cargo test -p pto-run --test differential -- --ignored`.

mod support;

use pto_run::{Array, Outcome, Session, types::Elem};
use support::{array, load_text, sample};

/// One collective call in a kernel, with what it needs around it.
struct Case {
    /// The kernel's parameters after the data (name, type).
    params: Vec<(String, String)>,
    /// The call.
    call: String,
    /// Per-rank inputs, in parameter order (data first).
    inputs: Vec<Array>,
    /// Signals that must end at zero (by parameter name).
    signals: Vec<String>,
    what: String,
}

fn program(case: &Case) -> String {
    let params: Vec<String> = case
        .params
        .iter()
        .map(|(n, t)| format!("%{n}: {t}"))
        .collect();
    let names: Vec<String> = case.params.iter().map(|(n, _)| format!("%{n}")).collect();
    let types: Vec<String> = case.params.iter().map(|(_, t)| t.clone()).collect();
    let (params, names, types) = (params.join(", "), names.join(", "), types.join(", "));
    let call = &case.call;
    format!(
        r#"func.func @main({params}) attributes {{pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %world = pld.system.world_size : i64
  %n = arith.index_cast %world : i64 to index
  scf.for %dev = %c0 to %n step %c1 {{
    pld.dispatch @chip({names}) on %dev : ({types}) -> ()
  }}
  return
}}
func.func @chip({params}) attributes {{pl.kind = #pl.kind<orchestration>}} {{
  pl.call @kernel({names}) : ({types}) -> ()
  return
}}
func.func @kernel({params}) attributes {{pl.kind = #pl.kind<aiv>}} {{
  {call}
  return
}}
"#
    )
}

fn execute(text: &str, pipeline: Option<&str>, case: &Case, p: usize) -> Outcome {
    let program = load_text(text, pipeline);
    let mut session = Session::new(&program).ranks(p);
    for ((name, _), input) in case.params.iter().zip(&case.inputs) {
        session = session.input(name, input.clone());
    }
    session
        .run("main")
        .unwrap_or_else(|e| panic!("{} ({pipeline:?}): {e}\n{text}", case.what))
}

fn check(case: Case, p: usize) {
    let text = program(&case);
    let reference = execute(&text, None, &case, p);
    for pipeline in [
        "builtin.module(pld-lower-composite-ops)",
        "builtin.module(pld-lower-distributed)",
    ] {
        let lowered = execute(&text, Some(pipeline), &case, p);
        for (name, array) in &reference.arguments {
            assert_eq!(
                lowered.get(name).map(|a| &a.data),
                Some(&array.data),
                "{}: '{name}' differs after {pipeline}",
                case.what
            );
        }
        for signal in &case.signals {
            assert!(
                lowered.get(signal).unwrap().data.iter().all(|&v| v == 0.0),
                "{}: {signal} not clear after {pipeline}",
                case.what
            );
        }
    }
}

fn dtype(elem: Elem) -> &'static str {
    if elem == Elem::F16 { "f16" } else { "f32" }
}

fn zeros(shape: &[usize]) -> Array {
    Array::new(shape.to_vec(), Elem::I32, vec![0.0; shape.iter().product()])
}

/// Per-rank data: `[P, rows, cols]`, rank-distinct small integers (exact
/// in f16 sums and products of up to 8 terms when `unit`).
fn data(p: usize, rows: usize, cols: usize, elem: Elem, unit: bool) -> Array {
    array(&[p, rows, cols], elem, |i| {
        let (rank, at) = (i / (rows * cols), i % (rows * cols));
        if unit {
            [1.0, -1.0, 2.0, 1.0, 0.5][(rank * 7 + at * 3) % 5]
        } else {
            sample(rank, at)
        }
    })
}

fn allreduce(p: usize, size: usize, elem: Elem, op: &str, ring: bool) {
    let (rows, cols) = if size.is_multiple_of(4) {
        (4, size / 4)
    } else {
        (1, size)
    };
    let target = format!("!pld.dtensor<{rows}x{cols}x{}>", dtype(elem));
    let (signal, signal_shape) = if ring {
        ("!pld.dtensor<?x?xi32>".to_string(), vec![p, 2 * (p - 1), p])
    } else {
        ("!pld.dtensor<?x1xi32>".to_string(), vec![p, p, 1])
    };
    let mode = if ring { "ring" } else { "mesh" };
    check(
        Case {
            params: vec![("d".into(), target.clone()), ("s".into(), signal.clone())],
            call: format!(
                "%r = pld.tensor.allreduce %d, %s {op} {mode} cores 1 : {target}, {signal}"
            ),
            inputs: vec![
                data(p, rows, cols, elem, op == "prod"),
                zeros(&signal_shape),
            ],
            signals: vec!["s".into()],
            what: format!("{mode} allreduce {op} {} N = {size}, P = {p}", dtype(elem)),
        },
        p,
    );
}

fn exchange(p: usize, size: usize, kind: &str) {
    let signal = "!pld.dtensor<?x1xi32>";
    let case = match kind {
        "barrier" => Case {
            params: vec![("s".into(), signal.into())],
            call: format!("%r = pld.tensor.barrier %s : {signal}"),
            inputs: vec![zeros(&[p, p, 1])],
            signals: vec!["s".into()],
            what: format!("barrier P = {p}"),
        },
        "broadcast" => {
            let target = format!("!pld.dtensor<2x{size}xf32>");
            Case {
                params: vec![("d".into(), target.clone()), ("s".into(), signal.into())],
                call: format!(
                    "%r = pld.tensor.broadcast %d, %s root {} : {target}, {signal}",
                    p - 1
                ),
                inputs: vec![data(p, 2, size, Elem::F32, false), zeros(&[p, p, 1])],
                signals: vec!["s".into()],
                what: format!("broadcast SIZE = {size}, P = {p}"),
            }
        }
        "allgather" | "all_to_all" => {
            // The inputs are plain tensors: each rank takes its rows of one
            // host tensor.
            let rows = if kind == "allgather" { 1 } else { p };
            let (all, input, target) = (
                format!("!pl.tensor<{}x{size}xf32>", p * rows),
                format!("!pl.tensor<{rows}x{size}xf32>"),
                format!("!pld.dtensor<{p}x{size}xf32>"),
            );
            Case {
                params: vec![
                    ("all".into(), all.clone()),
                    ("d".into(), target.clone()),
                    ("s".into(), signal.into()),
                ],
                call: format!(
                    "%ctx = pld.system.get_comm_ctx %d : {target}
  %me = pld.system.rank %ctx : i32
  %me_index = arith.index_cast %me : i32 to index
  %rows = arith.constant {rows} : index
  %first = arith.muli %me_index, %rows : index
  %zero = arith.constant 0 : index
  %i = pl.tensor.slice %all[%first, %zero] : {all} -> {input}
  %r = pld.tensor.{kind} %i, %d, %s : {input}, {target}, {signal}"
                ),
                inputs: vec![
                    array(&[p * rows, size], Elem::F32, |i| sample(i / size, i % size)),
                    data(p, p, size, Elem::F32, false),
                    zeros(&[p, p, 1]),
                ],
                signals: vec!["s".into()],
                what: format!("{kind} SIZE = {size}, P = {p}"),
            }
        }
        "reduce_scatter" => {
            let target = format!("!pld.dtensor<{p}x{size}xf32>");
            Case {
                params: vec![("d".into(), target.clone()), ("s".into(), signal.into())],
                call: format!("%r = pld.tensor.reduce_scatter %d, %s sum : {target}, {signal}"),
                inputs: vec![data(p, p, size, Elem::F32, false), zeros(&[p, p, 1])],
                signals: vec!["s".into()],
                what: format!("reduce_scatter SIZE = {size}, P = {p}"),
            }
        }
        _ => {
            // all_to_all_v: 2 rows per block; counts (rank + dest) % 4 (3 is
            // clamped to 2).
            let rows = 2 * p;
            let (block, signal4, counts) = (
                format!("!pld.dtensor<{rows}x{size}xf32>"),
                format!("!pld.dtensor<{p}x1xi32>"),
                format!("!pld.dtensor<{p}xi32>"),
            );
            let send = array(&[p, p], Elem::I32, |i| ((i / p + i % p) % 4) as f64);
            Case {
                params: vec![
                    ("i".into(), block.clone()),
                    ("d".into(), block.clone()),
                    ("s".into(), signal4.clone()),
                    ("send".into(), counts.clone()),
                    ("recv".into(), signal4.clone()),
                ],
                call: format!(
                    "%v = pld.tensor.all_to_all_v %i, %d, %s, %send, %recv : {block}, {block}, {signal4}, {counts}, {signal4}"
                ),
                inputs: vec![
                    data(p, rows, size, Elem::F32, false),
                    data(p, rows, size, Elem::F32, false),
                    zeros(&[p, p, 1]),
                    send,
                    zeros(&[p, p, 1]),
                ],
                signals: vec!["s".into()],
                what: format!("all_to_all_v SIZE = {size}, P = {p}"),
            }
        }
    };
    check(case, p);
}

const KINDS: [&str; 6] = [
    "barrier",
    "broadcast",
    "allgather",
    "all_to_all",
    "reduce_scatter",
    "all_to_all_v",
];

#[test]
fn allreduce_fast_subset() {
    for p in [1, 2, 4] {
        for size in [1, 17, 4097] {
            allreduce(p, size, Elem::F32, "sum", false);
            if p > 1 {
                allreduce(p, size, Elem::F32, "sum", true);
            }
        }
        for (elem, op) in [
            (Elem::F16, "sum"),
            (Elem::F32, "max"),
            (Elem::F32, "min"),
            (Elem::F16, "prod"),
        ] {
            allreduce(p, 100, elem, op, false);
            if p > 1 {
                allreduce(p, 100, elem, op, true);
            }
        }
    }
}

#[test]
fn other_collectives_fast_subset() {
    for p in [1, 2, 3, 4] {
        for kind in KINDS {
            exchange(p, 17, kind);
        }
    }
}

#[test]
#[ignore = "the full matrix; run with --ignored"]
fn full_matrix() {
    for p in [1, 2, 3, 4, 8] {
        for size in [1, 17, 4097] {
            for elem in [Elem::F32, Elem::F16] {
                for op in ["sum", "max", "min", "prod"] {
                    allreduce(p, size, elem, op, false);
                    if p > 1 {
                        allreduce(p, size, elem, op, true);
                    }
                }
            }
            for kind in KINDS {
                exchange(p, size, kind);
            }
        }
    }
}
