//! Rules of tile creation, transfers and views (their pages in
//! docs/dialects/pl.md).
//!
//! - load: one offset per tensor dimension; the tile has the tensor's rank
//!   (or, with `partition`, is the 2-D `[prod(leading), last]` form of a
//!   window of a rank >= 3 tensor, its rows wholly valid, or `[1, N]` of a
//!   vector's) and element type and lives in vec or mat, with the layout a load
//!   yields (mat: NZ, swapped for a dn source, flat for one row); one `valid(...)` operand per
//!   dynamic valid extent; a constant window past the tensor's edge needs
//!   `clamp`;
//! - store: the tile in vec or acc; offsets and ranks as for load; element
//!   types equal, except an acc tile storing f32 as f16/bf16 (acc stores
//!   target i32, f32, f16, bf16); atomic adds on f32, bf16, f16, i32, i16,
//!   i8; a constant window stays inside the destination;
//! - create: not in the scale spaces; full: an `arith.constant` of the
//!   element type, into vec;
//! - slice / assemble: windows inside their tiles (constant offsets),
//!   element types kept; slice keeps space and layout (extract, a move,
//!   is in `pl.rs`);
//! - reshape: element count, type and space kept; transpose: distinct axes
//!   in range, swapped dims, a scratch (tmp) of the source's element type
//!   and space at least the result's size in 16-element blocks; fillpad: a real pad value, fully valid result
//!   recording it; read / write: vec, one index per dimension, element
//!   type; set_validshape: 2-D, extents follow the constant operands.

use melior::ir::{
    Type,
    attribute::DenseI64ArrayAttribute,
    operation::{OperationLike, OperationRef},
    r#type::ShapedTypeLike,
};

use super::{
    VerifyResult,
    common::{
        Check, constant_operands, distinct_scratch, dtype_of, element_access, fail,
        operand_segments, operand_tile, operand_type, require_dtype, require_vec, result_tile,
        run_rule, statics, window_leaves,
    },
    system::int_attr,
};
use crate::{
    dtype::{Dtype, ScalarKind},
    enums::{EnumAttr, MemorySpace, PadValue, TensorLayout, TileLayout},
    op_table::OpKind,
    types::{TensorLike, TileType},
};

fn tensor_of<'c>(r#type: Type<'c>) -> Result<TensorLike<'c>, super::common::Failure<'c>> {
    TensorLike::try_from(r#type).map_err(|e| super::common::Failure::new(e.to_string()))
}

fn rule(kind: OpKind) -> Option<Check> {
    Some(match kind {
        OpKind::PlTileAlloc => verify_alloc,
        OpKind::PlTileLoad => verify_load,
        OpKind::PlTileStore => verify_store,
        OpKind::PlTileCreate => verify_create,
        OpKind::PlTileFull => verify_full,
        OpKind::PlTileSlice => verify_slice,
        OpKind::PlTileReshape => verify_reshape,
        OpKind::PlTileTranspose => verify_transpose,
        OpKind::PlTileTransposeView => verify_transpose_view,
        OpKind::PlTileFillpad | OpKind::PlTileFillpadInplace => verify_fillpad,
        OpKind::PlTileFillpadExpand => verify_fillpad_expand,
        OpKind::PlTileConcat => verify_concat,
        OpKind::PlTileRead | OpKind::PlTileWrite => verify_access,
        OpKind::PlTileSetValidshape => verify_set_validshape,
        OpKind::PlTileAssemble => verify_assemble,
        OpKind::PlTileReinterpretView => super::indexing::verify_reinterpret_view,
        _ => return None,
    })
}

/// Whether the creation, transfer and view rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    rule(kind).is_some()
}

/// Runs the rules of a tile creation, transfer or view.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    run_rule(op, kind, rule(kind), "movement")
}

fn verify_alloc<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let size = int_attr(op, "size").unwrap_or(0);
    if size <= 0 {
        return fail(format!("size must be positive, got {size}"));
    }
    let space = op.enum_attr::<MemorySpace>("space");
    if let Some(space @ (MemorySpace::Ddr | MemorySpace::ScalarLocal)) = space {
        return fail(format!("allocates on chip, not in '{space}'"));
    }
    Ok(())
}

fn verify_create<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let tile = result_tile(op, 0)?;
    if matches!(
        tile.memory_space(),
        Some(MemorySpace::LeftScale | MemorySpace::RightScale)
    ) {
        return fail(format!(
            "cannot create a tile in the A5-only scale space of {tile}"
        ));
    }
    Ok(())
}

