//! Rules of the tensor-level ops (the `pl.tensor.*` pages in
//! docs/dialects/pl.md).
//!
//! Dimensions may be dynamic (`None`): a rule that compares extents checks
//! only the ones known on both sides.
//!
//! - create / full / slice: one `index` operand per dynamic result extent;
//!   full: value of the element type; slice: offsets per dimension, a
//!   constant window inside unless `clamp`;
//! - dim: axis in [-rank, rank); view / reshape: element type and (static)
//!   element count kept; transpose: distinct axes, swapped dims; concat: one
//!   rank and element type, equal off the axis, summed on it; cast: element
//!   type changes, shape kept; fillpad: a real pad, fully valid result;
//!   fillpad_expand: also a static result at least the source;
//!   set_validshape: 2-D, extents `?` or the constants, within the shape;
//! - read / write / assemble: one index or offset per dimension, element
//!   types agree, constant windows inside; expand_clone: rank 3, each
//!   source dimension the target's or 1, one broadcast at most;
//! - elementwise: promotion and broadcasting (the element types each op
//!   takes are ODS constraints); scalar forms reject `index` scalars; reductions: rank >= 2, the axis reduced
//!   to 1, i32 for argmax/argmin; matmul: the ranks `pl.tensor.matmul`
//!   takes, K agrees, transposes need rank >= 2, one operand element type.

use melior::ir::{
    Type,
    operation::{OperationLike, OperationRef},
    r#type::ShapedTypeLike,
};

use super::{
    VerifyResult,
    common::{
        Check, Failure, compute_of, constant_operands, element_access, fail, operand_segments,
        operand_type, reduces_to_index, render_dims, require_dtype, require_float, result_type,
        run_rule, window_leaves,
    },
    system::int_attr,
};
use crate::{
    dtype::{Dtype, promote},
    enums::{EnumAttr, PadValue},
    op_table::{Compute, Family, OpKind},
    types::{TensorLike, TensorType},
};

fn tensor<'c>(r#type: Type<'c>) -> Result<TensorType<'c>, Failure<'c>> {
    TensorType::try_from(r#type).map_err(|e| Failure::new(e.to_string()))
}

fn operand_tensor<'c>(
    op: OperationRef<'c, '_>,
    index: usize,
) -> Result<TensorType<'c>, Failure<'c>> {
    tensor(operand_type(op, index)?)
}

fn result_tensor<'c>(
    op: OperationRef<'c, '_>,
    index: usize,
) -> Result<TensorType<'c>, Failure<'c>> {
    tensor(result_type(op, index)?)
}

fn dtype(t: TensorType) -> Result<Dtype, Failure<'static>> {
    Dtype::of(t.element())
        .ok_or_else(|| Failure::new(format!("unsupported element type {}", t.element())))
}

/// Right-aligned broadcast of possibly dynamic shapes.
pub fn broadcast_dynamic(lhs: &[Option<i64>], rhs: &[Option<i64>]) -> Option<Vec<Option<i64>>> {
    let rank = lhs.len().max(rhs.len());
    let dim = |shape: &[Option<i64>], i: usize| {
        (i + shape.len())
            .checked_sub(rank)
            .map_or(Some(1), |j| shape[j])
    };
    (0..rank)
        .map(|i| match (dim(lhs, i), dim(rhs, i)) {
            (Some(a), Some(b)) if a == b => Some(Some(a)),
            (Some(1), other) | (other, Some(1)) => Some(other),
            (None, None) => Some(None),
            (None, Some(n)) | (Some(n), None) => Some(Some(n)),
            _ => None,
        })
        .collect()
}

fn count(shape: &[Option<i64>]) -> Option<i64> {
    shape
        .iter()
        .copied()
        .try_fold(1i64, |acc, d| d.and_then(|d| acc.checked_mul(d)))
}

fn require_dynamic_sizes<'c>(result: TensorType, given: usize) -> VerifyResult<'c> {
    let dynamic = result.shape().iter().filter(|d| d.is_none()).count();
    if given != dynamic {
        return fail(format!(
            "needs one size operand per dynamic dimension ({dynamic}), got {given}"
        ));
    }
    Ok(())
}

