//! Rules of the matmul family (their pages in docs/dialects/pl.md).
//!
//! - operands: `lhs` in mat/left, `rhs` in mat/right, bias in mat/bias, the
//!   product and accumulators in acc (or not yet placed); mat operands are
//!   legal until memory-space inference inserts the L1 -> L0 moves;
//! - shapes: `lhs` MxK, `rhs` KxN (batched: leading dims broadcast; gemv:
//!   M = 1); the product is MxN;
//! - element types: `lhs` and `rhs` equal; the product is f32 for floats and
//!   i32 for integers (gemv takes i8, f16, bf16 or f32: an ODS constraint);
//! - valid extents: `rhs` valid K covers `lhs` valid K; the product's are
//!   (lhs valid M, rhs valid N); an accumulator's cover the product's.

use melior::ir::operation::OperationRef;

use super::{
    VerifyResult,
    common::{Failure, dtype_of, fail, no_rule, operand_tile, result_tile},
};
use crate::{
    dtype::{Dtype, broadcast_shapes},
    op_table::OpKind,
    types::{MemorySpace, TileType},
};

/// The form of a matmul kind: which operands it has and what shape of
/// product it makes.
#[derive(Clone, Copy)]
struct Form {
    /// Operand 0 is an accumulator the product is added into.
    accumulates: bool,
    /// Leading dimensions are batch dimensions that broadcast.
    batched: bool,
    /// The lhs is a single row (TGEMV).
    gemv: bool,
    /// Operand 2 is a bias row.
    bias: bool,
}

fn form(kind: OpKind) -> Option<Form> {
    let form = |accumulates, batched, gemv, bias| {
        Some(Form {
            accumulates,
            batched,
            gemv,
            bias,
        })
    };
    match kind {
        OpKind::PlTileMatmul => form(false, false, false, false),
        OpKind::PlTileMatmulAcc => form(true, false, false, false),
        OpKind::PlTileMatmulBias => form(false, false, false, true),
        OpKind::PlTileGemv => form(false, false, true, false),
        OpKind::PlTileGemvAcc => form(true, false, true, false),
        OpKind::PlTileGemvBias => form(false, false, true, true),
        OpKind::PlTileBatchMatmul => form(false, true, false, false),
        OpKind::PlTileBatchMatmulAcc => form(true, true, false, false),
        _ => None,
    }
}

/// Whether the matmul rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    form(kind).is_some()
}

/// What a product of `lhs` and `rhs` must look like.
struct Product {
    shape: Vec<i64>,
    valid: Vec<Option<i64>>,
    dtype: Dtype,
}

fn require_space<'c>(what: &str, tile: TileType, allowed: &[MemorySpace]) -> VerifyResult<'c> {
    match tile.memory_space() {
        Some(space) if !allowed.contains(&space) => {
            let names: Vec<String> = allowed.iter().map(|s| format!("'{s}'")).collect();
            fail(format!(
                "{what} must be in {} (or not yet placed), got '{space}'",
                names.join(" or ")
            ))
        }
        _ => Ok(()),
    }
}

