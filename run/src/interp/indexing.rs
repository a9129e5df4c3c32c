//! Index sequences, sorts and gathers (docs/dialects/pl.md, their ops),
//! on tiles and, read whole into tiles, on tensors.
//!
//! Sorted pairs are stored as the hardware stores them: 8 bytes per pair,
//! the value then the `ui32` index, in a tile of the value's type (two f32
//! elements, the second the index's bits; four f16 elements: the value, a
//! zero and the index's two halves). pto-run keeps elements as numbers, so
//! bits are carried by the numbers they encode; a bit pattern no number
//! stands for (a signalling NaN) is an error, not a silent change.

use std::sync::Arc;

use pto_dialects::enums::{CmpMode, EnumAttr, MaskPattern};

use super::{Frame, Interp, scalar::compare, tile::undefined_read};
use crate::{
    error::{Result, RunError},
    program::{Code, Indexing, Op},
    types::{Elem, Ty},
    value::{Tile, Value},
    world::{decode, encode},
};

/// The bytes of element `x` of type `elem`, exactly.
fn bytes_of(x: f64, elem: Elem) -> Vec<u8> {
    let mut bytes = vec![0u8; elem.bytes()];
    encode(&mut bytes, elem, x);
    bytes
}

/// The element of type `elem` with these bytes; an error when no number
/// pto-run holds has them.
fn from_bytes(bytes: &[u8], elem: Elem) -> Result<f64> {
    let x = decode(bytes, elem);
    if bytes_of(x, elem) != bytes {
        return Err(RunError::new(format!(
            "the bytes {bytes:02x?} are a {} pto-run cannot hold (a signalling NaN)",
            elem.name()
        )));
    }
    Ok(x)
}

/// Elements of `elem` per 8-byte pair.
fn pair_width(elem: Elem) -> usize {
    8 / elem.bytes()
}

/// A pair's value and index (`pair` its elements).
fn read_pair(pair: &[f64], elem: Elem) -> Result<(f64, u32)> {
    let mut bytes = Vec::with_capacity(8);
    for &x in pair {
        bytes.extend(bytes_of(x, elem));
    }
    let index = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    Ok((pair[0], index))
}

/// The elements of the pair (`value`, `index`).
fn write_pair(value: f64, index: u32, elem: Elem) -> Result<Vec<f64>> {
    let mut bytes = bytes_of(value, elem);
    bytes.resize(4, 0);
    bytes.extend(index.to_le_bytes());
    bytes
        .chunks(elem.bytes())
        .map(|chunk| from_bytes(chunk, elem))
        .collect()
}

/// Index `value` as a position below `extent`, if it is one.
fn index_within(value: f64, extent: usize) -> Option<usize> {
    usize::try_from(value as i64).ok().filter(|&i| i < extent)
}

/// `start + j` (`start - j` when descending) for `j < cols`, wrapped to
/// `elem`.
pub fn sequence(start: i64, cols: usize, elem: Elem, descending: bool) -> Result<Tile> {
    let mut tile = Tile::undefined(1, cols, elem)?;
    for j in 0..cols {
        let step = j as i64;
        let x = if descending {
            start.wrapping_sub(step)
        } else {
            start.wrapping_add(step)
        };
        tile.data[j] = elem.wrap(x) as f64;
        tile.defined[j] = true;
    }
    Ok(tile)
}

/// 1 where `c <= r + diagonal` (`c >= r + diagonal` for the upper
/// triangle), else 0.
pub fn triangle(diagonal: i64, rows: usize, cols: usize, elem: Elem, upper: bool) -> Result<Tile> {
    let mut tile = Tile::undefined(rows, cols, elem)?;
    for r in 0..rows {
        for c in 0..cols {
            let (r, c) = (r as i64, c as i64);
            let inside = if upper {
                c >= r + diagonal
            } else {
                c <= r + diagonal
            };
            let i = tile.index(r as usize, c as usize);
            tile.data[i] = if inside { 1.0 } else { 0.0 };
            tile.defined[i] = true;
        }
    }
    Ok(tile)
}

/// Every block of 32 elements of each valid row of `source` sorted
/// descending into (value, index) pairs, the indices from `indices`; among
/// equal values (-0 equals 0) the smaller index comes first.
pub fn sort_blocks(source: &Tile, indices: &Tile) -> Result<Tile> {
    let width = pair_width(source.elem);
    let mut result = Tile::undefined(source.rows, source.cols * width, source.elem)?;
    result.valid_rows = source.valid_rows;
    for r in 0..source.valid_rows {
        for block in (0..source.cols).step_by(32) {
            let mut pairs = Vec::with_capacity(32);
            for c in block..(block + 32).min(source.cols) {
                let value = source
                    .get(r, c)
                    .ok_or_else(|| undefined_read("sort32", r, c))?;
                let index = indices
                    .get(r, c)
                    .ok_or_else(|| undefined_read("sort32's indices", r, c))?;
                pairs.push((value, index as u32));
            }
            // Descending, then by index; NaN is not ordered.
            if pairs.iter().any(|(v, _)| v.is_nan()) {
                return Err(RunError::new(format!(
                    "sort32 sorts a NaN (row {r}, block at column {block}), which has no order"
                )));
            }
            pairs.sort_by(|a, b| {
                b.0.partial_cmp(&a.0)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(a.1.cmp(&b.1))
            });
            for (k, (value, index)) in pairs.into_iter().enumerate() {
                let at = result.index(r, (block + k) * width);
                for (i, x) in write_pair(value, index, source.elem)?
                    .into_iter()
                    .enumerate()
                {
                    result.data[at + i] = x;
                    result.defined[at + i] = true;
                }
            }
        }
    }
    Ok(result)
}

