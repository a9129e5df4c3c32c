//! Run-time values: scalars, tiles (on-chip buffers, held by value), tensors
//! (references to global or window memory), comm contexts.

use std::{cell::Cell, sync::Arc};

use pto_dialects::enums::PadValue;

use crate::{
    error::{Result, RunError},
    types::Elem,
    world::DEFAULT_MEMORY_LIMIT,
};

thread_local! {
    /// The host memory one tile may take on this thread: the run's memory
    /// limit (set by the session on the threads it runs).
    static TILE_LIMIT: Cell<usize> = const { Cell::new(DEFAULT_MEMORY_LIMIT) };
}

/// Host bytes per tile element: its value (f64) and whether it was written.
const TILE_ELEMENT_BYTES: usize = 9;

/// Sets the host memory one tile may take on the calling thread.
pub fn set_tile_limit(bytes: usize) {
    TILE_LIMIT.with(|limit| limit.set(bytes));
}

/// A window buffer: one allocation of a comm domain, present on every rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferId(pub usize);

/// A comm domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DomainId(pub usize);

/// Where a tensor's elements live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mem {
    /// Global memory: host tensors and tensors made by orchestration code.
    Gm(usize),
    /// A window buffer; which rank's copy is decided by the access.
    Window(BufferId),
}

/// A tensor: a strided view of memory.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorRef {
    pub mem: Mem,
    /// First element, in elements from the start of the memory.
    pub offset: usize,
    pub shape: Vec<usize>,
    /// In elements.
    pub strides: Vec<usize>,
    pub elem: Elem,
    /// The valid extents of a tensor whose valid region is narrower than
    /// its shape (`pl.tensor.set_validshape`, or a type that says so);
    /// `None` entries are extents a `?` of the type leaves unknown.
    /// `None`: the whole tensor (docs/pto-run.md, "Valid regions").
    pub valid: Option<Vec<Option<usize>>>,
}

/// Row-major strides of `shape`.
pub fn row_major(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    strides
}

/// The tensor indices of element `(r, c)` of a window at `offsets` with
/// leading extents `lead` (see [`TensorRef::window_at`]); `None` when `r`
/// is past the window's rows.
pub fn window_indices(offsets: &[i64], lead: &[usize], r: usize, c: usize) -> Option<Vec<i64>> {
    let mut indices = offsets.to_vec();
    let n = indices.len();
    if n == 0 {
        return None;
    }
    indices[n - 1] = indices[n - 1].checked_add(c as i64)?;
    let mut row = r;
    for d in (0..n - 1).rev() {
        let extent = lead.get(d).copied().unwrap_or(1).max(1);
        indices[d] = indices[d].checked_add((row % extent) as i64)?;
        row /= extent;
    }
    (row == 0).then_some(indices)
}

/// The leading extents (all but the last) of a window of `shape`.
pub fn leading(shape: &[i64]) -> Vec<usize> {
    shape[..shape.len().saturating_sub(1)]
        .iter()
        .map(|&d| d.max(0) as usize)
        .collect()
}

impl TensorRef {
    pub fn contiguous(mem: Mem, offset: usize, shape: Vec<usize>, elem: Elem) -> Self {
        let strides = row_major(&shape);
        Self {
            mem,
            offset,
            shape,
            strides,
            elem,
            valid: None,
        }
    }

    pub fn elements(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the view is row-major contiguous.
    pub fn is_contiguous(&self) -> bool {
        self.shape
            .iter()
            .zip(row_major(&self.shape))
            .zip(&self.strides)
            .all(|((&d, r), &s)| d <= 1 || r == s)
    }

    /// The element offset of `indices`, `None` when out of bounds.
    pub fn locate(&self, indices: &[i64]) -> Option<usize> {
        if indices.len() != self.shape.len() {
            return None;
        }
        let mut at = self.offset;
        for ((&i, &extent), &stride) in indices.iter().zip(&self.shape).zip(&self.strides) {
            if i < 0 || i as usize >= extent {
                return None;
            }
            at += i as usize * stride;
        }
        Some(at)
    }

    /// The element offsets of the whole view, in row-major order.
    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        let total = self.elements();
        let mut index = vec![0usize; self.shape.len()];
        let mut at = self.offset;
        (0..total).map(move |i| {
            if i > 0 {
                // Advance the multi-index like an odometer.
                for d in (0..index.len()).rev() {
                    index[d] += 1;
                    at += self.strides[d];
                    if index[d] < self.shape[d] {
                        break;
                    }
                    at -= self.strides[d] * self.shape[d];
                    index[d] = 0;
                }
            }
            at
        })
    }

