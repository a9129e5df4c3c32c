//! Ops that a2a3 has no instruction for, as sequences of primitive tile
//! ops (docs/a2a3-lowering.md, "Sine and cosine"). One definition serves
//! both readers: `pl-lower-math-ops` emits the steps as tile ops, and
//! pto-run evaluates `pl.tile.sin`/`pl.tile.cos` (and their tensor forms)
//! by running the same steps with its own elementwise arithmetic, so the
//! program computes the same before and after the lowering, bit for bit.

use crate::enums::RoundMode;

/// A value a step reads: the op's input or an earlier step's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// The tile the composite op takes.
    Input,
    /// The result of step `n` (0-based).
    Step(usize),
}

/// One primitive elementwise op. Every float step is f32, rounded to
/// nearest even once (no fused multiply-add).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// `pl.tile.muls a, c`.
    MulScalar(Operand, f32),
    /// `pl.tile.adds a, c`.
    AddScalar(Operand, f32),
    /// `pl.tile.add a, b`.
    Add(Operand, Operand),
    /// `pl.tile.sub a, b`.
    Sub(Operand, Operand),
    /// `pl.tile.mul a, b`.
    Mul(Operand, Operand),
    /// `pl.tile.cast a <mode>` to i32.
    ToI32(Operand, RoundMode),
    /// `pl.tile.cast a none` to f32 (exact for the integers involved).
    ToF32(Operand),
}

// The constants are given by their f32 bits: these are the values the
// steps compute with, whatever decimal rounds to them.

/// 1/π (0.318309873).
const INV_PI: f32 = f32::from_bits(0x3ea2_f983);
/// π in five f32 parts whose products with an integer k below 2^14 are
/// exact (Cody–Waite reduction): the first four have at most 10
/// significant bits; the exact sum is π within 2e-16. 3.140625,
/// 9.67025757e-4, 6.27711415e-7, 1.21644916e-10, -1.02906229e-13.
const PI_PARTS: [f32; 5] = [
    f32::from_bits(0x4049_0000),
    f32::from_bits(0x3a7d_8000),
    f32::from_bits(0x3528_8000),
    f32::from_bits(0x2f05_c000),
    f32::from_bits(0xa9e7_b967),
];
/// π/2 as an f32 head (1.57079637) and the f32 remainder (-4.37113883e-8).
const HALF_PI_HEAD: f32 = f32::from_bits(0x3fc9_0fdb);
const HALF_PI_TAIL: f32 = f32::from_bits(0xb33b_bd2e);
/// sin(t) ≈ t·(1 + R3 t² + R2 t⁴ + R1 t⁶ + R0 t⁸) on [-π/2, π/2], R0 to R3:
/// 2.60492652e-6, -1.98089445e-4, 8.33304971e-3, -1.66666582e-1.
const SIN_COEFFICIENTS: [f32; 4] = [
    f32::from_bits(0x362e_d04c),
    f32::from_bits(0xb94f_b63b),
    f32::from_bits(0x3c08_8758),
    f32::from_bits(0xbe2a_aaa5),
];