/// The pairs of `row` (`elements` of a one-row tile, wholly written).
fn pairs_of(tile: &Tile, elements: usize, what: &str) -> Result<Vec<(f64, u32)>> {
    let width = pair_width(tile.elem);
    (0..elements / width)
        .map(|p| {
            let values: Vec<f64> = (0..width)
                .map(|i| {
                    tile.get(0, p * width + i)
                        .ok_or_else(|| undefined_read(what, 0, p * width + i))
                })
                .collect::<Result<_>>()?;
            read_pair(&values, tile.elem)
        })
        .collect()
}

/// Merges sorted lists descending (ties to the earlier list) into at most
/// `limit` pairs; with `exhausted`, stops once any list runs out.
fn merge(lists: &[Vec<(f64, u32)>], limit: usize, exhausted: bool) -> Vec<(f64, u32)> {
    let mut heads = vec![0usize; lists.len()];
    let mut merged = Vec::new();
    while merged.len() < limit {
        let next = (0..lists.len())
            .filter(|&k| heads[k] < lists[k].len())
            .fold(None, |best: Option<usize>, k| match best {
                Some(b) if lists[b][heads[b]].0 >= lists[k][heads[k]].0 => Some(b),
                _ => Some(k),
            });
        let Some(k) = next else { break };
        merged.push(lists[k][heads[k]]);
        heads[k] += 1;
        if exhausted && heads[k] == lists[k].len() {
            break;
        }
    }
    merged
}

/// A one-row tile of `cols` elements holding `pairs` from its start (the
/// rest unwritten).
fn pair_row(pairs: &[(f64, u32)], cols: usize, elem: Elem) -> Result<Tile> {
    let width = pair_width(elem);
    let mut tile = Tile::undefined(1, cols, elem)?;
    for (p, &(value, index)) in pairs.iter().enumerate() {
        for (i, x) in write_pair(value, index, elem)?.into_iter().enumerate() {
            tile.data[p * width + i] = x;
            tile.defined[p * width + i] = true;
        }
    }
    Ok(tile)
}

/// Each group of four sorted runs of `block` elements of the one-row
/// `source` merged into one run.
pub fn merge_runs(source: &Tile, block: i64) -> Result<Tile> {
    let cols = source.cols;
    let width = pair_width(source.elem);
    let block = usize::try_from(block)
        .ok()
        .filter(|&b| b > 0 && b.is_multiple_of(64))
        .ok_or_else(|| {
            RunError::new(format!(
                "mrgsort_format1's block_len must be a positive multiple of 64, got {block}"
            ))
        })?;
    if !cols.is_multiple_of(4 * block) {
        return Err(RunError::new(format!(
            "mrgsort_format1 merges groups of four runs of {block}: the row's {cols} elements are not a multiple of {}",
            4 * block
        )));
    }
    let pairs = pairs_of(source, cols, "mrgsort_format1")?;
    let run = block / width;
    let mut merged = Vec::with_capacity(pairs.len());
    for group in pairs.chunks(4 * run) {
        let lists: Vec<Vec<(f64, u32)>> = group.chunks(run).map(<[_]>::to_vec).collect();
        merged.extend(merge(&lists, group.len(), false));
    }
    pair_row(&merged, cols, source.elem)
}

/// The one-row lists `sources` merged into a row of `cols` elements.
pub fn merge_lists(sources: &[Arc<Tile>], cols: usize, exhausted: bool) -> Result<Tile> {
    let elem = sources[0].elem;
    let lists: Vec<Vec<(f64, u32)>> = sources
        .iter()
        .map(|s| pairs_of(s, s.cols, "mrgsort_format2"))
        .collect::<Result<_>>()?;
    let merged = merge(&lists, cols / pair_width(elem), exhausted);
    pair_row(&merged, cols, elem)
}

