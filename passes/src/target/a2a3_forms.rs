//! The element types pto-isa's a2a3 instructions take (its NPU
//! implementations' static checks, intersected with its CPU backend's where
//! that is stricter), checked on the pl tile ops before they are lowered:
//! a program pto-isa cannot express is a diagnostic at the op, not C++
//! that fails to compile for the device — or compiles and computes nothing
//! (an unsupported TCVT pair). docs/translate.md, "What pto-isa takes".

use melior::ir::{OperationRef, Type, ValueLike, operation::OperationLike};
use pto_dialects::{
    dtype::Dtype,
    ops::{Checked, op_name},
    types::TileType,
};

use Dtype::{Bf16, F16, F32, I8, I16, I32, U8, U16, U32};

/// The element types of a tile op's destination (and, where
/// [`SAME_TYPE`], of its tile sources) that its instruction takes.
fn allowed(mnemonic: &str) -> Option<&'static [Dtype]> {
    const ARITHMETIC: &[Dtype] = &[I32, I16, F16, F32];
    const FLOAT: &[Dtype] = &[F16, F32];
    Some(match mnemonic {
        "add" | "sub" | "mul" | "maximum" | "max" | "minimum" | "min" => ARITHMETIC,
        "adds" | "subs" | "muls" | "divs" | "maximums" | "maxs" | "minimums" | "mins" => ARITHMETIC,
        "recip" | "neg" => ARITHMETIC,
        "row_expand_add" | "row_expand_sub" | "row_expand_mul" | "row_expand_max"
        | "row_expand_min" | "col_expand_add" | "col_expand_sub" | "col_expand_mul"
        | "col_expand_max" | "col_expand_min" => ARITHMETIC,
        "div" | "lrelu" | "prelu" | "exp" | "log" | "sqrt" | "rsqrt" | "abs" => FLOAT,
        "row_expand_div" | "row_expand_expdif" | "col_expand_div" | "col_expand_expdif" => FLOAT,
        "fmod" | "fmods" => &[F32],
        "rem" | "rems" => &[F32, I32],
        "relu" => &[F16, F32, I32],
        "shl" | "shr" => &[I8, U8, I16, U16, I32, U32],
        "shls" | "shrs" => &[I32, I16, U32, U16],
        "sel" | "sels" => &[I16, U16, F16, Bf16, I32, U32, F32],
        "expands" | "full" => &[U8, I8, U16, I16, U32, I32, F16, Bf16, F32],
        "row_sum" | "row_max" | "row_min" | "row_prod" => ARITHMETIC,
        "col_min" | "col_prod" => ARITHMETIC,
        // a2a3 takes integers, pto-isa's CPU backend bf16: both take these.
        "col_sum" | "col_max" => FLOAT,
        _ => return None,
    })
}

/// Ops whose instruction takes one element type for the destination and
/// every tile source (pl promotes; pto-isa converts nothing).
const SAME_TYPE: &[&str] = &[
    "add", "sub", "mul", "div", "maximum", "max", "minimum", "min", "and", "or", "xor", "shl",
    "shr", "fmod", "rem", "prelu", "adds", "subs", "muls", "divs", "maximums", "maxs", "minimums",
    "mins", "ands", "ors", "xors", "shls", "shrs", "rems", "fmods", "lrelu", "row_sum", "row_max",
    "row_min", "row_prod", "col_sum", "col_max", "col_min", "col_prod",
];

/// The element types a source of an op (its first tile operand) may have
/// where the instruction restricts the source rather than the result.
fn allowed_source(mnemonic: &str) -> Option<&'static [Dtype]> {
    Some(match mnemonic {
        "cmp" => &[I32, F16, F32],
        "cmps" => &[I32, F32, F16, U16, I16],
        "col_argmax" | "col_argmin" => &[F16, F32, U16, U32],
        "row_argmax" | "row_argmin" => &[I32, I16, F16, F32],
        _ => return None,
    })
}

/// The (source, destination) pairs a2a3's TCVT converts in one step.
const CASTS: &[(Dtype, Dtype)] = &[
    (F32, F16),
    (F32, Bf16),
    (F32, I16),
    (F32, I32),
    (F32, Dtype::I64),
    (F16, F32),
    (F16, I32),
    (F16, I16),
    (F16, I8),
    (F16, U8),
    (Bf16, F32),
    (Bf16, I32),
    (I16, F16),
    (I16, F32),
    (I32, F32),
    (I32, I16),
    (I32, Dtype::I64),
    (I32, F16),
    (Dtype::I64, F32),
    (Dtype::I64, I32),
    (I8, F16),
    (U8, F16),
];

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
    kernel.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        if let Err(message) = check_op(op) {
            failure = Some((op.to_raw(), message));
            return melior::ir::operation::WalkResult::Interrupt;
        }
        melior::ir::operation::WalkResult::Advance
    });
    match failure {
        // SAFETY: found by the walk in the live kernel.
        Some((raw, message)) => Err((unsafe { OperationRef::from_raw(raw) }, message)),
        None => Ok(()),
    }
}

fn check_op(op: OperationRef) -> Result<(), String> {
    let name = op_name(op);
    let Some(mnemonic) = name.strip_prefix("pl.tile.") else {
        return Ok(());
    };
    let instruction = super::super::emitc::convert_pl_to_emitc::INSTRUCTIONS
        .iter()
        .find(|(m, _)| *m == mnemonic)
        .map_or(mnemonic.to_uppercase(), |(_, i)| i.to_string());
    let result = op.result_opt(0).and_then(|r| dtype(r.r#type()));
    // The tile sources (a scratch is not one).
    let scratch = crate::pl::pipes::scratch_operand(&name);
    let sources: Vec<Dtype> = (0..op.operand_count())
        .filter(|&i| Some(i) != scratch)
        .filter_map(|i| op.operand_opt(i).and_then(|v| dtype(v.r#type())))
        .collect();
    if let (Some(result), Some(set)) = (result, allowed(mnemonic))
        && !set.contains(&result)
    {
        return Err(format!(
            "pto-isa's {instruction} on a2a3 takes {} tiles, not {}",
            names(set),
            result.name()
        ));
    }
    if let (Some(source), Some(set)) = (sources.first(), allowed_source(mnemonic))
        && !set.contains(source)
    {
        return Err(format!(
            "pto-isa's {instruction} on a2a3 takes {} sources, not {}",
            names(set),
            source.name()
        ));
    }
    if SAME_TYPE.contains(&mnemonic)
        && let Some(result) = result
        && let Some(other) = sources.iter().find(|&&s| s != result)
    {
        return Err(format!(
            "pto-isa's {instruction} takes one element type for its destination and sources ({} and {} here): cast the operand first",
            result.name(),
            other.name()
        ));
    }
    match mnemonic {
        "cast" => {
            if let (Some(&from), Some(to)) = (sources.first(), result)
                && from != to
                && !CASTS.contains(&(from, to))
            {
                return Err(format!(
                    "pto-isa's TCVT on a2a3 does not convert {} to {} in one step (it would leave the result unwritten): convert through an intermediate type",
                    from.name(),
                    to.name()
                ));
            }
        }
        "matmul" | "matmul_acc" | "matmul_bias" | "gemv" | "gemv_acc" | "gemv_bias" => {
            let (left, right) = match mnemonic {
                "matmul_acc" | "gemv_acc" => (sources.get(1), sources.get(2)),
                _ => (sources.first(), sources.get(1)),
            };
            if let (Some(&a), Some(&b), Some(c)) = (left, right, result)
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
        _ => {}
    }
    Ok(())
}
