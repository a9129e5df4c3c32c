//! `pl-legalize-tile-cast`: casts a2a3 does not convert in one step, as
//! chains of steps. What it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-legalize-tile-cast.md).

use melior::{
    Context,
    ir::{
        BlockLike, Identifier, Type, Value, ValueLike,
        operation::{OperationBuilder, OperationLike, OperationRef, WalkOrder},
        r#type::IntegerType,
    },
};
use pto_dialects::{
    casts,
    diag::{OpDiagnostic, Severity},
    dtype::Dtype,
    op_table::OpKind,
    ops::Checked,
    types::TileType,
};

use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-legalize-tile-cast",
    class_name: "LegalizeTileCast",
    summary: "Expand casts a2a3 does not convert in one step into chains of steps",
    description: r#"pto-isa's TCVT converts only some pairs of element types in one step on
a2a3 (f32 to f16, bf16, i16, i32, i64; f16 to f32, i32, i16, i8, ui8; bf16
to f32, i32; i16 to f16, f32; i32 to f32, i16, i64, f16; i64 to f32, i32;
i8 and ui8 to f16); any other pair compiles there to no conversion at all.
As PyPTO's LegalizeTileCast, this pass replaces every `pl.tile.cast` of
another pair by the shortest chain of one-step casts, each with the cast's
rounding mode, through intermediate tiles of the same shape, memory space
and view. An intermediate type must hold every value of the source, or be
no narrower than the destination (no fewer significand or exponent bits
than a float destination, enough significand bits for an integer one's
values, no integer on the way to a float); among chains of one length the
cheapest wins (integer to float of its width, then float to float). So f32
to i8 goes through f16, bf16 to f16 through f32, i8 to f32 through f16, i16
to i32 through f32. A chain may round twice where the direct conversion
would round once (f32 to i8 rounds to f16 first): pto-run computes a cast
of such a pair by the same chain, so the program computes the same before
and after. A pair with no chain (a type TCVT never converts, such as ui16)
is an error at the cast.

```mlir
// before
%q = pl.tile.cast %x rint : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xi8, vec>
// after
%0 = pl.tile.cast %x rint : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf16, vec>
%q = pl.tile.cast %0 rint : !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xi8, vec>
```

`pto-a2a3-pipeline` runs it on every function once tiles are 2-D (after
`pl-flatten-tile-nd-to-2d`), as PyPTO does."#,
    example_options: "",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: Vec::new,
    run: Run::Op(run),
};

fn run(function: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let casts_to_split = pto_dialects::ir::collect(function, WalkOrder::PreOrder, |op| {
        OpKind::of(&op) == Some(OpKind::PlTileCast)
    });
    if casts_to_split.is_empty() {
        crate::registry::left_unchanged();
    }
    let context = pto_dialects::ir::context(&function);
    let mut failed = false;
    for op in casts_to_split {
        if let Err(message) = legalize(context, op) {
            OpDiagnostic::new(format!("pl-legalize-tile-cast: {message}"))
                .emit(op, Severity::Error);
            failed = true;
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// Splits the cast `op` into its chain (nothing to do for a step of its
/// own).
fn legalize<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), String> {
    let (Some(source), Some(result)) = (op.operand_opt(0), op.result_opt(0)) else {
        return Ok(());
    };
    let (Some(from), Some(to)) = (
        Dtype::of(element(source.r#type())),
        Dtype::of(element(result.r#type())),
    ) else {
        return Ok(());
    };
    if from == to || casts::is_a2a3_step(from, to) {
        return Ok(());
    }
    let Some(chain) = casts::a2a3_chain(from, to) else {
        return Err(format!(
            "a2a3 converts {} to {} neither in one step nor through other element types (pto-isa's TCVT has no such conversion)",
            from.name(),
            to.name()
        ));
    };
    let tile = TileType::try_from(source.r#type()).map_err(|_| "expected a tile operand")?;
    let mode = op
        .attribute("mode")
        .map_err(|_| "a cast without a rounding mode")?;
    let block = op.block().ok_or("the cast is in no block")?;
    let mut value: Value = source;
    for &via in &chain[..chain.len() - 1] {
        let element =
            element_type(context, via).ok_or("an intermediate type without an MLIR type")?;
        let step = OperationBuilder::new(OpKind::PlTileCast.name(), op.location())
            .add_operands(&[value])
            .add_results(&[tile.with_element(element).into()])
            .add_attributes(&[(Identifier::new(context, "mode"), mode)])
            .build()
            .map_err(|e| e.to_string())?;
        let step = block.insert_operation_before(op, step);
        value = step.result_opt(0).ok_or("a cast without a result")?.into();
    }
    // The last step is the cast itself, from the last intermediate.
    pto_dialects::ir::set_operand(op, 0, value);
    Ok(())
}

fn element(r#type: Type) -> Type {
    TileType::try_from(r#type).map_or(r#type, |tile| {
        melior::ir::r#type::ShapedTypeLike::element(&tile)
    })
}

/// The MLIR element type of a type chains go through.
fn element_type(context: &Context, dtype: Dtype) -> Option<Type<'_>> {
    Some(match dtype {
        Dtype::F32 => Type::float32(context),
        Dtype::F16 => Type::float16(context),
        Dtype::Bf16 => Type::bfloat16(context),
        Dtype::I8 => IntegerType::new(context, 8).into(),
        Dtype::I16 => IntegerType::new(context, 16).into(),
        Dtype::I32 => IntegerType::new(context, 32).into(),
        Dtype::I64 => IntegerType::new(context, 64).into(),
        Dtype::U8 => IntegerType::unsigned(context, 8).into(),
        _ => return None,
    })
}