/// `result[i, j] = source.flat[indices[i, j]]`, over the indices' valid
/// region.
pub fn gather(source: &Tile, indices: &Tile) -> Result<Tile> {
    let mut result = Tile::undefined(indices.rows, indices.cols, source.elem)?;
    (result.valid_rows, result.valid_cols) = (indices.valid_rows, indices.valid_cols);
    let size = source.rows * source.cols;
    for r in 0..indices.valid_rows {
        for c in 0..indices.valid_cols {
            let index = indices
                .get(r, c)
                .ok_or_else(|| undefined_read("gather's indices", r, c))?;
            let flat = index_within(index, size).ok_or_else(|| {
                RunError::new(format!(
                    "gather index {index} at [{r}, {c}] is outside the source's {size} elements"
                ))
            })?;
            let (row, col) = (flat / source.cols, flat % source.cols);
            let i = result.index(r, c);
            result.data[i] = source
                .get(row, col)
                .ok_or_else(|| undefined_read("gather", row, col))?;
            result.defined[i] = true;
        }
    }
    Ok(result)
}

/// `pl.tensor.gather`: `input` (of `input_shape`) gathered along `dim` by
/// `index` (of `index_shape`, read whole, row-major): each element of the
/// result is `input`'s at the index's position with coordinate `dim`
/// replaced by the index there. The result has the index's elements,
/// `cols` to a row.
pub fn gather_axis(
    input: &Tile,
    input_shape: &[usize],
    index: &Tile,
    index_shape: &[usize],
    dim: usize,
) -> Result<Tile> {
    let along = Along::new(input_shape, index_shape, dim, "gather")?;
    let count = along.positions();
    let cols = index_shape.last().copied().unwrap_or(1).max(1);
    let mut result = Tile::undefined(count / cols, cols, input.elem)?;
    for flat in 0..count {
        let source = along.element(index, flat)?;
        result.data[flat] = input.data[source];
        result.defined[flat] = input.defined[source];
    }
    Ok(result)
}

/// `pl.tile.scatter`: a wholly valid `rows` x `cols` tile of zeros with
/// `source`'s element at each valid position of `indexes` written at the
/// flat index there (later positions win).
pub fn scatter(source: &Tile, indexes: &Tile, rows: usize, cols: usize) -> Result<Tile> {
    let mut result = Tile::undefined(rows, cols, source.elem)?;
    result.data.fill(0.0);
    result.defined.fill(true);
    for r in 0..indexes.valid_rows {
        for c in 0..indexes.valid_cols {
            let index = indexes
                .get(r, c)
                .ok_or_else(|| undefined_read("scatter's indexes", r, c))?;
            let flat = index_within(index, rows * cols).ok_or_else(|| {
                RunError::new(format!(
                    "scatter index {index} at [{r}, {c}] is outside the result's {} elements",
                    rows * cols
                ))
            })?;
            let i = result.index(flat / cols, flat % cols);
            result.data[i] = source
                .get(r, c)
                .ok_or_else(|| undefined_read("scatter", r, c))?;
        }
    }
    Ok(result)
}

/// How positions of an index tensor map to elements of the input a gather
/// or scatter reads or writes along axis `dim`.
struct Along<'s> {
    index_shape: &'s [usize],
    index_strides: Vec<usize>,
    input_strides: Vec<usize>,
    input_extent: usize,
    dim: usize,
    what: &'static str,
}

impl<'s> Along<'s> {
    /// The mapping, once the shapes are checked: one rank, `dim` an axis of
    /// it, the index's extents on the other axes at most the input's (what
    /// the verifier checks of static extents, here of the running ones).
    fn new(
        input_shape: &[usize],
        index_shape: &'s [usize],
        dim: usize,
        what: &'static str,
    ) -> Result<Self> {
        let fits = input_shape.len() == index_shape.len()
            && dim < input_shape.len()
            && (0..input_shape.len()).all(|a| a == dim || index_shape[a] <= input_shape[a]);
        if !fits {
            return Err(RunError::new(format!(
                "{what}'s index {index_shape:?} does not fit the input {input_shape:?} off axis {dim}"
            )));
        }
        Ok(Self {
            index_shape,
            index_strides: crate::value::row_major(index_shape),
            input_strides: crate::value::row_major(input_shape),
            input_extent: input_shape[dim],
            dim,
            what,
        })
    }

    /// How many positions the index has.
    fn positions(&self) -> usize {
        self.index_shape.iter().product()
    }

    /// The input element position `flat` of `index` (read whole) names: its
    /// coordinates with the one on `dim` the index there, checked to lie in
    /// the input.
    fn element(&self, index: &Tile, flat: usize) -> Result<usize> {
        if !index.defined[flat] {
            return Err(undefined_read(
                self.what,
                flat / index.cols,
                flat % index.cols,
            ));
        }
        let value = index.data[flat];
        let at = index_within(value, self.input_extent).ok_or_else(|| {
            RunError::new(format!(
                "{} index {value} is outside the input's {} elements on axis {}",
                self.what, self.input_extent, self.dim
            ))
        })?;
        let mut offset = 0;
        for (axis, (&stride, &input_stride)) in self
            .index_strides
            .iter()
            .zip(&self.input_strides)
            .enumerate()
        {
            let coordinate = if axis == self.dim {
                at
            } else {
                flat / stride % self.index_shape[axis]
            };
            offset += coordinate * input_stride;
        }
        Ok(offset)
    }
}