    /// For a window at `offsets` whose leading extents are `lead` (one per
    /// dimension but the last), the element offset of its `(r, c)`: `c`
    /// runs along the last dimension, `r` over the leading ones in
    /// row-major order. `None` outside the tensor or the window's rows.
    pub fn window_at(&self, offsets: &[i64], lead: &[usize], r: usize, c: usize) -> Option<usize> {
        let n = self.shape.len();
        if offsets.len() != n || n == 0 {
            return None;
        }
        let indices = window_indices(offsets, lead, r, c)?;
        let mut at = self.offset;
        for (&i, (&extent, &stride)) in indices.iter().zip(self.shape.iter().zip(&self.strides)) {
            if i < 0 || i as usize >= extent {
                return None;
            }
            at += i as usize * stride;
        }
        Some(at)
    }

    /// The valid extent of each axis: the shape where the whole axis is
    /// valid, `None` where a `?` of the type leaves it unknown.
    pub fn valid_extents(&self) -> Vec<Option<usize>> {
        match &self.valid {
            Some(valid) => valid.clone(),
            None => self.shape.iter().map(|&d| Some(d)).collect(),
        }
    }

    /// The valid region in the 2-D form of [`Self::rows_cols`]: valid rows
    /// and columns; `None` when an extent is unknown or the region is no
    /// block of whole folded rows (a narrower inner leading axis).
    pub fn valid_rows_cols(&self) -> Option<(usize, usize)> {
        let valid = self.valid_extents();
        match valid.len() {
            0 => Some((1, 1)),
            1 => Some((1, valid[0]?)),
            n => {
                let inner_full = (1..n - 1).all(|d| valid[d] == Some(self.shape[d]));
                let inner: usize = self.shape[1..n - 1].iter().product();
                inner_full.then_some((valid[0]? * inner, valid[n - 1]?))
            }
        }
    }

    /// The 2-D form `[rows, cols]` of the view (leading dims folded).
    pub fn rows_cols(&self) -> (usize, usize) {
        match self.shape.len() {
            0 => (1, 1),
            1 => (1, self.shape[0]),
            n => (self.shape[..n - 1].iter().product(), self.shape[n - 1]),
        }
    }
}

/// A tile: `rows × cols` values (leading dims of an N-d tile folded into
/// rows), its valid region, and which elements hold data.
#[derive(Clone, Debug, PartialEq)]
pub struct Tile {
    pub rows: usize,
    pub cols: usize,
    pub elem: Elem,
    pub valid_rows: usize,
    pub valid_cols: usize,
    pub pad: PadValue,
    pub data: Vec<f64>,
    /// `false`: never written (reading it is an error).
    pub defined: Vec<bool>,
}

impl Tile {
    /// A tile no element of which is written yet; an error when it would
    /// take more host memory than the run's memory limit.
    pub fn undefined(rows: usize, cols: usize, elem: Elem) -> Result<Self> {
        let limit = TILE_LIMIT.with(Cell::get);
        let elements = rows
            .checked_mul(cols)
            .filter(|elements| elements.checked_mul(TILE_ELEMENT_BYTES).is_some_and(|bytes| bytes <= limit))
            .ok_or_else(|| {
                RunError::new(format!(
                    "a [{rows}, {cols}] tile takes more host memory than the memory limit of {limit} bytes (raise --memory-limit)"
                ))
            })?;
        Ok(Self {
            rows,
            cols,
            elem,
            valid_rows: rows,
            valid_cols: cols,
            pad: PadValue::Null,
            data: vec![0.0; elements],
            defined: vec![false; elements],
        })
    }

    /// A tile filled with `value`.
    pub fn filled(rows: usize, cols: usize, elem: Elem, value: f64) -> Result<Self> {
        let tile = Self::undefined(rows, cols, elem)?;
        Ok(Self {
            data: vec![elem.round(value); tile.data.len()],
            defined: vec![true; tile.data.len()],
            ..tile
        })
    }

    pub fn index(&self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }

    /// Whether `(row, col)` is in the valid region.
    pub fn is_valid(&self, row: usize, col: usize) -> bool {
        row < self.valid_rows && col < self.valid_cols
    }

