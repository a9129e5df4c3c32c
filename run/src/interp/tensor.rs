//! Tensor ops: views are new references to the same memory; computations
//! read whole tensors into tiles, run the tile kernels, and write a fresh
//! global tensor.

use super::{
    Frame, Interp,
    tile::{
        binary_tiles, cast_mode, cast_steps, cast_through, expand_tile, matmul_tiles, reduce_tile,
        scalar_tile, scalar_value, unary_tile,
    },
};
use pto_dialects::enums::{EnumAttr, PadValue, TensorLayout};

use crate::{
    error::{Result, RunError},
    program::{Binary, Code, Op},
    types::{Elem, TensorTy, Ty},
    value::{Mem, TensorRef, Tile, Value},
};

fn tensor_ty(ty: Option<&Ty>) -> Result<&TensorTy> {
    match ty {
        Some(Ty::Tensor(t)) => Ok(t),
        other => Err(RunError::new(format!(
            "expected a tensor type, got {other:?}"
        ))),
    }
}

/// A result shape of type `ty`: static dims from the type, dynamic ones
/// from `dynamic` in order.
fn resolve_shape(ty: &TensorTy, dynamic: &[i64]) -> Result<Vec<usize>> {
    let mut values = dynamic.iter();
    ty.shape
        .iter()
        .map(|d| match d {
            Some(d) => Ok(*d as usize),
            None => values
                .next()
                .and_then(|&v| usize::try_from(v).ok())
                .ok_or_else(|| RunError::new("a dynamic dimension has no (non-negative) size")),
        })
        .collect()
}

/// The shape of a `rows × cols` result of type `ty`, leading dims taken
/// from `template` (the operand's shape) where the type leaves them open.
/// The shape of the concatenation of `inputs` along `axis`, and the axis:
/// the inputs must share their rank and every extent off the axis.
fn concat_shape(inputs: &[TensorRef], axis: Option<i64>) -> Result<(Vec<usize>, usize)> {
    let first = inputs
        .first()
        .ok_or_else(|| RunError::new("a concat of no tensors"))?;
    let rank = first.shape.len();
    let axis = axis
        .and_then(|a| usize::try_from(a).ok())
        .filter(|&a| a < rank)
        .ok_or_else(|| RunError::new(format!("a concat axis outside rank {rank}")))?;
    let mut shape = first.shape.clone();
    shape[axis] = 0;
    for input in inputs {
        let off_axis = |s: &[usize]| -> Vec<usize> {
            s.iter()
                .enumerate()
                .filter(|&(d, _)| d != axis)
                .map(|(_, &e)| e)
                .collect()
        };
        if input.shape.len() != rank || off_axis(&input.shape) != off_axis(&first.shape) {
            return Err(RunError::new(format!(
                "concat inputs of shapes {:?} and {:?} differ off axis {axis}",
                first.shape, input.shape
            )));
        }
        shape[axis] += input.shape[axis];
    }
    Ok((shape, axis))
}

fn shape_of_grid(ty: &TensorTy, rows: usize, cols: usize, template: &[usize]) -> Vec<usize> {
    let rank = ty.shape.len();
    match rank {
        0 => Vec::new(),
        1 => vec![cols],
        2 => vec![rows, cols],
        _ => {
            let mut shape: Vec<usize> = (0..rank - 1)
                .map(|i| {
                    ty.shape[i]
                        .map(|d| d as usize)
                        .or_else(|| template.get(i).copied())
                        .unwrap_or(1)
                })
                .collect();
            shape.push(cols);
            shape
        }
    }
}

