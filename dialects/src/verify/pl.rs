//! Rules of `pl.tile.move` (docs/dialects/pl.md): the a2a3 move pairs.

use melior::ir::{Type, operation::OperationRef, r#type::ShapedTypeLike};

use super::{
    VerifyResult,
    common::{operand_tile, result_tile},
};
use crate::{diag::OpDiagnostic, dtype::ScalarKind, types::MemorySpace};

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
        (Mat, Left)
            | (Mat, Right)
            | (Mat, Bias)
            | (Acc, Mat)
            | (Vec, Vec)
            | (Vec, Mat)
            | (Acc, Vec)
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
            Some(ScalarKind::Float(16 | 32)) => {
                ScalarKind::of(to_element) == Some(ScalarKind::Float(32))
            }
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
    crate::dtype::Dtype::of(r#type) == Some(crate::dtype::Dtype::Bf16)
}
