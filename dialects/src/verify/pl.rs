//! Rules of the moves between memory spaces, `pl.tile.move` and
//! `pl.tile.extract` (docs/dialects/pl.md): the a2a3 move pairs.
//!
//! - move: a legal pair, shape kept, element type kept (or the bias-table
//!   conversion);
//! - extract: 2-D, element type kept, mat -> left/right, acc -> mat or
//!   vec -> vec, the window inside the source (constant offsets).

use melior::ir::{Type, operation::OperationRef, r#type::ShapedTypeLike};

use super::{
    VerifyResult,
    common::{
        Check, constant_operands, fail, operand_tile, result_tile, run_rule, statics, window_leaves,
    },
};
use crate::{diag::OpDiagnostic, dtype::ScalarKind, op_table::OpKind, types::MemorySpace};

fn rule(kind: OpKind) -> Option<Check> {
    Some(match kind {
        OpKind::PlTileMove => verify_tile_move,
        OpKind::PlTileExtract => verify_extract,
        _ => return None,
    })
}

/// Whether the move rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    rule(kind).is_some()
}

/// Runs the rules of a move between memory spaces.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    run_rule(op, kind, rule(kind), "pl")
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
pub fn verify_tile_move<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
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

fn verify_extract<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tile(op, 0)?, result_tile(op, 0)?);
    if source.rank() != 2 || result.rank() != 2 {
        return fail(format!(
            "source and result must be 2-D, got {source} and {result}"
        ));
    }
    if source.element() != result.element() {
        return fail(format!(
            "an extract keeps the element type, got {} to {}",
            source.element(),
            result.element()
        ));
    }
    // A tile not yet placed may still land in any of the legal pairs.
    let legal = matches!(
        (source.memory_space(), result.memory_space()),
        (None, _)
            | (_, None)
            | (
                Some(MemorySpace::Mat),
                Some(MemorySpace::Left | MemorySpace::Right)
            )
            | (Some(MemorySpace::Acc), Some(MemorySpace::Mat))
            | (Some(MemorySpace::Vec), Some(MemorySpace::Vec))
    );
    if !legal {
        return fail(format!(
            "cannot extract from '{}' to '{}' (legal: mat->left, mat->right, acc->mat, vec->vec)",
            source.memory_space().map_or("?".into(), |s| s.to_string()),
            result.memory_space().map_or("?".into(), |s| s.to_string())
        ));
    }
    let offsets = constant_operands(op, 1, 2);
    if let Some(i) = window_leaves(
        &offsets,
        &statics(&result.shape()),
        &statics(&source.shape()),
    ) {
        return fail(format!("the window leaves the source in dimension {i}"));
    }
    Ok(())
}