/// view / reshape: metadata only, so the element type and (when static)
/// the element count stay.
fn keeps_elements<'c>(
    source: Type<'c>,
    source_shape: &[Option<i64>],
    result: Type<'c>,
    result_shape: &[Option<i64>],
) -> VerifyResult<'c> {
    if source != result {
        return fail(format!("keeps the element type, got {source} to {result}"));
    }
    if let (Some(a), Some(b)) = (count(source_shape), count(result_shape))
        && a != b
    {
        return fail(format!("keeps the element count, got {a} to {b}"));
    }
    Ok(())
}

fn rule(kind: OpKind) -> Option<Check> {
    let info = kind.info();
    Some(match info.family {
        Family::TensorBinary if info.compute.is_some() => verify_binary,
        Family::TensorScalar if info.compute.is_some() => verify_scalar,
        Family::TensorRowExpand | Family::TensorColExpand => verify_expand,
        Family::TensorRowReduce | Family::TensorColReduce => verify_reduce,
        Family::TensorCompare => verify_compare,
        Family::TensorSelect => verify_select,
        Family::TensorCast => verify_cast,
        Family::TensorFillpad if kind == OpKind::PlTensorFillpadExpand => verify_fillpad_expand,
        Family::TensorFillpad => verify_fillpad,
        _ => match kind {
            OpKind::PlTensorCreate => verify_create,
            OpKind::PlTensorCreateL1 => verify_create_l1,
            OpKind::PlTensorFull => verify_full,
            OpKind::PlTensorDim => verify_dim,
            OpKind::PlTensorView => verify_view,
            OpKind::PlTensorReinterpretView => super::indexing::verify_reinterpret_view,
            OpKind::PlTensorReshape => verify_reshape,
            OpKind::PlTensorSlice => verify_slice,
            OpKind::PlTensorTranspose => verify_transpose,
            OpKind::PlTensorSetValidshape => verify_set_validshape,
            OpKind::PlTensorConcat => verify_concat,
            OpKind::PlTensorRead | OpKind::PlTensorWrite => verify_access,
            OpKind::PlTensorAssemble => verify_assemble,
            OpKind::PlTensorExpandClone => verify_expand_clone,
            OpKind::PlTensorMatmul => verify_matmul,
            OpKind::PlTensorMatmulAcc => verify_matmul_acc,
            _ => return None,
        },
    })
}

/// Whether the tensor-level rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    rule(kind).is_some()
}

/// Runs the rules of a `pl.tensor` op.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    run_rule(op, kind, rule(kind), MODULE)
}

const MODULE: &str = "tensor";

fn verify_scalar<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let t = operand_tensor(op, 0)?;
    let scalar =
        Dtype::of(operand_type(op, 1)?).ok_or_else(|| Failure::new("unsupported scalar type"))?;
    if scalar == Dtype::Index {
        return fail(format!(
            "scalar must not be index; cast it to {}",
            t.element()
        ));
    }
    Ok(())
}

fn verify_create<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    require_dynamic_sizes(result_tensor(op, 0)?, op.operand_count())
}

/// `create_l1`: a static 2-D tensor of a kernel (the cube's L1 holds it).
fn verify_create_l1<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let result = result_tensor(op, 0)?;
    let shape = result.shape();
    if shape.len() != 2 || shape.iter().any(|d| d.is_none_or(|d| d <= 0)) {
        return fail(format!(
            "an L1 tensor has a static 2-D shape, got {}",
            super::common::render_dims(&shape)
        ));
    }
    let kind = crate::ops::enclosing_function(op).and_then(super::functions::function_kind);
    if !matches!(
        kind,
        None | Some(crate::enums::FunctionKind::InCore | crate::enums::FunctionKind::Aic)
    ) {
        return fail(format!(
            "an L1 tensor lives on the cube core: it belongs in an incore or aic kernel, not in {}",
            kind.map_or(String::new(), |k| format!("a function of kind {k}"))
        ));
    }
    Ok(())
}

fn verify_full<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let result = result_tensor(op, 0)?;
    if operand_type(op, 0)? != result.element() {
        return fail(format!(
            "value type {} must be the element type {}",
            operand_type(op, 0)?,
            result.element()
        ));
    }
    require_dynamic_sizes(result, op.operand_count() - 1)
}

