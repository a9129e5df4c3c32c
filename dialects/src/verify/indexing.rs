//! Rules of index sequences, sorts and gathers, tile and tensor forms
//! alike (their pages in docs/dialects/pl.md), and of reinterpreting a
//! tile's or tensor's bits (`reinterpret_view`, reached from the view
//! rules of `movement.rs` and `tensor.rs`).
//!
//! - ci: one row (every dimension but the last 1, the last not 1), static;
//!   `start` an integer of the element type's width; tri: 2-D; random:
//!   2-D, static shape and valid extents, 7 or 10 rounds;
//! - sort32: indices of the source's shape (and valid extents), whole
//!   blocks of 32 wholly valid columns; the result 8 bytes per element
//!   (last dimension times 2 for 32-bit values, 4 for 16-bit), the
//!   source's element type and valid rows;
//! - mrgsort_format1: one wholly valid row, a constant `block_len` a
//!   positive multiple of 64 that divides a quarter of the row;
//! - mrgsort_format2: two to four wholly valid one-row sources of one
//!   element type, whole pairs; a scratch row of that type with room for
//!   them all; a result row of at most their length;
//! - gather: the indices' shape and valid extents, the source's element
//!   type, a scratch of the indices' shape; gather_mask: 2-D, columns a
//!   multiple of the pattern's stride, the result's element type of the
//!   source's width; gatherb: 2-D, the source's rows a whole number of 32
//!   bytes, offsets' columns a multiple of 8, the result the offsets' rows
//!   (and valid rows) and their columns times the blocks' elements;
//! - mscatter: a 2-D source and indices in `vec`, a table of the source's
//!   element type; `row`: indices `[1, R]` valid along the source's valid
//!   rows, a 2-D table of the source's columns; `elem`: indices of the
//!   source's shape and valid extents, a table of rank 1 or 2;
//!   `atomic_add` of f32, f16, bf16, i32, i16 or i8;
//! - gather_compare: a 2-D source, a key of its element type, `[rows, n]`
//!   columns and `[1, rows]` counts valid along the source's valid rows;
//! - mgather: result and indices 2-D in `vec`, the table's element type;
//!   `row`: indices `[1, R]`, a 2-D table, the result `[R, C]` of its
//!   columns, valid rows the indices' valid columns; `elem`: indices of
//!   the result's shape and valid extents;
//! - gather_row: a rank-2 source of the target's element type, a 2-D
//!   target, a static positive window inside it (constant offsets) and a
//!   valid corner inside the window; paged_gather: `i32` indices and table
//!   of one row, a positive block size, a static `[max_indices, size]`
//!   result of the source's element type whose columns from `col_off` fit
//!   the source, at least as many rows as indices;
//! - reinterpret_view: another element type of a whole number of bytes,
//!   the same bytes (last dimension scaled by the width ratio), the same
//!   memory space; a tensor's is packed row-major.
//!
//! Tile operands live in `vec` (or are not yet placed).

use melior::ir::{
    Type,
    operation::{OperationLike, OperationRef},
    r#type::ShapedTypeLike,
};

use super::{
    VerifyResult,
    common::{
        Check, Failure, deciding_constant, distinct_scratch, fail, operand_type, render_dims,
        require_dtype, require_vec, result_type, run_rule,
    },
};
use crate::{
    dtype::ScalarKind,
    enums::{EnumAttr, MaskPattern},
    op_table::OpKind,
    types::{TensorType, TileType},
};

/// A tile or tensor operand or result, as the rules here see it.
struct Shaped<'c> {
    r#type: Type<'c>,
    shape: Vec<Option<i64>>,
    element: Type<'c>,
    /// Valid extents (`None` where dynamic); a tensor's are its shape.
    valid: Vec<Option<i64>>,
    /// The tile, for a tile.
    tile: Option<TileType<'c>>,
}

impl<'c> Shaped<'c> {
    fn of(r#type: Type<'c>) -> Result<Self, Failure<'c>> {
        if let Ok(tile) = TileType::try_from(r#type) {
            return Ok(Self {
                r#type,
                shape: tile.shape().into_iter().map(Some).collect(),
                element: tile.element(),
                valid: tile.effective_view().valid_shape,
                tile: Some(tile),
            });
        }
        let tensor = TensorType::try_from(r#type).map_err(|e| Failure::new(e.to_string()))?;
        Ok(Self {
            r#type,
            shape: tensor.shape(),
            element: tensor.element(),
            valid: tensor.shape(),
            tile: None,
        })
    }

    fn operand(op: OperationRef<'c, '_>, index: usize) -> Result<Self, Failure<'c>> {
        Self::of(operand_type(op, index)?)
    }

