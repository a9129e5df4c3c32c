//! The element types pto-isa's a2a3 instructions take (its NPU
//! implementations' static checks, intersected with its CPU backend's where
//! that is stricter), checked on the pl tile ops before they are lowered:
//! a program pto-isa cannot express is a diagnostic at the op, not C++
//! that fails to compile for the device — or compiles and computes nothing
//! (an unsupported TCVT pair). docs/translate.md, "What pto-isa takes".
//! The per-op sets are the op table's (`ptoA2A3ElementTypes`,
//! `ptoA2A3SourceTypes`, `ptoA2A3SameType` in the ODS); the cast pairs are
//! `pto_dialects::casts` (pto-run and pl-legalize-tile-cast read them too),
//! the cube products, triples, are kept here.

use melior::ir::{OperationRef, Type, ValueLike, operation::OperationLike};
use pto_dialects::{
    dtype::Dtype,
    op_table::{Dialect, Group, OpKind},
    ops::Checked,
    types::TileType,
};

use Dtype::{Bf16, F16, F32, I8, I32};

/// The cube's (left, right, accumulator) element types.
const PRODUCTS: &[(Dtype, Dtype, Dtype)] = &[
    (I8, I8, I32),
    (F16, F16, F32),
    (Bf16, Bf16, F32),
    (F32, F32, F32),
];

fn dtype(r#type: Type) -> Option<Dtype> {
    TileType::try_from(r#type)
        .ok()
        .and_then(|t| Dtype::of(melior::ir::r#type::ShapedTypeLike::element(&t)))
}

fn names(dtypes: &[Dtype]) -> String {
    dtypes
        .iter()
        .map(|d| d.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks every `pl.tile` op of `kernel` against what its a2a3 instruction
/// takes; the first that does not fit is the error.
pub fn check<'c, 'a>(kernel: OperationRef<'c, 'a>) -> Result<(), (OperationRef<'c, 'a>, String)> {
    let mut failure = None;
    pto_dialects::ir::walk(kernel, melior::ir::operation::WalkOrder::PreOrder, |op| {
        if let Err(message) = check_op(op) {
            failure = Some((op, message));
            return melior::ir::operation::WalkResult::Interrupt;
        }
        melior::ir::operation::WalkResult::Advance
    });
    failure.map_or(Ok(()), Err)
}

fn check_op(op: OperationRef) -> Result<(), String> {
    let Some(kind) = OpKind::of(&op).filter(|kind| kind.info().dialect == Dialect::Pl) else {
        return Ok(());
    };
    let info = kind.info();
    if info.group != Group::Tile {
        return Ok(());
    }
    let instruction = info.instruction.unwrap_or(info.name);
    let result = op.result_opt(0).and_then(|r| dtype(r.r#type()));
    // The tile sources (a scratch is not one).
    let sources: Vec<Dtype> = (0..op.operand_count())
        .filter(|&i| Some(i) != info.scratch_operand)
        .filter_map(|i| op.operand_opt(i).and_then(|v| dtype(v.r#type())))
        .collect();
    let set = info.a2a3_element_types;
    if let Some(result) = result
        && !set.is_empty()
        && !set.contains(&result)
    {
        return Err(format!(
            "pto-isa's {instruction} on a2a3 takes {} tiles, not {}",
            names(set),
            result.name()
        ));
    }
    let set = info.a2a3_source_types;
    if let Some(source) = sources.first()
        && !set.is_empty()
        && !set.contains(source)
    {
        return Err(format!(
            "pto-isa's {instruction} on a2a3 takes {} sources, not {}",
            names(set),
            source.name()
        ));
    }
    if info.a2a3_same_type
        && let Some(result) = result
        && let Some(other) = sources.iter().find(|&&s| s != result)
    {
        return Err(format!(
            "pto-isa's {instruction} takes one element type for its destination and sources ({} and {} here): cast the operand first",
            result.name(),
            other.name()
        ));
    }
    match kind {
        OpKind::PlTileCast => {
            if let (Some(&from), Some(to)) = (sources.first(), result)
                && from != to
                && !pto_dialects::casts::is_a2a3_step(from, to)
            {
                return Err(format!(
                    "pto-isa's TCVT on a2a3 does not convert {} to {} in one step (it would leave the result unwritten): run pl-legalize-tile-cast (pto-a2a3-pipeline), which converts through intermediate types",
                    from.name(),
                    to.name()
                ));
            }
        }
        // The cube's operands by their ODS names (batch products are
        // flattened into these before they are lowered).
        _ if info.is_cube() && info.instruction.is_some() => {
            let source_of = |name: &str| {
                kind.operand_group(name)
                    .and_then(|index| op.operand_opt(index))
                    .and_then(|value| dtype(value.r#type()))
            };
            if let (Some(a), Some(b), Some(c)) = (source_of("lhs"), source_of("rhs"), result)
                && !PRODUCTS.contains(&(a, b, c))
            {
                return Err(format!(
                    "pto-isa's cube takes (left, right, accumulator) element types i8·i8→i32, f16·f16→f32, bf16·bf16→f32 or f32·f32→f32, not {}·{}→{}",
                    a.name(),
                    b.name(),
                    c.name()
                ));
            }
        }
        OpKind::PlTileMove | OpKind::PlTileExtract => transposed_into_l0(op)?,
        _ => {}
    }
    Ok(())
}

/// a2a3 moves a transposed L1 tile (`zn`: row-major blocks of column-major
/// boxes, what `pl.tile.transpose_view` makes of an `nz` one) into L0 in
/// whole 16x16 fractals (32x32 for 1-byte elements): pto-isa asserts its
/// stored extents are multiples of them.
fn transposed_into_l0(op: OperationRef) -> Result<(), String> {
    use pto_dialects::types::{MemorySpace, TileLayout};
    let (Some(source), Some(result)) = (
        op.operand_opt(0)
            .and_then(|v| TileType::try_from(v.r#type()).ok()),
        op.result_opt(0)
            .and_then(|v| TileType::try_from(v.r#type()).ok()),
    ) else {
        return Ok(());
    };
    let view = source.effective_view();
    let transposed = source.memory_space() == Some(MemorySpace::Mat)
        && view.blayout == TileLayout::RowMajor
        && view.slayout == TileLayout::ColMajor;
    if !transposed
        || !matches!(
            result.memory_space(),
            Some(MemorySpace::Left | MemorySpace::Right)
        )
    {
        return Ok(());
    }
    let fractal = if crate::target::a2a3::element_bits(Dtype::of(
        melior::ir::r#type::ShapedTypeLike::element(&source),
    )) == 8
    {
        32
    } else {
        16
    };
    let stored = crate::target::a2a3::storage_shape(source);
    if stored.iter().any(|extent| extent % fractal != 0) {
        return Err(format!(
            "a2a3 moves a transposed (zn) L1 tile into L0 in {fractal}x{fractal} fractals: {} is stored as {}x{}, so its extents must be multiples of {fractal}",
            melior::ir::Type::from(source),
            stored[0],
            stored[1]
        ));
    }
    Ok(())
}
