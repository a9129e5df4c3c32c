//! Rules of the elementwise tile ops (their pages in docs/dialects/pl.md):
//! unary, binary, tile-scalar, comparisons into packed masks, select and
//! cast; partial ops (the right operand's shape and element type, its
//! valid region inside the left's) and carrying ops (a scalar right
//! operand of the element type).
//!
//! Every operand and result lives in `vec` (or is not yet placed).

use melior::ir::{
    Type,
    operation::{OperationLike, OperationRef},
    r#type::ShapedTypeLike,
};

use super::{
    VerifyResult,
    common::{
        Check, compute_of, distinct_scratch, dtype_of, element_bytes, fail, has_unit_attr,
        mnemonic, operand_tile, operand_type, require_float, require_vec, result_tile, run_rule,
    },
};
use crate::{
    dtype::{Dtype, broadcast_shapes, promote},
    op_table::{Compute, Family, OpKind},
    types::TileType,
};

/// The rules of each elementwise kind: unary, binary and tile-scalar ops
/// by what they compute, comparisons, selects and casts by family. The
/// element types each op takes are ODS constraints (dialects/td/PLOps.td,
/// shown in docs/dialects/pl.md); the rules here relate operands.
fn rule(kind: OpKind) -> Option<Check> {
    let info = kind.info();
    Some(match info.family {
        Family::TileUnary if info.compute.is_some() => verify_unary,
        Family::TileBinary if info.compute.is_some() => verify_binary,
        Family::TileScalar if info.compute.is_some() => verify_tile_scalar,
        Family::TileCompare => verify_compare,
        Family::TileSelect => verify_select_op,
        Family::TileCast => verify_cast,
        Family::TilePartial => verify_partial,
        Family::TileCarry => verify_carry,
        _ => return None,
    })
}

/// Whether the elementwise rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    rule(kind).is_some()
}

/// Runs the rules of an elementwise tile op.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    run_rule(op, kind, rule(kind), MODULE)
}

const MODULE: &str = "elementwise";

fn verify_select_op<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    verify_select(op)?;
    distinct_scratch(op, 3)?;
    if kind == OpKind::PlTileSels {
        let lhs = operand_tile(op, 1)?;
        let scalar = operand_type(op, 2)?;
        if scalar != lhs.element() {
            return fail(format!(
                "scalar must have the element type {}, got {scalar}",
                lhs.element()
            ));
        }
    }
    Ok(())
}

/// `part_*`: both tiles of one shape and element type, the right one's
/// valid region inside the left one's (where constant extents show it).
fn verify_partial<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (lhs, rhs) = (operand_tile(op, 0)?, operand_tile(op, 1)?);
    for (what, tile) in [("lhs", lhs), ("rhs", rhs)] {
        require_vec(what, tile)?;
    }
    if lhs.shape() != rhs.shape() || lhs.element() != rhs.element() {
        return fail(format!(
            "rhs must have lhs's shape and element type, got {lhs} and {rhs}"
        ));
    }
    let (outer, inner) = (
        lhs.effective_view().valid_shape,
        rhs.effective_view().valid_shape,
    );
    if let Some(axis) =
        (0..outer.len()).find(|&i| matches!((outer[i], inner[i]), (Some(o), Some(n)) if n > o))
    {
        return fail(format!(
            "rhs's valid region must lie inside lhs's: extent {} of {rhs} exceeds {} of {lhs}",
            inner[axis].unwrap_or_default(),
            outer[axis].unwrap_or_default()
        ));
    }
    Ok(())
}

/// `addc` / `subc` / `addsc` / `subsc`: one type for the tiles (ODS), a
/// tile right operand of it too or a scalar of its element type.
fn verify_carry<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let lhs = operand_tile(op, 0)?;
    require_vec("lhs", lhs)?;
    let rhs = operand_type(op, 1)?;
    match TileType::try_from(rhs) {
        Ok(tile) if Type::from(tile) != Type::from(lhs) => {
            fail(format!("rhs must have lhs's type {lhs}, got {rhs}"))
        }
        Err(_) if rhs != lhs.element() => fail(format!(
            "the scalar must have the element type {}, got {rhs}",
            lhs.element()
        )),
        _ => Ok(()),
    }
}

fn verify_unary<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let source = operand_tile(op, 0)?;
    require_vec("operand", source)?;
    let dtype = dtype_of(source)?;
    if has_unit_attr(op, "high_precision") {
        require_float(
            &format!("'high_precision' {}: the operand", mnemonic(kind)),
            dtype,
        )?;
    }
    Ok(())
}