    fn result(op: OperationRef<'c, '_>) -> Result<Self, Failure<'c>> {
        Self::of(result_type(op, 0)?)
    }

    fn last(&self) -> Option<i64> {
        self.shape.last().copied().flatten()
    }

    /// Whether every dimension but the last is 1.
    fn one_row(&self) -> bool {
        self.shape[..self.shape.len().saturating_sub(1)]
            .iter()
            .all(|&d| d == Some(1))
    }

    /// Whether the last dimension is static and wholly valid.
    fn whole_columns(&self) -> bool {
        self.last().is_some() && self.valid.last() == self.shape.last()
    }

    /// Whether the shape is static and wholly valid.
    fn wholly_valid(&self) -> bool {
        self.shape.iter().all(Option::is_some) && self.valid == self.shape
    }

    fn bits(&self) -> Result<u32, Failure<'c>> {
        bits(self.element)
    }

    /// A tile in `vec` (or not yet placed); a tensor passes.
    fn in_vec(&self, what: &str) -> VerifyResult<'c> {
        self.tile.map_or(Ok(()), |tile| require_vec(what, tile))
    }
}

fn bits<'c>(element: Type<'c>) -> Result<u32, Failure<'c>> {
    ScalarKind::of(element)
        .map(ScalarKind::bits)
        .ok_or_else(|| Failure::new(format!("unsupported element type {element}")))
}

fn rule(kind: OpKind) -> Option<Check> {
    use OpKind as K;
    Some(match kind {
        K::PlTileCi | K::PlTensorCi => verify_ci,
        K::PlTileTri => verify_tri,
        K::PlTileRandom | K::PlTensorRandom => verify_random,
        K::PlTileSort32 | K::PlTensorSort32 => verify_sort32,
        K::PlTileMrgsortFormat1 | K::PlTensorMrgsortFormat1 => verify_mrgsort_format1,
        K::PlTileMrgsortFormat2 | K::PlTensorMrgsortFormat2 => verify_mrgsort_format2,
        K::PlTileGather => verify_gather,
        K::PlTileGatherb => verify_gatherb,
        K::PlTileGatherRow | K::PlTensorGatherRow => verify_gather_row,
        K::PlTileMgather => verify_mgather,
        K::PlTileMscatter => verify_mscatter,
        K::PlTensorPagedGather => verify_paged_gather,
        K::PlTensorGather => verify_gather_axis,
        K::PlTileScatter => verify_scatter,
        K::PlTensorScatter => verify_scatter_axis,
        K::PlTileScatterUpdate | K::PlTensorScatterUpdate => verify_scatter_update,
        K::PlTileScatterMask | K::PlTensorScatterMask => verify_scatter_mask,
        K::PlTileGatherMask | K::PlTensorGatherMask => verify_gather_mask,
        K::PlTileGatherCompare | K::PlTensorGatherCompare => verify_gather_compare,
        _ => return None,
    })
}

/// Whether the indexing rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    rule(kind).is_some()
}

/// Runs the rules of an index sequence, sort or gather.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    run_rule(op, kind, rule(kind), "indexing")
}

fn verify_ci<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let result = Shaped::result(op)?;
    result.in_vec("result")?;
    if result.shape.iter().any(Option::is_none) {
        return fail(format!("needs a static shape, got {}", result.r#type));
    }
    if !result.one_row() || result.last() == Some(1) {
        return fail(format!(
            "makes one row: every dimension but the last must be 1 and the last not 1, got {}",
            render_dims(&result.shape)
        ));
    }
    let start = operand_type(op, 0)?;
    if bits(start)? != result.bits()? {
        return fail(format!(
            "start must be an integer of the element type's width ({} bits), got {start}",
            result.bits()?
        ));
    }
    Ok(())
}

fn verify_tri<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let result = Shaped::result(op)?;
    result.in_vec("result")?;
    if result.shape.len() != 2 {
        return fail(format!(
            "makes a 2-D mask, got {}",
            render_dims(&result.shape)
        ));
    }
    Ok(())
}

/// Elements of `element` per 8-byte (value, index) pair.
/// `random`: 2-D, static, valid extents static (the counters follow
/// them); 7 or 10 rounds.
fn verify_random<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let result = Shaped::result(op)?;
    result.in_vec("result")?;
    if result.shape.len() != 2 || result.shape.iter().any(Option::is_none) {
        return fail(format!(
            "result must be 2-D of static shape, got {}",
            result.r#type
        ));
    }
    if result.valid.iter().any(Option::is_none) {
        return fail(format!(
            "the result's valid extents must be static (they place the counters), got {}",
            result.r#type
        ));
    }
    let rounds = op
        .attribute("rounds")
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map_or(10, |a| a.value());
    if !matches!(rounds, 7 | 10) {
        return fail(format!("rounds must be 7 or 10, got {rounds}"));
    }
    Ok(())
}

fn pair_width<'c>(element: Type<'c>) -> Result<i64, Failure<'c>> {
    Ok(64 / i64::from(bits(element)?))
}

