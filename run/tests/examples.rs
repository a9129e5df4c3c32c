//! The examples, executed, against goldens computed here directly (plain
//! Rust arithmetic, not the interpreter's kernels): the tile programs at
//! P = 1, the distributed ladder at P = 2 and P = 4, before and after
//! pld-lower-distributed.

mod support;

use pto_run::{Array, Outcome, Session, types::Elem};
use support::{array, example, load, rows, sample};

const LOWER: &str = "builtin.module(pld-lower-distributed)";

fn run(path: &str, ranks: usize, pipeline: Option<&str>, inputs: &[(&str, Array)]) -> Outcome {
    let program = load(&example(path), pipeline);
    let entry = Session::default_entry(&program).expect("an entry");
    let mut session = Session::new(&program).ranks(ranks);
    for (name, input) in inputs {
        session = session.input(name, input.clone());
    }
    session
        .run(&entry)
        .unwrap_or_else(|e| panic!("{path} at P = {ranks}: {e}"))
}

/// The per-rank copies of a window output: `[P, rows, cols]` → rank slices.
fn per_rank(output: &Array) -> Vec<&[f64]> {
    let per = output.data.len() / output.shape[0];
    output.data.chunks(per).collect()
}

#[test]
fn elementwise_add() {
    let a = array(&[128, 128], Elem::F32, |i| sample(0, i) / 7.0);
    let b = array(&[128, 128], Elem::F32, |i| sample(1, i) / 3.0);
    let outcome = run(
        "tiles/elementwise_add.mlir",
        1,
        None,
        &[("a", a.clone()), ("b", b.clone())],
    );
    let golden: Vec<f64> = a
        .data
        .iter()
        .zip(&b.data)
        .map(|(x, y)| f64::from(*x as f32 + *y as f32))
        .collect();
    assert_eq!(outcome.get("result0").unwrap().data, golden);
}

#[test]
fn row_softmax_with_a_partial_block() {
    // 70 rows: two full 32-row blocks and a 6-row tail.
    let x = array(&[70, 256], Elem::F32, |i| sample(2, i) / 16.0);
    let outcome = run("tiles/row_softmax.mlir", 1, None, &[("x", x.clone())]);
    let y = &outcome.get("result0").unwrap().data;
    for r in 0..70 {
        let row = rows(&x.data, 256, r, 1);
        let max = row.iter().cloned().fold(f64::MIN, f64::max);
        let sum: f64 = row.iter().map(|v| (v - max).exp()).sum();
        for c in 0..256 {
            let golden = (row[c] - max).exp() / sum;
            let got = y[r * 256 + c];
            assert!(
                (got - golden).abs() <= 1e-6 + 1e-5 * golden.abs(),
                "[{r}, {c}]: {got} vs {golden}"
            );
        }
    }
}

#[test]
fn tiled_matmul_in_f16() {
    let a = array(&[128, 512], Elem::F16, |i| sample(0, i) / 32.0);
    let b = array(&[512, 256], Elem::F16, |i| sample(1, i) / 32.0);
    let outcome = run(
        "tiles/tiled_matmul.mlir",
        1,
        None,
        &[("a", a.clone()), ("b", b.clone())],
    );
    let c = &outcome.get("result0").unwrap().data;
    for i in (0..128).step_by(7) {
        for j in (0..256).step_by(5) {
            let golden: f64 = (0..512)
                .map(|k| a.data[i * 512 + k] * b.data[k * 256 + j])
                .sum();
            let golden = Elem::F16.round(golden);
            // One f16 rounding of an f32 accumulation: within an f16 ulp.
            assert!(
                (c[i * 256 + j] - golden).abs() <= 1e-3 * golden.abs().max(1.0),
                "[{i}, {j}]: {} vs {golden}",
                c[i * 256 + j]
            );
        }
    }
}

fn input_row() -> Array {
    array(&[1, 256], Elem::F32, |i| sample(3, i))
}

#[test]
fn hello_rank() {
    for p in [2, 4] {
        let outcome = run("distributed/01_hello_rank.mlir", p, None, &[]);
        for (r, copy) in per_rank(outcome.get("ranks").unwrap())
            .into_iter()
            .enumerate()
        {
            for row in 0..p {
                let expected = if row == r {
                    vec![r as f64, p as f64]
                } else {
                    vec![0.0, 0.0]
                };
                assert_eq!(
                    rows(copy, 2, row, 1),
                    &expected[..],
                    "P = {p}, rank {r}, row {row}"
                );
            }
        }
    }
}