fn verify_full<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let tile = result_tile(op, 0)?;
    require_vec("result", tile)?;
    let value = op
        .operand(0)
        .map_err(|e| super::common::Failure::new(e.to_string()))?;
    let is_constant = melior::ir::operation::OperationResult::try_from(value)
        .map(|r| r.owner().name().as_string_ref().as_str() == Ok("arith.constant"))
        .unwrap_or(false);
    if !is_constant {
        return fail("value must be an arith.constant");
    }
    if operand_type(op, 0)? != tile.element() {
        return fail(format!(
            "value type {} must be the element type {}",
            operand_type(op, 0)?,
            tile.element()
        ));
    }
    Ok(())
}

fn verify_reshape<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tile(op, 0)?, result_tile(op, 0)?);
    let count = |t: TileType| {
        t.shape()
            .iter()
            .try_fold(1i64, |acc, &d| acc.checked_mul(d))
    };
    if count(source) != count(result)
        || source.element() != result.element()
        || source.memory_space() != result.memory_space()
    {
        return fail(format!(
            "reshape keeps the element count, element type and memory space: {source} to {result}"
        ));
    }
    Ok(())
}

/// `pl.tile.transpose_view`: the result is exactly the source's
/// transposed view (types.rs `TileType::transposed_view`).
fn verify_transpose_view<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tile(op, 0)?, result_tile(op, 0)?);
    let context = crate::ir::context(&op);
    match source.transposed_view(context) {
        None => fail(format!("views a tile of rank 2 or more, got {source}")),
        Some(expected) if expected != result => fail(format!(
            "result must be {expected} (the last two axes swapped, the layouts' major order flipped), got {result}"
        )),
        Some(_) => Ok(()),
    }
}

fn verify_transpose<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tile(op, 0)?, result_tile(op, 0)?);
    let rank = source.rank() as i64;
    let (a, b) = (
        int_attr(op, "axis1").unwrap_or(-1),
        int_attr(op, "axis2").unwrap_or(-1),
    );
    if rank < 2 || a == b || !(0..rank).contains(&a) || !(0..rank).contains(&b) {
        return fail(format!(
            "axes must be two distinct axes of a rank >= 2 tile, got {a} and {b} for {source}"
        ));
    }
    let mut shape = source.shape();
    shape.swap(a as usize, b as usize);
    if result.shape() != shape
        || result.element() != source.element()
        || result.memory_space() != source.memory_space()
    {
        return fail(format!(
            "result must be {source} with axes {a} and {b} swapped, got {result}"
        ));
    }
    if op.operand_count() > 1 {
        distinct_scratch(op, 1)?;
        verify_transpose_scratch(operand_tile(op, 1)?, source, result)?;
    }
    Ok(())
}

fn verify_fillpad<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tile(op, 0)?, result_tile(op, 0)?);
    let pad = op.enum_attr::<PadValue>("pad");
    if pad == Some(PadValue::Null) {
        return fail("pad must be zero, max or min");
    }
    let view = result.effective_view();
    let fully_valid = view.valid_shape == statics(&result.shape());
    if result.shape() != source.shape()
        || result.element() != source.element()
        || result.memory_space() != source.memory_space()
        || !fully_valid
        || Some(view.pad) != pad
    {
        return fail(format!(
            "result must be {source} fully valid with pad = {}, got {result}",
            pad.map_or("?".into(), |p| p.to_string())
        ));
    }
    Ok(())
}

/// `fillpad_expand`: a result at least the source's size in every
/// dimension, fully valid, recording its pad.
fn verify_fillpad_expand<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tile(op, 0)?, result_tile(op, 0)?);
    let pad = op.enum_attr::<PadValue>("pad");
    if pad == Some(PadValue::Null) {
        return fail("pad must be zero, max or min");
    }
    let (from, to) = (source.shape(), result.shape());
    let view = result.effective_view();
    if from.len() != to.len()
        || from.iter().zip(&to).any(|(a, b)| b < a)
        || result.element() != source.element()
        || result.memory_space() != source.memory_space()
        || view.valid_shape != statics(&to)
        || Some(view.pad) != pad
    {
        return fail(format!(
            "result must be at least {source}'s size in every dimension, of its element type and space, fully valid with pad = {}, got {result}",
            pad.map_or("?".into(), |p| p.to_string())
        ));
    }
    Ok(())
}