fn verify_sort32<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, indices, result) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::result(op)?,
    );
    for (what, shaped) in [
        ("source", &source),
        ("indices", &indices),
        ("result", &result),
    ] {
        shaped.in_vec(what)?;
    }
    if indices.shape != source.shape || indices.valid != source.valid {
        return fail(format!(
            "indices must have the source's shape and valid extents, got {} for {}",
            indices.r#type, source.r#type
        ));
    }
    match source.last() {
        Some(cols) if cols > 0 && cols % 32 == 0 => {}
        _ => {
            return fail(format!(
                "sorts whole blocks of 32: the source's last dimension must be a static multiple of 32, got {}",
                render_dims(&source.shape)
            ));
        }
    }
    if !source.whole_columns() {
        return fail(format!(
            "sorts whole blocks of 32: the source's columns must be wholly valid (fill the rest with pl.tile.fillpad first), got {}",
            source.r#type
        ));
    }
    let width = pair_width(source.element)?;
    let mut shape = source.shape.clone();
    let mut valid = source.valid.clone();
    if let (Some(last), Some(valid_last)) = (shape.last_mut(), valid.last_mut()) {
        *last = last.map(|d| d * width);
        *valid_last = *last;
    }
    if result.element != source.element || result.shape != shape || result.valid != valid {
        return fail(format!(
            "result must hold one 8-byte pair per element ({} {} elements each): {} with valid {}, got {}",
            width,
            source.element,
            render_dims(&shape),
            render_dims(&valid),
            result.r#type
        ));
    }
    if op.operand_count() > 2 {
        distinct_scratch(op, 2)?;
        Shaped::operand(op, 2)?.in_vec("tmp")?;
    }
    Ok(())
}

/// A one-row, wholly valid list of pairs (`what`): its length.
fn sorted_row<'c>(what: &str, shaped: &Shaped<'c>) -> Result<Option<i64>, Failure<'c>> {
    shaped.in_vec(what)?;
    if !shaped.one_row() {
        return fail(format!(
            "{what} must be one row (every dimension but the last 1), got {}",
            render_dims(&shaped.shape)
        ));
    }
    if shaped.tile.is_some() && !shaped.wholly_valid() {
        return fail(format!(
            "{what} must be wholly valid, got {}",
            shaped.r#type
        ));
    }
    let width = pair_width(shaped.element)?;
    if let Some(length) = shaped.last()
        && (length <= 0 || length % width != 0)
    {
        return fail(format!(
            "{what} must hold whole pairs ({width} {} elements each), got {length} elements",
            shaped.element
        ));
    }
    Ok(shaped.last())
}

fn verify_mrgsort_format1<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let source = Shaped::operand(op, 0)?;
    let length = sorted_row("source", &source)?;
    if let Some(block) = deciding_constant(op.operand(1).map_err(|e| Failure::new(e.to_string()))?)
    {
        if block <= 0 || block % 64 != 0 {
            return fail(format!(
                "block_len must be a positive multiple of 64, got {block}"
            ));
        }
        if let Some(length) = length
            && length % (4 * block) != 0
        {
            return fail(format!(
                "merges groups of four runs: the row's {length} elements must be a multiple of 4 * block_len ({})",
                4 * block
            ));
        }
    }
    Ok(())
}

fn verify_mrgsort_format2<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let tile = kind == OpKind::PlTileMrgsortFormat2;
    let sources = op.operand_count() - usize::from(tile);
    if !(2..=4).contains(&sources) {
        return fail(format!("merges two to four sources, got {sources}"));
    }
    let first = Shaped::operand(op, 0)?;
    let mut total = Some(0i64);
    for i in 0..sources {
        let source = Shaped::operand(op, i)?;
        if source.element != first.element {
            return fail(format!(
                "sources must have one element type, got {} and {}",
                first.element, source.element
            ));
        }
        let length = sorted_row(&format!("source {i}"), &source)?;
        total = total.zip(length).map(|(t, l)| t + l);
    }
    let result = Shaped::result(op)?;
    if result.element != first.element {
        return fail(format!(
            "result must have the sources' element type {}, got {}",
            first.element, result.element
        ));
    }
    let length = sorted_row("result", &result)?;
    if let (Some(length), Some(total)) = (length, total)
        && length > total
    {
        return fail(format!(
            "result row of {length} elements is longer than the sources' {total}"
        ));
    }
    if tile {
        distinct_scratch(op, sources)?;
        let tmp = Shaped::operand(op, sources)?;
        tmp.in_vec("tmp")?;
        if tmp.element != first.element || !tmp.one_row() {
            return fail(format!(
                "tmp must be one row of {}, got {}",
                first.element, tmp.r#type
            ));
        }
        if let (Some(room), Some(total)) = (tmp.last(), total)
            && room < total
        {
            return fail(format!(
                "tmp must have room for the sources' {total} elements, got {room}"
            ));
        }
    }
    Ok(())
}

