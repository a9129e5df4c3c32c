//! Tile ops. The arithmetic kernels work on [`Tile`]s and are shared with
//! the tensor ops (a tensor is read into a whole, valid tile).

use std::sync::Arc;

use pto_dialects::{
    composite,
    enums::{CmpMode, EnumAttr, PadValue, RoundMode},
};

use super::{
    Frame, Interp,
    scalar::{compare, float_binary, int_binary, unary},
};
use crate::{
    error::{Result, RunError},
    program::{Attr, Binary, Code, Op, Reduce, Unary},
    types::{Elem, TileTy, Ty, float_to_int},
    value::{Mem, TensorRef, Tile, Value, leading, pad_value, window_indices},
};

/// Rows and columns of a tile type (leading dims folded into rows).
pub fn grid(shape: &[i64]) -> (usize, usize) {
    match shape.len() {
        0 => (1, 1),
        1 => (1, shape[0] as usize),
        // Saturating: a tile that large is refused when it is made.
        n => (
            shape[..n - 1]
                .iter()
                .fold(1i64, |rows, &d| rows.saturating_mul(d)) as usize,
            shape[n - 1] as usize,
        ),
    }
}

/// The `partition` shape of a load or store of a 2-D tile.
fn partition(op: &Op) -> Option<&[i64]> {
    match op.attr("partition") {
        Some(Attr::Ints(shape)) => Some(shape),
        _ => None,
    }
}

fn tile_ty(ty: &Ty) -> Result<&TileTy> {
    match ty {
        Ty::Tile(t) => Ok(t),
        other => Err(RunError::new(format!(
            "expected a tile type, got {other:?}"
        ))),
    }
}

/// The valid extents of a tile of type `ty`: static ones from the type,
/// dynamic ones from `dynamic` in order, folded like [`grid`].
pub fn valid_of(ty: &TileTy, dynamic: &[i64]) -> Result<(usize, usize)> {
    let mut values = dynamic.iter();
    let mut extents = Vec::new();
    for (i, extent) in ty.valid.iter().enumerate() {
        let extent = match extent {
            Some(e) => *e,
            None => *values
                .next()
                .ok_or_else(|| RunError::new("a dynamic valid extent has no value"))?,
        };
        if extent < 0 || extent > ty.shape[i] {
            return Err(RunError::new(format!(
                "valid extent {extent} is outside the tile's {}",
                ty.shape[i]
            )));
        }
        extents.push(extent);
    }
    Ok(grid(&extents))
}

/// Tile element `(r, c)` as indices of a tensor window at `offsets`.
/// The tensor indices of element `(r, c)` of a window, for messages.
pub fn element_indices(offsets: &[i64], lead: &[usize], r: usize, c: usize) -> Vec<i64> {
    window_indices(offsets, lead, r, c).unwrap_or_else(|| offsets.to_vec())
}

/// The error of `what` reading element `(row, col)` of a tile that holds
/// nothing there.
pub(super) fn undefined_read(what: &str, row: usize, col: usize) -> RunError {
    RunError::new(format!(
        "{what} reads element [{row}, {col}] of a tile, which was never written"
    ))
}

/// Elementwise `how` of two tiles into a tile of `out` (rows × cols, valid
/// from `lhs`), broadcasting a one-row or one-column operand.
pub fn binary_tiles(
    lhs: &Tile,
    rhs: &Tile,
    how: Binary,
    out: Elem,
    rows: usize,
    cols: usize,
) -> Result<Tile> {
    let mut result = Tile::undefined(rows, cols, out)?;
    result.valid_rows = lhs.valid_rows.min(rows);
    result.valid_cols = lhs.valid_cols.min(cols);
    let pick = |t: &Tile, r: usize, c: usize| {
        t.get(
            if t.rows == 1 { 0 } else { r },
            if t.cols == 1 { 0 } else { c },
        )
    };
    for r in 0..result.valid_rows {
        for c in 0..result.valid_cols {
            let a = pick(lhs, r, c).ok_or_else(|| undefined_read("an elementwise op", r, c))?;
            let b = pick(rhs, r, c).ok_or_else(|| undefined_read("an elementwise op", r, c))?;
            let i = result.index(r, c);
            result.data[i] = apply(how, a, b, out)?;
            result.defined[i] = true;
        }
    }
    Ok(result)
}

/// `how(a, b)` in type `out`.
pub fn apply(how: Binary, a: f64, b: f64, out: Elem) -> Result<f64> {
    if out.is_float() {
        Ok(out.round(float_binary(how, a, b)?))
    } else {
        Ok(int_binary(how, a as i64, b as i64, out)? as f64)
    }
}

