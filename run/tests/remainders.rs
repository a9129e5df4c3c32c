//! Remainders and integer division (docs/a2a3-lowering.md, "Remainders"):
//! `pl.*.rem` is the floor remainder (the divisor's sign, as Python's `%`
//! and pto-isa's TREM), `pl.*.fmod` the truncating one (the dividend's
//! sign, C's `fmod` and pto-isa's TFMOD); arith's signed ops truncate,
//! `floordivsi`/`ceildivsi` round as named and the `*ui` ops read their
//! operands unsigned. Goldens are computed here from their definitions in
//! floating point, not from the interpreter's formulas.

mod support;

use pto_run::{Array, Session, types::Elem};
use support::load_text;

const TENSORS: &str = "
func.func @remainders(%a: !pl.tensor<4x8xi32>, %b: !pl.tensor<4x8xi32>, %x: !pl.tensor<4x8xf32>, %y: !pl.tensor<4x8xf32>)
    -> (!pl.tensor<4x8xi32>, !pl.tensor<4x8xi32>, !pl.tensor<4x8xf32>, !pl.tensor<4x8xf32>, !pl.tensor<4x8xi32>)
    attributes {pl.kind = #pl.kind<orchestration>} {
  %s = arith.constant -7 : i32
  %r:5 = pl.incore_scope -> !pl.tensor<4x8xi32>, !pl.tensor<4x8xi32>, !pl.tensor<4x8xf32>, !pl.tensor<4x8xf32>, !pl.tensor<4x8xi32> {
    %ri = pl.tensor.rem %a, %b : !pl.tensor<4x8xi32>, !pl.tensor<4x8xi32> -> !pl.tensor<4x8xi32>
    %fi = pl.tensor.fmod %a, %b : !pl.tensor<4x8xi32>, !pl.tensor<4x8xi32> -> !pl.tensor<4x8xi32>
    %rf = pl.tensor.rem %x, %y : !pl.tensor<4x8xf32>, !pl.tensor<4x8xf32> -> !pl.tensor<4x8xf32>
    %ff = pl.tensor.fmod %x, %y : !pl.tensor<4x8xf32>, !pl.tensor<4x8xf32> -> !pl.tensor<4x8xf32>
    %rs = pl.tensor.rems %a, %s : !pl.tensor<4x8xi32>, i32
    pl.yield %ri, %fi, %rf, %ff, %rs : !pl.tensor<4x8xi32>, !pl.tensor<4x8xi32>, !pl.tensor<4x8xf32>, !pl.tensor<4x8xf32>, !pl.tensor<4x8xi32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4 : !pl.tensor<4x8xi32>, !pl.tensor<4x8xi32>, !pl.tensor<4x8xf32>, !pl.tensor<4x8xf32>, !pl.tensor<4x8xi32>
}
";

/// Every sign combination, zero dividends and exact multiples.
fn operands() -> (Vec<f64>, Vec<f64>) {
    let a: Vec<f64> = (0..32).map(|i| f64::from((i * 37 % 61) - 30)).collect();
    let b: Vec<f64> = (0..32)
        .map(|i| {
            let magnitude = f64::from(i % 7 + 1);
            if i % 2 == 0 { magnitude } else { -magnitude }
        })
        .collect();
    (a, b)
}

fn floor_remainder(a: f64, b: f64) -> f64 {
    a - b * (a / b).floor()
}

fn truncated_remainder(a: f64, b: f64) -> f64 {
    a - b * (a / b).trunc()
}

#[test]
fn rem_is_the_floor_remainder_and_fmod_the_truncating_one() {
    let (a, b) = operands();
    let (x, y): (Vec<f64>, Vec<f64>) = (
        a.iter().map(|v| v + 0.5).collect(),
        b.iter().map(|v| v * 0.75).collect(),
    );
    let golden = |f: fn(f64, f64) -> f64, p: &[f64], q: &[f64]| -> Vec<f64> {
        p.iter().zip(q).map(|(&p, &q)| f(p, q)).collect()
    };
    let floor_ints = golden(floor_remainder, &a, &b);
    let trunc_ints = golden(truncated_remainder, &a, &b);
    // The two definitions differ on these inputs.
    assert_ne!(floor_ints, trunc_ints);
    let sevens = vec![-7.0; 32];
    for pipeline in [None, Some("builtin.module(pto-a2a3-pipeline)")] {
        let program = load_text(TENSORS, pipeline);
        let outcome = Session::new(&program)
            .input("a", Array::new(vec![4, 8], Elem::I32, a.clone()))
            .input("b", Array::new(vec![4, 8], Elem::I32, b.clone()))
            .input("x", Array::new(vec![4, 8], Elem::F32, x.clone()))
            .input("y", Array::new(vec![4, 8], Elem::F32, y.clone()))
            .run("remainders")
            .unwrap();
        let result = |i: usize| outcome.get(&format!("result{i}")).unwrap().data.clone();
        assert_eq!(result(0), floor_ints, "rem of integers after {pipeline:?}");
        assert_eq!(result(1), trunc_ints, "fmod of integers after {pipeline:?}");
        assert_eq!(result(2), golden(floor_remainder, &x, &y), "rem of floats");
        assert_eq!(
            result(3),
            golden(truncated_remainder, &x, &y),
            "fmod of floats"
        );
        assert_eq!(result(4), golden(floor_remainder, &a, &sevens), "rems");
    }
}

const SCALARS: &str = "
func.func @arith(%a: i32, %b: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %0 = arith.remsi %a, %b : i32
  %1 = arith.divsi %a, %b : i32
  %2 = arith.floordivsi %a, %b : i32
  %3 = arith.ceildivsi %a, %b : i32
  %4 = arith.divui %a, %b : i32
  %5 = arith.remui %a, %b : i32
  %6 = arith.ceildivui %a, %b : i32
  %7 = arith.minui %a, %b : i32
  %8 = arith.maxui %a, %b : i32
  %c1 = arith.constant 1 : i32
  %9 = arith.shrui %a, %c1 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}
";

#[test]
fn arith_integer_division_rounds_as_named_and_unsigned_ops_read_unsigned() {
    let program = load_text(SCALARS, None);
    for (a, b) in [(-7i64, 2i64), (7, -2), (-8, 2), (9, 4), (-1, 3)] {
        let outcome = Session::new(&program)
            .input("a", Array::new(vec![], Elem::I32, vec![a as f64]))
            .input("b", Array::new(vec![], Elem::I32, vec![b as f64]))
            .run("arith")
            .unwrap();
        let got: Vec<i64> = (0..10)
            .map(|i| outcome.get(&format!("result{i}")).unwrap().data[0] as i64)
            .collect();
        let (fa, fb) = (a as f64, b as f64);
        let (ua, ub) = (f64::from(a as i32 as u32), f64::from(b as i32 as u32));
        let unsigned = |v: f64| v as u32 as i32 as i64;
        let expected = vec![
            truncated_remainder(fa, fb) as i64,
            (fa / fb).trunc() as i64,
            (fa / fb).floor() as i64,
            (fa / fb).ceil() as i64,
            unsigned((ua / ub).floor()),
            unsigned(ua - ub * (ua / ub).floor()),
            unsigned((ua / ub).ceil()),
            if ua <= ub { a } else { b },
            if ua >= ub { a } else { b },
            unsigned((ua / 2.0).floor()),
        ];
        assert_eq!(got, expected, "a = {a}, b = {b}");
    }
}
