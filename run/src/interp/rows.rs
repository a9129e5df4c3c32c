//! Rows gathered from global memory: `pl.tile.gather_row` and
//! `pl.tensor.gather_row` (a window of a tensor into a window of a tile or
//! tensor), `pl.tensor.paged_gather` (rows of a paged cache through a
//! block table) and `pl.tile.mgather` (rows or elements by index), as
//! their pages in docs/dialects/pl.md define them.

use std::sync::Arc;

use pto_dialects::enums::{EnumAttr, GatherMode, GatherOob, PadValue, ScatterOob};

use super::{Frame, Interp};
use crate::{
    error::{Result, RunError},
    program::{Attr, Op},
    types::{TileTy, Ty},
    value::{TensorRef, Tile, Value, leading},
};

/// Where an index past a table's rows or elements goes.
#[derive(Clone, Copy)]
enum Past {
    /// The last row or element.
    Clamp,
    /// The index modulo the table's rows or elements.
    Wrap,
    /// Nowhere: a zero read, nothing written.
    Nowhere,
    /// An error (undefined on the device).
    Fail,
}

/// The row (`row_mode`) or flat element of a table the index at `at` of
/// `indices` names, read as unsigned 32-bit; past the table's `capacity`
/// as `past` says (`None`: nowhere).
fn table_place(
    what: &str,
    indices: &Tile,
    at: (usize, usize),
    capacity: usize,
    row_mode: bool,
    past: Past,
) -> Result<Option<usize>> {
    let raw = indices
        .get(at.0, at.1)
        .ok_or_else(|| super::tile::undefined_read(what, at.0, at.1))?;
    let index = raw as i64 as u32 as usize;
    if index < capacity {
        return Ok(Some(index));
    }
    match past {
        Past::Clamp => Ok(Some(capacity - 1)),
        Past::Wrap => Ok(Some(index % capacity)),
        Past::Nowhere => Ok(None),
        Past::Fail => Err(RunError::new(format!(
            "{what}: index {index} at {at:?} is past the table's {capacity} {}",
            if row_mode { "rows" } else { "elements" }
        ))),
    }
}

/// Whether `op` (an mgather or mscatter) names rows of `table`, how many
/// rows or elements an index may name, and the table's columns.
fn table_extent(op: &Op, table: &TensorRef) -> (bool, usize, usize) {
    let row_mode = op.enum_attr::<GatherMode>("mode") == Some(GatherMode::Row);
    let (rows, cols) = table.rows_cols();
    (row_mode, if row_mode { rows } else { rows * cols }, cols)
}

/// The storage position of flat element `flat` of a 1-D or 2-D `table` of
/// `table_cols` columns.
fn table_element(table: &TensorRef, flat: usize, table_cols: usize, what: &str) -> Result<usize> {
    let (r, c) = ((flat / table_cols) as i64, (flat % table_cols) as i64);
    let offsets = if table.shape.len() == 1 {
        vec![c]
    } else {
        vec![r, c]
    };
    table
        .window_at(&offsets, &[], 0, 0)
        .ok_or_else(|| RunError::new(format!("{what}: element {flat} is outside the table")))
}