fn verify_dim<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let t = operand_tensor(op, 0)?;
    let rank = t.rank() as i64;
    let axis = int_attr(op, "axis").unwrap_or(0);
    if !(-rank..rank).contains(&axis) {
        return fail(format!("axis {axis} is out of range for rank {rank}"));
    }
    Ok(())
}

fn verify_view<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    // Views also reinterpret windows (`!pld.dtensor`), e.g. the linear
    // [1, N] view a mesh allreduce chunks through.
    let tensor_like =
        |t: Type<'c>| TensorLike::try_from(t).map_err(|e| Failure::new(e.to_string()));
    let (source, result) = (
        tensor_like(operand_type(op, 0)?)?,
        tensor_like(result_type(op, 0)?)?,
    );
    if source.is_distributed() != result.is_distributed() {
        return fail(format!("keeps the tensor kind, got {source} to {result}"));
    }
    keeps_elements(
        source.element(),
        &source.shape(),
        result.element(),
        &result.shape(),
    )
}

fn verify_reshape<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tensor(op, 0)?, result_tensor(op, 0)?);
    keeps_elements(
        source.element(),
        &source.shape(),
        result.element(),
        &result.shape(),
    )
}

fn verify_slice<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tensor(op, 0)?, result_tensor(op, 0)?);
    let segments = operand_segments(op);
    let (start, offsets) = segments.get(1).copied().unwrap_or((1, 0));
    let sizes = segments.get(2).map_or(0, |s| s.1);
    if offsets != source.rank() || result.rank() != source.rank() {
        return fail(format!(
            "needs the source's rank ({}) of offsets and result dimensions",
            source.rank()
        ));
    }
    if source.element() != result.element() {
        return fail("a slice keeps the element type");
    }
    require_dynamic_sizes(result, sizes)?;
    if op.attribute("clamp").is_err() {
        let offsets = constant_operands(op, start, offsets);
        if let Some(i) = window_leaves(&offsets, &result.shape(), &source.shape()) {
            return fail(format!(
                "the window leaves the source in dimension {i}; use clamp to narrow it"
            ));
        }
    }
    Ok(())
}

fn verify_transpose<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tensor(op, 0)?, result_tensor(op, 0)?);
    let rank = source.rank() as i64;
    let (a, b) = (
        int_attr(op, "axis1").unwrap_or(-1),
        int_attr(op, "axis2").unwrap_or(-1),
    );
    if a == b || !(0..rank).contains(&a) || !(0..rank).contains(&b) {
        return fail(format!(
            "axes must be two distinct axes of rank {rank}, got {a} and {b}"
        ));
    }
    let mut shape = source.shape();
    shape.swap(a as usize, b as usize);
    if result.shape() != shape || result.element() != source.element() {
        return fail(format!(
            "result must be {source} with axes {a} and {b} swapped, got {result}"
        ));
    }
    Ok(())
}

fn verify_cast<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tensor(op, 0)?, result_tensor(op, 0)?);
    if source.element() == result.element() {
        return fail(format!("casts {} to itself", source.element()));
    }
    if source.shape() != result.shape() {
        return fail(format!("result {result} must keep the shape of {source}"));
    }
    Ok(())
}

fn verify_fillpad<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tensor(op, 0)?, result_tensor(op, 0)?);
    let pad = op.enum_attr::<PadValue>("pad");
    if pad == Some(PadValue::Null) {
        return fail("pad must be zero, max or min");
    }
    let view = result.view();
    if result.shape() != source.shape()
        || result.element() != source.element()
        || view.has_valid_shape
        || view.pad != pad
    {
        return fail(format!(
            "result must be {source} fully valid with the pad recorded, got {result}"
        ));
    }
    Ok(())
}

/// `fillpad_expand`: a static result at least the source in every
/// dimension, of its rank and element type, fully valid, the pad recorded.
fn verify_fillpad_expand<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tensor(op, 0)?, result_tensor(op, 0)?);
    let pad = op.enum_attr::<PadValue>("pad");
    if pad == Some(PadValue::Null) {
        return fail("pad must be zero, max or min");
    }
    let (from, to) = (source.shape(), result.shape());
    if to.iter().any(Option::is_none) {
        return fail(format!("result must have a static shape, got {result}"));
    }
    let view = result.view();
    if from.len() != to.len()
        || result.element() != source.element()
        || view.has_valid_shape
        || view.has_strides
        || view.pad != pad
    {
        return fail(format!(
            "result must be a tensor of {}'s rank and element type, fully valid with the pad recorded, got {result}",
            source
        ));
    }
    if let Some(i) = (0..from.len()).find(|&i| from[i].is_some_and(|f| Some(f) > to[i])) {
        return fail(format!(
            "result dimension {i} ({}) is smaller than the source's ({})",
            render_dims(&to[i..=i]),
            render_dims(&from[i..=i])
        ));
    }
    Ok(())
}