/// `pl.tensor.scatter`: `input` (of `input_shape`, read whole) with the
/// element at each position of `index` (of `index_shape`), its coordinate
/// on `dim` replaced by the index there, set to `source`'s there (later
/// positions win).
pub fn scatter_axis(
    input: &Tile,
    input_shape: &[usize],
    index: &Tile,
    index_shape: &[usize],
    source: &Tile,
    dim: usize,
) -> Result<Tile> {
    let along = Along::new(input_shape, index_shape, dim, "scatter")?;
    if source.data.len() != along.positions() {
        return Err(RunError::new(format!(
            "scatter's source has {} elements, its index {}",
            source.data.len(),
            along.positions()
        )));
    }
    let mut result = input.clone();
    for flat in 0..along.positions() {
        let target = along.element(index, flat)?;
        result.data[target] = source.data[flat];
        result.defined[target] = source.defined[flat];
    }
    Ok(result)
}

/// `scatter_update`: `input` with row `index.flat[p]` set to `source`'s row
/// `p` for each valid position `p` of `index` in row-major order (later
/// positions win).
pub fn scatter_rows(input: &Tile, index: &Tile, source: &Tile) -> Result<Tile> {
    let positions = index.valid_rows * index.valid_cols;
    if source.valid_rows != positions || source.valid_cols != input.valid_cols {
        return Err(RunError::new(format!(
            "scatter_update's source has {}x{} elements, not a row of the input's {} columns for each of the index's {positions} positions",
            source.valid_rows, source.valid_cols, input.valid_cols
        )));
    }
    let mut result = input.clone();
    let mut p = 0;
    for r in 0..index.valid_rows {
        for c in 0..index.valid_cols {
            let at = index
                .get(r, c)
                .ok_or_else(|| undefined_read("scatter_update's index", r, c))?;
            let row = index_within(at, input.valid_rows).ok_or_else(|| {
                RunError::new(format!(
                    "scatter_update index {at} at [{r}, {c}] is outside the input's {} rows",
                    input.valid_rows
                ))
            })?;
            for col in 0..input.valid_cols {
                let i = result.index(row, col);
                let j = source.index(p, col);
                result.data[i] = source.data[j];
                result.defined[i] = source.defined[j];
            }
            p += 1;
        }
    }
    Ok(result)
}

/// `scatter_mask`: `target` (zeros for the tile form) with each row's
/// columns `pattern` keeps set to `source`'s row in order.
pub fn scatter_mask(source: &Tile, pattern: MaskPattern, target: Tile) -> Result<Tile> {
    let mut result = target;
    let kept: Vec<usize> = (0..result.cols).filter(|&c| pattern.keeps(c)).collect();
    if source.valid_rows != result.rows || source.valid_cols != kept.len() {
        return Err(RunError::new(format!(
            "scatter_mask's source has {}x{} elements, not the {} rows and {} selected columns of its target",
            source.valid_rows,
            source.valid_cols,
            result.rows,
            kept.len()
        )));
    }
    for r in 0..source.valid_rows {
        for (k, &c) in kept.iter().enumerate().take(source.valid_cols) {
            let i = result.index(r, c);
            result.data[i] = source
                .get(r, k)
                .ok_or_else(|| undefined_read("scatter_mask", r, k))?;
            result.defined[i] = true;
        }
    }
    Ok(result)
}

/// `gatherb`: block `b` of result row `r` (its `32 / w` elements of `out`,
/// `w` bytes each) is the 32 bytes of `source`'s row-major storage at
/// byte offset `offsets[r, b]`.
pub fn gather_blocks(source: &Tile, offsets: &Tile, out: Elem) -> Result<Tile> {
    const BLOCK: usize = 32;
    let width = out.bytes();
    let per_block = BLOCK / width;
    let mut result = Tile::undefined(offsets.rows, offsets.cols * per_block, out)?;
    result.valid_rows = offsets.valid_rows;
    result.valid_cols = offsets.valid_cols * per_block;
    let from = source.elem.bytes();
    let total = source.rows * source.cols * from;
    for r in 0..offsets.valid_rows {
        for b in 0..offsets.valid_cols {
            let offset = offsets
                .get(r, b)
                .ok_or_else(|| undefined_read("gatherb", r, b))?;
            if offset < 0.0 || offset as usize + BLOCK > total {
                return Err(RunError::new(format!(
                    "gatherb: offset {offset} at [{r}, {b}] reads past the source's {total} bytes"
                )));
            }
            let offset = offset as usize;
            let mut bytes = Vec::with_capacity(BLOCK + from);
            for e in offset / from..(offset + BLOCK).div_ceil(from) {
                let (row, col) = (e / source.cols, e % source.cols);
                let value = source
                    .get(row, col)
                    .ok_or_else(|| undefined_read("gatherb", row, col))?;
                bytes.extend(bytes_of(value, source.elem));
            }
            let block = &bytes[offset % from..offset % from + BLOCK];
            for (k, element) in block.chunks(width).enumerate() {
                let i = result.index(r, b * per_block + k);
                result.data[i] = from_bytes(element, out)?;
                result.defined[i] = true;
            }
        }
    }
    Ok(result)
}

