//! Rules of the `pl` ops (spec pl.md §4).

use melior::ir::{
    Type, ValueLike,
    operation::{OperationLike, OperationRef},
    r#type::ShapedTypeLike,
};

use super::VerifyResult;
use crate::{
    diag::OpDiagnostic,
    dtype::{ScalarKind, broadcast_shapes, promote},
    types::{MemorySpace, TileType},
};

/// Returns the tile type of operand `index` (ODS guarantees the kind).
fn operand_tile<'c>(op: OperationRef<'c, '_>, index: usize) -> Result<TileType<'c>, OpDiagnostic<'c>> {
    let operand = op.operand(index).map_err(|e| OpDiagnostic::new(e.to_string()))?;
    TileType::try_from(operand.r#type()).map_err(|e| OpDiagnostic::new(e.to_string()))
}

/// Returns the tile type of result `index` (ODS guarantees the kind).
fn result_tile<'c>(op: OperationRef<'c, '_>, index: usize) -> Result<TileType<'c>, OpDiagnostic<'c>> {
    let result = op.result(index).map_err(|e| OpDiagnostic::new(e.to_string()))?;
    TileType::try_from(result.r#type()).map_err(|e| OpDiagnostic::new(e.to_string()))
}

fn space_name(space: Option<MemorySpace>) -> String {
    space.map_or_else(|| "<none>".to_string(), |s| s.keyword().to_string())
}

/// Whether a2a3 can move a tile from `from` to `to`.
///
/// Single-core moves: `mat -> left|right|bias`, `acc -> mat`, `vec -> vec`.
/// Moves between the vector core's `vec` and the cube core's `mat`/`acc` are
/// cross-core; they are legal until mixed-kernel expansion turns them into
/// pushes and pops over a ring buffer.
pub fn is_legal_move(from: MemorySpace, to: MemorySpace) -> bool {
    use MemorySpace::*;
    matches!(
        (from, to),
        (Mat, Left) | (Mat, Right) | (Mat, Bias) | (Acc, Mat) | (Vec, Vec) | (Vec, Mat) | (Acc, Vec)
    )
}

/// `pl.tile.move`: legal pair, same shape, element type kept (bias: i32 ->
/// i32, f32/f16 -> f32).
pub fn verify_tile_move<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let source = operand_tile(op, 0)?;
    let result = result_tile(op, 0)?;
    let Some(to) = result.memory_space() else {
        return Err(OpDiagnostic::new("result tile must have a memory space"));
    };
    if let Some(from) = source.memory_space()
        && !is_legal_move(from, to)
    {
        return Err(OpDiagnostic::new(format!(
            "cannot move a tile from '{from}' to '{to}' on a2a3 (legal: mat->left, mat->right, \
             mat->bias, acc->mat, vec->vec, and the cross-core vec->mat, acc->vec)"
        )));
    }
    if source.shape() != result.shape() {
        return Err(OpDiagnostic::new(format!(
            "result shape {:?} differs from source shape {:?}",
            result.shape(),
            source.shape()
        )));
    }
    let (from_element, to_element) = (source.element(), result.element());
    if to == MemorySpace::Bias {
        let allowed = match ScalarKind::of(from_element) {
            Some(ScalarKind::Signed(32)) => to_element == from_element,
            Some(ScalarKind::Float(16 | 32)) => ScalarKind::of(to_element) == Some(ScalarKind::Float(32)),
            _ => false,
        };
        if !allowed || is_bf16(from_element) {
            return Err(OpDiagnostic::new(format!(
                "a move into 'bias' takes i32 to i32 or f32/f16 to f32, got {from_element} to {to_element}"
            )));
        }
    } else if from_element != to_element {
        return Err(OpDiagnostic::new(format!(
            "a move keeps the element type, got {from_element} to {to_element}"
        )));
    }
    Ok(())
}

fn is_bf16(r#type: Type) -> bool {
    // bf16 and f16 share a width; only the printed name tells them apart.
    r#type.to_string() == "bf16"
}

/// `pl.tile.add`: operands in `vec`, result = promotion and broadcast.
pub fn verify_tile_add<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let lhs = operand_tile(op, 0)?;
    let rhs = operand_tile(op, 1)?;
    let result = result_tile(op, 0)?;
    for (what, tile) in [("lhs", lhs), ("rhs", rhs), ("result", result)] {
        if let Some(space) = tile.memory_space()
            && space != MemorySpace::Vec
        {
            return Err(OpDiagnostic::new(format!(
                "{what} must be in 'vec' (or not yet placed), got '{}'",
                space_name(Some(space))
            )));
        }
    }
    let Some(shape) = broadcast_shapes(&lhs.shape(), &rhs.shape()) else {
        return Err(OpDiagnostic::new(format!(
            "requires compatible shapes, got {:?} and {:?}",
            lhs.shape(),
            rhs.shape()
        )));
    };
    if result.shape() != shape {
        return Err(OpDiagnostic::new(format!(
            "result shape {:?} must be the broadcast shape {shape:?}",
            result.shape()
        )));
    }
    let promoted = promote(lhs.element(), rhs.element())
        .ok_or_else(|| OpDiagnostic::new("operands must have scalar element types"))?;
    if result.element() != promoted {
        return Err(OpDiagnostic::new(format!(
            "result element type {} must be the promotion of {} and {}, which is {promoted}",
            result.element(),
            lhs.element(),
            rhs.element()
        )));
    }
    Ok(())
}