/// `how(x, scalar)` over the valid region, in the tile's type.
pub fn scalar_tile(tile: &Tile, scalar: f64, how: Binary) -> Result<Tile> {
    let mut result = Tile {
        data: tile.data.clone(),
        defined: vec![false; tile.data.len()],
        ..tile.clone()
    };
    for r in 0..tile.valid_rows {
        for c in 0..tile.valid_cols {
            let a = tile
                .get(r, c)
                .ok_or_else(|| undefined_read("a tile-scalar op", r, c))?;
            let i = tile.index(r, c);
            result.data[i] = apply(how, a, scalar, tile.elem)?;
            result.defined[i] = true;
        }
    }
    Ok(result)
}

/// `how(x)` over the valid region. The sine and cosine of tiles are what
/// a2a3 computes for them: the primitive steps of
/// [`pto_dialects::composite`], which pl-lower-math-ops emits, run with
/// this interpreter's own elementwise arithmetic.
pub fn unary_tile(tile: &Tile, how: Unary, out: Elem) -> Result<Tile> {
    let steps = match how {
        Unary::Sin => Some(composite::sine_or_cosine(false)),
        Unary::Cos => Some(composite::sine_or_cosine(true)),
        _ => None,
    };
    let mut result = Tile {
        elem: out,
        defined: vec![false; tile.data.len()],
        ..tile.clone()
    };
    for r in 0..tile.valid_rows {
        for c in 0..tile.valid_cols {
            let x = tile
                .get(r, c)
                .ok_or_else(|| undefined_read("a unary op", r, c))?;
            let i = tile.index(r, c);
            result.data[i] = match &steps {
                Some(steps) => out.round(run_steps(steps, x)?),
                None => out.round(unary(how, x)),
            };
            result.defined[i] = true;
        }
    }
    Ok(result)
}

/// The value of a composite op's steps at `x`: each step is the tile op
/// it stands for, on one element, in f32 (casts to i32 as `pl.tile.cast`).
fn run_steps(steps: &[composite::Step], x: f64) -> Result<f64> {
    use composite::{Operand, Step};
    let mut values: Vec<f64> = Vec::with_capacity(steps.len());
    for step in steps {
        let read = |operand: Operand| match operand {
            Operand::Input => x,
            Operand::Step(n) => values[n],
        };
        let value = match *step {
            Step::MulScalar(a, c) => apply(Binary::Mul, read(a), f64::from(c), Elem::F32)?,
            Step::AddScalar(a, c) => apply(Binary::Add, read(a), f64::from(c), Elem::F32)?,
            Step::Add(a, b) => apply(Binary::Add, read(a), read(b), Elem::F32)?,
            Step::Sub(a, b) => apply(Binary::Sub, read(a), read(b), Elem::F32)?,
            Step::Mul(a, b) => apply(Binary::Mul, read(a), read(b), Elem::F32)?,
            Step::ToI32(a, mode) => cast_value(read(a), mode, Elem::I32),
            Step::ToF32(a) => cast_value(read(a), RoundMode::None, Elem::F32),
        };
        values.push(value);
    }
    Ok(values.last().copied().unwrap_or(x))
}

/// Folds one row (`rows`) or column of a reduction into a value of
/// `out`, in the order docs/a2a3-lowering.md ("Reduction order") defines,
/// the one pto-isa's CPU implementation and sim/ follow: a float row sum
/// accumulates in f32 from the first column on and rounds to `out` once; a
/// column sum and every product accumulate in `out`, rounding after each
/// step; integer sums and products are exact in `out`; max and min pick.
fn reduce_values(
    values: impl Iterator<Item = f64>,
    how: Reduce,
    elem: Elem,
    out: Elem,
    rows: bool,
) -> f64 {
    let accumulator = if rows && how == Reduce::Sum && elem.is_float() {
        Elem::F32
    } else {
        out
    };
    let mut best: Option<(usize, f64)> = None;
    let mut acc: Option<f64> = None;
    for (i, x) in values.enumerate() {
        match how {
            Reduce::Sum => acc = Some(accumulator.round(acc.map_or(x, |a| a + x))),
            Reduce::Prod => acc = Some(accumulator.round(acc.map_or(x, |a| a * x))),
            Reduce::Max => acc = Some(acc.map_or(x, |a| a.max(x))),
            Reduce::Min => acc = Some(acc.map_or(x, |a| a.min(x))),
            Reduce::ArgMax => {
                if best.is_none_or(|(_, b)| x > b) {
                    best = Some((i, x));
                }
            }
            Reduce::ArgMin => {
                if best.is_none_or(|(_, b)| x < b) {
                    best = Some((i, x));
                }
            }
        }
    }
    match how {
        Reduce::ArgMax | Reduce::ArgMin => best.map_or(0.0, |(i, _)| i as f64),
        _ => acc.unwrap_or(0.0),
    }
}