/// The columns of each valid row of `source` that `pattern` keeps, their
/// bits read as `out`.
pub fn gather_mask(source: &Tile, pattern: MaskPattern, out: Elem) -> Result<Tile> {
    let kept: Vec<usize> = (0..source.cols).filter(|&c| pattern.keeps(c)).collect();
    let mut result = Tile::undefined(source.rows, kept.len(), out)?;
    result.valid_rows = source.valid_rows;
    for r in 0..source.valid_rows {
        for (j, &c) in kept.iter().enumerate() {
            let x = source
                .get(r, c)
                .ok_or_else(|| undefined_read("gather_mask", r, c))?;
            let i = result.index(r, j);
            result.data[i] = from_bytes(&bytes_of(x, source.elem), out)?;
            result.defined[i] = true;
        }
    }
    Ok(result)
}

/// Philox-4x32's multipliers and key increments (pto-isa's TRANDOM).
const PHILOX_M0: u64 = 0xD251_1F53;
const PHILOX_M1: u64 = 0xCD9E_8D57;
const PHILOX_K0: u32 = 0x9E37_79B9;
const PHILOX_K1: u32 = 0xBB67_AE85;

/// `counter += value` as one 128-bit number (word 0 lowest).
fn advance(counter: &mut [u32; 4], value: u64) {
    let mut carry = value;
    for word in counter.iter_mut() {
        carry += u64::from(*word);
        *word = carry as u32;
        carry >>= 32;
    }
}

/// `rounds` rounds of Philox-4x32 on `counter` under `key`.
fn philox(mut n: [u32; 4], mut key: [u32; 2], rounds: u32) -> [u32; 4] {
    for _ in 0..rounds {
        let (m0, m1) = (u64::from(n[0]) * PHILOX_M0, u64::from(n[2]) * PHILOX_M1);
        n = [
            (m1 >> 32) as u32 ^ n[1] ^ key[0],
            m1 as u32,
            (m0 >> 32) as u32 ^ n[3] ^ key[1],
            m0 as u32,
        ];
        key = [
            key[0].wrapping_add(PHILOX_K0),
            key[1].wrapping_add(PHILOX_K1),
        ];
    }
    n
}

/// pto-isa's TRANDOM: a tile of `rows` x `cols` (its rows' storage
/// `cols` rounded up to 8 words), valid `valid`, whose element `(r, c)` is
/// word `(c % 256) / 64` of Philox of the counter advanced by
/// `(r * G + c / 256) * stride / 4 + c % 64`, `G` the valid columns'
/// groups of 256.
pub fn random(
    key: [u32; 2],
    counter: [u32; 4],
    (rows, cols): (usize, usize),
    (valid_rows, valid_cols): (usize, usize),
    rounds: u32,
    elem: Elem,
) -> Result<Tile> {
    const LANES: usize = 64;
    let mut tile = Tile::undefined(rows, cols, elem)?;
    (tile.valid_rows, tile.valid_cols) = (valid_rows, valid_cols);
    let stride_chunks = (cols.div_ceil(8) * 8 / 4) as u64;
    let groups = valid_cols.div_ceil(4 * LANES);
    let mut row_counter = counter;
    for r in 0..valid_rows {
        for group in 0..groups {
            for lane in 0..LANES {
                let mut lane_counter = row_counter;
                advance(&mut lane_counter, lane as u64);
                let words = philox(lane_counter, key, rounds);
                for (repeat, word) in words.iter().enumerate() {
                    let c = group * 4 * LANES + repeat * LANES + lane;
                    if c < valid_cols {
                        let i = tile.index(r, c);
                        tile.data[i] = if elem == Elem::I32 {
                            f64::from(*word as i32)
                        } else {
                            f64::from(*word)
                        };
                        tile.defined[i] = true;
                    }
                }
            }
            advance(&mut row_counter, stride_chunks);
        }
    }
    Ok(tile)
}

/// Per valid row of `source`, the valid columns (plus `offset`) whose
/// element compares true with `key`, in order, the first `n` of them and
/// zeros after; and the number of matches per row (`[1, rows]` of
/// `count`).
pub fn gather_compare(
    source: &Tile,
    key: f64,
    cmp: CmpMode,
    offset: i64,
    n: usize,
    count: Elem,
) -> Result<(Tile, Tile)> {
    let mut columns = Tile::filled(source.rows, n, Elem::I32, 0.0)?;
    columns.valid_rows = source.valid_rows;
    let mut counts = Tile::undefined(1, source.rows, count)?;
    counts.valid_cols = source.valid_rows;
    for r in 0..source.valid_rows {
        let mut matches = 0usize;
        for c in 0..source.valid_cols {
            let x = source
                .get(r, c)
                .ok_or_else(|| undefined_read("gather_compare", r, c))?;
            if compare(cmp, x, key) {
                if matches < n {
                    let i = columns.index(r, matches);
                    columns.data[i] = Elem::I32.wrap(c as i64 + offset) as f64;
                }
                matches += 1;
            }
        }
        let i = counts.index(0, r);
        counts.data[i] = matches as f64;
        counts.defined[i] = true;
    }
    Ok((columns, counts))
}