impl Interp<'_> {
    /// Reads `tensor` (this thread's copy) into a tile whose valid region
    /// is the tensor's; an error when `what` needs that region and a `?`
    /// of the tensor's type leaves it unknown.
    pub(super) fn read_valid(&self, tensor: &TensorRef, what: &str) -> Result<Tile> {
        if tensor.valid_rows_cols().is_none() {
            return Err(RunError::new(format!(
                "cannot {what} a tensor whose valid extents {} are unknown here: a `?` of its type that no pl.tensor.set_validshape gave",
                render_valid(tensor)
            )));
        }
        self.read_all(tensor)
    }

    /// Reads all of `tensor` (this thread's copy) into a tile, its valid
    /// region the tensor's where known (the whole tile otherwise).
    pub(super) fn read_all(&self, tensor: &TensorRef) -> Result<Tile> {
        let (rows, cols) = tensor.rows_cols();
        let mut tile = Tile::undefined(rows, cols, tensor.elem)?;
        if let Some((valid_rows, valid_cols)) = tensor.valid_rows_cols() {
            (tile.valid_rows, tile.valid_cols) = (valid_rows, valid_cols);
        }
        let mut state = self.world.lock();
        let rank = self.local_rank(&state, tensor)?;
        for (i, at) in tensor.offsets().enumerate() {
            tile.data[i] = state
                .read(tensor.mem, rank, at, tensor.elem)?
                .unwrap_or(0.0);
            tile.defined[i] = true;
        }
        Ok(tile)
    }

    /// A fresh global tensor of `shape` holding the valid region of `tile`.
    pub(super) fn new_tensor(
        &self,
        tile: &Tile,
        shape: Vec<usize>,
        elem: Elem,
    ) -> Result<TensorRef> {
        let elements: usize = shape.iter().product();
        if elements != tile.rows * tile.cols {
            return Err(RunError::new(format!(
                "a result of shape {shape:?} from a [{}, {}] computation",
                tile.rows, tile.cols
            )));
        }
        let mut state = self.world.lock();
        let id = state.allocate_gm(elements, elem)?;
        for (i, (&x, &defined)) in tile.data.iter().zip(&tile.defined).enumerate() {
            if defined {
                state.write(Mem::Gm(id), 0, i, elem, x)?;
            }
        }
        let mut tensor = TensorRef::contiguous(Mem::Gm(id), 0, shape, elem);
        tensor.valid = valid_of_tile(tile, &tensor.shape);
        Ok(tensor)
    }

    pub(super) fn tensor_op(&mut self, frame: &Frame, op: &Op) -> Result<Vec<Value>> {
        let result_ty = || tensor_ty(op.result_types.first());
        let fresh = |interp: &Self, tile: Tile, template: &[usize]| -> Result<Value> {
            let ty = result_ty()?;
            let shape = shape_of_grid(ty, tile.rows, tile.cols, template);
            Ok(Value::Tensor(interp.new_tensor(&tile, shape, ty.elem)?))
        };
        Ok(vec![match op.code {
            Code::TensorCreate | Code::TensorFull => {
                let ty = result_ty()?;
                let (value, sizes) = if op.code == Code::TensorFull {
                    (self.number(frame, op.operands[0])?, &op.operands[1..])
                } else {
                    (0.0, &op.operands[..])
                };
                let shape = resolve_shape(ty, &self.ints(frame, sizes)?)?;
                let elements = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
                let bytes = elements.and_then(|n| n.checked_mul(ty.elem.bytes()));
                self.world
                    .lock()
                    .room_for(bytes, &format!("a tensor of shape {shape:?}"))?;
                let (rows, cols) =
                    TensorRef::contiguous(Mem::Gm(0), 0, shape.clone(), ty.elem).rows_cols();
                Value::Tensor(self.new_tensor(
                    &Tile::filled(rows, cols, ty.elem, value)?,
                    shape,
                    ty.elem,
                )?)
            }
            Code::TensorView | Code::TensorReshape => {
                let ty = result_ty()?;
                let source = self.tensor(frame, op.operands[0])?;
                if !source.is_contiguous() {
                    return Err(RunError::new(
                        "pto-run views and reshapes contiguous tensors only",
                    ));
                }
                if ty.elem != source.elem {
                    return Err(RunError::new("a view keeps the element type"));
                }
                let known: usize = ty.shape.iter().flatten().map(|&d| d as usize).product();
                let open = ty.shape.iter().filter(|d| d.is_none()).count();
                let elements = source.elements();
                let shape: Vec<usize> = match open {
                    0 => ty.shape.iter().map(|d| d.unwrap() as usize).collect(),
                    1 if known > 0 && elements % known == 0 => ty
                        .shape
                        .iter()
                        .map(|d| d.map_or(elements / known, |d| d as usize))
                        .collect(),
                    _ => return Err(RunError::new("cannot infer the view's dynamic dimensions")),
                };
                if shape.iter().product::<usize>() > elements {
                    return Err(RunError::new(format!(
                        "a view of shape {shape:?} is larger than its {elements}-element source"
                    )));
                }
                if ty.explicit_strides {
                    return Err(RunError::new(
                        "pto-run does not model views with explicit strides",
                    ));
                }
                let mut view = TensorRef::contiguous(source.mem, source.offset, shape, source.elem);
                // A view of the same shape keeps the valid region; another
                // shape has the one its type gives (Interp::set).
                if view.shape == source.shape {
                    view.valid = source.valid.clone();
                }
                match ty.layout {
                    None | Some(TensorLayout::Nd) => {}
                    // Column-major over the last two axes: element (i, j)
                    // of each matrix at i + j * rows (docs/pto-run.md).
                    Some(TensorLayout::Dn) if view.shape.len() >= 2 => {
                        let rank = view.shape.len();
                        let rows = view.shape[rank - 2];
                        view.strides[rank - 2] = 1;
                        view.strides[rank - 1] = rows;
                    }
                    Some(other) => {
                        return Err(RunError::new(format!(
                            "pto-run does not model tensor views with the {other:?} layout"
                        )));
                    }
                }
                Value::Tensor(view)
            }
            Code::TensorSlice => {
                let ty = result_ty()?;
                let source = self.tensor(frame, op.operands[0])?;
                let offsets = self.ints(frame, op.segment(1))?;
                let mut shape = resolve_shape(ty, &self.ints(frame, op.segment(2))?)?;
                if offsets.len() != source.shape.len() || shape.len() != source.shape.len() {
                    return Err(RunError::new(
                        "a slice needs one offset and one size per dimension",
                    ));
                }
                let mut offset = source.offset;
                for d in 0..shape.len() {
                    let start = usize::try_from(offsets[d])
                        .map_err(|_| RunError::new("a negative slice offset"))?;
                    if op.has_attr("clamp") {
                        shape[d] = shape[d].min(source.shape[d].saturating_sub(start));
                    } else if start + shape[d] > source.shape[d] {
                        return Err(RunError::new(format!(
                            "slice {offsets:?} + {shape:?} leaves a tensor of shape {:?}",
                            source.shape
                        )));
                    }
                    offset += start * source.strides[d];
                }
                // The source's valid region, seen from the window.
                let valid = source.valid.as_ref().map(|valid| {
                    valid
                        .iter()
                        .zip(&offsets)
                        .zip(&shape)
                        .map(|((v, &start), &size)| {
                            v.map(|v| v.saturating_sub(start as usize).min(size))
                        })
                        .collect()
                });
                Value::Tensor(TensorRef {
                    mem: source.mem,
                    offset,
                    shape,
                    strides: source.strides.clone(),
                    elem: source.elem,
                    valid,
                })
            }
            Code::TensorDim => {
                let tensor = self.tensor(frame, op.operands[0])?;
                let axis = op.int_attr("axis").unwrap_or(0);
                let axis = if axis < 0 {
                    axis + tensor.shape.len() as i64
                } else {
                    axis
                };
                let extent = tensor
                    .shape
                    .get(axis as usize)
                    .ok_or_else(|| RunError::new(format!("axis {axis} is out of range")))?;
                Value::Int(*extent as i64)
            }
            Code::TensorRead => {
                let tensor = self.tensor(frame, op.operands[0])?;
                let indices = self.ints(frame, &op.operands[1..])?;
                let at = tensor.locate(&indices).ok_or_else(|| {
                    RunError::new(format!(
                        "reads {indices:?} outside shape {:?}",
                        tensor.shape
                    ))
                })?;
                let mut state = self.world.lock();
                let rank = self.local_rank(&state, &tensor)?;
                let x = state
                    .read(tensor.mem, rank, at, tensor.elem)?
                    .unwrap_or(0.0);
                scalar_value(x, op.result_types.first())
            }
            Code::TensorWrite => {
                let tensor = self.tensor(frame, op.operands[0])?;
                let (value_slot, index_slots) = op.operands[1..].split_last().expect("a value");
                let indices = self.ints(frame, index_slots)?;
                let at = tensor.locate(&indices).ok_or_else(|| {
                    RunError::new(format!(
                        "writes {indices:?} outside shape {:?}",
                        tensor.shape
                    ))
                })?;
                let value = self.number(frame, *value_slot)?;
                let mut state = self.world.lock();
                let rank = self.local_rank(&state, &tensor)?;
                state.write(tensor.mem, rank, at, tensor.elem, value)?;
                drop(state);
                self.world.wake();
                Value::Tensor(tensor)
            }
            Code::TensorAssemble => {
                let source = self.tensor(frame, op.operands[0])?;
                let target = self.tensor(frame, op.operands[1])?;
                let offsets = self.ints(frame, &op.operands[2..])?;
                let tile = self.read_all(&source)?;
                let lead = &source.shape[..source.shape.len().saturating_sub(1)];
                self.write_window(
                    &tile,
                    &target,
                    None,
                    &offsets,
                    lead,
                    op.has_attr("atomic_add"),
                )?;
                Value::Tensor(target)
            }
            Code::TensorConcat => {
                let inputs = op
                    .operands
                    .iter()
                    .map(|&slot| self.tensor(frame, slot))
                    .collect::<Result<Vec<_>>>()?;
                let (shape, axis) = concat_shape(&inputs, op.int_attr("axis"))?;
                // Row-major: each run of the axis and the axes inside it
                // comes from each input in turn, once per outer index.
                let outer: usize = shape[..axis].iter().product();
                let inner: usize = shape[axis + 1..].iter().product();
                let cols = shape.last().copied().unwrap_or(1);
                let rows = shape[..shape.len() - 1].iter().product();
                let mut tile = Tile::undefined(rows, cols, result_ty()?.elem)?;
                let parts = inputs
                    .iter()
                    .map(|t| self.read_all(t))
                    .collect::<Result<Vec<_>>>()?;
                let mut at = 0;
                for o in 0..outer {
                    for (input, part) in inputs.iter().zip(&parts) {
                        let run = input.shape[axis] * inner;
                        let from = o * run..(o + 1) * run;
                        tile.data[at..at + run].copy_from_slice(&part.data[from.clone()]);
                        tile.defined[at..at + run].copy_from_slice(&part.defined[from]);
                        at += run;
                    }
                }
                fresh(self, tile, &shape)?
            }
            Code::TensorTranspose => {
                let source = self.tensor(frame, op.operands[0])?;
                let (a, b) = (
                    op.int_attr("axis1").unwrap_or(0) as usize,
                    op.int_attr("axis2").unwrap_or(1) as usize,
                );
                if a >= source.shape.len() || b >= source.shape.len() {
                    return Err(RunError::new("transpose axes out of range"));
                }
                let mut view = source.clone();
                view.shape.swap(a, b);
                view.strides.swap(a, b);
                if let Some(valid) = &mut view.valid {
                    valid.swap(a, b);
                }
                Value::Tensor(view)
            }
            Code::TensorCast => {
                let ty = result_ty()?;
                let source = self.tensor(frame, op.operands[0])?;
                let mut tile = self.read_all(&source)?;
                let mode = cast_mode(op)?;
                let steps = cast_steps(tile.elem, ty.elem);
                for x in &mut tile.data {
                    *x = cast_through(*x, mode, &steps);
                }
                tile.elem = ty.elem;
                fresh(self, tile, &source.shape)?
            }
            Code::TensorFillpad | Code::TensorFillpadExpand => {
                let ty = result_ty()?;
                let source = self.tensor(frame, op.operands[0])?;
                let pad = op.enum_attr::<PadValue>("pad").unwrap_or(PadValue::Zero);
                let tile = self.read_valid(&source, "fill the padding of")?;
                let shape = if op.code == Code::TensorFillpad {
                    source.shape.clone()
                } else {
                    resolve_shape(ty, &[])?
                };
                let (rows, cols) =
                    TensorRef::contiguous(source.mem, 0, shape.clone(), ty.elem).rows_cols();
                let padded = super::regions::fill_expand(&tile, rows, cols, pad)?;
                Value::Tensor(self.new_tensor(&padded, shape, ty.elem)?)
            }
            Code::TensorExpandClone => {
                let source = self.tensor(frame, op.operands[0])?;
                let target = self.tensor(frame, op.operands[1])?;
                if source.shape.len() != target.shape.len()
                    || source
                        .shape
                        .iter()
                        .zip(&target.shape)
                        .any(|(&s, &t)| s != t && s != 1)
                {
                    return Err(RunError::new(format!(
                        "expand_clone of a tensor of shape {:?} into one of shape {:?}",
                        source.shape, target.shape
                    )));
                }
                let tile = self.read_all(&source)?;
                let mut state = self.world.lock();
                let rank = self.local_rank(&state, &target)?;
                let mut index = vec![0usize; target.shape.len()];
                for _ in 0..target.elements() {
                    // The source element each target element repeats.
                    let mut at = 0;
                    for (d, &i) in index.iter().enumerate() {
                        let extent = source.shape[d];
                        at = at * extent + if extent == 1 { 0 } else { i };
                    }
                    let indices: Vec<i64> = index.iter().map(|&i| i as i64).collect();
                    let to = target
                        .locate(&indices)
                        .ok_or_else(|| RunError::new("expand_clone writes outside its target"))?;
                    state.write(target.mem, rank, to, target.elem, tile.data[at])?;
                    // Advance the multi-index like an odometer.
                    for d in (0..index.len()).rev() {
                        index[d] += 1;
                        if index[d] < target.shape[d] {
                            break;
                        }
                        index[d] = 0;
                    }
                }
                drop(state);
                self.world.wake();
                Value::Tensor(target)
            }
            Code::TensorSetValid => {
                let source = self.tensor(frame, op.operands[0])?;
                let (rows, cols) = (
                    self.index(frame, op.operands[1])?,
                    self.index(frame, op.operands[2])?,
                );
                if source.shape.len() != 2 || rows > source.shape[0] || cols > source.shape[1] {
                    return Err(RunError::new(format!(
                        "set_validshape [{rows}, {cols}] exceeds the tensor's {:?}",
                        source.shape
                    )));
                }
                // A constant extent of the result type must be the one set.
                let typed = result_ty()?.valid.clone().unwrap_or_default();
                for (axis, (&extent, set)) in typed.iter().zip(&[rows, cols]).enumerate() {
                    if extent.is_some_and(|e| e as usize != *set) {
                        return Err(RunError::new(format!(
                            "set_validshape sets extent {set} of axis {axis}, its result type says {}",
                            extent.unwrap_or(0)
                        )));
                    }
                }
                let mut view = source;
                view.valid = Some(vec![Some(rows), Some(cols)]);
                Value::Tensor(view)
            }
            Code::TensorBinary(how) => {
                let ty = result_ty()?;
                let (lhs, rhs) = (
                    self.tensor(frame, op.operands[0])?,
                    self.tensor(frame, op.operands[1])?,
                );
                let (a, b) = (self.read_all(&lhs)?, self.read_all(&rhs)?);
                let (rows, cols) = (a.rows.max(b.rows), a.cols.max(b.cols));
                let tile = binary_tiles(&widen(a, rows, cols)?, &b, how, ty.elem, rows, cols)?;
                let template = if lhs.elements() >= rhs.elements() {
                    lhs.shape
                } else {
                    rhs.shape
                };
                fresh(self, tile, &template)?
            }
            Code::TensorScalar(how) => {
                let source = self.tensor(frame, op.operands[0])?;
                let tile = scalar_tile(
                    &self.read_all(&source)?,
                    self.number(frame, op.operands[1])?,
                    how,
                )?;
                fresh(self, tile, &source.shape)?
            }
            Code::TensorExpands => {
                let source = self.tensor(frame, op.operands[0])?;
                let (rows, cols) = source.rows_cols();
                let tile =
                    Tile::filled(rows, cols, source.elem, self.number(frame, op.operands[1])?)?;
                fresh(self, tile, &source.shape)?
            }
            Code::TensorUnary(how) => {
                let ty = result_ty()?;
                let source = self.tensor(frame, op.operands[0])?;
                let tile = unary_tile(&self.read_all(&source)?, how, ty.elem)?;
                fresh(self, tile, &source.shape)?
            }
            Code::TensorRowReduce(how) | Code::TensorColReduce(how) => {
                let ty = result_ty()?;
                let source = self.tensor(frame, op.operands[0])?;
                let rows = matches!(op.code, Code::TensorRowReduce(_));
                let tile = reduce_tile(&self.read_all(&source)?, how, rows, ty.elem)?;
                fresh(self, tile, &source.shape)?
            }
            Code::TensorRowExpand(how) | Code::TensorColExpand(how) => {
                let ty = result_ty()?;
                let (target, vector) = (
                    self.tensor(frame, op.operands[0])?,
                    self.tensor(frame, op.operands[1])?,
                );
                let rows = matches!(op.code, Code::TensorRowExpand(_));
                let tile = expand_tile(
                    &self.read_all(&target)?,
                    &self.read_all(&vector)?,
                    how,
                    rows,
                    ty.elem,
                )?;
                fresh(self, tile, &target.shape)?
            }
            Code::TensorMatmul | Code::TensorMatmulAcc => {
                let ty = result_ty()?;
                let base = usize::from(op.code == Code::TensorMatmulAcc);
                let (lhs, rhs) = (
                    self.tensor(frame, op.operands[base])?,
                    self.tensor(frame, op.operands[base + 1])?,
                );
                let (a, b) = (self.read_all(&lhs)?, self.read_all(&rhs)?);
                let transposed = (op.has_attr("a_trans"), op.has_attr("b_trans"));
                if lhs.shape.len() > 2 || rhs.shape.len() > 2 {
                    let (product, shape) =
                        batch_matmul(&a, &lhs.shape, &b, &rhs.shape, transposed, ty.elem)?;
                    return Ok(vec![fresh(self, product, &shape)?]);
                }
                let a = if transposed.0 { transpose(&a)? } else { a };
                let b = if transposed.1 { transpose(&b)? } else { b };
                let mut product = matmul_tiles(&a, &b, ty.elem, a.rows, b.cols)?;
                if op.code == Code::TensorMatmulAcc {
                    let init = match op.operands.get(3) {
                        Some(&slot) => self.int(frame, slot)? != 0,
                        None => false,
                    };
                    if !init {
                        let acc = self.read_all(&self.tensor(frame, op.operands[0])?)?;
                        product = binary_tiles(
                            &acc,
                            &product,
                            Binary::Add,
                            ty.elem,
                            product.rows,
                            product.cols,
                        )?;
                    }
                }
                fresh(self, product, &lhs.shape)?
            }
            _ => unreachable!("not a tensor op"),
        }])
    }
}