fn verify_gather<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, indices, tmp, result) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::operand(op, 2)?,
        Shaped::result(op)?,
    );
    for (what, shaped) in [
        ("source", &source),
        ("indices", &indices),
        ("tmp", &tmp),
        ("result", &result),
    ] {
        shaped.in_vec(what)?;
    }
    if result.element != source.element
        || result.shape != indices.shape
        || result.valid != indices.valid
    {
        return fail(format!(
            "result must have the indices' shape and valid extents and the source's element type, got {}",
            result.r#type
        ));
    }
    if tmp.shape != indices.shape {
        return fail(format!(
            "tmp must have the indices' shape {}, got {}",
            render_dims(&indices.shape),
            tmp.r#type
        ));
    }
    distinct_scratch(op, 2)
}

/// `gatherb`: 32-byte blocks of a source whose rows fill whole blocks,
/// 8 offsets at a time, into a result of the offsets' rows and their
/// columns times the elements a block holds.
fn verify_gatherb<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, offsets, result) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::result(op)?,
    );
    for (what, shaped) in [
        ("source", &source),
        ("offsets", &offsets),
        ("result", &result),
    ] {
        shaped.in_vec(what)?;
        if shaped.shape.len() != 2 {
            return fail(format!("{what} must be 2-D, got {}", shaped.r#type));
        }
    }
    let source_bits = source.bits()?;
    if source_bits % 8 != 0
        || source
            .last()
            .is_none_or(|c| c * i64::from(source_bits) % 256 != 0)
    {
        return fail(format!(
            "offsets count bytes of the source's storage: its rows must be a whole number of 32 bytes, got {}",
            source.r#type
        ));
    }
    if offsets.last().is_none_or(|c| c % 8 != 0) {
        return fail(format!(
            "a2a3 gathers 8 blocks at a time: the offsets' columns must be a multiple of 8, got {}",
            offsets.r#type
        ));
    }
    let width = result.bits()?;
    if !matches!(width, 8 | 16 | 32) {
        return fail(format!(
            "the result's elements must be 1, 2 or 4 bytes, got {}",
            result.element
        ));
    }
    let per_block = i64::from(256 / width);
    let scaled = |dims: &[Option<i64>]| vec![dims[0], dims[1].map(|c| c * per_block)];
    let (shape, valid) = (scaled(&offsets.shape), scaled(&offsets.valid));
    if result.shape != shape || result.valid != valid {
        return fail(format!(
            "a block holds {per_block} elements of {}: the result must be {} valid {}, got {}",
            result.element,
            render_dims(&shape),
            render_dims(&valid),
            result.r#type
        ));
    }
    Ok(())
}

/// `mgather`: a table of the result's element type; `row` reads whole rows
/// of a 2-D table by a `[1, R]` index, `elem` elements by an index of the
/// result's shape.
fn verify_mgather<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    use crate::enums::GatherMode;
    let (table, indices, result) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::result(op)?,
    );
    for (what, shaped) in [("indices", &indices), ("result", &result)] {
        shaped.in_vec(what)?;
        if shaped.shape.len() != 2 {
            return fail(format!("{what} must be 2-D, got {}", shaped.r#type));
        }
    }
    if result.element != table.element {
        return fail(format!(
            "result must have the table's element type {}, got {}",
            table.element, result.r#type
        ));
    }
    match op.enum_attr::<GatherMode>("mode") {
        Some(GatherMode::Row) => {
            if table.shape.len() != 2 {
                return fail(format!(
                    "a row gather reads rows of a 2-D table, got {}",
                    table.r#type
                ));
            }
            let rows = indices.shape[1];
            if indices.shape[0] != Some(1) {
                return fail(format!(
                    "a row gather's indices are one row [1, R], got {}",
                    indices.r#type
                ));
            }
            let shape = vec![rows, table.shape[1]];
            let valid = vec![indices.valid[1], table.shape[1]];
            let fits = |a: &[Option<i64>], b: &[Option<i64>]| {
                a.iter()
                    .zip(b)
                    .all(|(x, y)| x.is_none() || y.is_none() || x == y)
            };
            if !fits(&result.shape, &shape) || !fits(&result.valid, &valid) {
                return fail(format!(
                    "a row gather's result is a row of the table per index: {} valid {}, got {}",
                    render_dims(&shape),
                    render_dims(&valid),
                    result.r#type
                ));
            }
        }
        Some(GatherMode::Elem) => {
            if !matches!(table.shape.len(), 1 | 2) {
                return fail(format!(
                    "an element gather reads a table of rank 1 or 2, got {}",
                    table.r#type
                ));
            }
            if indices.shape != result.shape || indices.valid != result.valid {
                return fail(format!(
                    "an element gather's indices have the result's shape and valid extents, got {} and {}",
                    indices.r#type, result.r#type
                ));
            }
        }
        None => return fail("needs a gather mode"),
    }
    Ok(())
}

/// `gather_row`: a rank-2 source and 2-D target of one element type, a
/// static window inside the target, a valid corner inside the window.
fn verify_gather_row<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, target) = (Shaped::operand(op, 0)?, Shaped::operand(op, 1)?);
    if source.shape.len() != 2 || target.shape.len() != 2 {
        return fail(format!(
            "source and target must be 2-D, got {} and {}",
            source.r#type, target.r#type
        ));
    }
    if source.element != target.element {
        return fail(format!(
            "source and target must have one element type, got {} and {}",
            source.element, target.element
        ));
    }
    if let Some(tile) = target.tile
        && !matches!(
            tile.memory_space(),
            None | Some(crate::types::MemorySpace::Vec | crate::types::MemorySpace::Mat)
        )
    {
        return fail(format!(
            "target must be in vec or mat, got {}",
            target.r#type
        ));
    }
    let shape: Vec<i64> = op
        .attribute("shape")
        .ok()
        .and_then(|a| melior::ir::attribute::DenseI64ArrayAttribute::try_from(a).ok())
        .map(|a| (0..a.len()).filter_map(|i| a.element(i).ok()).collect())
        .unwrap_or_default();
    if shape.len() != 2 || shape.iter().any(|&e| e <= 0) {
        return fail(format!(
            "shape must be two positive extents, got {}",
            render_dims(&shape.iter().map(|&e| Some(e)).collect::<Vec<_>>())
        ));
    }
    let segments = crate::ops::operand_segments(op);
    let count = |i: usize| segments.get(i).map_or(0, |s| s.1);
    if count(2) != 2 || count(3) != 2 || !matches!(count(4), 0 | 2) {
        return fail(
            "needs two source offsets, two target offsets and valid sizes for both axes or none",
        );
    }
    use crate::ops::Checked;
    let constant = |i: usize| op.operand_opt(i).and_then(deciding_constant);
    let target_start = segments[3].0;
    for d in 0..2 {
        let within = |bound: Option<i64>, at: Option<i64>| match (bound, at) {
            (Some(bound), at) => at.unwrap_or(0) + shape[d] <= bound,
            (None, _) => true,
        };
        if !within(target.shape[d], constant(target_start + d)) {
            return fail(format!(
                "the window {} at the target's offsets leaves the target {}",
                render_dims(&[Some(shape[0]), Some(shape[1])]),
                target.r#type
            ));
        }
        if count(4) == 2
            && let Some(valid) = constant(segments[4].0 + d)
            && !(0..=shape[d]).contains(&valid)
        {
            return fail(format!(
                "valid extent {valid} on axis {d} is outside the window's {}",
                shape[d]
            ));
        }
    }
    Ok(())
}

