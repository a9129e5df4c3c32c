//! Helpers shared by the rule modules: typed operand/result access and the
//! checks many ops repeat (memory space, dtype sets).

use crate::ops::Checked;
use melior::ir::{
    Type, ValueLike,
    operation::{OperationLike, OperationRef},
    r#type::ShapedTypeLike,
};

use crate::{
    diag::OpDiagnostic,
    dtype::{Dtype, describe_dtypes},
    op_table::{Compute, OpKind},
    types::{MemorySpace, TileType},
};

/// A failed rule.
pub type Failure<'c> = OpDiagnostic<'c>;

/// Returns a failed rule with `message`.
pub fn fail<'c, T>(message: impl Into<String>) -> Result<T, Failure<'c>> {
    Err(OpDiagnostic::new(message))
}

/// The rules of one op kind in a rule module: what the module's `rule`
/// table maps the kind to, so that what a module `handles` and what it
/// verifies are one table.
pub type Check = for<'c, 'a> fn(OperationRef<'c, 'a>, OpKind) -> Result<(), Failure<'c>>;

/// The diagnostic of a kind that reached rule module `module` without a
/// rule there: a bug in the verifier's dispatch, never valid IR.
pub fn no_rule<'c>(kind: OpKind, module: &str) -> Failure<'c> {
    OpDiagnostic::new(format!(
        "internal error: no rule for {kind} in verify::{module}"
    ))
}

/// Runs the rule a module's table gives `kind`; a kind without one there is
/// [`no_rule`].
pub fn run_rule<'c>(
    op: OperationRef<'c, '_>,
    kind: OpKind,
    rule: Option<Check>,
    module: &str,
) -> Result<(), Failure<'c>> {
    match rule {
        Some(check) => check(op, kind),
        None => Err(no_rule(kind, module)),
    }
}

/// What `kind` computes (ODS `ptoCompute`); the rule modules reach this
/// only for the families that carry one.
pub fn compute_of<'c>(kind: OpKind, module: &str) -> Result<Compute, Failure<'c>> {
    kind.info().compute.ok_or_else(|| no_rule(kind, module))
}

/// The op's name after its dialect and group (`pl.tile.add` -> `add`,
/// `pl.incore_scope` -> `incore_scope`), as diagnostics spell it.
pub fn mnemonic(kind: OpKind) -> &'static str {
    let name = kind.name();
    ["pl.tile.", "pl.tensor.", "pl.system.", "pl."]
        .into_iter()
        .find_map(|prefix| name.strip_prefix(prefix))
        .unwrap_or(name)
}

/// Whether a reduction yields indices (i32) rather than values.
pub fn reduces_to_index(compute: Option<Compute>) -> bool {
    matches!(compute, Some(Compute::Argmax | Compute::Argmin))
}

/// Static dims as known dims.
pub fn statics(dims: &[i64]) -> Vec<Option<i64>> {
    dims.iter().map(|d| Some(*d)).collect()
}

/// Returns the type of operand `index`.
pub fn operand_type<'c>(op: OperationRef<'c, '_>, index: usize) -> Result<Type<'c>, Failure<'c>> {
    op.operand(index)
        .map(|v| v.r#type())
        .map_err(|e| OpDiagnostic::new(e.to_string()))
}

/// Returns the type of result `index`.
pub fn result_type<'c>(op: OperationRef<'c, '_>, index: usize) -> Result<Type<'c>, Failure<'c>> {
    op.result(index)
        .map(|v| v.r#type())
        .map_err(|e| OpDiagnostic::new(e.to_string()))
}

/// Returns the tile type of operand `index` (ODS guarantees the kind).
pub fn operand_tile<'c>(
    op: OperationRef<'c, '_>,
    index: usize,
) -> Result<TileType<'c>, Failure<'c>> {
    TileType::try_from(operand_type(op, index)?).map_err(|e| OpDiagnostic::new(e.to_string()))
}

/// Returns the tile type of result `index` (ODS guarantees the kind).
pub fn result_tile<'c>(
    op: OperationRef<'c, '_>,
    index: usize,
) -> Result<TileType<'c>, Failure<'c>> {
    TileType::try_from(result_type(op, index)?).map_err(|e| OpDiagnostic::new(e.to_string()))
}