impl Interp<'_> {
    /// Reads the `[1, size]` or `shape` window of `source` at `offsets`,
    /// its `valid` corner, into a tile.
    fn window(
        &self,
        source: &TensorRef,
        offsets: &[i64],
        shape: [i64; 2],
        valid: (usize, usize),
    ) -> Result<Tile> {
        let ty = TileTy {
            shape: shape.to_vec(),
            elem: source.elem,
            valid: vec![Some(shape[0]), Some(shape[1])],
            pad: PadValue::Null,
        };
        self.read_window(
            source,
            None,
            offsets,
            &leading(&ty.shape),
            &ty,
            valid,
            false,
        )
    }

    /// `gather_row`: the target (a tile, or a tensor read whole) with the
    /// window of `shape` at the target's offsets replaced by the valid
    /// corner of the source's window at the source's offsets.
    pub(super) fn gather_row(&mut self, frame: &Frame, op: &Op, on_tensors: bool) -> Result<Value> {
        let source = self.tensor(frame, op.operands[0])?;
        let mut target = if on_tensors {
            self.read_all(&self.tensor(frame, op.operands[1])?)?
        } else {
            (*self.tile(frame, op.operands[1])?).clone()
        };
        let shape = match op.attr("shape") {
            Some(Attr::Ints(shape)) if shape.len() == 2 => [shape[0], shape[1]],
            _ => return Err(RunError::new("gather_row needs a 2-D shape")),
        };
        let source_offsets = self.ints(frame, op.segment(2))?;
        let at = self.ints(frame, op.segment(3))?;
        let valid = match self.ints(frame, op.segment(4))?[..] {
            [] => (shape[0] as usize, shape[1] as usize),
            [rows, cols] => {
                if !(0..=shape[0]).contains(&rows) || !(0..=shape[1]).contains(&cols) {
                    return Err(RunError::new(format!(
                        "gather_row: valid extents [{rows}, {cols}] outside the window [{}, {}]",
                        shape[0], shape[1]
                    )));
                }
                (rows as usize, cols as usize)
            }
            _ => return Err(RunError::new("gather_row needs two valid extents or none")),
        };
        let inside = at.len() == 2
            && at[0] >= 0
            && at[1] >= 0
            && (at[0] + shape[0]) as usize <= target.rows
            && (at[1] + shape[1]) as usize <= target.cols;
        if !inside {
            return Err(RunError::new(format!(
                "gather_row: the window [{}, {}] at {at:?} leaves the target [{}, {}]",
                shape[0], shape[1], target.rows, target.cols
            )));
        }
        let window = self.window(&source, &source_offsets, shape, valid)?;
        let (row, col) = (at[0] as usize, at[1] as usize);
        for r in 0..valid.0 {
            for c in 0..valid.1 {
                let (from, to) = (window.index(r, c), target.index(row + r, col + c));
                target.data[to] = window.data[from];
                target.defined[to] = window.defined[from];
            }
        }
        self.shaped(op, target, on_tensors)
    }

    /// `paged_gather`: row `i` of the result is the source's row
    /// `table[j / block_size] * block_size + j % block_size` for
    /// `j = indices[i]`, columns from `col_off`.
    pub(super) fn paged_gather(&mut self, frame: &Frame, op: &Op) -> Result<Value> {
        let source = self.tensor(frame, op.operands[0])?;
        let indices = self.read_all(&self.tensor(frame, op.operands[1])?)?;
        let table = self.read_all(&self.tensor(frame, op.operands[2])?)?;
        let block_size = op
            .int_attr("block_size")
            .filter(|&b| b > 0)
            .ok_or_else(|| RunError::new("paged_gather needs a positive block_size"))?;
        let col_off = op.int_attr("col_off").unwrap_or(0);
        let Some(Ty::Tensor(result)) = op.result_types.first() else {
            return Err(RunError::new("paged_gather makes a tensor"));
        };
        let (Some(Some(max_indices)), Some(Some(size))) =
            (result.shape.first().copied(), result.shape.get(1).copied())
        else {
            return Err(RunError::new("paged_gather needs a static result"));
        };
        if indices.cols as i64 > max_indices {
            return Err(RunError::new(format!(
                "paged_gather: {} indices for {max_indices} rows",
                indices.cols
            )));
        }
        let mut rows = Tile::undefined(max_indices as usize, size as usize, result.elem)?;
        for i in 0..indices.cols {
            let j = indices.data[indices.index(0, i)] as i64;
            let page = j.div_euclid(block_size);
            if j < 0 || page as usize >= table.cols {
                return Err(RunError::new(format!(
                    "paged_gather: position {j} (index {i}) is on page {page}, outside the table's {}",
                    table.cols
                )));
            }
            let physical =
                table.data[table.index(0, page as usize)] as i64 * block_size + j % block_size;
            let row = self.window(&source, &[physical, col_off], [1, size], (1, size as usize))?;
            for c in 0..size as usize {
                let (from, to) = (row.index(0, c), rows.index(i, c));
                rows.data[to] = row.data[from];
                rows.defined[to] = row.defined[from];
            }
        }
        self.shaped(op, rows, true)
    }

    /// `mgather`: rows (`row`) or elements (`elem`) of the table at the
    /// indices (read as unsigned 32-bit), an index past the table treated
    /// as `oob` says.
    pub(super) fn mgather(&mut self, frame: &Frame, op: &Op) -> Result<Value> {
        let table = self.tensor(frame, op.operands[0])?;
        let indices = self.tile(frame, op.operands[1])?;
        let Some(Ty::Tile(result)) = op.result_types.first() else {
            return Err(RunError::new("mgather makes a tile"));
        };
        let (rows, cols) = (result.shape[0] as usize, result.shape[1] as usize);
        let mut out = Tile::undefined(rows, cols, result.elem)?;
        let oob = op
            .enum_attr::<GatherOob>("oob")
            .unwrap_or(GatherOob::Undefined);
        let (row_mode, capacity, table_cols) = table_extent(op, &table);
        let past = match oob {
            GatherOob::Clamp => Past::Clamp,
            GatherOob::Wrap => Past::Wrap,
            GatherOob::Zero => Past::Nowhere,
            GatherOob::Undefined => Past::Fail,
        };
        // The position an index reads, or `None` for a zero.
        let place = |at| table_place("mgather", &indices, at, capacity, row_mode, past);
        let mut state = self.world.lock();
        let rank = self.local_rank(&state, &table)?;
        let mut read = |flat: usize| -> Result<f64> {
            let at = table_element(&table, flat, table_cols, "mgather")?;
            Ok(state.read(table.mem, rank, at, table.elem)?.unwrap_or(0.0))
        };
        if row_mode {
            out.valid_rows = indices.valid_cols.min(rows);
            for r in 0..out.valid_rows {
                let source = place((0, r))?;
                for c in 0..cols.min(table_cols) {
                    let i = out.index(r, c);
                    out.data[i] = match source {
                        Some(row) => read(row * table_cols + c)?,
                        None => 0.0,
                    };
                    out.defined[i] = true;
                }
            }
        } else {
            (out.valid_rows, out.valid_cols) = (indices.valid_rows, indices.valid_cols);
            for r in 0..out.valid_rows {
                for c in 0..out.valid_cols {
                    let i = out.index(r, c);
                    out.data[i] = match place((r, c))? {
                        Some(flat) => read(flat)?,
                        None => 0.0,
                    };
                    out.defined[i] = true;
                }
            }
        }
        Ok(Value::Tile(Arc::new(out)))
    }

    /// `mscatter`: the source's valid rows (`row`) or elements (`elem`)
    /// written to the table at the indices (read as unsigned 32-bit) in
    /// row-major order, added with `atomic_add`, an index past the table
    /// treated as `oob` says; the result is the table.
    pub(super) fn mscatter(&mut self, frame: &Frame, op: &Op) -> Result<Value> {
        let source = self.tile(frame, op.operands[0])?;
        let indices = self.tile(frame, op.operands[1])?;
        let table = self.tensor(frame, op.operands[2])?;
        let oob = op
            .enum_attr::<ScatterOob>("oob")
            .unwrap_or(ScatterOob::Undefined);
        let atomic_add = op.has_attr("atomic_add");
        let (row_mode, capacity, table_cols) = table_extent(op, &table);
        let past = match oob {
            ScatterOob::Skip => Past::Nowhere,
            ScatterOob::Clamp => Past::Clamp,
            ScatterOob::Wrap => Past::Wrap,
            ScatterOob::Undefined => Past::Fail,
        };
        // The position an index writes, or `None` for none.
        let place = |at| table_place("mscatter", &indices, at, capacity, row_mode, past);
        let value = |r: usize, c: usize| {
            source
                .get(r, c)
                .ok_or_else(|| super::tile::undefined_read("mscatter", r, c))
        };
        let mut state = self.world.lock();
        let rank = self.local_rank(&state, &table)?;
        let mut write = |flat: usize, value: f64| -> Result<()> {
            let at = table_element(&table, flat, table_cols, "mscatter")?;
            let value = if atomic_add {
                state.read(table.mem, rank, at, table.elem)?.unwrap_or(0.0) + value
            } else {
                value
            };
            state.write(table.mem, rank, at, table.elem, value)?;
            Ok(())
        };
        for r in 0..source.valid_rows {
            if row_mode {
                let Some(row) = place((0, r))? else {
                    continue;
                };
                for c in 0..source.valid_cols.min(table_cols) {
                    write(row * table_cols + c, value(r, c)?)?;
                }
                continue;
            }
            for c in 0..source.valid_cols {
                if let Some(flat) = place((r, c))? {
                    write(flat, value(r, c)?)?;
                }
            }
        }
        drop(state);
        if matches!(table.mem, crate::value::Mem::Window(_)) {
            self.world.wake();
        }
        Ok(Value::Tensor(table))
    }

    /// `tile` as the op's result: a fresh tensor of the result's shape, or
    /// the tile.
    fn shaped(&self, op: &Op, tile: Tile, on_tensors: bool) -> Result<Value> {
        if !on_tensors {
            return Ok(Value::Tile(Arc::new(tile)));
        }
        let Some(Ty::Tensor(result)) = op.result_types.first() else {
            return Err(RunError::new("expected a tensor result"));
        };
        let shape = result
            .shape
            .iter()
            .map(|d| {
                d.map(|d| d as usize)
                    .ok_or_else(|| RunError::new("a dynamic result extent"))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Value::Tensor(self.new_tensor(&tile, shape, result.elem)?))
    }
}