/// `paged_gather`: one-row `i32` indices and table, a positive block size,
/// a static result of the source's element type, at least as many rows as
/// indices, its columns from `col_off` inside the source's.
fn verify_paged_gather<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, indices, table, result) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::operand(op, 2)?,
        Shaped::result(op)?,
    );
    if source.shape.len() != 2 {
        return fail(format!("source must be 2-D, got {}", source.r#type));
    }
    for (what, shaped) in [("indices", &indices), ("table", &table)] {
        let one_row = match shaped.shape.len() {
            1 => true,
            2 => shaped.shape[0] == Some(1),
            _ => false,
        };
        if !one_row {
            return fail(format!(
                "{what} must be [n] or [1, n], got {}",
                shaped.r#type
            ));
        }
    }
    let block_size = op.attribute("block_size").ok().and_then(|a| {
        melior::ir::attribute::IntegerAttribute::try_from(a)
            .ok()
            .map(|i| i.value())
    });
    let col_off = op
        .attribute("col_off")
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map_or(0, |i| i.value());
    if block_size.is_none_or(|b| b <= 0) || col_off < 0 {
        return fail(format!(
            "block_size must be positive and col_off not negative, got {} and {col_off}",
            block_size.unwrap_or(0)
        ));
    }
    let (Some(max_indices), Some(size)) = (
        result.shape.first().copied().flatten(),
        result.shape.get(1).copied().flatten(),
    ) else {
        return fail(format!(
            "result must be a static [max_indices, size], got {}",
            result.r#type
        ));
    };
    if result.shape.len() != 2 || result.element != source.element {
        return fail(format!(
            "result must be a static [max_indices, size] of {}, got {}",
            source.element, result.r#type
        ));
    }
    // Saturating: an offset near the largest i64 leaves any source.
    if let Some(cols) = source.shape[1]
        && col_off.saturating_add(size) > cols
    {
        return fail(match col_off.checked_add(size - 1) {
            Some(last) => format!("columns {col_off} to {last} leave the source's {cols}"),
            None => format!("{size} columns from {col_off} leave the source's {cols}"),
        });
    }
    if let Some(n) = indices.last()
        && n > max_indices
    {
        return fail(format!(
            "{n} indices need {n} rows; the result has {max_indices}"
        ));
    }
    Ok(())
}

/// `pl.tensor.gather`: an index of the input's rank (2 or more), `dim` one
/// of its axes, the result the index's shape and the input's element type,
/// the index's extents on the other axes at most the input's.
fn verify_gather_axis<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (input, index, result) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::result(op)?,
    );
    check_axis(op, &input, &index)?;
    if result.shape != index.shape || result.element != input.element {
        return fail(format!(
            "result must have the index's shape {} and the input's element type {}, got {}",
            render_dims(&index.shape),
            input.element,
            result.r#type
        ));
    }
    Ok(())
}