/// A batched matmul (either operand of rank 3 or more): per batch index of
/// the broadcast batch shape, the 2-D product of the operands' matrices at
/// that index (a batch extent of 1 repeats, a rank-2 operand is every
/// batch's), each transposed first as `transposed` says. `lhs` and `rhs`
/// are the operands read whole (their leading dimensions flattened into
/// rows); the result is `[batch × M, N]` with its shape `[batch..., M, N]`.
fn batch_matmul(
    lhs: &Tile,
    lhs_shape: &[usize],
    rhs: &Tile,
    rhs_shape: &[usize],
    transposed: (bool, bool),
    out: Elem,
) -> Result<(Tile, Vec<usize>)> {
    let matrix = |shape: &[usize]| -> Result<(Vec<usize>, usize, usize)> {
        match shape {
            [batch @ .., rows, cols] => Ok((batch.to_vec(), *rows, *cols)),
            _ => Err(RunError::new(
                "a batched matmul's operands need rank 2 or more".to_string(),
            )),
        }
    };
    let (lhs_batch, lhs_rows, lhs_cols) = matrix(lhs_shape)?;
    let (rhs_batch, rhs_rows, rhs_cols) = matrix(rhs_shape)?;
    // The broadcast batch shape, right-aligned.
    let rank = lhs_batch.len().max(rhs_batch.len());
    let extent = |batch: &[usize], d: usize| -> usize {
        (d + batch.len()).checked_sub(rank).map_or(1, |i| batch[i])
    };
    let as_i64 = |shape: &[usize]| shape.iter().map(|&d| d as i64).collect::<Vec<_>>();
    let batch: Vec<usize> =
        pto_dialects::dtype::broadcast_shapes(&as_i64(&lhs_batch), &as_i64(&rhs_batch))
            .ok_or_else(|| {
                RunError::new(format!(
                    "matmul: batch dimensions {lhs_batch:?} and {rhs_batch:?} do not broadcast"
                ))
            })?
            .into_iter()
            .map(|d| d as usize)
            .collect();
    // The flat index, in an operand's own batch shape, of batch `index`.
    let operand_index = |own: &[usize], mut index: usize| -> usize {
        let mut flat = 0;
        let mut stride = 1;
        for d in (0..rank).rev() {
            let at = index % batch[d];
            index /= batch[d];
            let own_extent = extent(own, d);
            if d + own.len() >= rank {
                flat += if own_extent == 1 { 0 } else { at } * stride;
                stride *= own_extent;
            }
        }
        flat
    };
    let slice = |tile: &Tile, index: usize, rows: usize, cols: usize| -> Result<Tile> {
        let mut part = Tile::undefined(rows, cols, tile.elem)?;
        for r in 0..rows {
            for c in 0..cols {
                let (i, j) = (part.index(r, c), tile.index(index * rows + r, c));
                part.data[i] = tile.data[j];
                part.defined[i] = tile.defined[j];
            }
        }
        Ok(part)
    };
    let count: usize = batch.iter().product();
    let mut result: Option<Tile> = None;
    for index in 0..count {
        let a = slice(lhs, operand_index(&lhs_batch, index), lhs_rows, lhs_cols)?;
        let b = slice(rhs, operand_index(&rhs_batch, index), rhs_rows, rhs_cols)?;
        let a = if transposed.0 { transpose(&a)? } else { a };
        let b = if transposed.1 { transpose(&b)? } else { b };
        let product = matmul_tiles(&a, &b, out, a.rows, b.cols)?;
        let result = match &mut result {
            Some(result) => result,
            None => result.insert(Tile::undefined(count * product.rows, product.cols, out)?),
        };
        for r in 0..product.rows {
            for c in 0..product.cols {
                let (i, j) = (
                    result.index(index * product.rows + r, c),
                    product.index(r, c),
                );
                result.data[i] = product.data[j];
                result.defined[i] = product.defined[j];
            }
        }
    }
    let rows = if transposed.0 { lhs_cols } else { lhs_rows };
    let cols = if transposed.1 { rhs_rows } else { rhs_cols };
    let result = match result {
        Some(result) => result,
        None => Tile::undefined(0, cols, out)?,
    };
    let mut shape = batch;
    shape.extend([rows, cols]);
    Ok((result, shape))
}

