//! Rules of the reductions and broadcasts (their pages in
//! docs/dialects/pl.md).
//!
//! - row reductions: input rank >= 2 in `vec`, not provably empty; `tmp` of
//!   the input's rank and element type, each dimension at least the input's
//!   (argmax/argmin: exactly); result `[..., rows, 1]`, valid
//!   `[..., valid_rows, 1]`, col_major blocks (a `[..., 1, 1]` result may
//!   be row_major), element type kept (argmax /
//!   argmin: i32); row_min needs a row_major, none_box input;
//! - column reductions: result `[..., 1, cols]`, valid `[..., 1,
//!   valid_cols]`, row_major blocks; argmax/argmin need `tmp` (input dims);
//! - row/column broadcasts: rank >= 2; the vector is `[..., rows, 1]` /
//!   `[..., 1, cols]` matching the tile; result = the tile's shape, valid
//!   shape and layout with the promoted element type.

use melior::ir::{
    operation::{OperationLike, OperationRef},
    r#type::ShapedTypeLike,
};

use super::{
    VerifyResult,
    common::{
        distinct_scratch, dtype_of, element_bytes, fail, no_rule, operand_tile, reduces_to_index,
        require_vec, result_tile,
    },
};
use crate::{
    dtype::{Dtype, promote},
    enums::TileLayout,
    op_table::{Family, OpKind},
};

/// What a reduction or broadcast kind is: along rows or columns.
enum Shape {
    /// A row (`rows: true`) or column reduction.
    Reduce { rows: bool },
    /// A row (`rows: true`) or column broadcast.
    Expand { rows: bool },
}

fn shape(kind: OpKind) -> Option<Shape> {
    Some(match kind.family() {
        Family::TileRowReduce => Shape::Reduce { rows: true },
        Family::TileColReduce => Shape::Reduce { rows: false },
        Family::TileRowExpand => Shape::Expand { rows: true },
        Family::TileColExpand => Shape::Expand { rows: false },
        _ => return None,
    })
}

/// Whether the reduction and broadcast rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    shape(kind).is_some()
}

/// Runs the rules of a reduction or broadcast tile op.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let rows = match shape(kind) {
        Some(Shape::Expand { rows }) => return verify_expand(op, rows),
        Some(Shape::Reduce { rows }) => rows,
        None => return Err(no_rule(kind, "reduce")),
    };
    let arg = reduces_to_index(kind.info().compute);
    let source = operand_tile(op, 0)?;
    require_vec("source", source)?;
    let shape = source.shape();
    if shape.len() < 2 {
        return fail(format!("source must have rank 2 or more, got {source}"));
    }
    let view = source.effective_view();
    if view.valid_shape.contains(&Some(0)) {
        return fail(format!("source {source} has an empty valid region"));
    }
    if kind == OpKind::PlTileRowMin
        && (view.blayout != TileLayout::RowMajor || view.slayout != TileLayout::NoneBox)
    {
        return fail(format!(
            "source must be row_major without inner boxes, got {source}"
        ));
    }
    // The scratch tile: required for row reductions and column argmax/argmin.
    if op.operand_count() > 1 {
        let tmp = operand_tile(op, 1)?;
        require_vec("tmp", tmp)?;
        distinct_scratch(op, 1)?;
        let tmp_shape = tmp.shape();
        let exact = arg && rows;
        let fits = tmp_shape.len() == shape.len()
            && tmp.element() == source.element()
            && tmp_shape
                .iter()
                .zip(&shape)
                .all(|(t, s)| if exact { t == s } else { t >= s });
        if !fits {
            let bound = if exact { "equal to" } else { "at least" };
            return fail(format!(
                "tmp must have the source's rank and element type and dimensions {bound} the source's, got {tmp}"
            ));
        }
        if arg && !rows {
            // a2a3's column arg-reduction keeps an index counter, the running
            // extreme and (2-byte types) the index as a half in tmp.
            let cols = view.valid_shape[shape.len() - 1].unwrap_or(shape[shape.len() - 1]);
            let needed = crate::scratch::column_arg_scratch_elements(cols, element_bytes(source)?);
            let elements: i64 = tmp_shape.iter().product();
            if elements < needed {
                return fail(format!(
                    "tmp must hold at least {needed} elements (a2a3's column arg-reduction keeps its index and running values there for {cols} valid columns), got {tmp}"
                ));
            }
        }
    } else if arg {
        return fail("requires a tmp tile");
    }

    let rank = shape.len();
    let (mut expected_shape, mut expected_valid) = (shape.clone(), view.valid_shape.clone());
    let reduced = if rows { rank - 1 } else { rank - 2 };
    expected_shape[reduced] = 1;
    expected_valid[reduced] = Some(1);
    let result = result_tile(op, 0)?;
    require_vec("result", result)?;
    let expected_dtype = if arg { Dtype::I32 } else { dtype_of(source)? };
    let render = |dims: &[i64]| {
        dims.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join("x")
    };
    if result.shape() != expected_shape || dtype_of(result)? != expected_dtype {
        return fail(format!(
            "result must be {}x{}, got {result}",
            render(&expected_shape),
            expected_dtype.name()
        ));
    }
    let result_view = result.effective_view();
    if result_view.valid_shape != expected_valid {
        return fail(format!(
            "result valid shape must follow the source's, got {result}"
        ));
    }
    let layout = if rows {
        TileLayout::ColMajor
    } else {
        TileLayout::RowMajor
    };
    // A single element per row is a column either way: pto-isa's row
    // reductions also write a row-major `[1, 1]` destination.
    let single =
        rows && expected_shape[rank - 2] == 1 && result_view.blayout == TileLayout::RowMajor;
    if result_view.blayout != layout && !single {
        return fail(format!("result must have {layout} blocks, got {result}"));
    }
    Ok(())
}

fn verify_expand<'c>(op: OperationRef<'c, '_>, rows: bool) -> VerifyResult<'c> {
    let tile = operand_tile(op, 0)?;
    let vector = operand_tile(op, 1)?;
    let result = result_tile(op, 0)?;
    for (what, t) in [("tile", tile), ("vector", vector), ("result", result)] {
        require_vec(what, t)?;
    }
    let (shape, vector_shape) = (tile.shape(), vector.shape());
    if shape.len() < 2 || vector_shape.len() != shape.len() {
        return fail(format!(
            "tile and vector must have one rank of 2 or more, got {tile} and {vector}"
        ));
    }
    let rank = shape.len();
    let mut expected = shape.clone();
    if rows {
        expected[rank - 1] = 1;
    } else {
        expected[rank - 2] = 1;
    }
    if vector_shape != expected {
        let what = if rows {
            "a [..., rows, 1] column"
        } else {
            "a [..., 1, cols] row"
        };
        return fail(format!(
            "vector must be {what} matching the tile, got {vector}"
        ));
    }
    let promoted =
        promote(tile.element(), vector.element()).expect("tile element types are scalars");
    let same_view = result.effective_view() == tile.effective_view();
    if result.shape() != shape || result.element() != promoted || !same_view {
        return fail(format!(
            "result must have the tile's shape, valid shape and layout and element type {promoted}, got {result}"
        ));
    }
    Ok(())
}