/// `pl.tile.scatter`: 2-D tiles in `vec`, the indexes of the source's
/// shape and valid extents and of the width the element needs, the
/// result wholly valid and of the source's element type.
fn verify_scatter<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, indexes, result) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::result(op)?,
    );
    for (what, shaped) in [
        ("source", &source),
        ("indexes", &indexes),
        ("result", &result),
    ] {
        shaped.in_vec(what)?;
        if shaped.shape.len() != 2 {
            return fail(format!("{what} must be 2-D, got {}", shaped.r#type));
        }
    }
    if indexes.shape != source.shape || indexes.valid != source.valid {
        return fail(format!(
            "indexes must have the source's shape and valid extents, got {} for {}",
            indexes.r#type, source.r#type
        ));
    }
    if result.element != source.element || result.valid != result.shape {
        return fail(format!(
            "result must be wholly valid and of the source's element type {}, got {}",
            source.element, result.r#type
        ));
    }
    let width = |t: Type<'c>| bits(t).unwrap_or(0);
    let wanted = if width(source.element) == 32 { 32 } else { 16 };
    if width(indexes.element) != wanted {
        return fail(format!(
            "indexes of {} elements are i{wanted}, got {}",
            source.element, indexes.element
        ));
    }
    Ok(())
}

/// `pl.tensor.scatter`: an index of the input's rank (2 or more), `dim`
/// one of its axes, the source the index's shape and the input's element
/// type, the index's extents on the other axes at most the input's.
fn verify_scatter_axis<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (input, index, source) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::operand(op, 2)?,
    );
    if source.shape != index.shape || source.element != input.element {
        return fail(format!(
            "source must have the index's shape {} and the input's element type {}, got {}",
            render_dims(&index.shape),
            input.element,
            source.r#type
        ));
    }
    check_axis(op, &input, &index)
}

/// `scatter_update`: a 2-D input `[rows, d]` and index `[b, s]`, the source
/// `[b * s, d]` of the input's element type; tiles in `vec`.
fn verify_scatter_update<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (input, index, source) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::operand(op, 2)?,
    );
    for (what, shaped) in [("input", &input), ("index", &index), ("source", &source)] {
        if shaped.tile.is_some() {
            shaped.in_vec(what)?;
        }
        if shaped.shape.len() != 2 {
            return fail(format!("{what} must be 2-D, got {}", shaped.r#type));
        }
    }
    let rows = match (index.shape[0], index.shape[1]) {
        (Some(b), Some(s)) => Some(b * s),
        _ => None,
    };
    let fits = |a: Option<i64>, b: Option<i64>| a.is_none() || b.is_none() || a == b;
    if source.element != input.element
        || !fits(source.shape[0], rows)
        || !fits(source.shape[1], input.shape[1])
    {
        return fail(format!(
            "source must have a row for each index ({}) of the input's {} columns of {}, got {}",
            rows.map_or("?".to_string(), |r| r.to_string()),
            input.shape[1].map_or("?".to_string(), |d| d.to_string()),
            input.element,
            source.r#type
        ));
    }
    Ok(())
}

/// The rules `pl.tensor.gather` and `pl.tensor.scatter` share: an index of
/// the input's rank (2 or more), `dim` one of its axes, the index's extents
/// on the other axes at most the input's.
fn check_axis<'c>(
    op: OperationRef<'c, '_>,
    input: &Shaped<'c>,
    index: &Shaped<'c>,
) -> VerifyResult<'c> {
    let rank = input.shape.len();
    if rank < 2 {
        return fail(format!(
            "input must have rank 2 or more, got {}",
            input.r#type
        ));
    }
    if index.shape.len() != rank {
        return fail(format!(
            "index must have the input's rank {rank}, got {}",
            index.r#type
        ));
    }
    let dim = op
        .attribute("dim")
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map(|a| a.value())
        .ok_or_else(|| Failure::new("needs a dim".to_string()))?;
    if !(0..rank as i64).contains(&dim) {
        return fail(format!(
            "dim must be an axis of the input (0 to {}), got {dim}",
            rank - 1
        ));
    }
    for axis in (0..rank).filter(|&a| a as i64 != dim) {
        if let (Some(i), Some(x)) = (index.shape[axis], input.shape[axis])
            && i > x
        {
            return fail(format!(
                "index extent {i} on axis {axis} exceeds the input's {x} (only axis {dim} is indexed)"
            ));
        }
    }
    Ok(())
}