fn product<'c>(
    lhs: TileType<'c>,
    rhs: TileType<'c>,
    batched: bool,
    gemv: bool,
) -> Result<Product, Failure<'c>> {
    require_space("lhs", lhs, &[MemorySpace::Mat, MemorySpace::Left])?;
    require_space("rhs", rhs, &[MemorySpace::Mat, MemorySpace::Right])?;
    let (lhs_shape, rhs_shape) = (lhs.shape(), rhs.shape());
    let rank_ok = |r: usize| if batched { r >= 2 } else { r == 2 };
    if !rank_ok(lhs_shape.len()) || !rank_ok(rhs_shape.len()) {
        let wanted = if batched { "rank 2 or more" } else { "rank 2" };
        return fail(format!("operands must have {wanted}, got {lhs} and {rhs}"));
    }
    let (m, k) = (
        lhs_shape[lhs_shape.len() - 2],
        lhs_shape[lhs_shape.len() - 1],
    );
    let (rhs_k, n) = (
        rhs_shape[rhs_shape.len() - 2],
        rhs_shape[rhs_shape.len() - 1],
    );
    if k != rhs_k {
        return fail(format!("lhs K ({k}) must equal rhs K ({rhs_k})"));
    }
    if gemv && m != 1 {
        return fail(format!("lhs must be a 1xK row, got {m} rows"));
    }
    let mut shape = if batched {
        broadcast_shapes(
            &lhs_shape[..lhs_shape.len() - 2],
            &rhs_shape[..rhs_shape.len() - 2],
        )
        .ok_or_else(|| {
            Failure::new(format!(
                "batch dimensions of {lhs} and {rhs} do not broadcast"
            ))
        })?
    } else {
        Vec::new()
    };
    shape.extend([m, n]);

    let (lhs_dtype, rhs_dtype) = (dtype_of(lhs)?, dtype_of(rhs)?);
    if lhs_dtype != rhs_dtype {
        return fail(format!(
            "lhs and rhs must have one element type, got {} and {}",
            lhs_dtype.name(),
            rhs_dtype.name()
        ));
    }
    // gemv operands are i8, f16, bf16 or f32 (an ODS constraint), which
    // this maps as it maps matmul's.
    let dtype = if lhs_dtype.is_float() {
        Dtype::F32
    } else {
        Dtype::I32
    };

    let (lhs_valid, rhs_valid) = (
        lhs.effective_view().valid_shape,
        rhs.effective_view().valid_shape,
    );
    let (lhs_valid_k, rhs_valid_k) = (
        lhs_valid[lhs_valid.len() - 1],
        rhs_valid[rhs_valid.len() - 2],
    );
    if let (Some(l), Some(r)) = (lhs_valid_k, rhs_valid_k)
        && r < l
    {
        return fail(format!("rhs valid K ({r}) must cover lhs valid K ({l})"));
    }
    let mut valid: Vec<Option<i64>> = shape[..shape.len() - 2].iter().map(|d| Some(*d)).collect();
    valid.extend([
        lhs_valid[lhs_valid.len() - 2],
        rhs_valid[rhs_valid.len() - 1],
    ]);
    Ok(Product {
        shape,
        valid,
        dtype,
    })
}

fn render(dims: &[Option<i64>]) -> String {
    dims.iter()
        .map(|d| d.map_or("?".to_string(), |v| v.to_string()))
        .collect::<Vec<_>>()
        .join("x")
}

/// The product or accumulator `tile` holds `product`: same shape and
/// element type; valid extents equal (a result) or covering (an
/// accumulator).
fn require_holds<'c>(
    what: &str,
    tile: TileType<'c>,
    product: &Product,
    accumulates: bool,
) -> VerifyResult<'c> {
    require_space(what, tile, &[MemorySpace::Acc])?;
    let dims: Vec<String> = product.shape.iter().map(i64::to_string).collect();
    if tile.shape() != product.shape || dtype_of(tile)? != product.dtype {
        return fail(format!(
            "{what} must be {}x{} (the product), got {tile}",
            dims.join("x"),
            product.dtype.name()
        ));
    }
    let valid = tile.effective_view().valid_shape;
    let ok = if accumulates {
        valid
            .iter()
            .zip(&product.valid)
            .all(|(have, need)| match (have, need) {
                (Some(have), Some(need)) => have >= need,
                _ => true,
            })
    } else {
        valid == product.valid
    };
    if !ok {
        let relation = if accumulates { "cover" } else { "be" };
        return fail(format!(
            "{what} valid extents must {relation} {}, got {}",
            render(&product.valid),
            render(&valid)
        ));
    }
    Ok(())
}

/// Runs the rules of a matmul tile op.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let Some(Form {
        accumulates,
        batched,
        gemv,
        bias,
    }) = form(kind)
    else {
        return Err(no_rule(kind, "matmul"));
    };
    let first = usize::from(accumulates);
    let lhs = operand_tile(op, first)?;
    let rhs = operand_tile(op, first + 1)?;
    let product = product(lhs, rhs, batched, gemv)?;
    if accumulates {
        require_holds("acc", operand_tile(op, 0)?, &product, true)?;
    } else {
        require_holds("result", result_tile(op, 0)?, &product, false)?;
    }
    if bias {
        let bias = operand_tile(op, 2)?;
        require_space("bias", bias, &[MemorySpace::Mat, MemorySpace::Bias])?;
        let n = product.shape[product.shape.len() - 1];
        if bias.shape() != [1, n] || dtype_of(bias)? != product.dtype {
            return fail(format!(
                "bias must be 1x{n}x{} (a row of the product), got {bias}",
                product.dtype.name()
            ));
        }
    }
    Ok(())
}
