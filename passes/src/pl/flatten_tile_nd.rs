//! `pl-flatten-tile-nd-to-2d`: every tile of rank > 2 (or 1) in a kernel becomes
//! the 2-D tile the a2a3 instructions work on. What it does and why:
//! [`PASS`]`.description` (also docs/passes/pl-flatten-tile-nd-to-2d.md).

use melior::{
    Context,
    ir::{
        BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
        attribute::DenseI64ArrayAttribute,
        operation::{OperationBuilder, OperationLike, OperationMutLike},
        r#type::IntegerType,
    },
};
use pto_dialects::ops::Checked;
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    dtype::ScalarKind,
    enums::PadValue,
    op_table::{Dialect, Family, Group, OpKind},
    ops::op_name,
    types::{TileType, TileView},
};

use super::linear::Linear;
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-flatten-tile-nd-to-2d",
    class_name: "FlattenTileNdTo2D",
    summary: "Fold the leading dimensions of every tile of rank > 2 into its rows, and vectors into one row",
    description: r#"The a2a3 tile instructions work on 2-D tiles. In InCore kernels (`pl.kind`
incore, aic or aiv) every tile of rank > 2 becomes `[prod(leading dims), last]`
(as PyPTO's FlattenTileNdTo2D), and every vector (rank 1) `[1, N]`: results, loop-carried values and branch
results are retyped in place; a load or store of such a tile keeps the
window it moves as its `partition` (one extent per tensor dimension), so the
data moved is unchanged.

Folding the leading dimensions keeps an op's meaning when every tile it
reads or writes has the same leading dimensions, so that only the last
dimension differs: element-wise ops (broadcasting along the last
dimension included), row reductions and row expansions, casts, moves,
creates and fills. Reshapes keep their element count. Ops whose meaning
depends on the leading dimensions (or that index a vector) are errors on
tiles of another rank than 2: column
reductions and expansions, the matmul family (batch matmuls are not
unrolled), transposes, slices, extracts, assembles, scalar reads and
writes, and remote tile ops. The leading dimensions of a flattened tile
must be wholly valid (the last may be partly valid, dynamically or not);
`clamp` loads are not flattened.

Then every 2-D transpose and parametric relu without a scratch tile gets
the one its instruction writes (so transposes get their 4-operand form
here, as in PyPTO), a `pl.tile.create` before it: TTRANS transposes into
a tile of the source's element type with the result's rows and its
columns rounded up to 16 (32 for 1-byte elements); TPRELU writes its sign
mask, packed, into a `ui8` tile of one more row than the result (the
select's scratch) and `ceil(cols / 8)` columns rounded up to 32.

Before:

```mlir
%x = pl.tile.load %in[%c0, %c0, %c0] : !pl.tensor<2x16x64xf32> -> !pl.tile<2x16x64xf32>
%e = pl.tile.exp %x : !pl.tile<2x16x64xf32>
%o = pl.tile.store %e, %out[%c0, %c0, %c0] : !pl.tile<2x16x64xf32>, !pl.tensor<2x16x64xf32>
```

After:

```mlir
%x = pl.tile.load %in[%c0, %c0, %c0] partition [2, 16, 64] : !pl.tensor<2x16x64xf32> -> !pl.tile<32x64xf32>
%e = pl.tile.exp %x : !pl.tile<32x64xf32>
%o = pl.tile.store %e, %out[%c0, %c0, %c0] partition [2, 16, 64] : !pl.tile<32x64xf32>, !pl.tensor<2x16x64xf32>
```"#,
    example_options: "",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![pto_dialects::pl_handle()],
    run: Run::Op(run),
};

fn run(function: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    flatten_tile_nd_to_2d(function)
}

/// A tile type of another rank than 2 (a vector, or rank > 2), and its
/// shape.
fn nd_tile(r#type: Type) -> Option<(TileType, Vec<i64>)> {
    let tile = TileType::try_from(r#type).ok()?;
    let shape = tile.shape();
    (shape.len() != 2 && !shape.is_empty()).then_some((tile, shape))
}

/// The dimensions folded into the rows: all but the last (a vector's one
/// row).
fn leading(shape: &[i64]) -> Vec<i64> {
    match shape.len() {
        1 => vec![1],
        n => shape[..n.saturating_sub(1)].to_vec(),
    }
}

/// Ops whose meaning depends on a tile's leading dimensions (or that
/// index them): folding those dimensions would change what they compute.
fn depends_on_leading_dims(op: OperationRef) -> bool {
    let Some(kind) = OpKind::of(&op) else {
        // Loops and branches retype as a whole; other upstream ops are not
        // known to be shape-agnostic.
        return !op_name(op).starts_with("scf.");
    };
    let info = kind.info();
    if kind == OpKind::PlYield {
        return false;
    }
    if info.dialect != Dialect::Pl || info.group != Group::Tile {
        return true;
    }
    matches!(
        info.family,
        Family::TileColReduce
            | Family::TileColExpand
            | Family::TileMatmul
            | Family::TileTranspose
            | Family::TileAccess
            | Family::TileAssemble
    ) || matches!(
        kind,
        OpKind::PlTileSlice | OpKind::PlTileExtract | OpKind::PlTileSetValidshape
    )
}

/// Why `op` cannot be flattened, if it cannot.
fn obstacle(op: OperationRef) -> Option<String> {
    let name = op_name(op);
    let operands: Vec<Type> = op.operands().map(|v| v.r#type()).collect();
    let results: Vec<Type> = op.results().map(|v| v.r#type()).collect();
    let nd: Vec<Vec<i64>> = operands
        .iter()
        .chain(&results)
        .filter_map(|t| nd_tile(*t))
        .map(|(_, s)| s)
        .collect();
    if nd.is_empty() {
        return None;
    }
    if depends_on_leading_dims(op) {
        return Some(format!(
            "'{name}' on a tile of rank {} depends on its leading dimensions; it is not flattened to 2-D",
            nd[0].len()
        ));
    }
    let op_kind = OpKind::of(&op);
    if op_kind == Some(OpKind::PlTileTransposeView) {
        return Some(format!(
            "a transposed view of a tile of rank {} is no view of its 2-D form (whose rows fold the leading axes into the swapped one); it is not flattened to 2-D",
            nd[0].len()
        ));
    }
    if op_kind == Some(OpKind::PlTileLoad) && op.attribute("clamp").is_ok() {
        return Some(format!(
            "a clamp load of a tile of rank {} is not flattened to 2-D",
            nd[0].len()
        ));
    }
    // Creates are free; views, loop and branch plumbing retype as a whole.
    if name.starts_with("scf.")
        || matches!(
            op_kind,
            Some(
                OpKind::PlYield | OpKind::PlTileReshape | OpKind::PlTileLoad | OpKind::PlTileStore
            )
        )
    {
        return None;
    }
    let reference = leading(&nd[0]);
    let tiles: Vec<Vec<i64>> = operands
        .iter()
        .chain(&results)
        .filter_map(|t| TileType::try_from(*t).ok())
        .map(|t| t.shape())
        .collect();
    if tiles.iter().any(|shape| leading(shape) != reference) {
        return Some(format!(
            "'{name}' mixes tiles whose leading dimensions differ (broadcasting across them); it is not flattened to 2-D"
        ));
    }
    None
}

/// The 2-D form of an N-d tile type, or why there is none.
fn flattened<'c>(
    context: &'c Context,
    tile: TileType<'c>,
    shape: &[i64],
) -> Result<Type<'c>, String> {
    let view = tile.effective_view();
    let rank = shape.len();
    if view.valid_shape[..rank - 1]
        .iter()
        .zip(shape)
        .any(|(valid, dim)| *valid != Some(*dim))
    {
        return Err(format!(
            "the leading dimensions of {} must be wholly valid to flatten it to 2-D",
            Type::from(tile)
        ));
    }
    let rows = shape[..rank - 1]
        .iter()
        .try_fold(1i64, |rows, &d| rows.checked_mul(d))
        .ok_or_else(|| {
            format!(
                "the leading dimensions of {} have more elements than 64 bits count",
                Type::from(tile)
            )
        })?;
    let last_valid = view.valid_shape[rank - 1];
    let flat = [rows, shape[rank - 1]];
    let view = TileView {
        valid_shape: (last_valid != Some(shape[rank - 1])).then(|| vec![Some(rows), last_valid]),
        pad: (view.pad != PadValue::Null).then_some(view.pad),
        ..TileView::default()
    };
    Ok(TileType::with_view(
        context,
        &flat,
        melior::ir::ShapedTypeLike::element(&tile),
        tile.memory_space(),
        &view,
    )
    .into())
}

/// Flattens `function`'s tiles of another rank than 2.
pub fn flatten_tile_nd_to_2d(function: OperationRef) -> Result<(), PassFailed> {
    if !super::is_kernel(function) {
        return Ok(());
    }
    let context = pto_dialects::ir::context(&function);
    let linear = Linear::of(function);
    let mut failed = false;
    let mut error = |op: OperationRef, message: String| {
        OpDiagnostic::new(format!("pl-flatten-tile-nd-to-2d: {message}")).emit(op, Severity::Error);
        failed = true;
    };
    let mut retypes: Vec<(Value, Type)> = Vec::new();
    let mut partitions: Vec<(OperationRef, Vec<i64>)> = Vec::new();
    for &op in &linear.ops {
        if let Some(message) = obstacle(op) {
            error(op, message);
            continue;
        }
        let moved = match OpKind::of(&op) {
            Some(OpKind::PlTileLoad) => op.result_opt(0).map(|r| r.r#type()),
            Some(OpKind::PlTileStore) => op.operand_opt(0).map(|v| v.r#type()),
            _ => None,
        };
        if let Some((_, shape)) = moved.and_then(nd_tile) {
            partitions.push((op, shape));
        }
        let arguments: Vec<Value> = op
            .regions()
            .filter_map(|r| r.first_block())
            .flat_map(|b| {
                (0..b.argument_count())
                    .map(move |i| b.argument(i).unwrap().into())
                    .collect::<Vec<Value>>()
            })
            .collect();
        for value in op.results().map(Value::from).chain(arguments) {
            if let Some((tile, shape)) = nd_tile(value.r#type()) {
                match flattened(context, tile, &shape) {
                    Ok(flat) => retypes.push((value, flat)),
                    Err(message) => error(op, message),
                }
            }
        }
    }
    if failed {
        return Err(PassFailed);
    }
    for (op, shape) in partitions {
        let mut op = pto_dialects::ir::edit(op);
        let attribute = DenseI64ArrayAttribute::new(context, &shape);
        op.set_attribute("partition", attribute.into());
    }
    for (value, flat) in retypes {
        value.set_type(flat);
    }
    add_scratches(context, &linear);
    Ok(())
}

/// The scratch a 2-D transpose (TTRANS: the result's rows, its columns
/// rounded up to the transpose block, the source's element type) or
/// parametric relu (TPRELU: its packed sign mask as `ui8`, plus a row for
/// the select) writes, if `op` is one without.
fn scratch_type<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Option<Type<'c>> {
    let op_kind = OpKind::of(&op);
    let wants = match op_kind {
        Some(OpKind::PlTileTranspose) => op.operand_count() == 1,
        Some(OpKind::PlTilePrelu) => op.operand_count() == 2,
        _ => false,
    };
    let result = TileType::try_from(op.result_opt(0)?.r#type()).ok()?;
    let shape = result.shape();
    if !wants || shape.len() != 2 {
        return None;
    }
    let round = |n: i64, to: i64| (n + to - 1) / to * to;
    let (element, dims): (Type, [i64; 2]) = if op_kind == Some(OpKind::PlTilePrelu) {
        (
            IntegerType::unsigned(context, 8).into(),
            [shape[0] + 1, round((shape[1] + 7) / 8, 32)],
        )
    } else {
        let element = melior::ir::ShapedTypeLike::element(&result);
        let one_byte = ScalarKind::of(element).map(ScalarKind::bits) == Some(8);
        (
            element,
            [shape[0], round(shape[1], if one_byte { 32 } else { 16 })],
        )
    };
    Some(TileType::new(context, &dims, element, result.memory_space()).into())
}

/// Gives every 2-D `pl.tile.transpose` and `pl.tile.prelu` without a
/// scratch (`tmp`) the one its instruction needs: a `pl.tile.create`
/// before it.
fn add_scratches(context: &Context, linear: &Linear) {
    for &op in &linear.ops {
        let Some(scratch) = scratch_type(context, op) else {
            continue;
        };
        let create = OperationBuilder::new(OpKind::PlTileCreate.name(), op.location())
            .add_results(&[scratch])
            .build()
            .expect("pl.tile.create builds");
        let block = op.block().expect("ops sit in blocks");
        let tmp: Value = block
            .insert_operation_before(op, create)
            .result(0)
            .expect("a create has a result")
            .into();
        let mut operands: Vec<Value> = op.operands().collect();
        operands.push(tmp);
        let mut op = pto_dialects::ir::edit(op);
        op.set_operands(&operands);
    }
}
