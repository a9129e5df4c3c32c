//! Tile ops defined by valid regions (docs/dialects/pl.md, their ops):
//! partial arithmetic over the first operand's valid region, joining two
//! tiles side by side, growing a tile with padding, and the carrying
//! three-operand arithmetic.

use std::sync::Arc;

use pto_dialects::enums::{EnumAttr, PadValue};

use super::{
    Frame, Interp,
    tile::{apply, undefined_read},
};
use crate::{
    error::{Result, RunError},
    program::{Binary, Code, Op},
    types::Ty,
    value::{Tile, Value, pad_value},
};

/// `how(lhs, rhs)` where both hold data, `lhs` where only it does, over
/// `lhs`'s valid region; `rhs`'s region must lie inside it.
pub fn partial(lhs: &Tile, rhs: &Tile, how: Binary) -> Result<Tile> {
    if rhs.valid_rows > lhs.valid_rows || rhs.valid_cols > lhs.valid_cols {
        return Err(RunError::new(format!(
            "a partial op's right operand holds [{}, {}] valid elements, outside the left one's [{}, {}]",
            rhs.valid_rows, rhs.valid_cols, lhs.valid_rows, lhs.valid_cols
        )));
    }
    let mut result = Tile::undefined(lhs.rows, lhs.cols, lhs.elem)?;
    (result.valid_rows, result.valid_cols, result.pad) = (lhs.valid_rows, lhs.valid_cols, lhs.pad);
    for r in 0..lhs.valid_rows {
        for c in 0..lhs.valid_cols {
            let a = lhs
                .get(r, c)
                .ok_or_else(|| undefined_read("a partial op", r, c))?;
            let value = if rhs.is_valid(r, c) {
                let b = rhs
                    .get(r, c)
                    .ok_or_else(|| undefined_read("a partial op", r, c))?;
                apply(how, a, b, lhs.elem)?
            } else {
                a
            };
            let i = result.index(r, c);
            result.data[i] = value;
            result.defined[i] = true;
        }
    }
    Ok(result)
}

/// The rows of `lhs` followed by those of `rhs` (their valid columns).
pub fn concat(lhs: &Tile, rhs: &Tile) -> Result<Tile> {
    if lhs.valid_rows != rhs.valid_rows {
        return Err(RunError::new(format!(
            "concat joins tiles of {} and {} valid rows",
            lhs.valid_rows, rhs.valid_rows
        )));
    }
    let mut result = Tile::undefined(lhs.rows, lhs.cols + rhs.cols, lhs.elem)?;
    result.valid_rows = lhs.valid_rows;
    for r in 0..lhs.valid_rows {
        for (part, at) in [(lhs, 0), (rhs, lhs.cols)] {
            for c in 0..part.cols {
                let x = part
                    .get(r, c)
                    .ok_or_else(|| undefined_read("concat", r, c))?;
                let i = result.index(r, at + c);
                result.data[i] = x;
                result.defined[i] = true;
            }
        }
    }
    Ok(result)
}

/// A `rows` x `cols` tile holding `source`'s valid region at its origin
/// and `pad` elsewhere.
pub fn fill_expand(source: &Tile, rows: usize, cols: usize, pad: PadValue) -> Result<Tile> {
    let value = pad_value(pad, source.elem)
        .ok_or_else(|| RunError::new("fillpad_expand needs zero, max or min"))?;
    let mut result = Tile::filled(rows, cols, source.elem, value)?;
    result.pad = pad;
    for r in 0..source.valid_rows {
        for c in 0..source.valid_cols {
            let x = source
                .get(r, c)
                .ok_or_else(|| undefined_read("fillpad_expand", r, c))?;
            let i = result.index(r, c);
            result.data[i] = x;
        }
    }
    Ok(result)
}

/// The right operand of a carrying op.
pub enum Rhs<'t> {
    Tile(&'t Tile),
    Scalar(f64),
}

/// `(lhs how rhs) + carry` over `lhs`'s valid region, rounded after each
/// step (`rhs` a tile or a scalar).
pub fn carry(lhs: &Tile, rhs: Rhs, carry: &Tile, how: Binary) -> Result<Tile> {
    let mut result = Tile::undefined(lhs.rows, lhs.cols, lhs.elem)?;
    (result.valid_rows, result.valid_cols, result.pad) = (lhs.valid_rows, lhs.valid_cols, lhs.pad);
    let read = |t: &Tile, r: usize, c: usize| {
        t.get(r, c)
            .ok_or_else(|| undefined_read("a carrying op", r, c))
    };
    for r in 0..lhs.valid_rows {
        for c in 0..lhs.valid_cols {
            let b = match rhs {
                Rhs::Tile(tile) => read(tile, r, c)?,
                Rhs::Scalar(scalar) => lhs.elem.round(scalar),
            };
            let step = apply(how, read(lhs, r, c)?, b, lhs.elem)?;
            let i = result.index(r, c);
            result.data[i] = apply(Binary::Add, step, read(carry, r, c)?, lhs.elem)?;
            result.defined[i] = true;
        }
    }
    Ok(result)
}