fn verify_binary<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let compute = compute_of(kind, MODULE)?;
    // TREM and TXOR keep intermediate values in a scratch tile.
    let has_scratch = matches!(compute, Compute::Rem | Compute::Xor);
    let lhs = operand_tile(op, 0)?;
    let rhs = operand_tile(op, 1)?;
    let result = result_tile(op, 0)?;
    for (what, tile) in [("lhs", lhs), ("rhs", rhs), ("result", result)] {
        require_vec(what, tile)?;
    }
    // Element types pl has (ODS constrains the sets of the ops that
    // restrict them further).
    dtype_of(lhs)?;
    dtype_of(rhs)?;
    if compute == Compute::Div {
        // The TDIV contract: one type everywhere, no promotion or broadcast.
        if Type::from(lhs) != Type::from(rhs) || Type::from(lhs) != Type::from(result) {
            return fail(format!(
                "requires lhs, rhs and result of one type, got {lhs}, {rhs} and {result}"
            ));
        }
        return Ok(());
    }
    let Some(shape) = broadcast_shapes(&lhs.shape(), &rhs.shape()) else {
        return fail(format!(
            "requires compatible shapes, got {:?} and {:?}",
            lhs.shape(),
            rhs.shape()
        ));
    };
    if result.shape() != shape {
        return fail(format!(
            "result shape {:?} must be the broadcast shape {shape:?}",
            result.shape()
        ));
    }
    let shift = matches!(compute, Compute::Shl | Compute::Shr);
    let expected = if shift {
        lhs.element()
    } else {
        promote(lhs.element(), rhs.element()).expect("tile element types are scalars")
    };
    if result.element() != expected {
        let rule = if shift {
            format!("the lhs element type, {expected}")
        } else {
            format!(
                "the promotion of {} and {}, which is {expected}",
                lhs.element(),
                rhs.element()
            )
        };
        return fail(format!(
            "result element type {} must be {rule}",
            result.element()
        ));
    }
    if has_scratch {
        let tmp = operand_tile(op, 2)?;
        require_vec("tmp", tmp)?;
        distinct_scratch(op, 2)?;
        if compute == Compute::Rem {
            verify_remainder_scratch(tmp, result)?;
        } else if tmp.shape() != result.shape() || tmp.element() != result.element() {
            return fail(format!(
                "tmp {tmp} must have the result's shape and element type"
            ));
        }
    }
    if compute == Compute::Prelu && op.operand_count() > 2 {
        distinct_scratch(op, 2)?;
        verify_prelu_scratch(operand_tile(op, 2)?, result)?;
    }
    Ok(())
}

/// The scratch of `pl.tile.rem`: TREM keeps a row of quotients and a
/// comparison mask there (crate::scratch::remainder_scratch_cols).
fn verify_remainder_scratch<'c>(tmp: TileType, result: TileType) -> VerifyResult<'c> {
    let (shape, scratch) = (result.shape(), tmp.shape());
    let cols = *shape.last().expect("tiles have a rank");
    let needed = crate::scratch::remainder_scratch_cols(cols, element_bytes(result)?);
    if tmp.element() != result.element()
        || scratch.len() != shape.len()
        || scratch.last().is_some_and(|&c| c < needed)
    {
        return fail(format!(
            "tmp must be a tile of the result's element type and rank with at least {needed} columns (a row of quotients and a comparison mask for {cols} columns), got {tmp}"
        ));
    }
    Ok(())
}

/// The scratch of `pl.tile.prelu`: TPRELU writes the sign mask of a 2-D
/// `[rows, cols]` result into a `ui8` tile, packed (`ceil(cols / 8)`
/// bytes a row, rounded up to 32), and keeps one more row for its select.
fn verify_prelu_scratch<'c>(tmp: TileType, result: TileType) -> VerifyResult<'c> {
    require_vec("tmp", tmp)?;
    let (shape, scratch) = (result.shape(), tmp.shape());
    if shape.len() != 2 {
        return fail(format!(
            "a tmp is given to a 2-D prelu (pl-flatten-tile-nd-to-2d adds one after flattening), got the result {result}"
        ));
    }
    let mask_cols = (shape[1] + 7) / 8;
    let mask_cols = (mask_cols + 31) / 32 * 32;
    if Dtype::of(tmp.element()) != Some(Dtype::U8)
        || scratch.len() != 2
        || scratch[0] <= shape[0]
        || scratch[1] < mask_cols
    {
        return fail(format!(
            "tmp must be a 2-D ui8 tile of more than {} rows and at least {mask_cols} columns, got {tmp}",
            shape[0]
        ));
    }
    Ok(())
}