/// Reduces each valid row (`rows`: true) or column over the valid region.
pub fn reduce_tile(tile: &Tile, how: Reduce, rows: bool, out: Elem) -> Result<Tile> {
    let (lines, length) = if rows {
        (tile.valid_rows, tile.valid_cols)
    } else {
        (tile.valid_cols, tile.valid_rows)
    };
    let (result_rows, result_cols) = if rows { (tile.rows, 1) } else { (1, tile.cols) };
    let mut result = Tile::undefined(result_rows, result_cols, out)?;
    if rows {
        result.valid_rows = tile.valid_rows;
    } else {
        result.valid_cols = tile.valid_cols;
    }
    for line in 0..lines {
        let mut values = Vec::with_capacity(length);
        for k in 0..length {
            let (r, c) = if rows { (line, k) } else { (k, line) };
            values.push(
                tile.get(r, c)
                    .ok_or_else(|| undefined_read("a reduction", r, c))?,
            );
        }
        let i = if rows {
            result.index(line, 0)
        } else {
            result.index(0, line)
        };
        result.data[i] = out.round(reduce_values(values.into_iter(), how, tile.elem, out, rows));
        result.defined[i] = true;
    }
    Ok(result)
}

/// `tile[r, c] how vector[r]` (rows) or `vector[c]` (columns).
pub fn expand_tile(tile: &Tile, vector: &Tile, how: Binary, rows: bool, out: Elem) -> Result<Tile> {
    let mut result = Tile {
        elem: out,
        defined: vec![false; tile.data.len()],
        ..tile.clone()
    };
    for r in 0..tile.valid_rows {
        for c in 0..tile.valid_cols {
            let v = if rows {
                vector.get(r, 0)
            } else {
                vector.get(0, c)
            };
            let v = v.ok_or_else(|| undefined_read("a broadcast", r, c))?;
            let x = if how == Binary::Second {
                0.0
            } else {
                tile.get(r, c)
                    .ok_or_else(|| undefined_read("a broadcast", r, c))?
            };
            let i = tile.index(r, c);
            result.data[i] = apply(how, x, v, out)?;
            result.defined[i] = true;
        }
    }
    Ok(result)
}

/// `lhs × rhs` over the valid extents (docs/a2a3-lowering.md, "Matmul
/// order"): into an f32 result, k ascending from zero with each product
/// fused into the f32 sum (an fma); otherwise summed exactly in f64 and
/// rounded once to `out`.
pub fn matmul_tiles(lhs: &Tile, rhs: &Tile, out: Elem, rows: usize, cols: usize) -> Result<Tile> {
    let k_extent = lhs.valid_cols;
    if rhs.valid_rows < k_extent {
        return Err(RunError::new(format!(
            "matmul: the rhs has {} valid rows for K = {k_extent}",
            rhs.valid_rows
        )));
    }
    let mut result = Tile::undefined(rows, cols, out)?;
    result.valid_rows = lhs.valid_rows.min(rows);
    result.valid_cols = rhs.valid_cols.min(cols);
    for r in 0..result.valid_rows {
        for c in 0..result.valid_cols {
            let (mut sum, mut sum32) = (0.0f64, 0.0f32);
            for k in 0..k_extent {
                let a = lhs
                    .get(r, k)
                    .ok_or_else(|| undefined_read("matmul", r, k))?;
                let b = rhs
                    .get(k, c)
                    .ok_or_else(|| undefined_read("matmul", k, c))?;
                sum += a * b;
                sum32 = (a as f32).mul_add(b as f32, sum32);
            }
            let i = result.index(r, c);
            result.data[i] = if out == Elem::F32 {
                f64::from(sum32)
            } else {
                out.round(sum)
            };
            result.defined[i] = true;
        }
    }
    Ok(result)
}

/// Converts with a `pl` rounding mode to `out`, as pto-isa's TCVT: to an
/// integer, rint to nearest even, round to nearest away from zero, odd to
/// nearest with ties to the odd neighbour, none (TCVT's default for a
/// float to an integer) toward zero; to a float, to nearest even whatever
/// the mode.
pub fn cast_value(x: f64, mode: RoundMode, out: Elem) -> f64 {
    if out.is_float() {
        return out.round(x);
    }
    let rounded = match mode {
        RoundMode::Round => x.round(),
        RoundMode::Rint => x.round_ties_even(),
        RoundMode::Floor => x.floor(),
        RoundMode::Ceil => x.ceil(),
        RoundMode::Trunc | RoundMode::None => x.trunc(),
        RoundMode::Odd => {
            let floor = x.floor();
            match (x - floor).partial_cmp(&0.5) {
                Some(std::cmp::Ordering::Greater) => floor + 1.0,
                Some(std::cmp::Ordering::Less) => floor,
                _ if floor.rem_euclid(2.0) == 1.0 => floor,
                _ => floor + 1.0,
            }
        }
    };
    out.wrap(float_to_int(rounded)) as f64
}