fn verify_gather_mask<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (Shaped::operand(op, 0)?, Shaped::result(op)?);
    source.in_vec("source")?;
    result.in_vec("result")?;
    if source.shape.len() != 2 {
        return fail(format!(
            "source must be 2-D, got {}",
            render_dims(&source.shape)
        ));
    }
    let Some(pattern) = op.enum_attr::<MaskPattern>("pattern") else {
        return fail("needs a mask pattern");
    };
    let stride = pattern.stride();
    let Some(cols) = source.last().filter(|c| c % stride == 0) else {
        return fail(format!(
            "pattern {pattern} keeps one column in {stride}: the source's columns must be a static multiple of {stride}, got {}",
            render_dims(&source.shape)
        ));
    };
    if source.tile.is_some() && !source.whole_columns() {
        return fail(format!(
            "the source's columns must be wholly valid, got {}",
            source.r#type
        ));
    }
    let shape = vec![source.shape[0], Some(cols / stride)];
    let valid = vec![source.valid[0], Some(cols / stride)];
    if result.shape != shape || result.valid != valid {
        return fail(format!(
            "result must be {} with valid {} (the source's rows, one column in {stride}), got {}",
            render_dims(&shape),
            render_dims(&valid),
            result.r#type
        ));
    }
    if result.bits()? != source.bits()? {
        return fail(format!(
            "result element type must have the source's width ({} bits), got {}",
            source.bits()?,
            result.element
        ));
    }
    Ok(())
}