    /// The value at `(row, col)`: the data when written, else the pad value
    /// outside the valid region; `None` for an unwritten valid element.
    pub fn get(&self, row: usize, col: usize) -> Option<f64> {
        let i = self.index(row, col);
        if self.defined[i] {
            return Some(self.data[i]);
        }
        if !self.is_valid(row, col) {
            return pad_value(self.pad, self.elem);
        }
        None
    }
}

/// The value a pad mode stands for in type `elem` (`None` for `null`).
pub fn pad_value(pad: PadValue, elem: Elem) -> Option<f64> {
    match pad {
        PadValue::Null => None,
        PadValue::Zero => Some(0.0),
        PadValue::Max => Some(if elem.is_float() {
            f64::INFINITY
        } else {
            i64::MAX as f64
        }),
        PadValue::Min => Some(if elem.is_float() {
            f64::NEG_INFINITY
        } else {
            i64::MIN as f64
        }),
    }
}

/// A run-time value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Integers, indices and `i1`.
    Int(i64),
    Float(f64),
    Tile(Arc<Tile>),
    Tensor(TensorRef),
    /// The comm context of a domain (the rank is the executing device's).
    Ctx(DomainId),
    Ptr(BufferId),
    Task(u64),
    /// `!pl.array`: its elements (integers or task ids).
    Array(Arc<Vec<Value>>),
    /// A prefetch context, event or session: pto-run models no cache, so
    /// a prefetch changes nothing and its handles carry nothing.
    Prefetch,
    /// `ub.poison`: passed along as it is (yielded, returned), an error
    /// where an op reads it.
    Poison,
}

impl Value {
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::Tile(_) => "tile",
            Value::Tensor(_) => "tensor",
            Value::Ctx(_) => "comm context",
            Value::Ptr(_) => "window buffer",
            Value::Task(_) => "task id",
            Value::Array(_) => "array",
            Value::Prefetch => "prefetch handle",
            Value::Poison => "poison value (ub.poison)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_walk_strided_views_in_row_major_order() {
        // Rows 1..3, columns 2..5 of a 4x6 tensor starting at element 100.
        let view = TensorRef {
            mem: Mem::Gm(0),
            offset: 100 + 6 + 2,
            shape: vec![2, 3],
            strides: vec![6, 1],
            elem: Elem::F32,
            valid: None,
        };
        assert_eq!(
            view.offsets().collect::<Vec<_>>(),
            vec![108, 109, 110, 114, 115, 116]
        );
        // A transposed view walks columns.
        let transposed = TensorRef {
            mem: Mem::Gm(0),
            offset: 0,
            shape: vec![3, 2],
            strides: vec![1, 3],
            elem: Elem::F32,
            valid: None,
        };
        assert_eq!(
            transposed.offsets().collect::<Vec<_>>(),
            vec![0, 3, 1, 4, 2, 5]
        );
        assert_eq!(
            TensorRef::contiguous(Mem::Gm(0), 7, vec![], Elem::F32)
                .offsets()
                .collect::<Vec<_>>(),
            vec![7]
        );
    }

    #[test]
    fn window_positions_and_bounds() {
        let t = TensorRef::contiguous(Mem::Gm(0), 0, vec![2, 4, 8], Elem::F32);
        assert_eq!(t.window_at(&[1, 2, 3], &[1, 2], 1, 4), Some(32 + 3 * 8 + 7));
        assert_eq!(t.window_at(&[1, 2, 3], &[1, 4], 2, 0), None, "row 4 of 4");
        assert_eq!(
            t.window_at(&[1, 2, 3], &[1, 2], 0, 5),
            None,
            "column 8 of 8"
        );
        assert_eq!(
            t.window_at(&[2, 0, 0], &[1, 1], 0, 0),
            None,
            "leading index out of range"
        );
        // A 2x2 partition of the leading dims: row 3 is [1, 1] past the offsets.
        assert_eq!(t.window_at(&[0, 2, 0], &[2, 2], 3, 1), Some(32 + 3 * 8 + 1));
        assert_eq!(
            t.window_at(&[0, 2, 0], &[2, 2], 4, 0),
            None,
            "past the window's rows"
        );
        let flat = TensorRef::contiguous(Mem::Gm(0), 0, vec![5], Elem::F32);
        assert_eq!(flat.window_at(&[1], &[], 0, 3), Some(4));
        assert_eq!(flat.window_at(&[1], &[], 1, 0), None);
    }
}