impl Interp<'_> {
    /// Partial, joining, growing and carrying ops.
    pub(super) fn region_op(&mut self, frame: &Frame, op: &Op) -> Result<Value> {
        let tile_value = |t: Tile| Value::Tile(Arc::new(t));
        Ok(match op.code {
            Code::TilePartial(how) => tile_value(partial(
                &*self.tile(frame, op.operands[0])?,
                &*self.tile(frame, op.operands[1])?,
                how,
            )?),
            Code::TensorPartial(how) => {
                let (lhs, rhs) = (
                    self.tensor(frame, op.operands[0])?,
                    self.tensor(frame, op.operands[1])?,
                );
                let tile = partial(&self.read_all(&lhs)?, &self.read_all(&rhs)?, how)?;
                Value::Tensor(self.new_tensor(&tile, lhs.shape.clone(), lhs.elem)?)
            }
            Code::TileCarry(how) => {
                let tile_rhs = match op.operand_types.get(1) {
                    Some(Ty::Tile(_)) => Some(self.tile(frame, op.operands[1])?),
                    _ => None,
                };
                let rhs = match &tile_rhs {
                    Some(tile) => Rhs::Tile(tile),
                    None => Rhs::Scalar(self.number(frame, op.operands[1])?),
                };
                tile_value(carry(
                    &*self.tile(frame, op.operands[0])?,
                    rhs,
                    &*self.tile(frame, op.operands[2])?,
                    how,
                )?)
            }
            Code::TileConcat => tile_value(concat(
                &*self.tile(frame, op.operands[0])?,
                &*self.tile(frame, op.operands[1])?,
            )?),
            Code::TileFillpadExpand => {
                let Some(Ty::Tile(ty)) = op.result_types.first() else {
                    return Err(RunError::new("fillpad_expand makes a tile"));
                };
                let (rows, cols) = super::tile::grid(&ty.shape);
                let pad = op.enum_attr::<PadValue>("pad").unwrap_or(PadValue::Zero);
                tile_value(fill_expand(
                    &*self.tile(frame, op.operands[0])?,
                    rows,
                    cols,
                    pad,
                )?)
            }
            _ => return Err(RunError::new(format!("'{}' is not a region op", op.name))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Elem;

    fn tile(
        rows: usize,
        cols: usize,
        valid: (usize, usize),
        values: impl Fn(usize) -> f64,
    ) -> Tile {
        let mut t = Tile::undefined(rows, cols, Elem::F32).unwrap();
        for i in 0..rows * cols {
            t.data[i] = values(i);
            t.defined[i] = true;
        }
        (t.valid_rows, t.valid_cols) = valid;
        t
    }

    #[test]
    fn partial_ops_pass_the_left_operand_through_outside_the_right() {
        let a = tile(2, 4, (2, 4), |i| i as f64);
        let b = tile(2, 4, (1, 2), |_| 10.0);
        let sum = partial(&a, &b, Binary::Add).unwrap();
        assert_eq!(sum.data, vec![10.0, 11.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        assert!(partial(&b, &a, Binary::Add).is_err());
    }

    #[test]
    fn carries_round_after_each_step() {
        // In f32, 2^24 + 1 rounds to 2^24 before the carry is added.
        let big = tile(1, 8, (1, 8), |_| 16_777_216.0);
        let one = tile(1, 8, (1, 8), |_| 1.0);
        let r = carry(&big, Rhs::Tile(&one), &one, Binary::Add).unwrap();
        assert_eq!(r.data[0], 16_777_216.0);
        let s = carry(&big, Rhs::Scalar(1.0), &one, Binary::Sub).unwrap();
        assert_eq!(s.data[0], 16_777_216.0);
    }

    #[test]
    fn expansion_pads_around_the_valid_region() {
        let a = tile(2, 2, (1, 2), |i| i as f64 + 1.0);
        let e = fill_expand(&a, 2, 3, PadValue::Min).unwrap();
        assert_eq!(&e.data[..3], &[1.0, 2.0, f64::NEG_INFINITY]);
        assert!(e.data[3..].iter().all(|x| *x == f64::NEG_INFINITY));
    }
}
