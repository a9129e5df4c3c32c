//! `arith` and `math` on scalars.

use pto_dialects::enums::CmpMode;

use super::{Frame, Interp};
use crate::{
    error::{Result, RunError},
    program::{Attr, Binary, Code, Op, Unary},
    types::{Elem, Ty, float_to_int},
    value::Value,
};

/// The element type of a scalar result (`index` when unknown).
fn result_elem(op: &Op) -> Elem {
    op.result_types
        .first()
        .and_then(Ty::scalar)
        .unwrap_or(Elem::Index)
}

/// Applies a unary float function.
pub fn unary(how: Unary, x: f64) -> f64 {
    match how {
        Unary::Neg => -x,
        Unary::Exp => x.exp(),
        Unary::Log => x.ln(),
        Unary::Sqrt => x.sqrt(),
        Unary::Rsqrt => 1.0 / x.sqrt(),
        Unary::Recip => 1.0 / x,
        Unary::Abs => x.abs(),
        Unary::Relu => x.max(0.0),
        Unary::Not => !(x as i64) as f64,
        Unary::Sin => x.sin(),
        Unary::Cos => x.cos(),
    }
}

/// Applies a binary operation to floats (`slope` for prelu/lrelu is `b`).
pub fn float_binary(how: Binary, a: f64, b: f64) -> Result<f64> {
    Ok(match how {
        Binary::Add => a + b,
        Binary::Sub => a - b,
        Binary::Mul => a * b,
        Binary::Div => a / b,
        Binary::Max => a.max(b),
        Binary::Min => a.min(b),
        Binary::Fmod => a % b,
        Binary::Rem => floor_remainder(a % b, a >= 0.0, b),
        Binary::Prelu | Binary::Lrelu => {
            if a >= 0.0 {
                a
            } else {
                a * b
            }
        }
        Binary::ExpDif => (a - b).exp(),
        Binary::Second => b,
        Binary::And | Binary::Or | Binary::Xor | Binary::Shl | Binary::Shr => {
            return Err(RunError::new("bitwise operations need integer operands"));
        }
        Binary::FloorDiv
        | Binary::CeilDiv
        | Binary::DivU
        | Binary::CeilDivU
        | Binary::RemU
        | Binary::MinU
        | Binary::MaxU
        | Binary::ShrU => {
            return Err(RunError::new(
                "integer division and unsigned operations need integer operands",
            ));
        }
    })
}

/// pto-isa's floor remainder from the truncating one: where the dividend's
/// sign (`dividend_nonnegative`) differs from the divisor's and the
/// remainder is not zero, the divisor is added (the result takes the
/// divisor's sign, as Python's `%`).
fn floor_remainder<T>(remainder: T, dividend_nonnegative: bool, divisor: T) -> T
where
    T: Copy + PartialOrd + Default + std::ops::Add<Output = T>,
{
    let zero = T::default();
    if remainder != zero && dividend_nonnegative != (divisor >= zero) {
        remainder + divisor
    } else {
        remainder
    }
}

/// The unsigned reading of an integer of type `elem`.
fn unsigned(elem: Elem, x: i64) -> u64 {
    match elem {
        Elem::Bool => (x & 1) as u64,
        Elem::I8 | Elem::U8 => x as u8 as u64,
        Elem::I16 | Elem::U16 => x as u16 as u64,
        Elem::I32 | Elem::U32 => x as u32 as u64,
        _ => x as u64,
    }
}

/// Applies a binary operation to integers of type `elem`.
pub fn int_binary(how: Binary, a: i64, b: i64, elem: Elem) -> Result<i64> {
    let value = match how {
        Binary::Add => a.wrapping_add(b),
        Binary::Sub => a.wrapping_sub(b),
        Binary::Mul => a.wrapping_mul(b),
        Binary::Div => {
            if b == 0 {
                return Err(RunError::new("integer division by zero"));
            }
            a.wrapping_div(b)
        }
        Binary::Rem | Binary::Fmod | Binary::FloorDiv | Binary::CeilDiv => {
            if b == 0 {
                return Err(RunError::new("integer remainder or division by zero"));
            }
            let (quotient, remainder) = (a.wrapping_div(b), a.wrapping_rem(b));
            let opposite = remainder != 0 && (a < 0) != (b < 0);
            match how {
                Binary::Fmod => remainder,
                Binary::Rem => floor_remainder(remainder, a >= 0, b),
                Binary::FloorDiv => quotient - i64::from(opposite),
                _ => quotient + i64::from(remainder != 0 && !opposite),
            }
        }
        Binary::DivU | Binary::CeilDivU | Binary::RemU => {
            let (a, b) = (unsigned(elem, a), unsigned(elem, b));
            if b == 0 {
                return Err(RunError::new("integer remainder or division by zero"));
            }
            (match how {
                Binary::DivU => a / b,
                Binary::CeilDivU => a / b + u64::from(a % b != 0),
                _ => a % b,
            }) as i64
        }
        Binary::MinU => {
            if unsigned(elem, a) <= unsigned(elem, b) {
                a
            } else {
                b
            }
        }
        Binary::MaxU => {
            if unsigned(elem, a) >= unsigned(elem, b) {
                a
            } else {
                b
            }
        }
        Binary::ShrU => unsigned(elem, a).wrapping_shr(b as u32) as i64,
        Binary::Max => a.max(b),
        Binary::Min => a.min(b),
        Binary::And => a & b,
        Binary::Or => a | b,
        Binary::Xor => a ^ b,
        Binary::Shl => a.wrapping_shl(b as u32),
        Binary::Shr => a.wrapping_shr(b as u32),
        Binary::Prelu | Binary::Lrelu => {
            if a >= 0 {
                a
            } else {
                a.wrapping_mul(b)
            }
        }
        Binary::ExpDif => return Err(RunError::new("expdif needs float operands")),
        Binary::Second => b,
    };
    Ok(elem.wrap(value))
}