/// The element types a cast from `from` to `to` converts through,
/// ending with `to`: for a pair a2a3's TCVT does not convert in one step,
/// the chain of [`pto_dialects::casts::a2a3_chain`] (pl-legalize-tile-cast
/// splits such a cast into it), else `to` alone.
pub fn cast_steps(from: Elem, to: Elem) -> Vec<Elem> {
    from.dtype()
        .zip(to.dtype())
        .filter(|&(f, t)| !pto_dialects::casts::is_a2a3_step(f, t))
        .and_then(|(f, t)| pto_dialects::casts::a2a3_chain(f, t))
        .and_then(|chain| chain.into_iter().map(Elem::from_dtype).collect())
        .unwrap_or_else(|| vec![to])
}

/// `x` of type `from` cast through `steps` (see [`cast_steps`]), each step
/// with `mode`.
pub fn cast_through(x: f64, mode: RoundMode, steps: &[Elem]) -> f64 {
    steps
        .iter()
        .fold(x, |value, &step| cast_value(value, mode, step))
}

/// The rounding mode of a cast. `mode` is a required attribute: a cast
/// without one is refused (as the a2a3 emitter refuses it), never run with
/// a guessed mode.
pub fn cast_mode(op: &Op) -> Result<RoundMode> {
    op.enum_attr::<RoundMode>("mode")
        .ok_or_else(|| RunError::new("a cast without a valid rounding mode (`mode`)".to_string()))
}