/// `mscatter`: a 2-D source and indices in `vec`, a table of the source's
/// element type; `row`: indices `[1, R]` valid along the source's valid
/// rows, a 2-D table of the source's columns; `elem`: indices of the
/// source's shape and valid extents, a table of rank 1 or 2; `atomic_add`
/// of the element types a2a3 adds.
fn verify_mscatter<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    use crate::enums::GatherMode;
    let (source, indices, table) = (
        Shaped::operand(op, 0)?,
        Shaped::operand(op, 1)?,
        Shaped::operand(op, 2)?,
    );
    for (what, shaped) in [("source", &source), ("indices", &indices)] {
        shaped.in_vec(what)?;
        if shaped.shape.len() != 2 {
            return fail(format!("{what} must be 2-D, got {}", shaped.r#type));
        }
    }
    if source.element != table.element {
        return fail(format!(
            "table must have the source's element type {}, got {}",
            source.element, table.r#type
        ));
    }
    if op.attribute("atomic_add").is_ok() {
        use crate::dtype::Dtype;
        require_dtype(
            "an atomic add: the source",
            Dtype::of(source.element).ok_or_else(|| {
                Failure::new(format!("unsupported element type {}", source.element))
            })?,
            super::common::ATOMIC_ADD_DTYPES,
        )?;
    }
    match op.enum_attr::<GatherMode>("mode") {
        Some(GatherMode::Row) => {
            if table.shape.len() != 2 || table.shape[1] != source.shape[1] {
                return fail(format!(
                    "a row scatter writes rows of a 2-D table of the source's {} columns, got {}",
                    render_dims(&source.shape[1..]),
                    table.r#type
                ));
            }
            let (shape, valid) = (
                vec![Some(1), source.shape[0]],
                vec![Some(1), source.valid[0]],
            );
            if indices.shape != shape || indices.valid != valid {
                return fail(format!(
                    "a row scatter's indices are one per source row: {} valid {}, got {}",
                    render_dims(&shape),
                    render_dims(&valid),
                    indices.r#type
                ));
            }
        }
        Some(GatherMode::Elem) => {
            if !matches!(table.shape.len(), 1 | 2) {
                return fail(format!(
                    "an element scatter writes a table of rank 1 or 2, got {}",
                    table.r#type
                ));
            }
            if indices.shape != source.shape || indices.valid != source.valid {
                return fail(format!(
                    "an element scatter's indices have the source's shape and valid extents, got {} and {}",
                    indices.r#type, source.r#type
                ));
            }
        }
        None => return fail("needs a scatter mode"),
    }
    Ok(())
}

/// `gather_compare`: a 2-D source and a key of its element type; the
/// columns `[rows, n]` (`n` static) and the counts `[1, rows]`, valid
/// along the source's valid rows; a tile form's scratch in `vec`.
fn verify_gather_compare<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let source = Shaped::operand(op, 0)?;
    let (columns, counts) = (
        Shaped::of(result_type(op, 0)?)?,
        Shaped::of(result_type(op, 1)?)?,
    );
    source.in_vec("source")?;
    columns.in_vec("result")?;
    counts.in_vec("counts")?;
    if kind == OpKind::PlTileGatherCompare && op.operand_count() == 3 {
        let tmp = Shaped::operand(op, 2)?;
        tmp.in_vec("tmp")?;
    }
    if source.shape.len() != 2 {
        return fail(format!("source must be 2-D, got {}", source.r#type));
    }
    let key = operand_type(op, 1)?;
    if key != source.element {
        return fail(format!(
            "kvalue must have the source's element type {}, got {key}",
            source.element
        ));
    }
    let Some(n) = columns.shape.get(1).copied().flatten().filter(|&n| n > 0) else {
        return fail(format!(
            "result must be 2-D with a static number of columns, got {}",
            columns.r#type
        ));
    };
    let (rows, valid_rows) = (source.shape[0], source.valid[0]);
    let (shape, valid) = (vec![rows, Some(n)], vec![valid_rows, Some(n)]);
    if columns.shape != shape || columns.valid != valid {
        return fail(format!(
            "result must be {} valid {} (the source's rows), got {}",
            render_dims(&shape),
            render_dims(&valid),
            columns.r#type
        ));
    }
    let (shape, valid) = (vec![Some(1), rows], vec![Some(1), valid_rows]);
    if counts.shape != shape || counts.valid != valid {
        return fail(format!(
            "counts must be {} valid {} (one per source row), got {}",
            render_dims(&shape),
            render_dims(&valid),
            counts.r#type
        ));
    }
    Ok(())
}

/// `scatter_mask`: 2-D, wholly valid tiles; the spread (result or target)
/// of the source's rows and element type and its columns times the
/// pattern's stride.
fn verify_scatter_mask<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let source = Shaped::operand(op, 0)?;
    let spread = if kind == OpKind::PlTileScatterMask {
        Shaped::result(op)?
    } else {
        Shaped::operand(op, 1)?
    };
    for (what, shaped) in [("source", &source), ("result", &spread)] {
        if shaped.tile.is_some() {
            shaped.in_vec(what)?;
            if shaped.valid != shaped.shape {
                return fail(format!(
                    "{what} must be wholly valid, got {}",
                    shaped.r#type
                ));
            }
        }
        if shaped.shape.len() != 2 {
            return fail(format!("{what} must be 2-D, got {}", shaped.r#type));
        }
    }
    let Some(pattern) = op.enum_attr::<MaskPattern>("pattern") else {
        return fail("needs a mask pattern");
    };
    let stride = pattern.stride();
    let shape = vec![source.shape[0], source.shape[1].map(|c| c * stride)];
    if spread.shape != shape || spread.element != source.element {
        return fail(format!(
            "pattern {pattern} spreads each row over one column in {stride}: the {} must be {} of {}, got {}",
            if kind == OpKind::PlTileScatterMask {
                "result"
            } else {
                "target"
            },
            render_dims(&shape),
            source.element,
            spread.r#type
        ));
    }
    Ok(())
}

/// `reinterpret_view` of a tile or a tensor: another element type of a
/// whole number of bytes, the same bytes, the last dimension (and valid
/// extent) scaled by the width ratio.
pub fn verify_reinterpret_view<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (Shaped::operand(op, 0)?, Shaped::result(op)?);
    if source.element == result.element {
        return fail(format!(
            "views {} as itself: the element type must change",
            source.element
        ));
    }
    let (from, to) = (source.bits()?, result.bits()?);
    if from % 8 != 0 || to % 8 != 0 {
        return fail(format!(
            "views whole bytes: {} and {} must both be at least a byte wide",
            source.element, result.element
        ));
    }
    if let (Some(a), Some(b)) = (source.tile, result.tile)
        && a.memory_space() != b.memory_space()
    {
        return fail(format!("keeps the memory space, got {} to {}", a, b));
    }
    if source.tile.is_none() {
        let tensor =
            TensorType::try_from(source.r#type).map_err(|e| Failure::new(e.to_string()))?;
        let view = tensor.view();
        if view.has_strides
            || view
                .layout
                .is_some_and(|l| l != crate::enums::TensorLayout::Nd)
        {
            return fail(format!(
                "views a packed row-major tensor, got {}",
                source.r#type
            ));
        }
    }
    let scale = |extent: Option<i64>| -> Result<Option<i64>, Failure<'c>> {
        match extent {
            None => Ok(None),
            Some(e) if (e * i64::from(from)) % i64::from(to) == 0 => {
                Ok(Some(e * i64::from(from) / i64::from(to)))
            }
            Some(e) => fail(format!(
                "the last extent {e} of {} elements is not a whole number of {} elements",
                source.element, result.element
            )),
        }
    };
    let rank = source.shape.len();
    if rank == 0 || result.shape.len() != rank {
        return fail(format!(
            "keeps the rank (at least 1), got {} to {}",
            source.r#type, result.r#type
        ));
    }
    let mut shape = source.shape.clone();
    shape[rank - 1] = scale(shape[rank - 1])?;
    let mut valid = source.valid.clone();
    valid[rank - 1] = scale(valid[rank - 1])?;
    if result.shape != shape || result.valid != valid {
        return fail(format!(
            "result must be {} with valid {} (the last dimension scaled by {from}/{to}), got {}",
            render_dims(&shape),
            render_dims(&valid),
            result.r#type
        ));
    }
    Ok(())
}