/// `concat`: two 2-D tiles of one element type and rows, wholly valid
/// columns and one count of valid rows, side by side.
fn verify_concat<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (lhs, rhs, result) = (
        operand_tile(op, 0)?,
        operand_tile(op, 1)?,
        result_tile(op, 0)?,
    );
    for (what, tile) in [("lhs", lhs), ("rhs", rhs), ("result", result)] {
        require_vec(what, tile)?;
    }
    let (a, b) = (lhs.shape(), rhs.shape());
    if a.len() != 2 || b.len() != 2 || a[0] != b[0] || lhs.element() != rhs.element() {
        return fail(format!(
            "joins 2-D tiles of one element type and number of rows, got {lhs} and {rhs}"
        ));
    }
    let (va, vb) = (
        lhs.effective_view().valid_shape,
        rhs.effective_view().valid_shape,
    );
    if va[1] != Some(a[1]) || vb[1] != Some(b[1]) || va[0] != vb[0] {
        return fail(format!(
            "joins tiles whose columns are wholly valid and whose valid rows are one count, got {lhs} and {rhs}"
        ));
    }
    let view = result.effective_view();
    if result.shape() != [a[0], a[1] + b[1]]
        || result.element() != lhs.element()
        || view.valid_shape != [va[0], Some(a[1] + b[1])]
    {
        return fail(format!(
            "result must be {}x{} with valid {}x{} ({}'s rows, the columns of both), got {result}",
            a[0],
            a[1] + b[1],
            va[0].map_or("?".into(), |r| r.to_string()),
            a[1] + b[1],
            lhs
        ));
    }
    Ok(())
}

/// `read` / `write`: one index per dimension, a scalar of the element type.
fn verify_access<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let tile = operand_tile(op, 0)?;
    require_vec("tile", tile)?;
    element_access(op, kind == OpKind::PlTileWrite, tile.rank(), tile.element())
}

fn verify_set_validshape<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tile(op, 0)?, result_tile(op, 0)?);
    let mut view = result.effective_view();
    let result_valid = std::mem::take(&mut view.valid_shape);
    let mut source_view = source.effective_view();
    source_view.valid_shape = Vec::new();
    let same_rest = result.shape() == source.shape()
        && result.element() == source.element()
        && result.memory_space() == source.memory_space()
        && view == source_view;
    super::common::set_validshape_rules(
        op,
        source,
        result,
        &statics(&source.shape()),
        &result_valid,
        same_rest,
    )
}

fn verify_assemble<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, target) = (operand_tile(op, 0)?, operand_tile(op, 1)?);
    if source.rank() != target.rank() || source.element() != target.element() {
        return fail(format!(
            "source {source} and target {target} must have one rank and element type"
        ));
    }
    let offsets = constant_operands(op, 2, op.operand_count() - 2);
    if offsets.len() != target.rank() {
        return fail(format!(
            "needs one offset per dimension ({}), got {}",
            target.rank(),
            offsets.len()
        ));
    }
    if let Some(i) = window_leaves(
        &offsets,
        &statics(&source.shape()),
        &statics(&target.shape()),
    ) {
        return fail(format!("the window leaves the target in dimension {i}"));
    }
    Ok(())
}

/// The extents, one per tensor dimension, of the window a load or store
/// moves: the tile's own `extents` when it has the tensor's rank, or the
/// `partition` shape (its last extent narrowed to the tile's) when a 2-D
/// tile stands for a window of a rank >= 3 tensor (or a `[1, N]` tile for
/// one of a vector).
fn window_extents<'c>(
    op: OperationRef<'c, '_>,
    tile: TileType<'c>,
    rank: usize,
    extents: &[Option<i64>],
) -> Result<Vec<Option<i64>>, super::common::Failure<'c>> {
    let Some(partition) = op
        .attribute("partition")
        .ok()
        .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
    else {
        if tile.rank() != rank {
            return fail(format!(
                "the tile must have the tensor's rank ({rank}), got {tile}"
            ));
        }
        return Ok(extents.to_vec());
    };
    let partition: Vec<i64> = (0..partition.len())
        .filter_map(|i| partition.element(i).ok())
        .collect();
    if rank == 2 || rank == 0 || partition.len() != rank {
        return fail(format!(
            "a partition has one extent per dimension of a tensor of rank 1 or rank 3 or more, got {partition:?} for rank {rank}"
        ));
    }
    if partition.iter().any(|&d| d <= 0) {
        return fail(format!(
            "partition extents must be positive, got {partition:?}"
        ));
    }
    let Some(rows) = partition[..rank - 1]
        .iter()
        .try_fold(1i64, |acc, &d| acc.checked_mul(d))
    else {
        return fail(format!(
            "a partition {partition:?} has more rows than 64 bits count"
        ));
    };
    let shape = tile.shape();
    if shape != [rows, partition[rank - 1]] {
        return fail(format!(
            "a partition {partition:?} moves a {rows}x{} tile, got {tile}",
            partition[rank - 1]
        ));
    }
    if extents.first().copied().flatten() != Some(rows) {
        return fail(format!(
            "the rows of a partitioned tile must all be valid, got {tile}"
        ));
    }
    let mut window = statics(&partition);
    window[rank - 1] = extents[1];
    Ok(window)
}