/// `set_validshape`: a 2-D source; the result is the source with valid
/// extents `?` or the constants given, at most its shape.
fn verify_set_validshape<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tensor(op, 0)?, result_tensor(op, 0)?);
    let (from, to) = (source.view(), result.view());
    let same_rest = result.shape() == source.shape()
        && result.element() == source.element()
        && to.layout == from.layout
        && to.pad == from.pad
        && !to.has_strides
        && !from.has_strides;
    let result_valid = to.valid_shape.unwrap_or_else(|| result.shape());
    super::common::set_validshape_rules(
        op,
        source,
        result,
        &source.shape(),
        &result_valid,
        same_rest,
    )
}

/// `expand_clone`: rank 3, one element type, each source dimension the
/// target's or 1, at most one broadcast.
fn verify_expand_clone<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, target) = (operand_tensor(op, 0)?, operand_tensor(op, 1)?);
    if source.rank() != 3 || target.rank() != 3 {
        return fail(format!(
            "source and target must be rank 3, got {source} and {target}"
        ));
    }
    if source.element() != target.element() {
        return fail(format!(
            "source {source} and target {target} must have one element type"
        ));
    }
    let (from, to) = (source.shape(), target.shape());
    let mut broadcast = 0;
    for i in 0..3 {
        match (from[i], to[i]) {
            (Some(a), Some(b)) if a == b => {}
            (Some(1), _) => broadcast += 1,
            (Some(a), Some(b)) => {
                return fail(format!(
                    "source dimension {i} ({a}) must be the target's ({b}) or 1"
                ));
            }
            _ => {}
        }
    }
    if broadcast > 1 {
        return fail(format!(
            "broadcasts {source} to {target} in {broadcast} dimensions; at most one may be broadcast"
        ));
    }
    Ok(())
}

/// `read` / `write`: one index per dimension, a scalar of the element type.
fn verify_access<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let t = TensorLike::try_from(operand_type(op, 0)?).map_err(|e| Failure::new(e.to_string()))?;
    element_access(op, kind == OpKind::PlTensorWrite, t.rank(), t.element())
}

fn verify_assemble<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (source, target) = (operand_tensor(op, 0)?, operand_tensor(op, 1)?);
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
    if let Some(i) = window_leaves(&offsets, &source.shape(), &target.shape()) {
        return fail(format!("the window leaves the target in dimension {i}"));
    }
    if op.attribute("atomic_add").is_ok() {
        require_dtype(
            "an atomic add: the source",
            dtype(source)?,
            super::common::ATOMIC_ADD_DTYPES,
        )?;
    }
    Ok(())
}

fn verify_matmul_acc<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (acc, lhs, rhs) = (
        operand_tensor(op, 0)?,
        operand_tensor(op, 1)?,
        operand_tensor(op, 2)?,
    );
    let (l, r) = (lhs.shape(), rhs.shape());
    if l.len() != 2 || r.len() != 2 {
        return fail("matmul_acc takes 2-D operands");
    }
    if lhs.element() != rhs.element() {
        return fail(format!(
            "lhs and rhs must have one element type, got {} and {}",
            lhs.element(),
            rhs.element()
        ));
    }
    if let (Some(a), Some(b)) = (l[1], r[0])
        && a != b
    {
        return fail(format!("lhs K ({a}) must equal rhs K ({b})"));
    }
    let expected = vec![l[0], r[1]];
    if acc.shape() != expected {
        return fail(format!(
            "acc shape must be {}, got {}",
            render_dims(&expected),
            render_dims(&acc.shape())
        ));
    }
    Ok(())
}