#[test]
fn hand_rolled_barrier_and_its_deadlock() {
    let program = load(&example("distributed/04_barrier.mlir"), None);
    for p in [2, 4] {
        let signal = Array::new(vec![p, p, 1], Elem::I32, vec![0.0; p * p]);
        let generation = Array::new(Vec::new(), Elem::I32, vec![1.0]);
        let outcome = Session::new(&program)
            .ranks(p)
            .input("signal", signal.clone())
            .input("generation", generation)
            .run("barrier")
            .unwrap();
        // Every rank added 1 to its cell on every rank.
        assert_eq!(
            outcome.get("signal").unwrap().data,
            vec![1.0; p * p],
            "P = {p}"
        );
        // Waiting for a second generation nobody sends is a deadlock.
        let generation = Array::new(Vec::new(), Elem::I32, vec![2.0]);
        let error = Session::new(&program)
            .ranks(p)
            .input("signal", signal)
            .input("generation", generation)
            .run("barrier")
            .unwrap_err();
        assert!(
            error.message.starts_with("deadlock: every rank is blocked"),
            "{error}"
        );
        assert!(
            error.message.contains("04_barrier.mlir:")
                && error.message.contains(">= 2; the cell holds 1"),
            "{error}"
        );
    }
}

#[test]
fn remote_load_store_and_put_get() {
    for pipeline in [None, Some(LOWER)] {
        for p in [2, 4] {
            let input = input_row();
            let outcome = run(
                "distributed/05_remote_load_store.mlir",
                p,
                pipeline,
                &[("input", input.clone())],
            );
            let (data, echo) = (
                per_rank(outcome.get("data").unwrap()),
                per_rank(outcome.get("echo").unwrap()),
            );
            for r in 0..p {
                for row in 0..p {
                    let own = if row == r {
                        &input.data[..]
                    } else {
                        &[0.0; 256][..]
                    };
                    assert_eq!(
                        rows(data[r], 256, row, 1),
                        own,
                        "data P = {p}, rank {r}, row {row}"
                    );
                    let echoed = if row == (r + 1) % p {
                        &input.data[..]
                    } else {
                        &[0.0; 256][..]
                    };
                    assert_eq!(
                        rows(echo[r], 256, row, 1),
                        echoed,
                        "echo P = {p}, rank {r}, row {row}"
                    );
                }
            }
            let copy = Array::new(vec![p, 256], Elem::F32, vec![0.0; p * 256]);
            let outcome = run(
                "distributed/06_put_get.mlir",
                p,
                pipeline,
                &[("input", input.clone()), ("copy", copy)],
            );
            for (r, inbox) in per_rank(outcome.get("inbox").unwrap())
                .into_iter()
                .enumerate()
            {
                for row in 0..p {
                    let expected = if row == (r + p - 1) % p {
                        &input.data[..]
                    } else {
                        &[0.0; 256][..]
                    };
                    assert_eq!(
                        rows(inbox, 256, row, 1),
                        expected,
                        "inbox P = {p}, rank {r}, row {row}"
                    );
                }
            }
            // Every rank copied the row its left neighbour received.
            let copied = &outcome.get("copy").unwrap().data;
            for r in 0..p {
                assert_eq!(
                    rows(copied, 256, r, 1),
                    &input.data[..],
                    "copy P = {p}, row {r}"
                );
            }
        }
    }
}

/// `x + x + ... + x` (P terms, from 0) in f32, as a kernel accumulates it.
fn repeated_sum(x: f64, p: usize) -> f64 {
    let mut acc = 0f32;
    for _ in 0..p {
        acc += x as f32;
    }
    f64::from(acc)
}

/// Mesh allreduce of per-rank rows in f32: rank `me` starts from its own
/// value and adds the others in rank order.
fn mesh_sum(values: &[Vec<f64>], me: usize) -> Vec<f64> {
    (0..values[0].len())
        .map(|i| {
            let mut acc = values[me][i] as f32;
            for (peer, v) in values.iter().enumerate() {
                if peer != me {
                    acc += v[i] as f32;
                }
            }
            f64::from(acc)
        })
        .collect()
}

/// Ring allreduce in f32: segment s (bounds s·N/P) folds from rank s+1.
fn ring_sum(values: &[Vec<f64>]) -> Vec<f64> {
    let (p, n) = (values.len(), values[0].len());
    (0..n)
        .map(|i| {
            let s = (0..p)
                .find(|&s| i >= s * n / p && i < (s + 1) * n / p)
                .unwrap();
            let mut acc = values[(s + 1) % p][i] as f32;
            for j in 2..=p {
                acc += values[(s + j) % p][i] as f32;
            }
            f64::from(acc)
        })
        .collect()
}