/// Compares two numbers by a `pl` comparison mode.
pub fn compare(mode: CmpMode, a: f64, b: f64) -> bool {
    match mode {
        CmpMode::Eq => a == b,
        CmpMode::Ne => a != b,
        CmpMode::Lt => a < b,
        CmpMode::Le => a <= b,
        CmpMode::Gt => a > b,
        CmpMode::Ge => a >= b,
    }
}

impl Interp<'_> {
    pub(super) fn scalar_op(&self, frame: &Frame, op: &Op) -> Result<Value> {
        let elem = result_elem(op);
        Ok(match op.code {
            Code::Constant => match op.attr("value") {
                Some(Attr::Int(v)) => match op.result_types.first() {
                    Some(Ty::Float(e)) => Value::Float(e.round(*v as f64)),
                    _ => Value::Int(elem.wrap(*v)),
                },
                Some(Attr::Bool(b)) => Value::Int(i64::from(*b)),
                Some(Attr::Float(v)) => Value::Float(elem.round(*v)),
                _ => {
                    return Err(RunError::new(
                        "pto-run executes scalar integer and float constants only",
                    ));
                }
            },
            Code::IntCast => {
                let value = self.int(frame, op.operands[0])?;
                let unsigned_source = op.name.ends_with("ui") || op.name == "arith.extui";
                let value = if unsigned_source {
                    match op.operand_types.first().and_then(Ty::scalar) {
                        Some(Elem::Bool) => value & 1,
                        Some(Elem::I8 | Elem::U8) => value & 0xff,
                        Some(Elem::I16 | Elem::U16) => value & 0xffff,
                        Some(Elem::I32 | Elem::U32) => value & 0xffff_ffff,
                        _ => value,
                    }
                } else {
                    value
                };
                Value::Int(elem.wrap(value))
            }
            Code::TruncI => Value::Int(elem.wrap(self.int(frame, op.operands[0])?)),
            Code::SIToFP | Code::UIToFP => {
                Value::Float(elem.round(self.int(frame, op.operands[0])? as f64))
            }
            Code::FPToSI | Code::FPToUI => {
                Value::Int(elem.wrap(float_to_int(self.number(frame, op.operands[0])?)))
            }
            Code::FloatCast => Value::Float(elem.round(self.number(frame, op.operands[0])?)),
            Code::IntBinary(how) => {
                let (a, b) = (
                    self.int(frame, op.operands[0])?,
                    self.int(frame, op.operands[1])?,
                );
                let value = int_binary(how, a, b, elem)?;
                Value::Int(elem.wrap(value))
            }
            Code::FloatBinary(how) => {
                let (a, b) = (
                    self.number(frame, op.operands[0])?,
                    self.number(frame, op.operands[1])?,
                );
                Value::Float(elem.round(float_binary(how, a, b)?))
            }
            Code::Cmpi => {
                let (a, b) = (
                    self.int(frame, op.operands[0])?,
                    self.int(frame, op.operands[1])?,
                );
                let holds = match op.int_attr("predicate").unwrap_or(0) {
                    0 => a == b,
                    1 => a != b,
                    2 => a < b,
                    3 => a <= b,
                    4 => a > b,
                    5 => a >= b,
                    6 => (a as u64) < (b as u64),
                    7 => (a as u64) <= (b as u64),
                    8 => (a as u64) > (b as u64),
                    _ => (a as u64) >= (b as u64),
                };
                Value::Int(i64::from(holds))
            }
            Code::Cmpf => {
                let (a, b) = (
                    self.number(frame, op.operands[0])?,
                    self.number(frame, op.operands[1])?,
                );
                let unordered = a.is_nan() || b.is_nan();
                let holds = match op.int_attr("predicate").unwrap_or(0) {
                    0 => false,
                    1 => !unordered && a == b,
                    2 => !unordered && a > b,
                    3 => !unordered && a >= b,
                    4 => !unordered && a < b,
                    5 => !unordered && a <= b,
                    6 => !unordered && a != b,
                    7 => !unordered,
                    8 => unordered || a == b,
                    9 => unordered || a > b,
                    10 => unordered || a >= b,
                    11 => unordered || a < b,
                    12 => unordered || a <= b,
                    13 => unordered || a != b,
                    14 => unordered,
                    _ => true,
                };
                Value::Int(i64::from(holds))
            }
            Code::Select => {
                let pick = if self.int(frame, op.operands[0])? != 0 {
                    1
                } else {
                    2
                };
                self.get(frame, op.operands[pick])?.clone()
            }
            Code::NegF => Value::Float(-self.number(frame, op.operands[0])?),
            Code::MathUnary(how) => {
                Value::Float(elem.round(unary(how, self.number(frame, op.operands[0])?)))
            }
            _ => unreachable!("not a scalar op"),
        })
    }
}