/// The steps of `sin(x)` (`cos` false) or `cos(x)`, f32. The last step's
/// result is the op's.
///
/// With k = round(x/π) (ties away from zero; cos: rint(x/π + 1/2)), the
/// input is reduced to t = x − kπ (cos: + π/2) in [-π/2, π/2], subtracting
/// k times each part of π in turn; then sin(x) = (−1)^k·sin(t), the sign
/// computed without a branch as 4·floor(k/2) − 2k + 1, and sin(t) by the
/// odd degree-9 polynomial in Horner form. Accuracy: about 2e-7 absolute
/// for |x| up to 2^11·π; the reduction loses accuracy past |x| ≈ 2^17.
pub fn sine_or_cosine(cos: bool) -> Vec<Step> {
    use Operand::{Input, Step as S};
    let mut steps: Vec<Step> = Vec::new();
    let mut push = |step: Step| {
        steps.push(step);
        S(steps.len() - 1)
    };
    let over_pi = push(Step::MulScalar(Input, INV_PI));
    let k_int = if cos {
        let shifted = push(Step::AddScalar(over_pi, 0.5));
        push(Step::ToI32(shifted, RoundMode::Rint))
    } else {
        push(Step::ToI32(over_pi, RoundMode::Round))
    };
    let k = push(Step::ToF32(k_int));
    let mut t = Input;
    for (i, part) in PI_PARTS.into_iter().enumerate() {
        let product = push(Step::MulScalar(k, part));
        t = push(Step::Sub(t, product));
        if cos && i == 1 {
            t = push(Step::AddScalar(t, HALF_PI_HEAD));
        }
    }
    if cos {
        t = push(Step::AddScalar(t, HALF_PI_TAIL));
    }
    let half_k = push(Step::MulScalar(k, 0.5));
    let floor_int = push(Step::ToI32(half_k, RoundMode::Floor));
    let floor = push(Step::ToF32(floor_int));
    let four_floor = push(Step::MulScalar(floor, 4.0));
    let minus_two_k = push(Step::MulScalar(k, -2.0));
    let sign_base = push(Step::Add(four_floor, minus_two_k));
    let sign = push(Step::AddScalar(sign_base, 1.0));
    let square = push(Step::Mul(t, t));
    let mut poly = push(Step::MulScalar(square, SIN_COEFFICIENTS[0]));
    for coefficient in SIN_COEFFICIENTS[1..].iter().copied().chain([1.0]) {
        poly = push(Step::AddScalar(poly, coefficient));
        if coefficient != 1.0 {
            poly = push(Step::Mul(poly, square));
        }
    }
    let t_poly = push(Step::Mul(t, poly));
    push(Step::Mul(sign, t_poly));
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the steps in plain f32 arithmetic (an independent evaluator:
    /// Rust's own f32 operations and roundings).
    fn evaluate(steps: &[Step], x: f32) -> f32 {
        let mut values: Vec<f32> = Vec::new();
        let read = |values: &[f32], operand: Operand| match operand {
            Operand::Input => x,
            Operand::Step(n) => values[n],
        };
        for step in steps {
            let value = match *step {
                Step::MulScalar(a, c) => read(&values, a) * c,
                Step::AddScalar(a, c) => read(&values, a) + c,
                Step::Add(a, b) => read(&values, a) + read(&values, b),
                Step::Sub(a, b) => read(&values, a) - read(&values, b),
                Step::Mul(a, b) => read(&values, a) * read(&values, b),
                Step::ToI32(a, mode) => {
                    let v = read(&values, a);
                    (match mode {
                        RoundMode::Round => v.round(),
                        RoundMode::Rint => v.round_ties_even(),
                        RoundMode::Floor => v.floor(),
                        _ => unreachable!("the steps use round, rint and floor"),
                    }) as i32 as f32
                }
                Step::ToF32(a) => read(&values, a),
            };
            values.push(value);
        }
        *values.last().unwrap()
    }

    #[test]
    fn the_steps_compute_sine_and_cosine() {
        let (sin, cos) = (sine_or_cosine(false), sine_or_cosine(true));
        assert_eq!(sin.len(), 31);
        assert_eq!(cos.len(), 34);
        let mut worst = (0.0f64, 0.0f64);
        for i in -20000..=20000 {
            let x = i as f32 * 0.01;
            let exact = f64::from(x);
            worst.0 = worst
                .0
                .max((f64::from(evaluate(&sin, x)) - exact.sin()).abs());
            worst.1 = worst
                .1
                .max((f64::from(evaluate(&cos, x)) - exact.cos()).abs());
        }
        assert!(worst.0 < 3e-7, "sin error {}", worst.0);
        assert!(worst.1 < 3e-7, "cos error {}", worst.1);
        assert_eq!(evaluate(&sin, 0.0), 0.0);
        assert_eq!(evaluate(&cos, std::f32::consts::PI), -1.0);
    }

    #[test]
    fn the_parts_of_pi_sum_to_pi_and_multiply_exactly() {
        let sum: f64 = PI_PARTS.iter().map(|&p| f64::from(p)).sum();
        assert!((sum - std::f64::consts::PI).abs() < 1e-15);
        assert!(
            (f64::from(HALF_PI_HEAD) + f64::from(HALF_PI_TAIL) - std::f64::consts::FRAC_PI_2).abs()
                < 1e-14
        );
        for part in &PI_PARTS[..4] {
            for k in [1.0f32, 3.0, 12345.0, 16383.0] {
                assert_eq!(f64::from(k * part), f64::from(k) * f64::from(*part));
            }
        }
    }
}