fn verify_load<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let source = tensor_of(operand_type(op, 0)?)?;
    let tile = result_tile(op, 0)?;
    let segments = operand_segments(op);
    let (offset_start, offset_count) = segments.get(1).copied().unwrap_or((1, 0));
    let valid_count = segments.get(2).map_or(0, |s| s.1);
    let rank = source.rank();
    if offset_count != rank {
        return fail(format!(
            "needs one offset per tensor dimension ({rank}), got {offset_count}"
        ));
    }
    let extents = window_extents(op, tile, rank, &tile.effective_view().valid_shape)?;
    if op.attribute("clamp").is_ok() && op.attribute("partition").is_ok() {
        return fail(
            "clamp narrows a window of the tile's own shape; it does not combine with partition",
        );
    }
    if tile.element() != source.element() {
        return fail(format!(
            "the tile must have the tensor's element type {}, got {}",
            source.element(),
            tile.element()
        ));
    }
    if let Some(space) = tile.memory_space()
        && !matches!(space, MemorySpace::Vec | MemorySpace::Mat)
    {
        return fail(format!("loads target 'vec' or 'mat', got '{space}'"));
    }
    // The loaded tile's layout (docs/dialects/pl.md, `pl.tile.load`): L1
    // gets the NZ fractal layout (swapped for a dn source; a single row
    // stays flat); elsewhere the implicit layout of the space (col_major
    // blocks for a column).
    let view = tile.effective_view();
    let shape = tile.shape();
    let expected = if tile.memory_space() == Some(MemorySpace::Mat) {
        if shape.len() == 2 && shape[0] == 1 {
            (TileLayout::RowMajor, TileLayout::NoneBox)
        } else if source.layout() == Some(TensorLayout::Dn) {
            (TileLayout::RowMajor, TileLayout::ColMajor)
        } else {
            (TileLayout::ColMajor, TileLayout::RowMajor)
        }
    } else {
        let column = shape.len() >= 2 && shape[shape.len() - 1] == 1 && shape[shape.len() - 2] > 1;
        (
            if column {
                TileLayout::ColMajor
            } else {
                TileLayout::RowMajor
            },
            TileLayout::NoneBox,
        )
    };
    if (view.blayout, view.slayout) != expected {
        return fail(format!(
            "a load into this tile yields blayout = {}, slayout = {}, got {tile}",
            expected.0, expected.1
        ));
    }
    let valid = view.valid_shape;
    let dynamic = valid.iter().filter(|d| d.is_none()).count();
    if valid_count != dynamic {
        return fail(format!(
            "needs one valid(...) operand per dynamic valid extent ({dynamic}), got {valid_count}"
        ));
    }
    if op.attribute("clamp").is_err() {
        let offsets = constant_operands(op, offset_start, offset_count);
        if let Some(i) = window_leaves(&offsets, &extents, &source.shape()) {
            return fail(format!(
                "the window leaves the tensor in dimension {i} (offset {} + {} > {}); use clamp to narrow it",
                offsets[i].unwrap_or(0),
                extents[i].unwrap_or(0),
                source.shape()[i].unwrap_or(0)
            ));
        }
    }
    Ok(())
}