/// The element dtype of a tile (the type verifier guarantees a scalar).
pub fn dtype_of(tile: TileType) -> Result<Dtype, Failure<'static>> {
    Dtype::of(tile.element())
        .ok_or_else(|| OpDiagnostic::new(format!("unsupported element type {}", tile.element())))
}

/// Bytes per element of `tile` (at least 1).
pub fn element_bytes(tile: TileType) -> Result<i64, Failure<'static>> {
    crate::dtype::ScalarKind::of(tile.element())
        .map(|kind| i64::from(kind.bits().div_ceil(8)))
        .ok_or_else(|| OpDiagnostic::new(format!("unsupported element type {}", tile.element())))
}

/// Requires operand `index` (a scratch tile) to be none of `op`'s other
/// operands: the instructions write their scratch on a2a3, so a source
/// given as its own scratch would be overwritten while it is read.
pub fn distinct_scratch<'c>(op: OperationRef<'c, '_>, index: usize) -> Result<(), Failure<'c>> {
    let scratch = op
        .operand(index)
        .map_err(|e| OpDiagnostic::new(e.to_string()))?;
    if op
        .operands()
        .enumerate()
        .any(|(i, other)| i != index && other == scratch)
    {
        return fail(
            "tmp must be a tile of its own, not another operand: the instruction writes its scratch on a2a3",
        );
    }
    Ok(())
}

/// Requires `tile` to be in `vec` or not yet placed.
pub fn require_vec<'c>(what: &str, tile: TileType) -> Result<(), Failure<'c>> {
    match tile.memory_space() {
        Some(space) if space != MemorySpace::Vec => fail(format!(
            "{what} must be in 'vec' (or not yet placed), got '{space}'"
        )),
        _ => Ok(()),
    }
}

/// The element types a2a3 adds into global memory (an atomic store, put or
/// scatter).
pub const ATOMIC_ADD_DTYPES: &[Dtype] = &[
    Dtype::F32,
    Dtype::Bf16,
    Dtype::F16,
    Dtype::I32,
    Dtype::I16,
    Dtype::I8,
];

/// Requires `dtype` to be one of `set`.
pub fn require_dtype<'c>(what: &str, dtype: Dtype, set: &[Dtype]) -> Result<(), Failure<'c>> {
    if set.contains(&dtype) {
        Ok(())
    } else {
        fail(format!(
            "{what} element type must be {}, got {}",
            describe_dtypes(set),
            dtype.name()
        ))
    }
}

/// Requires a float dtype.
pub fn require_float<'c>(what: &str, dtype: Dtype) -> Result<(), Failure<'c>> {
    if dtype.is_float() {
        Ok(())
    } else {
        fail(format!(
            "{what} must have a float element type, got {}",
            dtype.name()
        ))
    }
}

/// `read` / `write` of a tile or tensor of `rank` and `element`: one index
/// per dimension, then (for a write) the scalar, of the element type.
pub fn element_access<'c>(
    op: OperationRef<'c, '_>,
    write: bool,
    rank: usize,
    element: Type<'c>,
) -> Result<(), Failure<'c>> {
    let indices = op.operand_count() - if write { 2 } else { 1 };
    if indices != rank {
        return fail(format!(
            "needs one index per dimension ({rank}), got {indices}"
        ));
    }
    let scalar = if write {
        operand_type(op, op.operand_count() - 1)?
    } else {
        result_type(op, 0)?
    };
    if scalar != element {
        return fail(format!(
            "the scalar must have the element type {element}, got {scalar}"
        ));
    }
    Ok(())
}

/// Whether the op carries the unit attribute `name`.
pub fn has_unit_attr(op: OperationRef, name: &str) -> bool {
    op.attribute(name).is_ok()
}

