//! The a2a3 lowering keeps what programs compute: each test runs a program
//! in pto-run as written and after a pass pipeline, and compares the
//! results (bit for bit where the lowered program does the same
//! arithmetic in the same order).

mod support;

use pto_run::{Array, Outcome, Program, Session, types::Elem};
use support::{array, example, load, load_text, sample};

const A2A3: &str = "builtin.module(pto-a2a3-pipeline)";

/// Runs `entry` of the program `compile` gives, before and after
/// `pipeline`, on `inputs`.
fn before_and_after(
    compile: impl Fn(Option<&str>) -> Program,
    pipeline: &str,
    entry: &str,
    inputs: &[(&str, Array)],
) -> [Outcome; 2] {
    [None, Some(pipeline)].map(|pipeline| {
        let program = compile(pipeline);
        let mut session = Session::new(&program);
        for (name, input) in inputs {
            session = session.input(name, input.clone());
        }
        session
            .run(entry)
            .unwrap_or_else(|e| panic!("{entry} after {pipeline:?}: {e}"))
    })
}

fn result<'o>(outcome: &'o Outcome, name: &str) -> &'o [f64] {
    &outcome
        .get(name)
        .unwrap_or_else(|| panic!("no output {name}"))
        .data
}

/// An example file, its entry function and the named inputs it runs on.
type ExampleRun = (&'static str, &'static str, Vec<(&'static str, Array)>);

fn matmul_inputs() -> Vec<(&'static str, Array)> {
    vec![
        ("a", array(&[128, 512], Elem::F16, |i| sample(0, i) / 32.0)),
        ("b", array(&[512, 256], Elem::F16, |i| sample(1, i) / 32.0)),
    ]
}

/// Outlining InCore scopes keeps what the tensor-level examples compute,
/// bit for bit.
#[test]
fn outlining_incore_scopes_preserves_results() {
    let cases: [ExampleRun; 3] = [
        (
            "tiles/elementwise_add.mlir",
            "add_tensors",
            vec![
                ("a", array(&[128, 128], Elem::F32, |i| sample(0, i))),
                ("b", array(&[128, 128], Elem::F32, |i| sample(1, i))),
            ],
        ),
        (
            "tiles/row_softmax.mlir",
            "softmax_tensors",
            vec![("x", array(&[70, 256], Elem::F32, |i| sample(2, i) / 16.0))],
        ),
        ("tiles/tiled_matmul.mlir", "matmul_tensors", matmul_inputs()),
    ];
    for (path, entry, inputs) in cases {
        let [before, after] = before_and_after(
            |p| load(&example(path), p),
            "builtin.module(pl-outline-incore-scopes)",
            entry,
            &inputs,
        );
        assert_eq!(
            result(&before, "result0"),
            result(&after, "result0"),
            "{path}"
        );
    }
}

/// After the whole a2a3 lowering (outlining, tensor-to-tile conversion,
/// memory spaces, planning, synchronisation) the element-wise add and a
/// static row softmax compute the same, bit for bit (the same f32 steps in
/// the same order).
#[test]
fn a2a3_pipeline_preserves_results() {
    let softmax = "
func.func @softmax(%x: !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.incore_scope -> !pl.tensor<16x64xf32> {
    %max = pl.tensor.row_max %x : !pl.tensor<16x64xf32> -> !pl.tensor<16x1xf32>
    %shifted = pl.tensor.sub %x, %max : !pl.tensor<16x64xf32>, !pl.tensor<16x1xf32> -> !pl.tensor<16x64xf32>
    %e = pl.tensor.exp %shifted : !pl.tensor<16x64xf32>
    %sum = pl.tensor.row_sum %e : !pl.tensor<16x64xf32> -> !pl.tensor<16x1xf32>
    %p = pl.tensor.div %e, %sum : !pl.tensor<16x64xf32>, !pl.tensor<16x1xf32> -> !pl.tensor<16x64xf32>
    pl.yield %p : !pl.tensor<16x64xf32>
  }
  return %y : !pl.tensor<16x64xf32>
}
";
    let x = array(&[16, 64], Elem::F32, |i| sample(4, i) / 8.0);
    let [before, after] = before_and_after(|p| load_text(softmax, p), A2A3, "softmax", &[("x", x)]);
    assert_eq!(result(&before, "result0"), result(&after, "result0"));
    let inputs = [
        ("a", array(&[128, 128], Elem::F32, |i| sample(0, i))),
        ("b", array(&[128, 128], Elem::F32, |i| sample(1, i))),
    ];
    let [before, after] = before_and_after(
        |p| load(&example("tiles/elementwise_add.mlir"), p),
        A2A3,
        "add_tensors",
        &inputs,
    );
    assert_eq!(result(&before, "result0"), result(&after, "result0"));
}

/// A rank-3 program keeps its results when its tiles are flattened to 2-D
/// (loads and stores of `partition` windows) by the a2a3 pipeline.
#[test]
fn flattened_rank3_tiles_preserve_results() {
    let softmax = "
!X = !pl.tensor<3x8x64xf32>
!C = !pl.tensor<3x8x1xf32>
func.func @softmax(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.incore_scope -> !X {
    %max = pl.tensor.row_max %x : !X -> !C
    %shifted = pl.tensor.sub %x, %max : !X, !C -> !X
    %e = pl.tensor.exp %shifted : !X
    %sum = pl.tensor.row_sum %e : !X -> !C
    %p = pl.tensor.div %e, %sum : !X, !C -> !X
    pl.yield %p : !X
  }
  return %y : !X
}
";
    let x = array(&[3, 8, 64], Elem::F32, |i| sample(5, i) / 8.0);
    let [before, after] = before_and_after(|p| load_text(softmax, p), A2A3, "softmax", &[("x", x)]);
    assert_eq!(result(&before, "result0"), result(&after, "result0"));
    // Each row of 64 sums to one: the rows were not mixed up by the flattening.
    for row in result(&after, "result0").chunks(64) {
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-5);
    }
}

/// The tiled-matmul example's tensor-level matmul is too large for L0: the
/// pipeline splits it into K steps over L1-resident operands (see
/// pl-tile-matmul-l0). The product matches the unsplit one up to the f32
/// rounding of the partial sums.
#[test]
fn l0_split_matmul_preserves_results() {
    let [before, after] = before_and_after(
        |p| load(&example("tiles/tiled_matmul.mlir"), p),
        A2A3,
        "matmul_tensors",
        &matmul_inputs(),
    );
    let (before, after) = (result(&before, "result0"), result(&after, "result0"));
    let scale = before.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    assert!(scale > 0.0);
    for (i, (x, y)) in before.iter().zip(after).enumerate() {
        assert!((x - y).abs() <= 1e-5 * scale, "element {i}: {x} vs {y}");
    }
}

/// Tiled loops at tensor level (a slice per step, an assemble into the
/// output; a loop-carried sum) compute the same, bit for bit, after the
/// whole pipeline: slices become window loads, assembles stores, and the
/// sum is carried as a tile.
#[test]
fn a2a3_pipeline_preserves_loops() {
    let program = r#"
!T = !pl.tensor<128x128xf32>
!H = !pl.tensor<32x128xf32>
func.func @program(%x: !T, %w: !H) -> (!T, !H) attributes {pl.kind = #pl.kind<orchestration>} {
  %out = pl.tensor.create() : !T
  %y, %s = pl.incore_scope -> !T, !H {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %r = scf.for %i = %c0 to %c128 step %c32 iter_args(%o = %out) -> (!T) {
      %sl = pl.tensor.slice %x[%i, %c0] : !T -> !H
      %m = pl.tensor.mul %sl, %w : !H, !H -> !H
      %e = pl.tensor.exp %m : !H
      %o2 = pl.tensor.assemble %e into %o[%i, %c0] : !H, !T
      scf.yield %o2 : !T
    }
    %first = pl.tensor.slice %x[%c0, %c0] : !T -> !H
    %sum = scf.for %i = %c32 to %c128 step %c32 iter_args(%acc = %first) -> (!H) {
      %sl = pl.tensor.slice %x[%i, %c0] : !T -> !H
      %a = pl.tensor.add %acc, %sl : !H, !H -> !H
      scf.yield %a : !H
    }
    pl.yield %r, %sum : !T, !H
  }
  return %y, %s : !T, !H
}
"#;
    let x = array(&[128, 128], Elem::F32, |i| sample(6, i) / 4.0);
    let w = array(&[32, 128], Elem::F32, |i| sample(7, i) / 4.0);
    let [before, after] = before_and_after(
        |p| load_text(program, p),
        A2A3,
        "program",
        &[("x", x), ("w", w)],
    );
    for name in ["result0", "result1"] {
        assert_eq!(result(&before, name), result(&after, name), "{name}");
    }
}

/// `a_trans` / `b_trans` survive the tensor-to-tile conversion: Q·K^T and
/// A^T·B against products computed here (small integers: exact in f32).
#[test]
fn transposed_matmul_operands_preserve_results() {
    let program = "
func.func @qk_t(%q: !pl.tensor<16x64xf16>, %k: !pl.tensor<32x64xf16>) -> !pl.tensor<16x32xf32> attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.matmul %q, %k {b_trans} : !pl.tensor<16x64xf16>, !pl.tensor<32x64xf16> -> !pl.tensor<16x32xf32>
  return %s : !pl.tensor<16x32xf32>
}
func.func @at_b(%a: !pl.tensor<64x64xf16>, %b: !pl.tensor<64x32xf16>) -> !pl.tensor<64x32xf32> attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.matmul %a, %b {a_trans} : !pl.tensor<64x64xf16>, !pl.tensor<64x32xf16> -> !pl.tensor<64x32xf32>
  return %s : !pl.tensor<64x32xf32>
}
func.func @run_qk_t(%q: !pl.tensor<16x64xf16>, %k: !pl.tensor<32x64xf16>) -> !pl.tensor<16x32xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %s = pl.call @qk_t(%q, %k) : (!pl.tensor<16x64xf16>, !pl.tensor<32x64xf16>) -> !pl.tensor<16x32xf32>
  return %s : !pl.tensor<16x32xf32>
}
func.func @run_at_b(%a: !pl.tensor<64x64xf16>, %b: !pl.tensor<64x32xf16>) -> !pl.tensor<64x32xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %s = pl.call @at_b(%a, %b) : (!pl.tensor<64x64xf16>, !pl.tensor<64x32xf16>) -> !pl.tensor<64x32xf32>
  return %s : !pl.tensor<64x32xf32>
}
";
    let convert = "builtin.module(pl-convert-tensor-to-tile)";
    let q = array(&[16, 64], Elem::F16, |i| sample(0, i) / 4.0);
    let k = array(&[32, 64], Elem::F16, |i| sample(1, i) / 4.0);
    let [before, after] = before_and_after(
        |p| load_text(program, p),
        convert,
        "run_qk_t",
        &[("q", q.clone()), ("k", k.clone())],
    );
    let golden: Vec<f64> = (0..16 * 32)
        .map(|x| {
            (0..64)
                .map(|d| q.data[(x / 32) * 64 + d] * k.data[(x % 32) * 64 + d])
                .sum()
        })
        .collect();
    assert_eq!(result(&before, "result0"), golden.as_slice());
    assert_eq!(result(&after, "result0"), golden.as_slice());
    let a = array(&[64, 64], Elem::F16, |i| sample(2, i) / 4.0);
    let b = array(&[64, 32], Elem::F16, |i| sample(3, i) / 4.0);
    let [before, after] = before_and_after(
        |p| load_text(program, p),
        convert,
        "run_at_b",
        &[("a", a.clone()), ("b", b.clone())],
    );
    let golden: Vec<f64> = (0..64 * 32)
        .map(|x| {
            (0..64)
                .map(|d| a.data[d * 64 + x / 32] * b.data[d * 32 + x % 32])
                .sum()
        })
        .collect();
    assert_eq!(result(&before, "result0"), golden.as_slice());
    assert_eq!(result(&after, "result0"), golden.as_slice());
}
