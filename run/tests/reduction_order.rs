//! The order of f16 sums (docs/a2a3-lowering.md, "Reduction order"),
//! against goldens computed here with the `half` crate: a row sum
//! accumulates in f32 and rounds once; a column sum adds in f16, rounding
//! after every add. Inputs are chosen so that the two orders (and a single
//! rounding of an exact sum) give different f16 results.

mod support;

use half::f16;
use pto_run::{Array, Session, types::Elem};
use support::load_text;

const PROGRAM: &str = "
func.func @sums(%x: !pl.tensor<64x128xf16>) -> (!pl.tensor<64x1xf16>, !pl.tensor<1x128xf16>) attributes {pl.kind = #pl.kind<orchestration>} {
  %r, %c = pl.incore_scope -> !pl.tensor<64x1xf16>, !pl.tensor<1x128xf16> {
    %rows = pl.tensor.row_sum %x : !pl.tensor<64x128xf16> -> !pl.tensor<64x1xf16>
    %cols = pl.tensor.col_sum %x : !pl.tensor<64x128xf16> -> !pl.tensor<1x128xf16>
    pl.yield %rows, %cols : !pl.tensor<64x1xf16>, !pl.tensor<1x128xf16>
  }
  return %r, %c : !pl.tensor<64x1xf16>, !pl.tensor<1x128xf16>
}
";

/// Row r starts with a large value and continues with small ones: in f16
/// each small add is lost, in f32 they add up.
fn input() -> Vec<f64> {
    (0..64 * 128)
        .map(|i| {
            let (r, c) = (i / 128, i % 128);
            let x = if c == 0 || r == 0 {
                2048.0 + 2.0 * (r % 5) as f64
            } else {
                1.0 + ((r * 7 + c * 3) % 4) as f64 * 0.25
            };
            f64::from(f16::from_f64(x))
        })
        .collect()
}

fn row_golden(x: &[f64]) -> Vec<f64> {
    (0..64)
        .map(|r| {
            f64::from(f16::from_f32(
                (0..128).fold(0.0f32, |acc, c| acc + x[r * 128 + c] as f32),
            ))
        })
        .collect()
}

fn col_golden(x: &[f64]) -> Vec<f64> {
    (0..128)
        .map(|c| {
            f64::from((0..64).fold(f16::from_f32(0.0), |acc, r| {
                f16::from_f32(f32::from(acc) + x[r * 128 + c] as f32)
            }))
        })
        .collect()
}

#[test]
fn f16_row_and_column_sums_follow_the_documented_order() {
    let x = input();
    let rows = row_golden(&x);
    let cols = col_golden(&x);
    // The orders differ on this input: the test can tell them apart.
    let rows_in_f16: Vec<f64> = (0..64)
        .map(|r| {
            f64::from((0..128).fold(f16::from_f32(0.0), |acc, c| {
                f16::from_f32(f32::from(acc) + x[r * 128 + c] as f32)
            }))
        })
        .collect();
    assert_ne!(rows, rows_in_f16);
    let cols_in_f32: Vec<f64> = (0..128)
        .map(|c| {
            f64::from(f16::from_f32(
                (0..64).fold(0.0f32, |acc, r| acc + x[r * 128 + c] as f32),
            ))
        })
        .collect();
    assert_ne!(cols, cols_in_f32);
    for pipeline in [None, Some("builtin.module(pto-a2a3-pipeline)")] {
        let program = load_text(PROGRAM, pipeline);
        let outcome = Session::new(&program)
            .input("x", Array::new(vec![64, 128], Elem::F16, x.clone()))
            .run("sums")
            .unwrap();
        assert_eq!(
            outcome.get("result0").unwrap().data,
            rows,
            "row sums after {pipeline:?}"
        );
        assert_eq!(
            outcome.get("result1").unwrap().data,
            cols,
            "column sums after {pipeline:?}"
        );
    }
}

const MATMUL: &str = "
func.func @product(%a: !pl.tensor<16x64xf32>, %b: !pl.tensor<64x32xf32>) -> !pl.tensor<16x32xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.incore_scope -> !pl.tensor<16x32xf32> {
    %p = pl.tensor.matmul %a, %b : !pl.tensor<16x64xf32>, !pl.tensor<64x32xf32> -> !pl.tensor<16x32xf32>
    pl.yield %p : !pl.tensor<16x32xf32>
  }
  return %r : !pl.tensor<16x32xf32>
}
";

/// A matmul into f32 accumulates k ascending from zero, fusing each
/// product into the f32 sum (pto-isa's CPU TMATMUL); an exact sum rounded
/// once differs on these inputs.
#[test]
fn f32_matmul_follows_the_documented_order() {
    let value = |i: usize, scale: f64| ((i * 7919 % 1009) as f64 / 1009.0 - 0.5) * scale;
    let a: Vec<f64> = (0..16 * 64)
        .map(|i| f64::from(value(i, 3.0) as f32))
        .collect();
    let b: Vec<f64> = (0..64 * 32)
        .map(|i| f64::from(value(i * 13 + 5, 7.0) as f32))
        .collect();
    let fused: Vec<f64> = (0..16 * 32)
        .map(|i| {
            let (r, c) = (i / 32, i % 32);
            f64::from((0..64).fold(0.0f32, |sum, k| {
                (a[r * 64 + k] as f32).mul_add(b[k * 32 + c] as f32, sum)
            }))
        })
        .collect();
    let exact: Vec<f64> = (0..16 * 32)
        .map(|i| {
            let (r, c) = (i / 32, i % 32);
            f64::from((0..64).map(|k| a[r * 64 + k] * b[k * 32 + c]).sum::<f64>() as f32)
        })
        .collect();
    assert_ne!(fused, exact);
    let program = load_text(MATMUL, None);
    let outcome = Session::new(&program)
        .input("a", Array::new(vec![16, 64], Elem::F32, a))
        .input("b", Array::new(vec![64, 32], Elem::F32, b))
        .run("product")
        .unwrap();
    assert_eq!(outcome.get("result0").unwrap().data, fused);
}