impl Interp<'_> {
    /// The rank whose copy of `tensor` this thread accesses locally.
    pub(super) fn local_rank(
        &self,
        state: &crate::world::State,
        tensor: &TensorRef,
    ) -> Result<usize> {
        match tensor.mem {
            Mem::Gm(_) => Ok(0),
            Mem::Window(buffer) => {
                let device = self
                    .device
                    .ok_or_else(|| RunError::new("the host cannot access window memory"))?;
                state.rank_in(state.buffers[buffer.0].domain, device)
            }
        }
    }

    /// Reads a `rows × cols` window of `tensor` at `offsets` on `rank`
    /// into a tile with `valid` extents; out-of-bounds elements are errors
    /// unless `tail_padding` (then they stay unwritten).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn read_window(
        &self,
        tensor: &TensorRef,
        rank: Option<usize>,
        offsets: &[i64],
        lead: &[usize],
        ty: &TileTy,
        valid: (usize, usize),
        tail_padding: bool,
    ) -> Result<Tile> {
        let (rows, cols) = grid(&ty.shape);
        let mut tile = Tile::undefined(rows, cols, ty.elem)?;
        (tile.valid_rows, tile.valid_cols) = valid;
        tile.pad = ty.pad;
        let mut state = self.world.lock();
        let rank = match rank {
            Some(rank) => rank,
            None => self.local_rank(&state, tensor)?,
        };
        for r in 0..valid.0 {
            for c in 0..valid.1 {
                let value = match tensor.window_at(offsets, lead, r, c) {
                    Some(at) => state.read(tensor.mem, rank, at, tensor.elem)?,
                    None if tail_padding => {
                        // Past the row end: the bytes that follow in memory,
                        // up to the end of the window slot.
                        let indices = element_indices(offsets, lead, r, c);
                        let linear = indices
                            .iter()
                            .zip(&tensor.strides)
                            .map(|(&i, &s)| i.max(0) as usize * s)
                            .sum::<usize>();
                        state.read(tensor.mem, rank, tensor.offset + linear, tensor.elem)?
                    }
                    None => None,
                };
                match value {
                    Some(v) => {
                        let i = tile.index(r, c);
                        tile.data[i] = ty.elem.round(v);
                        tile.defined[i] = true;
                    }
                    None if tail_padding => {}
                    None => {
                        return Err(RunError::new(format!(
                            "reads element {:?} of a tensor of shape {:?}, out of bounds",
                            element_indices(offsets, lead, r, c),
                            tensor.shape
                        )));
                    }
                }
            }
        }
        Ok(tile)
    }

    /// Writes the valid region of `tile` into `tensor` at `offsets` on
    /// `rank` (adding when `atomic_add`).
    pub(super) fn write_window(
        &self,
        tile: &Tile,
        tensor: &TensorRef,
        rank: Option<usize>,
        offsets: &[i64],
        lead: &[usize],
        atomic_add: bool,
    ) -> Result<()> {
        let mut state = self.world.lock();
        let rank = match rank {
            Some(rank) => rank,
            None => self.local_rank(&state, tensor)?,
        };
        for r in 0..tile.valid_rows {
            for c in 0..tile.valid_cols {
                let value = tile
                    .get(r, c)
                    .ok_or_else(|| undefined_read("a store", r, c))?;
                let at = tensor.window_at(offsets, lead, r, c).ok_or_else(|| {
                    RunError::new(format!(
                        "writes element {:?} of a tensor of shape {:?}, out of bounds",
                        element_indices(offsets, lead, r, c),
                        tensor.shape
                    ))
                })?;
                let value = if atomic_add {
                    state
                        .read(tensor.mem, rank, at, tensor.elem)?
                        .unwrap_or(0.0)
                        + value
                } else {
                    value
                };
                state.write(tensor.mem, rank, at, tensor.elem, value)?;
            }
        }
        drop(state);
        if matches!(tensor.mem, Mem::Window(_)) {
            self.world.wake();
        }
        Ok(())
    }

    pub(super) fn tile_op(&mut self, frame: &Frame, op: &Op) -> Result<Vec<Value>> {
        let result_ty = op.result_types.first().map(tile_ty).transpose();
        let tile_value = |t: Tile| Value::Tile(Arc::new(t));
        Ok(vec![match op.code {
            Code::TileLoad => {
                let ty = result_ty?.expect("a tile result");
                let tensor = self.tensor(frame, op.operands[0])?;
                let offsets = self.ints(frame, op.segment(1))?;
                let (mut rows, mut cols) = valid_of(ty, &self.ints(frame, op.segment(2))?)?;
                if op.has_attr("clamp") {
                    // Narrow the window to the tensor's edge.
                    let n = offsets.len();
                    if n >= 2 {
                        rows = rows.min(
                            tensor.shape[n - 2].saturating_sub(offsets[n - 2].max(0) as usize),
                        );
                    }
                    if n >= 1 {
                        cols = cols.min(
                            tensor.shape[n - 1].saturating_sub(offsets[n - 1].max(0) as usize),
                        );
                    }
                }
                let lead = leading(partition(op).unwrap_or(&ty.shape));
                tile_value(self.read_window(
                    &tensor,
                    None,
                    &offsets,
                    &lead,
                    ty,
                    (rows, cols),
                    false,
                )?)
            }
            Code::TileStore => {
                let tile = self.tile(frame, op.operands[0])?;
                let tensor = self.tensor(frame, op.operands[1])?;
                let offsets = self.ints(frame, &op.operands[2..])?;
                let lead = leading(
                    partition(op)
                        .or_else(|| tile_ty(&op.operand_types[0]).ok().map(|t| &t.shape[..]))
                        .unwrap_or(&[]),
                );
                self.write_window(
                    &tile,
                    &tensor,
                    None,
                    &offsets,
                    &lead,
                    op.has_attr("atomic_add"),
                )?;
                Value::Tensor(tensor)
            }
            Code::TileCreate => {
                let ty = result_ty?.expect("a tile result");
                let (rows, cols) = grid(&ty.shape);
                let mut tile = Tile::undefined(rows, cols, ty.elem)?;
                if ty.valid.iter().all(Option::is_some) {
                    (tile.valid_rows, tile.valid_cols) = valid_of(ty, &[])?;
                }
                tile.pad = ty.pad;
                tile_value(tile)
            }
            Code::TileFull => {
                let ty = result_ty?.expect("a tile result");
                let (rows, cols) = grid(&ty.shape);
                tile_value(Tile::filled(
                    rows,
                    cols,
                    ty.elem,
                    self.number(frame, op.operands[0])?,
                )?)
            }
            Code::TileMove => {
                let ty = result_ty?.expect("a tile result");
                let source = self.tile(frame, op.operands[0])?;
                let mut tile = (*source).clone();
                if tile.elem != ty.elem {
                    for x in &mut tile.data {
                        *x = ty.elem.round(*x);
                    }
                    tile.elem = ty.elem;
                }
                tile.pad = ty.pad;
                tile_value(tile)
            }
            Code::TileFillpad => {
                let source = self.tile(frame, op.operands[0])?;
                let pad = op.enum_attr::<PadValue>("pad").unwrap_or(PadValue::Zero);
                let value = pad_value(pad, source.elem)
                    .ok_or_else(|| RunError::new("fillpad needs zero, max or min"))?;
                let mut tile = (*source).clone();
                for r in 0..tile.rows {
                    for c in 0..tile.cols {
                        if !tile.is_valid(r, c) {
                            let i = tile.index(r, c);
                            tile.data[i] = tile.elem.round(value);
                            tile.defined[i] = true;
                        }
                    }
                }
                (tile.valid_rows, tile.valid_cols) = (tile.rows, tile.cols);
                tile.pad = pad;
                tile_value(tile)
            }
            Code::TileSetValid => {
                let source = self.tile(frame, op.operands[0])?;
                let (rows, cols) = (
                    self.index(frame, op.operands[1])?,
                    self.index(frame, op.operands[2])?,
                );
                if rows > source.rows || cols > source.cols {
                    return Err(RunError::new(format!(
                        "set_validshape [{rows}, {cols}] exceeds the tile's [{}, {}]",
                        source.rows, source.cols
                    )));
                }
                let mut tile = (*source).clone();
                (tile.valid_rows, tile.valid_cols) = (rows, cols);
                if let Ok(Some(ty)) = result_ty {
                    tile.pad = ty.pad;
                }
                tile_value(tile)
            }
            Code::TileCast => {
                let ty = result_ty?.expect("a tile result");
                let source = self.tile(frame, op.operands[0])?;
                let mode = cast_mode(op)?;
                let steps = cast_steps(source.elem, ty.elem);
                let mut tile = Tile {
                    elem: ty.elem,
                    defined: vec![false; source.data.len()],
                    ..(*source).clone()
                };
                for r in 0..source.valid_rows {
                    for c in 0..source.valid_cols {
                        let x = source
                            .get(r, c)
                            .ok_or_else(|| undefined_read("a cast", r, c))?;
                        let i = tile.index(r, c);
                        tile.data[i] = cast_through(x, mode, &steps);
                        tile.defined[i] = true;
                    }
                }
                tile_value(tile)
            }
            Code::TileRead => {
                let tile = self.tile(frame, op.operands[0])?;
                let (r, c) = self.tile_position(frame, &tile, &op.operands[1..])?;
                let x = tile.get(r, c).ok_or_else(|| {
                    undefined_read(pto_dialects::op_table::OpKind::PlTileRead.name(), r, c)
                })?;
                return Ok(vec![scalar_value(x, op.result_types.first())]);
            }
            Code::TileWrite => {
                let tile = self.tile(frame, op.operands[0])?;
                let (value_slot, index_slots) = op.operands[1..].split_last().expect("a value");
                let (r, c) = self.tile_position(frame, &tile, index_slots)?;
                let mut tile = (*tile).clone();
                let i = tile.index(r, c);
                tile.data[i] = tile.elem.round(self.number(frame, *value_slot)?);
                tile.defined[i] = true;
                tile_value(tile)
            }
            Code::TileSlice | Code::TileExtract => {
                let ty = result_ty?.expect("a tile result");
                let source = self.tile(frame, op.operands[0])?;
                let (offsets, dynamic_valid) = if op.code == Code::TileSlice {
                    (
                        self.ints(frame, op.segment(1))?,
                        self.ints(frame, op.segment(2))?,
                    )
                } else {
                    (self.ints(frame, &op.operands[1..3])?, Vec::new())
                };
                let (row0, col0) = match offsets.as_slice() {
                    [c] => (0, *c),
                    [.., r, c] => (*r, *c),
                    [] => (0, 0),
                };
                let (rows, cols) = grid(&ty.shape);
                if row0 < 0
                    || col0 < 0
                    || row0 as usize + rows > source.rows
                    || col0 as usize + cols > source.cols
                {
                    return Err(RunError::new(format!(
                        "a [{rows}, {cols}] window at [{row0}, {col0}] leaves the [{}, {}] tile",
                        source.rows, source.cols
                    )));
                }
                let (row0, col0) = (row0 as usize, col0 as usize);
                let requested = valid_of(ty, &dynamic_valid)?;
                let mut tile = Tile::undefined(rows, cols, ty.elem)?;
                tile.valid_rows = requested.0.min(source.valid_rows.saturating_sub(row0));
                tile.valid_cols = requested.1.min(source.valid_cols.saturating_sub(col0));
                tile.pad = ty.pad;
                for r in 0..rows {
                    for c in 0..cols {
                        let (i, j) = (tile.index(r, c), source.index(row0 + r, col0 + c));
                        tile.data[i] = source.data[j];
                        tile.defined[i] = source.defined[j];
                    }
                }
                tile_value(tile)
            }
            Code::TileReshape => {
                let ty = result_ty?.expect("a tile result");
                let source = self.tile(frame, op.operands[0])?;
                let (rows, cols) = grid(&ty.shape);
                if rows.checked_mul(cols) != Some(source.rows * source.cols) {
                    return Err(RunError::new("reshape changes the element count"));
                }
                let full = source.valid_rows == source.rows && source.valid_cols == source.cols;
                let mut tile = Tile {
                    rows,
                    cols,
                    valid_rows: rows,
                    valid_cols: cols,
                    ..(*source).clone()
                };
                if !full {
                    if cols != source.cols {
                        return Err(RunError::new(
                            "pto-run reshapes a partially valid tile only when the row length stays",
                        ));
                    }
                    (tile.valid_rows, tile.valid_cols) = (source.valid_rows, source.valid_cols);
                }
                tile_value(tile)
            }
            Code::TileTranspose => {
                let source = self.tile(frame, op.operands[0])?;
                let mut tile = Tile::undefined(source.cols, source.rows, source.elem)?;
                (tile.valid_rows, tile.valid_cols) = (source.valid_cols, source.valid_rows);
                for r in 0..source.rows {
                    for c in 0..source.cols {
                        let (i, j) = (tile.index(c, r), source.index(r, c));
                        tile.data[i] = source.data[j];
                        tile.defined[i] = source.defined[j];
                    }
                }
                tile_value(tile)
            }
            Code::TileAssemble => {
                let source = self.tile(frame, op.operands[0])?;
                let target = self.tile(frame, op.operands[1])?;
                let offsets = self.ints(frame, &op.operands[2..])?;
                let (row0, col0) = match offsets.as_slice() {
                    [c] => (0, *c as usize),
                    [.., r, c] => (*r as usize, *c as usize),
                    [] => (0, 0),
                };
                let mut tile = (*target).clone();
                for r in 0..source.valid_rows {
                    for c in 0..source.valid_cols {
                        if row0 + r >= tile.rows || col0 + c >= tile.cols {
                            return Err(RunError::new("assemble writes outside the target tile"));
                        }
                        let x = source
                            .get(r, c)
                            .ok_or_else(|| undefined_read("assemble", r, c))?;
                        let i = tile.index(row0 + r, col0 + c);
                        tile.data[i] = tile.elem.round(x);
                        tile.defined[i] = true;
                    }
                }
                tile_value(tile)
            }
            Code::TileExpands => {
                let target = self.tile(frame, op.operands[0])?;
                let value = self.number(frame, op.operands[1])?;
                let mut tile = Tile::filled(target.rows, target.cols, target.elem, value)?;
                (tile.valid_rows, tile.valid_cols, tile.pad) =
                    (target.valid_rows, target.valid_cols, target.pad);
                tile_value(tile)
            }
            Code::TileBinary(how) => {
                let ty = result_ty?.expect("a tile result");
                let (lhs, rhs) = (
                    self.tile(frame, op.operands[0])?,
                    self.tile(frame, op.operands[1])?,
                );
                let (rows, cols) = grid(&ty.shape);
                let mut tile = binary_tiles(&lhs, &rhs, how, ty.elem, rows, cols)?;
                tile.pad = ty.pad;
                tile_value(tile)
            }
            Code::TileScalar(how) => {
                let tile = self.tile(frame, op.operands[0])?;
                let scalar = self.number(frame, op.operands[1])?;
                tile_value(scalar_tile(&tile, scalar, how)?)
            }
            Code::TileUnary(how) => {
                let ty = result_ty?.expect("a tile result");
                let tile = self.tile(frame, op.operands[0])?;
                tile_value(unary_tile(&tile, how, ty.elem)?)
            }
            Code::TileRowReduce(how) | Code::TileColReduce(how) => {
                let ty = result_ty?.expect("a tile result");
                let tile = self.tile(frame, op.operands[0])?;
                let rows = matches!(op.code, Code::TileRowReduce(_));
                let mut result = reduce_tile(&tile, how, rows, ty.elem)?;
                result.pad = ty.pad;
                tile_value(result)
            }
            Code::TileRowExpand(how) | Code::TileColExpand(how) => {
                let ty = result_ty?.expect("a tile result");
                let (tile, vector) = (
                    self.tile(frame, op.operands[0])?,
                    self.tile(frame, op.operands[1])?,
                );
                let rows = matches!(op.code, Code::TileRowExpand(_));
                tile_value(expand_tile(&tile, &vector, how, rows, ty.elem)?)
            }
            Code::TileMatmul | Code::TileMatmulBias => {
                let ty = result_ty?.expect("a tile result");
                let (lhs, rhs) = (
                    self.tile(frame, op.operands[0])?,
                    self.tile(frame, op.operands[1])?,
                );
                let (rows, cols) = grid(&ty.shape);
                let mut product = matmul_tiles(&lhs, &rhs, ty.elem, rows, cols)?;
                if op.code == Code::TileMatmulBias {
                    let bias = self.tile(frame, op.operands[2])?;
                    product = binary_tiles(&product, &bias, Binary::Add, ty.elem, rows, cols)?;
                }
                tile_value(product)
            }
            Code::TileMatmulAcc => {
                let acc = self.tile(frame, op.operands[0])?;
                let (lhs, rhs) = (
                    self.tile(frame, op.operands[1])?,
                    self.tile(frame, op.operands[2])?,
                );
                let init = match op.operands.get(3) {
                    Some(&slot) => self.int(frame, slot)? != 0,
                    None => false,
                };
                let product = matmul_tiles(&lhs, &rhs, acc.elem, acc.rows, acc.cols)?;
                let mut tile = if init {
                    product
                } else {
                    // Accumulate into the product's valid region.
                    let mut sum = (*acc).clone();
                    for r in 0..product.valid_rows {
                        for c in 0..product.valid_cols {
                            let a = acc.get(r, c).ok_or_else(|| {
                                undefined_read("matmul_acc (the accumulator)", r, c)
                            })?;
                            let i = sum.index(r, c);
                            sum.data[i] = acc.elem.round(a + product.data[i]);
                            sum.defined[i] = true;
                        }
                    }
                    sum
                };
                (tile.valid_rows, tile.valid_cols, tile.pad) =
                    (acc.valid_rows, acc.valid_cols, acc.pad);
                tile_value(tile)
            }
            Code::TileCmp | Code::TileCmps => {
                let ty = result_ty?.expect("a tile result");
                let lhs = self.tile(frame, op.operands[0])?;
                let mode = op.enum_attr::<CmpMode>("cmp").unwrap_or(CmpMode::Eq);
                let rhs = if op.code == Code::TileCmp {
                    Some(self.tile(frame, op.operands[1])?)
                } else {
                    None
                };
                let scalar = if op.code == Code::TileCmps {
                    self.number(frame, op.operands[1])?
                } else {
                    0.0
                };
                let (rows, cols) = grid(&ty.shape);
                let mut mask = Tile::filled(rows, cols, Elem::U8, 0.0)?;
                mask.valid_rows = lhs.valid_rows;
                mask.valid_cols = lhs.valid_cols.div_ceil(8).min(cols);
                for r in 0..lhs.valid_rows {
                    for c in 0..lhs.valid_cols {
                        let a = lhs.get(r, c).ok_or_else(|| undefined_read("cmp", r, c))?;
                        let b = match &rhs {
                            Some(rhs) => {
                                rhs.get(r, c).ok_or_else(|| undefined_read("cmp", r, c))?
                            }
                            None => scalar,
                        };
                        if compare(mode, a, b) {
                            let i = mask.index(r, c / 8);
                            mask.data[i] = f64::from(mask.data[i] as u8 | (1 << (c % 8)));
                        }
                    }
                }
                tile_value(mask)
            }
            Code::TileSel | Code::TileSels => {
                let mask = self.tile(frame, op.operands[0])?;
                let lhs = self.tile(frame, op.operands[1])?;
                let rhs = if op.code == Code::TileSel {
                    Some(self.tile(frame, op.operands[2])?)
                } else {
                    None
                };
                let scalar = if op.code == Code::TileSels {
                    self.number(frame, op.operands[2])?
                } else {
                    0.0
                };
                let mut tile = Tile {
                    defined: vec![false; lhs.data.len()],
                    ..(*lhs).clone()
                };
                for r in 0..lhs.valid_rows {
                    for c in 0..lhs.valid_cols {
                        let bits = mask
                            .get(r, c / 8)
                            .ok_or_else(|| undefined_read("sel (the mask)", r, c / 8))?
                            as u8;
                        let chosen = if bits & (1 << (c % 8)) != 0 {
                            lhs.get(r, c)
                        } else {
                            match &rhs {
                                Some(rhs) => rhs.get(r, c),
                                None => Some(scalar),
                            }
                        };
                        let i = tile.index(r, c);
                        tile.data[i] = tile
                            .elem
                            .round(chosen.ok_or_else(|| undefined_read("sel", r, c))?);
                        tile.defined[i] = true;
                    }
                }
                tile_value(tile)
            }
            // The block of the launch running now; one vector core per
            // block (sub-block 0).
            Code::TileBlockIdx => Value::Int(self.block.0),
            Code::TileBlockNum => Value::Int(self.block.1),
            Code::TileSubblockIdx => Value::Int(self.subblock()),
            _ => unreachable!("not a tile op"),
        }])
    }

    fn tile_position(&self, frame: &Frame, tile: &Tile, slots: &[usize]) -> Result<(usize, usize)> {
        let indices = self.ints(frame, slots)?;
        let (r, c) = match indices.as_slice() {
            [c] => (0, *c),
            [.., r, c] => (*r, *c),
            [] => (0, 0),
        };
        if r < 0 || c < 0 || r as usize >= tile.rows || c as usize >= tile.cols {
            return Err(RunError::new(format!(
                "index [{r}, {c}] is outside the [{}, {}] tile",
                tile.rows, tile.cols
            )));
        }
        Ok((r as usize, c as usize))
    }
}

/// A scalar of type `ty` holding `x`.
pub fn scalar_value(x: f64, ty: Option<&Ty>) -> Value {
    match ty {
        Some(Ty::Float(e)) => Value::Float(e.round(x)),
        Some(Ty::Int(e)) => Value::Int(e.wrap(x as i64)),
        _ => Value::Float(x),
    }
}