/// `cmp` / `cmps`: an i1 result of the lhs's shape.
fn verify_compare<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let lhs = operand_tensor(op, 0)?;
    if kind == OpKind::PlTensorCmps {
        if Dtype::of(operand_type(op, 1)?) == Some(Dtype::Index) {
            return fail(format!(
                "scalar must not be index; cast it to {}",
                lhs.element()
            ));
        }
    } else {
        let rhs = operand_tensor(op, 1)?;
        if lhs.shape() != rhs.shape() || lhs.element() != rhs.element() {
            return fail(format!(
                "requires lhs and rhs of one shape and element type, got {lhs} and {rhs}"
            ));
        }
    }
    let result = result_tensor(op, 0)?;
    if result.shape() != lhs.shape() || dtype(result)? != Dtype::Bool {
        return fail(format!(
            "result must be {}xi1, got {result}",
            render_dims(&lhs.shape())
        ));
    }
    Ok(())
}

/// `sel` / `sels`: an i1 mask of the lhs's shape.
fn verify_select<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let (mask, lhs) = (operand_tensor(op, 0)?, operand_tensor(op, 1)?);
    if mask.shape() != lhs.shape() || dtype(mask)? != Dtype::Bool {
        return fail(format!(
            "mask must be {}xi1, got {mask}",
            render_dims(&lhs.shape())
        ));
    }
    if kind == OpKind::PlTensorSels && operand_type(op, 2)? != lhs.element() {
        return fail(format!(
            "scalar must have the element type {}, got {}",
            lhs.element(),
            operand_type(op, 2)?
        ));
    }
    Ok(())
}

fn verify_binary<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let compute = compute_of(kind, MODULE)?;
    let (lhs, rhs, result) = (
        operand_tensor(op, 0)?,
        operand_tensor(op, 1)?,
        result_tensor(op, 0)?,
    );
    let Some(shape) = broadcast_dynamic(&lhs.shape(), &rhs.shape()) else {
        return fail(format!(
            "requires compatible shapes, got {} and {}",
            render_dims(&lhs.shape()),
            render_dims(&rhs.shape())
        ));
    };
    if result.shape() != shape {
        return fail(format!(
            "result shape {} must be the broadcast shape {}",
            render_dims(&result.shape()),
            render_dims(&shape)
        ));
    }
    if compute == Compute::Div && lhs.shape() != rhs.shape() {
        require_float("a broadcasting div: lhs", dtype(lhs)?)?;
    }
    let expected = if matches!(compute, Compute::Shl | Compute::Shr) {
        lhs.element()
    } else {
        promote(lhs.element(), rhs.element()).expect("tensor element types are scalars")
    };
    if result.element() != expected {
        return fail(format!(
            "result element type {} must be {expected}",
            result.element()
        ));
    }
    Ok(())
}

fn verify_reduce<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let (source, result) = (operand_tensor(op, 0)?, result_tensor(op, 0)?);
    let mut shape = source.shape();
    if shape.len() < 2 {
        return fail(format!("source must have rank 2 or more, got {source}"));
    }
    let axis = if kind.family() == Family::TensorRowReduce {
        shape.len() - 1
    } else {
        shape.len() - 2
    };
    shape[axis] = Some(1);
    let arg = reduces_to_index(kind.info().compute);
    let expected = if arg { Dtype::I32 } else { dtype(source)? };
    if result.shape() != shape || dtype(result)? != expected {
        return fail(format!(
            "result must be {}x{}, got {result}",
            render_dims(&shape),
            expected.name()
        ));
    }
    Ok(())
}

fn verify_expand<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let rows = kind.family() == Family::TensorRowExpand;
    let (t, vector, result) = (
        operand_tensor(op, 0)?,
        operand_tensor(op, 1)?,
        result_tensor(op, 0)?,
    );
    let shape = t.shape();
    if shape.len() < 2 || vector.rank() != shape.len() {
        return fail(format!(
            "tensor and vector must have one rank of 2 or more, got {t} and {vector}"
        ));
    }
    let mut expected = shape.clone();
    let axis = if rows {
        shape.len() - 1
    } else {
        shape.len() - 2
    };
    expected[axis] = Some(1);
    let matches = vector
        .shape()
        .iter()
        .zip(&expected)
        .all(|(v, e)| match (v, e) {
            (Some(v), Some(e)) => v == e,
            _ => true,
        });
    if !matches || vector.shape()[axis] != Some(1) {
        let what = if rows {
            "a [..., rows, 1] column"
        } else {
            "a [..., 1, cols] row"
        };
        return fail(format!(
            "vector must be {what} matching the tensor, got {vector}"
        ));
    }
    let promoted =
        promote(t.element(), vector.element()).expect("tensor element types are scalars");
    if result.shape() != shape || result.element() != promoted {
        return fail(format!(
            "result must have the tensor's shape and element type {promoted}, got {result}"
        ));
    }
    Ok(())
}