/// Repeats a one-row or one-column tile to `rows × cols` (broadcast lhs).
fn widen(tile: Tile, rows: usize, cols: usize) -> Result<Tile> {
    if tile.rows == rows && tile.cols == cols {
        return Ok(tile);
    }
    let mut wide = Tile::undefined(rows, cols, tile.elem)?;
    for r in 0..rows {
        for c in 0..cols {
            let (i, j) = (
                wide.index(r, c),
                tile.index(
                    if tile.rows == 1 { 0 } else { r },
                    if tile.cols == 1 { 0 } else { c },
                ),
            );
            wide.data[i] = tile.data[j];
            wide.defined[i] = tile.defined[j];
        }
    }
    Ok(wide)
}

fn transpose(tile: &Tile) -> Result<Tile> {
    let mut result = Tile::undefined(tile.cols, tile.rows, tile.elem)?;
    for r in 0..tile.rows {
        for c in 0..tile.cols {
            let (i, j) = (result.index(c, r), tile.index(r, c));
            result.data[i] = tile.data[j];
            result.defined[i] = tile.defined[j];
        }
    }
    Ok(result)
}

/// The valid extents of a tensor of `shape` that holds `tile`: `None`
/// when the tile is wholly valid (or its valid region spans no block of
/// the tensor's axes, which no computation here makes).
fn valid_of_tile(tile: &Tile, shape: &[usize]) -> Option<Vec<Option<usize>>> {
    if tile.valid_rows >= tile.rows && tile.valid_cols >= tile.cols {
        return None;
    }
    let n = shape.len();
    match n {
        0 => None,
        1 => Some(vec![Some(tile.valid_cols)]),
        _ => {
            let inner: usize = shape[1..n - 1].iter().product();
            if inner == 0 || !tile.valid_rows.is_multiple_of(inner) {
                return None;
            }
            let mut valid: Vec<Option<usize>> = shape.iter().map(|&d| Some(d)).collect();
            valid[0] = Some(tile.valid_rows / inner);
            valid[n - 1] = Some(tile.valid_cols);
            Some(valid)
        }
    }
}

/// `[4, ?]`: a tensor's valid extents as a message spells them.
fn render_valid(tensor: &TensorRef) -> String {
    let parts: Vec<String> = tensor
        .valid_extents()
        .iter()
        .map(|v| v.map_or("?".to_string(), |v| v.to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}