/// The scratch of `pl.tile.transpose`: TTRANS transposes into a tile of
/// the source's element type and memory space with the 2-D result's rows
/// and its columns rounded up to the transpose block (16 elements, 32 for
/// 1-byte ones).
fn verify_transpose_scratch<'c>(
    tmp: TileType,
    source: TileType,
    result: TileType,
) -> VerifyResult<'c> {
    let (shape, scratch) = (result.shape(), tmp.shape());
    if shape.len() != 2 {
        return fail(format!(
            "a tmp is given to a 2-D transpose, got the result {result}"
        ));
    }
    let block = if ScalarKind::of(source.element()).map(ScalarKind::bits) == Some(8) {
        32
    } else {
        16
    };
    let cols = (shape[1] + block - 1) / block * block;
    if tmp.element() != source.element()
        || tmp.memory_space() != source.memory_space()
        || scratch.len() != 2
        || scratch[0] < shape[0]
        || scratch[1] < cols
    {
        return fail(format!(
            "tmp must be a 2-D tile of the source's element type and memory space with at least {} rows and {cols} columns, got {tmp}",
            shape[0]
        ));
    }
    Ok(())
}

fn verify_store<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let tile = operand_tile(op, 0)?;
    let destination = tensor_of(operand_type(op, 1)?)?;
    let offsets = constant_operands(op, 2, op.operand_count() - 2);
    let rank = destination.rank();
    if offsets.len() != rank {
        return fail(format!(
            "needs one offset per tensor dimension ({rank}), got {}",
            offsets.len()
        ));
    }
    let extents = window_extents(op, tile, rank, &statics(&tile.shape()))?;
    let (tile_dtype, tensor_dtype) = (dtype_of(tile)?, Dtype::of(destination.element()));
    let from_acc = tile.memory_space() == Some(MemorySpace::Acc);
    match tile.memory_space() {
        Some(space) if !matches!(space, MemorySpace::Vec | MemorySpace::Acc) => {
            return fail(format!(
                "stores take a tile in 'vec' or 'acc', got '{space}'"
            ));
        }
        _ => {}
    }
    if from_acc {
        let Some(tensor_dtype) = tensor_dtype else {
            return fail("unsupported destination element type");
        };
        require_dtype(
            "an acc store: the destination",
            tensor_dtype,
            &[Dtype::I32, Dtype::F32, Dtype::F16, Dtype::Bf16],
        )?;
        let narrows = tile_dtype == Dtype::F32 && matches!(tensor_dtype, Dtype::F16 | Dtype::Bf16);
        if tile_dtype != tensor_dtype && !narrows {
            return fail(format!(
                "an acc store keeps {} or narrows f32 to f16/bf16, got {}",
                tile_dtype.name(),
                tensor_dtype.name()
            ));
        }
    } else if tile.element() != destination.element() {
        return fail(format!(
            "the tile must have the tensor's element type {}, got {}",
            destination.element(),
            tile.element()
        ));
    }
    if op.attribute("atomic_add").is_ok() {
        require_dtype(
            "an atomic add: the tile",
            tile_dtype,
            super::common::ATOMIC_ADD_DTYPES,
        )?;
    }
    if let Some(i) = window_leaves(&offsets, &extents, &destination.shape()) {
        return fail(format!("the write leaves the destination in dimension {i}"));
    }
    Ok(())
}

fn verify_slice<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tile(op, 0)?, result_tile(op, 0)?);
    let segments = operand_segments(op);
    let (offset_start, offset_count) = segments.get(1).copied().unwrap_or((1, 0));
    let valid_count = segments.get(2).map_or(0, |s| s.1);
    if offset_count != source.rank() || result.rank() != source.rank() {
        return fail(format!(
            "needs the source's rank ({}) of offsets and result dimensions",
            source.rank()
        ));
    }
    let (from, to) = (source.effective_view(), result.effective_view());
    if result.element() != source.element()
        || result.memory_space() != source.memory_space()
        || (from.blayout, from.slayout, from.fractal, from.pad)
            != (to.blayout, to.slayout, to.fractal, to.pad)
    {
        return fail(format!(
            "a slice keeps the element type, memory space and layout of {source}, got {result}"
        ));
    }
    let offsets = constant_operands(op, offset_start, offset_count);
    if let Some(i) = window_leaves(
        &offsets,
        &statics(&result.shape()),
        &statics(&source.shape()),
    ) {
        return fail(format!("the window leaves the source in dimension {i}"));
    }
    // The result's valid extents never reach past the source's valid region.
    if let Some(i) = window_leaves(&offsets, &to.valid_shape, &from.valid_shape) {
        return fail(format!(
            "result valid extent in dimension {i} exceeds the source's valid region"
        ));
    }
    let dynamic = to.valid_shape.iter().filter(|d| d.is_none()).count();
    if valid_count != dynamic {
        return fail(format!(
            "needs one valid(...) operand per dynamic valid extent ({dynamic}), got {valid_count}"
        ));
    }
    Ok(())
}