fn verify_concat<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let count_inputs = op.operand_count();
    if count_inputs < 2 {
        return fail("joins two or more tensors");
    }
    let inputs: Vec<TensorType> = (0..count_inputs)
        .map(|i| operand_tensor(op, i))
        .collect::<Result<_, _>>()?;
    let result = result_tensor(op, 0)?;
    let rank = inputs[0].rank();
    let axis = int_attr(op, "axis").unwrap_or(-1);
    if !(0..rank as i64).contains(&axis) {
        return fail(format!("axis {axis} is out of range for rank {rank}"));
    }
    let axis = axis as usize;
    let mut expected = inputs[0].shape();
    let mut total = Some(0i64);
    for input in &inputs {
        if input.rank() != rank || input.element() != inputs[0].element() {
            return fail(format!(
                "inputs must have one rank and element type, got {} and {input}",
                inputs[0]
            ));
        }
        let shape = input.shape();
        for (i, (a, b)) in expected.iter().zip(&shape).enumerate() {
            if i != axis && matches!((a, b), (Some(a), Some(b)) if a != b) {
                return fail(format!(
                    "inputs differ in dimension {i}, which is not the axis"
                ));
            }
        }
        total = total.zip(shape[axis]).map(|(t, d)| t + d);
    }
    expected[axis] = total;
    if result.element() != inputs[0].element()
        || result.shape().len() != rank
        || matches!((result.shape()[axis], total), (Some(r), Some(t)) if r != t)
    {
        return fail(format!(
            "result must be {} of {}, got {result}",
            render_dims(&expected),
            inputs[0].element()
        ));
    }
    Ok(())
}

fn verify_matmul<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (lhs, rhs, result) = (
        operand_tensor(op, 0)?,
        operand_tensor(op, 1)?,
        result_tensor(op, 0)?,
    );
    if lhs.element() != rhs.element() {
        return fail(format!(
            "lhs and rhs must have one element type, got {} and {}",
            lhs.element(),
            rhs.element()
        ));
    }
    let (a_trans, b_trans) = (
        op.attribute("a_trans").is_ok(),
        op.attribute("b_trans").is_ok(),
    );
    let (mut l, mut r) = (lhs.shape(), rhs.shape());
    if (a_trans && l.len() < 2) || (b_trans && r.len() < 2) {
        return fail("a transposed operand needs rank 2 or more");
    }
    if l.is_empty() || r.is_empty() {
        return fail("operands need rank 1 or more");
    }
    if a_trans {
        let n = l.len();
        l.swap(n - 2, n - 1);
    }
    if b_trans {
        let n = r.len();
        r.swap(n - 2, n - 1);
    }
    let k_lhs = l[l.len() - 1];
    let k_rhs = if r.len() == 1 { r[0] } else { r[r.len() - 2] };
    if let (Some(a), Some(b)) = (k_lhs, k_rhs)
        && a != b
    {
        return fail(format!("lhs K ({a}) must equal rhs K ({b})"));
    }
    let expected: Vec<Option<i64>> = match (l.len(), r.len()) {
        (1, 1) => vec![],
        (2, 1) => vec![l[0]],
        (1, 2) => vec![r[1]],
        (2, 2) => vec![l[0], r[1]],
        _ => {
            if l.len() < 2 || r.len() < 2 {
                return fail("batched operands need rank 2 or more");
            }
            let mut batch = broadcast_dynamic(&l[..l.len() - 2], &r[..r.len() - 2])
                .ok_or_else(|| Failure::new("batch dimensions do not broadcast"))?;
            batch.extend([l[l.len() - 2], r[r.len() - 1]]);
            batch
        }
    };
    if result.shape() != expected {
        return fail(format!(
            "result shape must be {}, got {}",
            render_dims(&expected),
            render_dims(&result.shape())
        ));
    }
    Ok(())
}