/// Each row of `source` as the same bytes of `out` elements (an element
/// partly unwritten is unwritten).
pub fn reinterpret(source: &Tile, out: Elem) -> Result<Tile> {
    let (from, to) = (source.elem.bytes(), out.bytes());
    let cols = source.cols * from / to;
    let mut result = Tile::undefined(source.rows, cols, out)?;
    result.valid_rows = source.valid_rows;
    result.valid_cols = source.valid_cols * from / to;
    result.pad = source.pad;
    for r in 0..source.rows {
        let mut bytes = Vec::with_capacity(source.cols * from);
        let mut written = Vec::with_capacity(source.cols * from);
        for c in 0..source.cols {
            let i = source.index(r, c);
            bytes.extend(bytes_of(source.data[i], source.elem));
            written.extend(std::iter::repeat_n(source.defined[i], from));
        }
        for c in 0..cols {
            let span = c * to..(c + 1) * to;
            if written[span.clone()].iter().all(|&w| w) {
                let i = result.index(r, c);
                result.data[i] = from_bytes(&bytes[span], out)?;
                result.defined[i] = true;
            }
        }
    }
    Ok(result)
}

/// The shape of tensor operand `i` of `op`.
fn interp_tensor_shape(interp: &Interp, frame: &Frame, op: &Op, i: usize) -> Result<Vec<usize>> {
    Ok(interp.tensor(frame, op.operands[i])?.shape.clone())
}