#[test]
fn dynamic_rank_count_and_allreduce_ladder() {
    for pipeline in [None, Some(LOWER)] {
        for p in [2, 4] {
            let input = input_row();
            let outcome = run(
                "distributed/07_dynamic_rank_count.mlir",
                p,
                pipeline,
                &[("input", input.clone())],
            );
            for (r, copy) in per_rank(outcome.get("data").unwrap())
                .into_iter()
                .enumerate()
            {
                let sum: Vec<f64> = input.data.iter().map(|&x| repeated_sum(x, p)).collect();
                assert_eq!(rows(copy, 256, r, 1), &sum[..], "07 P = {p}, rank {r}");
            }
            // 08: by hand on `data`, then mesh and ring allreduce of `vec`
            // (each rank's own input).
            let vec = array(&[p, 1, 256], Elem::F32, |i| sample(i / 256, i % 256) / 4.0);
            let outcome = run(
                "distributed/08_allreduce.mlir",
                p,
                pipeline,
                &[("input", input.clone()), ("vec", vec.clone())],
            );
            let ranks: Vec<Vec<f64>> = vec.data.chunks(256).map(<[f64]>::to_vec).collect();
            let meshed: Vec<Vec<f64>> = (0..p).map(|me| mesh_sum(&ranks, me)).collect();
            let ringed = ring_sum(&meshed);
            for (r, copy) in per_rank(outcome.get("vec").unwrap())
                .into_iter()
                .enumerate()
            {
                assert_eq!(copy, &ringed[..], "08 P = {p}, rank {r}");
            }
        }
    }
}

#[test]
fn host_allreduce() {
    for pipeline in [None, Some(LOWER)] {
        for p in [2, 4] {
            let input = input_row();
            let output = Array::new(vec![p, 256], Elem::F32, vec![0.0; p * 256]);
            let outcome = run(
                "distributed/11_host_allreduce.mlir",
                p,
                pipeline,
                &[("input", input.clone()), ("output", output)],
            );
            let copies: Vec<Vec<f64>> = (0..p).map(|_| input.data.clone()).collect();
            let out = &outcome.get("output").unwrap().data;
            for r in 0..p {
                assert_eq!(
                    rows(out, 256, r, 1),
                    &mesh_sum(&copies, r)[..],
                    "P = {p}, row {r}"
                );
            }
        }
    }
}

#[test]
fn broadcast_allgather_reduce_scatter_all_to_all_capstone() {
    for pipeline in [None, Some(LOWER)] {
        for p in [2, 4] {
            let input = input_row();
            let zero = vec![0.0; 256];
            let outcome = run(
                "distributed/12_broadcast.mlir",
                p,
                pipeline,
                &[("input", input.clone())],
            );
            for (r, copy) in per_rank(outcome.get("data").unwrap())
                .into_iter()
                .enumerate()
            {
                for row in 0..p {
                    let expected = if row == r || (r == 0 && row == 0) {
                        &input.data
                    } else {
                        &zero
                    };
                    assert_eq!(
                        rows(copy, 256, row, 1),
                        &expected[..],
                        "12 P = {p}, rank {r}, row {row}"
                    );
                }
            }
            let outcome = run(
                "distributed/13_allgather.mlir",
                p,
                pipeline,
                &[("input", input.clone())],
            );
            for (r, copy) in per_rank(outcome.get("gathered").unwrap())
                .into_iter()
                .enumerate()
            {
                for row in 0..p {
                    assert_eq!(
                        rows(copy, 256, row, 1),
                        &input.data[..],
                        "13 P = {p}, rank {r}, row {row}"
                    );
                }
            }
            // Zero windows reduce to zero; what is checked is that both
            // protocols complete and leave their signal clear.
            let outcome = run("distributed/14_reduce_scatter.mlir", p, pipeline, &[]);
            assert!(outcome.get("data").unwrap().data.iter().all(|&v| v == 0.0));
            assert!(
                outcome
                    .get("signal")
                    .unwrap()
                    .data
                    .iter()
                    .all(|&v| v == 0.0),
                "14 P = {p}: signal left set"
            );
            let local = array(&[1, 256], Elem::F32, |i| sample(5, i));
            let outcome = run(
                "distributed/16_putting_it_together.mlir",
                p,
                pipeline,
                &[("local", local.clone())],
            );
            for (r, copy) in per_rank(outcome.get("gathered").unwrap())
                .into_iter()
                .enumerate()
            {
                for row in 0..p {
                    assert_eq!(
                        rows(copy, 256, row, 1),
                        &local.data[..],
                        "16 P = {p}, rank {r}, row {row}"
                    );
                }
            }
            for name in ["bcast_signal", "reduce_signal", "gather_signal"] {
                assert!(
                    outcome.get(name).unwrap().data.iter().all(|&v| v == 0.0),
                    "16 P = {p}: {name} left set"
                );
            }
        }
        // all_to_all: the host holds P rows per rank; rank d ends with row
        // s = the host's row s * P + d, by hand and from the builtin.
        for p in [2, 3, 4] {
            let input = array(&[p * p, 256], Elem::F32, |i| sample(6, i));
            let outcome = run(
                "distributed/15_all_to_all.mlir",
                p,
                pipeline,
                &[("input", input.clone())],
            );
            for name in ["target", "swapped"] {
                for (d, copy) in per_rank(outcome.get(name).unwrap()).into_iter().enumerate() {
                    for s in 0..p {
                        assert_eq!(
                            rows(copy, 256, s, 1),
                            rows(&input.data, 256, s * p + d, 1),
                            "15 {name} P = {p}: rank {d}, row {s}"
                        );
                    }
                }
            }
        }
    }
}