thread_local! {
    /// Whether the rules that constant operands decide run: only under
    /// `pl-verify-constants` (see [`super::verify_constant_operands`]).
    static CHECK_CONSTANTS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `check` with the rules that constant operands decide switched on.
pub(super) fn with_constants<T>(check: impl FnOnce() -> T) -> T {
    let before = CHECK_CONSTANTS.with(|on| on.replace(true));
    let result = check();
    CHECK_CONSTANTS.with(|on| on.set(before));
    result
}

/// Whether a rule that a constant operand decides may fail here. Validity
/// must not depend on whether an operand happens to be a constant: folding
/// (canonicalize, sccp, inlining) turns operands into constants, and IR
/// valid before it must stay valid after it. Such rules (a window past
/// its tensor, a negative size) run only in `pl-verify-constants`. Rules
/// that a constant can only satisfy (a dynamic extent needs a chunk size)
/// stay in the verifier.
pub fn constants_decide() -> bool {
    CHECK_CONSTANTS.with(|on| on.get())
}

/// The value of `value`, when a constant defines it and the rules that
/// constant operands decide run (see [`constants_decide`]).
pub fn deciding_constant(value: melior::ir::Value) -> Option<i64> {
    if constants_decide() {
        constant_int(value)
    } else {
        None
    }
}

pub use crate::ops::constant_int;

pub use crate::ops::operand_segments;

/// The constant values (or `None`) of the operands in `start..start+len`.
pub fn constant_operands(op: OperationRef, start: usize, len: usize) -> Vec<Option<i64>> {
    (start..start + len)
        .map(|i| op.operand_opt(i).and_then(constant_int))
        .collect()
}

/// Renders dims as `4x?x8`.
pub fn render_dims(dims: &[Option<i64>]) -> String {
    dims.iter()
        .map(|d| d.map_or("?".to_string(), |v| v.to_string()))
        .collect::<Vec<_>>()
        .join("x")
}

/// The first dimension where a constant window `offset + extent` leaves
/// `bounds` (checked where offset, extent and bound are all known).
/// Constant offsets and extents decide it: it runs only where
/// [`constants_decide`].
pub fn window_leaves(
    offsets: &[Option<i64>],
    extents: &[Option<i64>],
    bounds: &[Option<i64>],
) -> Option<usize> {
    if !constants_decide() {
        return None;
    }
    (0..offsets.len()).find(|&i| {
        match (
            offsets[i],
            extents.get(i).copied().flatten(),
            bounds.get(i).copied().flatten(),
        ) {
            (Some(offset), Some(extent), Some(bound)) => {
                offset < 0 || offset.checked_add(extent).is_none_or(|end| end > bound)
            }
            _ => false,
        }
    })
}

/// The text of a string or flat symbol reference attribute (see
/// [`crate::attrs::text`]).
pub fn attribute_text(attribute: melior::ir::Attribute) -> Option<String> {
    crate::attrs::text(attribute)
}

/// The rules `set_validshape` has in its tile and tensor forms: a 2-D
/// source (of extents `shape`); a result that is the source but for its
/// valid extents (`same_rest`), each of them (`result_valid`) `?` or the
/// constant operand 1 or 2 gives (checked where constants decide); the
/// constants within the shape.
pub fn set_validshape_rules<'c>(
    op: OperationRef<'c, '_>,
    source: impl std::fmt::Display,
    result: impl std::fmt::Display,
    shape: &[Option<i64>],
    result_valid: &[Option<i64>],
    same_rest: bool,
) -> super::VerifyResult<'c> {
    if shape.len() != 2 {
        return fail(format!("source must be 2-D, got {source}"));
    }
    let given: Vec<Option<i64>> = (1..3)
        .map(|i| op.operand_opt(i).and_then(deciding_constant))
        .collect();
    if !same_rest
        || result_valid.len() != 2
        || (0..2)
            .any(|i| result_valid[i].is_some() && given[i].is_some() && result_valid[i] != given[i])
    {
        return fail(format!(
            "result must be {source} with valid extents {} (or ?), got {result}",
            render_dims(&given)
        ));
    }
    if let Some(i) = window_leaves(&[Some(0), Some(0)], &given, shape) {
        return fail(format!(
            "valid extent {} exceeds dimension {i} ({})",
            given[i].unwrap_or(0),
            render_dims(&shape[i..=i])
        ));
    }
    Ok(())
}