impl Interp<'_> {
    /// `gather_compare` on a tile, or on a tensor read whole (its results
    /// fresh tensors).
    pub(super) fn gather_compare(&mut self, frame: &Frame, op: &Op) -> Result<Vec<Value>> {
        let on_tensors = matches!(op.operand_types.first(), Some(Ty::Tensor(_)));
        let source = if on_tensors {
            Arc::new(self.read_all(&self.tensor(frame, op.operands[0])?)?)
        } else {
            self.tile(frame, op.operands[0])?
        };
        let key = self.number(frame, op.operands[1])?;
        let cmp = op
            .enum_attr::<CmpMode>("cmp")
            .ok_or_else(|| RunError::new("gather_compare needs a comparison"))?;
        let offset = op.int_attr("offset").unwrap_or(0);
        let shape_of = |ty: Option<&Ty>| -> Result<(Vec<usize>, Elem)> {
            match ty {
                Some(Ty::Tile(t)) => Ok((t.shape.iter().map(|&d| d as usize).collect(), t.elem)),
                Some(Ty::Tensor(t)) => Ok((
                    t.shape
                        .iter()
                        .map(|d| d.map(|d| d as usize))
                        .collect::<Option<_>>()
                        .unwrap_or_else(|| vec![source.rows, 1]),
                    t.elem,
                )),
                other => Err(RunError::new(format!("an unexpected result {other:?}"))),
            }
        };
        let (columns_shape, _) = shape_of(op.result_types.first())?;
        let (_, count) = shape_of(op.result_types.get(1))?;
        let n = columns_shape.last().copied().unwrap_or(1);
        let (columns, counts) = gather_compare(&source, key, cmp, offset, n, count)?;
        if on_tensors {
            let rows = source.rows;
            Ok(vec![
                Value::Tensor(self.new_tensor(&columns, vec![rows, n], Elem::I32)?),
                Value::Tensor(self.new_tensor(&counts, vec![1, rows], count)?),
            ])
        } else {
            Ok(vec![
                Value::Tile(Arc::new(columns)),
                Value::Tile(Arc::new(counts)),
            ])
        }
    }

    /// An index sequence, sort or gather on tiles, or on tensors read whole
    /// into tiles (the result a fresh tensor).
    pub(super) fn indexing_op(&mut self, frame: &Frame, op: &Op, how: Indexing) -> Result<Value> {
        let on_tensors = matches!(op.code, Code::TensorIndexing(_));
        let operand = |interp: &Self, i: usize| -> Result<Arc<Tile>> {
            if on_tensors {
                Ok(Arc::new(
                    interp.read_all(&interp.tensor(frame, op.operands[i])?)?,
                ))
            } else {
                interp.tile(frame, op.operands[i])
            }
        };
        let (result_elem, result_shape) = match op.result_types.first() {
            Some(Ty::Tile(t)) => (t.elem, t.shape.clone()),
            Some(Ty::Tensor(t)) => (
                t.elem,
                t.shape
                    .iter()
                    .map(|d| d.ok_or_else(|| RunError::new("a dynamic result extent")))
                    .collect::<Result<_>>()?,
            ),
            other => return Err(RunError::new(format!("an unexpected result {other:?}"))),
        };
        let cols = result_shape.last().copied().unwrap_or(1) as usize;
        let tile = match how {
            // Their sources stay in memory: they read windows of them.
            Indexing::GatherRow => return self.gather_row(frame, op, on_tensors),
            Indexing::PagedGather => return self.paged_gather(frame, op),
            Indexing::TableGather => return self.mgather(frame, op),
            Indexing::TableScatter => return self.mscatter(frame, op),
            Indexing::Sequence => sequence(
                self.int(frame, op.operands[0])?,
                cols,
                result_elem,
                op.has_attr("descending"),
            )?,
            Indexing::Random => {
                let seed =
                    |i: usize| -> Result<u32> { Ok(self.int(frame, op.operands[i])? as u32) };
                let valid = match op.result_types.first() {
                    Some(Ty::Tile(t)) => t
                        .valid
                        .iter()
                        .zip(&t.shape)
                        .map(|(v, d)| v.unwrap_or(*d) as usize)
                        .collect(),
                    _ => result_shape.iter().map(|&d| d as usize).collect::<Vec<_>>(),
                };
                let rounds = op.int_attr("rounds").unwrap_or(10) as u32;
                let rows = result_shape.first().copied().unwrap_or(1) as usize;
                random(
                    [seed(0)?, seed(1)?],
                    [seed(2)?, seed(3)?, seed(4)?, seed(5)?],
                    (rows, cols),
                    (valid[0], valid[1]),
                    rounds,
                    result_elem,
                )?
            }
            Indexing::SortBlocks => sort_blocks(&*operand(self, 0)?, &*operand(self, 1)?)?,
            Indexing::MergeRuns => {
                merge_runs(&*operand(self, 0)?, self.int(frame, op.operands[1])?)?
            }
            Indexing::MergeLists => {
                let sources = op.operands.len() - usize::from(!on_tensors);
                let sources: Vec<Arc<Tile>> = (0..sources)
                    .map(|i| operand(self, i))
                    .collect::<Result<_>>()?;
                merge_lists(&sources, cols, op.has_attr("exhausted"))?
            }
            Indexing::Gather => gather(&*operand(self, 0)?, &*operand(self, 1)?)?,
            Indexing::GatherBlocks => {
                gather_blocks(&*operand(self, 0)?, &*operand(self, 1)?, result_elem)?
            }
            Indexing::GatherAxis => {
                let shape_of = |i: usize| interp_tensor_shape(self, frame, op, i);
                let dim = op
                    .int_attr("dim")
                    .ok_or_else(|| RunError::new("gather needs a dim"))?
                    as usize;
                gather_axis(
                    &*operand(self, 0)?,
                    &shape_of(0)?,
                    &*operand(self, 1)?,
                    &shape_of(1)?,
                    dim,
                )?
            }
            Indexing::Scatter => {
                let rows = result_shape.first().copied().unwrap_or(1) as usize;
                scatter(&*operand(self, 0)?, &*operand(self, 1)?, rows, cols)?
            }
            Indexing::ScatterAxis => {
                let shape_of = |i: usize| interp_tensor_shape(self, frame, op, i);
                let dim = op
                    .int_attr("dim")
                    .ok_or_else(|| RunError::new("scatter needs a dim"))?
                    as usize;
                scatter_axis(
                    &*operand(self, 0)?,
                    &shape_of(0)?,
                    &*operand(self, 1)?,
                    &shape_of(1)?,
                    &*operand(self, 2)?,
                    dim,
                )?
            }
            Indexing::ScatterRows => scatter_rows(
                &*operand(self, 0)?,
                &*operand(self, 1)?,
                &*operand(self, 2)?,
            )?,
            Indexing::ScatterMask => {
                let pattern = op
                    .enum_attr::<MaskPattern>("pattern")
                    .ok_or_else(|| RunError::new("scatter_mask needs a mask pattern"))?;
                let target = if on_tensors {
                    (*operand(self, 1)?).clone()
                } else {
                    let rows = result_shape.first().copied().unwrap_or(1) as usize;
                    let mut zeros = Tile::undefined(rows, cols, result_elem)?;
                    zeros.data.fill(0.0);
                    zeros.defined.fill(true);
                    zeros
                };
                scatter_mask(&*operand(self, 0)?, pattern, target)?
            }
            Indexing::GatherMask => {
                let pattern = op
                    .enum_attr::<MaskPattern>("pattern")
                    .ok_or_else(|| RunError::new("gather_mask needs a mask pattern"))?;
                gather_mask(&*operand(self, 0)?, pattern, result_elem)?
            }
            Indexing::Reinterpret => reinterpret(&*operand(self, 0)?, result_elem)?,
            Indexing::Triangle => {
                let rows = result_shape.first().copied().unwrap_or(1) as usize;
                triangle(
                    self.int(frame, op.operands[0])?,
                    rows,
                    cols,
                    result_elem,
                    op.has_attr("upper"),
                )?
            }
        };
        if on_tensors {
            let shape: Vec<usize> = result_shape.iter().map(|&d| d as usize).collect();
            Ok(Value::Tensor(self.new_tensor(&tile, shape, result_elem)?))
        } else {
            Ok(Value::Tile(Arc::new(tile)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(values: &[f64], elem: Elem) -> Tile {
        let mut tile = Tile::undefined(1, values.len(), elem).unwrap();
        tile.data.copy_from_slice(values);
        tile.defined.fill(true);
        tile
    }

    #[test]
    fn sort32_pairs_values_with_their_indices_descending() {
        let values: Vec<f64> = (0..32).map(|i| f64::from((i * 7) % 32)).collect();
        let indices: Vec<f64> = (0..32).map(f64::from).collect();
        let sorted = sort_blocks(&row(&values, Elem::F32), &row(&indices, Elem::U32)).unwrap();
        let pairs = pairs_of(&sorted, 64, "test").unwrap();
        assert_eq!(pairs[0], (31.0, 9)); // 9 * 7 = 63 = 31 mod 32
        assert!(pairs.windows(2).all(|w| w[0].0 >= w[1].0));
        let mut seen: Vec<u32> = pairs.iter().map(|p| p.1).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..32).collect::<Vec<u32>>());
    }

    #[test]
    fn f16_pairs_carry_the_index_in_two_halves() {
        let pair = write_pair(-1.5, 0x0003_0002, Elem::F16).unwrap();
        assert_eq!(pair.len(), 4);
        assert_eq!(read_pair(&pair, Elem::F16).unwrap(), (-1.5, 0x0003_0002));
    }

    #[test]
    fn merges_take_ties_from_the_earlier_list() {
        let a = vec![(5.0, 0), (3.0, 1), (3.0, 2), (1.0, 3)];
        let b = vec![(4.0, 10), (3.0, 11), (2.0, 12), (0.0, 13)];
        let merged = merge(&[a.clone(), b.clone()], 8, false);
        let indices: Vec<u32> = merged.iter().map(|p| p.1).collect();
        assert_eq!(indices, vec![0, 10, 1, 2, 11, 12, 3, 13]);
        // Exhausted: stops when the first list runs out.
        let stopped = merge(&[a, b], 8, true);
        assert_eq!(stopped.len(), 7);
    }

    #[test]
    fn counters_carry_across_all_four_words() {
        let mut counter = [u32::MAX, u32::MAX, u32::MAX, 7];
        advance(&mut counter, 1);
        assert_eq!(counter, [0, 0, 0, 8]);
        let mut counter = [u32::MAX - 1, 3, 0, 0];
        advance(&mut counter, 5 << 32 | 3);
        assert_eq!(counter, [1, 9, 0, 0]);
    }

    #[test]
    fn compare_gathers_keep_the_first_matches_and_count_them_all() {
        let source = row(&[3.0, 1.0, 3.0, f64::NAN, 3.0, 0.0], Elem::F32);
        let (columns, counts) =
            gather_compare(&source, 3.0, CmpMode::Eq, 10, 2, Elem::U32).unwrap();
        assert_eq!(columns.data, vec![10.0, 12.0]);
        assert_eq!(counts.data, vec![3.0]);
        let (columns, counts) = gather_compare(&source, 3.0, CmpMode::Ne, 0, 4, Elem::I32).unwrap();
        assert_eq!(columns.data, vec![1.0, 3.0, 5.0, 0.0]);
        assert_eq!(counts.data, vec![3.0]);
    }

    #[test]
    fn masks_keep_their_columns_and_reinterpret_bits() {
        let source = row(
            &[
                1.0,
                f64::from(f32::from_bits(7)),
                2.0,
                f64::from(f32::from_bits(9)),
            ],
            Elem::F32,
        );
        let values = gather_mask(&source, MaskPattern::P0101, Elem::F32).unwrap();
        assert_eq!(values.data, vec![1.0, 2.0]);
        let indices = gather_mask(&source, MaskPattern::P1010, Elem::I32).unwrap();
        assert_eq!(indices.data, vec![7.0, 9.0]);
    }

    #[test]
    fn sequences_wrap_in_their_type() {
        let tile = sequence(1, 4, Elem::U16, true).unwrap();
        assert_eq!(tile.data, vec![1.0, 0.0, 65535.0, 65534.0]);
    }

    #[test]
    fn a_signalling_nan_is_refused_not_changed() {
        assert!(from_bytes(&0x7f80_0001u32.to_le_bytes(), Elem::F32).is_err());
        assert_eq!(
            from_bytes(&1u32.to_le_bytes(), Elem::F32).unwrap(),
            f64::from(f32::from_bits(1))
        );
    }
}