fn verify_tile_scalar<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let compute = compute_of(kind, MODULE)?;
    let tile = operand_tile(op, 0)?;
    require_vec("tile", tile)?;
    let scalar = operand_type(op, 1)?;
    dtype_of(tile)?;
    let scalar_dtype = Dtype::of(scalar)
        .ok_or_else(|| super::common::Failure::new(format!("unsupported scalar type {scalar}")))?;
    if scalar_dtype == Dtype::Index {
        return fail(format!(
            "scalar must not be index; cast it to {}",
            tile.element()
        ));
    }
    if matches!(compute, Compute::Rem | Compute::Xor) && op.operand_count() > 2 {
        distinct_scratch(op, 2)?;
    }
    Ok(())
}

/// The packed mask a comparison of tiles of `shape` (valid `valid`)
/// produces: ui8, last dimension ceil(cols / 8) rounded up to 32, valid
/// ceil(valid_cols / 8).
pub fn mask_shape(shape: &[i64], valid: &[Option<i64>]) -> (Vec<i64>, Vec<Option<i64>>) {
    let mut mask = shape.to_vec();
    let mut mask_valid = valid.to_vec();
    if let (Some(cols), Some(valid_cols)) = (mask.last_mut(), mask_valid.last_mut()) {
        let bytes = (*cols + 7) / 8;
        *cols = (bytes + 31) / 32 * 32;
        *valid_cols = valid_cols.map(|v| (v + 7) / 8);
    }
    (mask, mask_valid)
}

fn require_mask<'c>(what: &str, mask: TileType, compared: TileType) -> VerifyResult<'c> {
    let (shape, valid) = mask_shape(&compared.shape(), &compared.effective_view().valid_shape);
    let view = mask.effective_view();
    if dtype_of(mask)? != Dtype::U8 || mask.shape() != shape || view.valid_shape != valid {
        let render = |dims: &[Option<i64>]| {
            dims.iter()
                .map(|d| d.map_or("?".to_string(), |v| v.to_string()))
                .collect::<Vec<_>>()
                .join("x")
        };
        return fail(format!(
            "{what} must be a ui8 mask of shape {} with valid {} for {compared}, got {mask}",
            shape
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join("x"),
            render(&valid)
        ));
    }
    Ok(())
}

fn verify_compare<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let lhs = operand_tile(op, 0)?;
    require_vec("lhs", lhs)?;
    if kind == OpKind::PlTileCmps {
        let scalar = operand_type(op, 1)?;
        if Dtype::of(scalar) == Some(Dtype::Index) {
            return fail(format!(
                "scalar must not be index; cast it to {}",
                lhs.element()
            ));
        }
    } else {
        let rhs = operand_tile(op, 1)?;
        require_vec("rhs", rhs)?;
        if lhs.shape() != rhs.shape() || lhs.element() != rhs.element() {
            return fail(format!(
                "requires lhs and rhs of one shape and element type, got {lhs} and {rhs}"
            ));
        }
    }
    let result = result_tile(op, 0)?;
    require_vec("result", result)?;
    require_mask("result", result, lhs)
}

fn verify_select<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let mask = operand_tile(op, 0)?;
    let lhs = operand_tile(op, 1)?;
    require_vec("mask", mask)?;
    require_vec("operands", lhs)?;
    require_mask("mask", mask, lhs)
}

fn verify_cast<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let source = operand_tile(op, 0)?;
    let result = result_tile(op, 0)?;
    require_vec("source", source)?;
    require_vec("result", result)?;
    if source.element() == result.element() {
        return fail(format!("casts {} to itself", source.element()));
    }
    if source.shape() != result.shape()
        || source.effective_view().valid_shape != result.effective_view().valid_shape
    {
        return fail(format!(
            "result {result} must keep the shape and valid shape of {source}"
        ));
    }
    let (from, to) = (source.effective_view(), result.effective_view());
    if (from.blayout, from.slayout) != (to.blayout, to.slayout) {
        return fail(format!("result {result} must keep the layout of {source}"));
    }
    Ok(())
}
