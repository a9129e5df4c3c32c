//! `pl-convert-tensor-to-tile`: tensor computations of InCore kernels as
//! tile ops with entry loads and exit stores. What it does and why:
//! [`PASS`]`.description` (also docs/passes/pl-convert-tensor-to-tile.md).

use pto_dialects::ir::ValueKey;
use pto_dialects::ops::Checked;
use std::collections::HashMap;

use melior::{
    Context,
    dialect::arith,
    ir::{
        Attribute, BlockLike, BlockRef, Identifier, Location, OperationRef, RegionLike, Type,
        Value, ValueLike,
        attribute::{ArrayAttribute, DictionaryAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, OperationMutLike, WalkOrder, WalkResult},
        r#type::ShapedTypeLike,
    },
};
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
    dtype::Dtype,
    enums::{PadValue, ParamDirection},
    op_table::{Compute, Dialect, Family, Group, OpKind},
    ops::{op_name, with_operand_segments},
    types::{TensorLike, TensorType, TileType, TileView},
};

mod batched;
mod blocks;
mod expand;
mod gathers;
mod regions;
mod rows;
mod slices;
mod strips;
mod transfers;

use super::linear::value_key;
use super::signature::CallSites;
use crate::{
    options::OptionValues,
    pld::ir::detach,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-convert-tensor-to-tile",
    class_name: "ConvertTensorToTile",
    summary: "Lower InCore kernels' tensor computations to tile ops with loads and stores",
    description: r#"In InCore kernels (`pl.kind` incore, aic, aiv), tensor computations become
tile computations (as PyPTO's ConvertTensorToTileOps):

- a tensor a converted op reads that is not itself converted (a parameter)
  is loaded whole into a tile (`pl.tile.load` at offset 0), once;
- `pl.tensor.<op>` becomes `pl.tile.<op>` for the elementwise, scalar and
  unary ops, reductions (row reductions get a scratch `pl.tile.create` of
  the input's shape, column arg-reductions one with room for a2a3's index
  and running values), index sequences, block sorts and merges (a merge
  of lists gets a scratch row with room for them all), masked gathers and
  bit reinterpretations (each keeping its attributes),
  broadcasts, casts and matmul (a column reduction of an `[N, 1]` column
  is the row reduction of its `[1, N]` reshape: a2a3's column reductions
  take row-major tiles); a binary op with an `[M, 1]` (`[1, N]`)
  operand becomes the `row_expand_*` (`col_expand_*`) form; a matmul's
  `a_trans` / `b_trans` operand is read transposed (`pl.tile.transpose_view`
  of its last two axes: the load lands in L1 as it lies in memory, and
  the move into L0 transposes it);
- a batched matmul (rank-3 operands, or one of rank 2 that broadcasts) of
  the kernel's parameters whose product is returned is one 2-D product
  per batch: each operand's batch is a `pl.tile.load` with a `partition`
  of one matrix (a broadcast operand's one matrix is loaded once, before
  the first product, and every product reads it), and each product is a `pl.tile.store` into its batch of a new
  out parameter (a partition `[1, M, N]`); other batched matmuls (of
  computed operands, transposed, of rank 4 or more, or whose product is
  used otherwise) are errors;
- `pl.tensor.slice` of a tensor in memory with a static window becomes a
  `pl.tile.load` of that window, and of a converted value a
  `pl.tile.slice` of its tile; `pl.tensor.assemble` of a converted value
  into a tensor becomes a `pl.tile.store` (keeping `atomic_add`) — the
  tiled-loop form, where the loop carries the output tensor — and into a
  converted value a `pl.tile.assemble` of the source's tile;
- a window that is not dense in its tensor (`pl.tensor.slice` of static
  shapes, such as a column block `a[:, k:k+32]`), that every `pl.call` of
  a kernel passes (each a window of one tensor type) to a parameter the
  kernel only reads, is passed whole: the
  parameter takes the tensor's type, the window's offsets become new
  `index` parameters after the others, and the kernel slices the tensor
  itself (a `pl.tile.load` at the offsets), as kernels read each tensor
  they are given as one dense block;
- likewise a result every `pl.call` assembles (its only use, without
  `atomic_add`) into a window that is not dense in a tensor of one static
  type: the kernel takes that tensor and the window's offsets as new
  parameters after the others, assembles the result into it itself (a
  `pl.tile.store` at the offsets) and returns the tensor, and each call
  passes its target and offsets, its result taking the assemble's place;
- `pl.tensor.concat` of static shapes becomes a `pl.tile.create` of the
  result's shape that each input's tile is `pl.tile.assemble`d into in
  turn, at the sum of the extents before it on the axis;
- `pl.tensor.gather` on the last axis of a 2-D tensor of static shape
  becomes an `scf.for` over the index's rows carrying the result's tile
  (a `pl.tile.create`): each row of the input (a `pl.tile.load` of its
  window, or a `pl.tile.slice` of a converted tile) is gathered by the
  index's row into a one-row `pl.tile.gather` (a2a3's TGATHER reads a
  flat index, a column only of a one-row source) and
  `pl.tile.assemble`d into the result; a gather on another axis, or of a
  dynamic shape, stays a tensor op with a warning;
- `pl.tensor.scatter` on the last axis of a 2-D tensor of static shape
  becomes two `scf.for` loops over the index's positions writing into a
  copy of the input's tile (a `pl.tile.load` of its own, or a whole
  `pl.tile.slice` of a converted tile): `pl.tile.read` of the index and
  of the source, `pl.tile.write` at the index's column (a2a3's TSCATTER
  zeroes the elements no index points at, which the scatter keeps); on
  another axis, or of a dynamic shape, it stays a tensor op with a
  warning; `pl.tensor.scatter_mask` likewise, each source element `[r, k]`
  written to column `k * stride + offset` of a copy of the target (the
  pattern's stride and first selected column);
- `pl.tensor.gather_row` becomes `pl.tile.gather_row` into the target's
  tile (the source stays in memory); `pl.tensor.paged_gather` of a static
  result becomes an `scf.for` over the indices carrying a
  `pl.tile.create` of the result's shape: each iteration reads the logical
  position and its page's physical page (`pl.tensor.read`, `arith.divui`,
  `remui`) and gathers the physical row into its row of the tile
  (`pl.tile.gather_row`, `[1, size]`), as PyPTO converts it;
- `pl.tensor.set_validshape` becomes `pl.tile.set_validshape` of its
  operand's tile (a view, no copy), and `pl.tensor.fillpad` /
  `fillpad_expand` become `pl.tile.fillpad` / `fillpad_expand` of it; the
  elementwise ops after a pad keep its pad in their tile types; a
  parameter whose type gives constant valid extents is loaded with them,
  one with a `?` extent is an error (the kernel cannot know it);
- `pl.tensor.expand_clone` of static shapes becomes the source's tile
  broadcast on the 2-D forms of the rank-3 tiles (`pl.tile.reshape`): a
  broadcast last axis a `pl.tile.row_expand`, a broadcast middle axis each
  batch's row `pl.tile.col_expand`ed and `pl.tile.assemble`d at its rows
  (up to 64 batches), a broadcast first axis the source assembled at each
  batch's rows; it is stored into the target (or stands for it, when the
  target is converted);
- `pl.tensor.full` of a static shape becomes `pl.tile.full` of a constant,
  or `pl.tile.expands` of a runtime value over a `pl.tile.create` (whose
  elements it does not read);
- an `scf.for` whose body computes a carried value carries a tile instead:
  the init is loaded (or is already a tile), the iteration argument and
  the loop result are retyped;
- tensors read by converted ops are loaded where they are defined: a
  parameter once at the kernel's entry, even when it is read in a loop;
- `pld.tensor.put` / `pld.tensor.get` become `pld.tile.put` / `get`
  through a vector staging tile (`pl.tile.create`, two with `pipeline`):
  `[R, C]` of the destination's element type, `C` the transfer's last
  extent (the region's, else the destination's) or `min(it, chunk_cols)`,
  `R` the product of the others or `min(it, chunk_rows)`; a dynamic extent
  needs its chunk (pto-isa's TPUT/TGET slide the transfer through the
  stage). This applies in every kernel, dynamically shaped ones included;
- a converted value the kernel returns is stored (`pl.tile.store`) into a
  new parameter with direction `out`, which the kernel returns instead;
  every `pl.call`/`pl.submit` of the kernel passes a fresh
  `pl.tensor.create` for it.

The tiles have no memory space yet: `pl-infer-memory-space` assigns it.
Dynamic shapes: a rank-2 kernel whose tensors have dynamic extents (each
tensor's extent on a dynamic axis dynamic or 1) and whose blocks are
independent (elementwise, scalar, unary and cast ops, row and column
broadcasts, reductions along a static axis; no product, view, loop or
branch) runs in blocks: its body becomes an `scf.for` over blocks of `R`
rows when the rows are dynamic, and inside it (or alone) one over blocks
of `W` columns when the columns are. Rows only: `R` a multiple of 32 with
a tile of the widest row within 16 KB. Columns dynamic: blocks of
64 x 256 bytes when the rows are dynamic too, else the static rows by
the widest `W` (a multiple of 32 bytes) within 16 KB. Each dynamically
shaped parameter is loaded per block into a static tile valid for what is
left (`min(R, extent - row)` rows, `min(W, extent - column)` columns), in
the loop of its axes (a `[?, 1]` parameter in the row loop), and each
result is stored at the block's offsets into a new out parameter (each
caller's `pl.tensor.create` takes the extents of the caller's argument).
A row sum, product, maximum or minimum across dynamic columns accumulates
the blocks' partial reductions (`pl.tile.add`, `mul`, `maximum`,
`minimum`) in a tile the column loop carries, started at the identity
(0, 1, -inf or the least integer, +inf or the greatest) and valid for the
block's rows; what is computed from it follows the column loop and must
not meet the columns again (that would take a second pass over them).
The dynamic extents on each axis must be related by the kernel's ops
(they may otherwise differ at run time). Other dynamically shaped kernels
are left as they are, with a warning that says why.

Programs larger than the vector buffer: a kernel of static shapes whose
whole-tensor tiles would not fit a2a3's vector buffer at once (estimated
from the live ranges of its tiles, with row reductions' scratch, in a
kernel without loops or branches) runs in blocks when its tensors are
plain tensors of the kernel's extents `[M, N]` or broadcasts of them
(`[M, 1]`, `[1, N]`; a rank-1 `[N]` is a row) and its ops are
elementwise, scalar, unary, cast,
broadcast or reduction ops: the body becomes an `scf.for` over blocks of
`R` rows, or of `C` columns, or both nested (rows outside), `R` and `C`
divisors of `M` and `N` (multiples of 32 bytes of the narrowest element
when they are not the whole extent), the largest block whose live tiles
stay within half the buffer; a row reduction keeps the columns whole and
a column reduction the rows. Each parameter's block is a
`pl.tensor.slice` window at the loops' offsets (a `pl.tile.load` once
converted), and each result's block is `pl.tensor.assemble`d into a new
out parameter the loops carry (a `pl.tile.store`), which each caller
passes a fresh `pl.tensor.create` for. A kernel that does not fit and
cannot run so (reductions along both axes, other ops, ranks above 2) gets a
warning that says why, and memory planning an error at the op that
overflows.

Otherwise shapes must be static and whole tensors must fit
a tile (memory planning diagnoses what does not fit; a matmul too large for
L0 is split by `pl-tile-matmul-l0`). Tensor computations inside `scf.if`
branches, and converted values used by ops that are not converted, are
diagnosed; a computation without a tile form yet stays, with a warning,
and pto-translate refuses the kernel.

```mlir
// before
func.func @k(%a: !T, %b: !T) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.add %a, %b : !T, !T -> !T
  return %s : !T
}
// after
func.func @k(%a: !T, %b: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %ta = pl.tile.load %a[%c0, %c0] : !T -> !pl.tile<16x64xf32>
  %tb = pl.tile.load %b[%c0, %c0] : !T -> !pl.tile<16x64xf32>
  %s = pl.tile.add %ta, %tb : ...
  %r = pl.tile.store %s, %out[%c0, %c0] : !pl.tile<16x64xf32>, !T
  return %r : !T
}
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || {
        vec![
            melior::dialect::DialectHandle::arith(),
            melior::dialect::DialectHandle::scf(),
            pto_dialects::pl_handle(),
        ]
    },
    run: Run::Op(run),
};

fn static_shape(value: Value) -> Option<Vec<i64>> {
    TensorLike::try_from(value.r#type())
        .ok()?
        .shape()
        .into_iter()
        .collect()
}

fn element<'c>(value: Value<'c, '_>) -> Type<'c> {
    TensorLike::try_from(value.r#type())
        .expect("a tensor")
        .element()
}

fn run(module: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let context = pto_dialects::ir::context(&module);
    let Some(body) = module.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut kernels = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(op) == "func.func" && super::is_kernel(op) {
            kernels.push(op);
        }
    }
    let calls = super::signature::CallSites::of(module);
    let mut failed = false;
    for kernel in kernels {
        if let Err((op, message)) = convert_kernel(context, &calls, kernel) {
            OpDiagnostic::new(format!("pl-convert-tensor-to-tile: {message}"))
                .emit(op, Severity::Error);
            failed = true;
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// Converts one kernel: its windows, transfers and directions, its blocks
/// when it runs in them, then its tensor computations, and its callers'
/// new out parameters. A kernel whose shapes keep it from converting is
/// left as it is, with a warning that says why.
fn convert_kernel<'c, 'a>(
    context: &'c Context,
    calls: &CallSites<'c, 'a>,
    kernel: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let warn = |op: OperationRef, message: String| {
        OpDiagnostic::new(format!("pl-convert-tensor-to-tile: {message}"))
            .emit(op, Severity::Warning)
    };
    slices::take_window_tensors(context, calls, kernel)?;
    slices::write_window_tensors(context, calls, kernel)?;
    infer_directions(context, kernel);
    transfers::stage_transfers(context, kernel)?;
    // Whole-tensor tiles need static shapes; a kernel with a dynamic
    // extent runs in blocks of it when its blocks are independent, a static
    // one too large for the vector buffer likewise.
    let mut strips = None;
    if let Some(dynamic) = first_dynamic(kernel) {
        let plan = match strips::plan(kernel) {
            Ok(plan) => plan,
            Err((op, reason)) => {
                warn(
                    op,
                    format!(
                        "{} has a dynamic shape and {reason}; this kernel's tensor computations are left as they are",
                        dynamic.1
                    ),
                );
                return Ok(());
            }
        };
        let (loop_info, outputs) = strips::wrap(context, kernel, &plan)?;
        let types: Vec<Type> = outputs.iter().map(|o| o.r#type).collect();
        super::signature::extend_signature(context, kernel, &types, Some(ParamDirection::Out));
        let extents: Vec<Vec<(usize, i64)>> =
            outputs.iter().map(|o| o.extents_of.clone()).collect();
        update_callers(context, calls, kernel, &extents)?;
        strips = Some(loop_info);
    } else {
        match blocks::plan(kernel) {
            Ok(None) => {}
            Ok(Some(blocking)) => {
                let types = blocks::wrap(context, kernel, &blocking)?;
                super::signature::extend_signature(
                    context,
                    kernel,
                    &types,
                    Some(ParamDirection::Out),
                );
                update_callers(context, calls, kernel, &vec![Vec::new(); types.len()])?;
            }
            // Memory planning says what overflows, at the op.
            Err((op, reason)) => warn(op, reason),
        }
    }
    let added = convert(context, kernel, strips)?;
    if added > 0 {
        update_callers(context, calls, kernel, &vec![Vec::new(); added])?;
    }
    Ok(())
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

/// The state of one kernel's conversion.
struct Conversion<'c, 'a> {
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
    entry: BlockRef<'c, 'a>,
    location: Location<'c>,
    /// The index constant 0 at the top of the kernel.
    zero: Option<Value<'c, 'a>>,
    /// The tile standing for each converted (or loaded) tensor value.
    tiles: HashMap<ValueKey, Value<'c, 'a>>,
    /// Tensor ops replaced by tile ops (removed at the end).
    converted: Vec<OperationRef<'c, 'a>>,
    /// The tensor type each loop result now carrying a tile had.
    carried_tensor_types: HashMap<ValueKey, Type<'c>>,
    /// The loop over strips of rows a dynamically shaped kernel runs in.
    strips: Option<strips::Strips<'c, 'a>>,
    /// The types of out parameters a conversion added already (a batched
    /// product's), before those of the returned tiles.
    early_outputs: Vec<Type<'c>>,
    /// Each product the vector cores compute on, handed to them once
    /// (`pl.tile.aiv_shard` right after it).
    shards: HashMap<ValueKey, Value<'c, 'a>>,
}

/// The result of `op` as a value.
fn result_of<'c, 'a>(op: OperationRef<'c, 'a>) -> Value<'c, 'a> {
    op.result(0).expect("one result").into()
}

impl<'c, 'a> Conversion<'c, 'a> {
    fn zero(&mut self) -> Value<'c, 'a> {
        let (context, location, entry) = (self.context, self.location, self.entry);
        *self.zero.get_or_insert_with(|| {
            let constant = arith::constant(
                context,
                IntegerAttribute::new(Type::index(context), 0).into(),
                location,
            );
            result_of(
                entry.insert_operation_before(entry.first_operation().expect("an op"), constant),
            )
        })
    }

    /// Inserts `op` where `value` becomes available: after its defining op,
    /// or at the start of its block (after the kernel's zero constant).
    fn insert_at_definition(
        &mut self,
        value: Value<'c, 'a>,
        op: melior::ir::Operation<'c>,
    ) -> OperationRef<'c, 'a> {
        let zero = self.zero();
        if let Ok(result) = melior::ir::operation::OperationResult::try_from(value) {
            let owner = result.owner();
            return owner
                .block()
                .expect("in a block")
                .insert_operation_after(owner, op);
        }
        let block: BlockRef<'c, 'a> =
            pto_dialects::ir::argument_owner(value).expect("a value is a result or an argument");
        if block == self.entry {
            let zero_op = melior::ir::operation::OperationResult::try_from(zero)
                .expect("an op result")
                .owner();
            block.insert_operation_after(zero_op, op)
        } else {
            match block.first_operation() {
                Some(first) => block.insert_operation_before(first, op),
                None => block.append_operation(op),
            }
        }
    }

    /// The tile of a tensor operand: its conversion, or a whole load of it
    /// (once, where the tensor is defined).
    fn tile_of(
        &mut self,
        user: OperationRef<'c, 'a>,
        operand: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        if let Some(tile) = self.tiles.get(&value_key(operand)) {
            return Ok(*tile);
        }
        if let Some(tile) = self.strip_of(user, operand)? {
            return Ok(tile);
        }
        let shape = static_shape(operand)
            .ok_or((user, format!("{} has a dynamic shape", operand.r#type())))?;
        // A tensor valid in part (its type says how far) loads as a tile
        // with those valid extents.
        let valid = TensorType::try_from(operand.r#type())
            .ok()
            .and_then(|t| t.view().valid_shape);
        if valid.as_ref().is_some_and(|v| v.contains(&None)) {
            return Err((
                user,
                format!(
                    "the valid extents of {} are not known in the kernel: pass the tensor whole and set them with pl.tensor.set_validshape",
                    operand.r#type()
                ),
            ));
        }
        let view = TileView {
            valid_shape: valid,
            ..TileView::default()
        };
        let tile_type: Type =
            TileType::with_view(self.context, &shape, element(operand), None, &view).into();
        let indices = vec![self.zero(); shape.len()];
        // At its first user's location: what planning says of this tile
        // (that it overflows, say) points at the op the user wrote.
        let load = OperationBuilder::new(OpKind::PlTileLoad.name(), user.location())
            .add_operands(&[&[operand][..], &indices].concat())
            .add_results(&[tile_type])
            .build()
            .expect("pl.tile.load builds");
        let load = with_operand_segments(self.context, load, &[1, shape.len() as i32, 0]);
        let tile = result_of(self.insert_at_definition(operand, load));
        self.tiles.insert(value_key(operand), tile);
        Ok(tile)
    }

    /// The strip of rows of a dynamically shaped parameter, loaded at the
    /// top of the strips' loop with its valid rows; `None` when the kernel
    /// does not run in strips or `operand` has a static shape.
    fn strip_of(
        &mut self,
        user: OperationRef<'c, 'a>,
        operand: Value<'c, 'a>,
    ) -> Result<Option<Value<'c, 'a>>, Failure<'c, 'a>> {
        let zero = self.zero();
        let Some(strips) = &self.strips else {
            return Ok(None);
        };
        let Some(tile_type) = strips.tile_type(self.context, operand.r#type()) else {
            return Ok(None);
        };
        if pto_dialects::ir::argument_owner(operand) != Some(self.entry) {
            return Err((
                user,
                format!(
                    "{} has a dynamic shape and is not a parameter or a converted value",
                    operand.r#type()
                ),
            ));
        }
        let level = strips.level_of(operand.r#type()).ok_or((
            user,
            format!(
                "{} is not loaded in blocks of this kernel's dynamic extents",
                operand.r#type()
            ),
        ))?;
        let dims = TensorLike::try_from(operand.r#type())
            .expect("a tensor")
            .shape();
        let offsets: Vec<Value> = (0..2)
            .map(|d| {
                if dims[d].is_none() {
                    strips.offsets[d]
                } else {
                    zero
                }
            })
            .collect();
        let valid: Vec<Value> = (0..2)
            .filter(|&d| dims[d].is_none())
            .map(|d| strips.valid[d].expect("a dynamic axis has a valid extent"))
            .collect();
        let load = OperationBuilder::new(OpKind::PlTileLoad.name(), self.location)
            .add_operands(&[&[operand][..], &offsets, &valid].concat())
            .add_results(&[tile_type])
            .build()
            .expect("pl.tile.load builds");
        let load = with_operand_segments(self.context, load, &[1, 2, valid.len() as i32]);
        let (body, anchor) = (level.body, level.anchor);
        let tile = result_of(body.insert_operation_after(anchor, load));
        self.tiles.insert(value_key(operand), tile);
        Ok(Some(tile))
    }

    /// The tile type a converted op's result `result` gets, of element
    /// `element` in `space`: its static shape, or its strip's.
    fn result_tile_type(
        &self,
        op: OperationRef<'c, 'a>,
        result: Value<'c, 'a>,
        element: Type<'c>,
        space: Option<pto_dialects::types::MemorySpace>,
    ) -> Result<Type<'c>, Failure<'c, 'a>> {
        if let Some(shape) = static_shape(result) {
            return Ok(TileType::new(self.context, &shape, element, space).into());
        }
        let strip = self
            .strips
            .as_ref()
            .and_then(|s| s.tile_type(self.context, result.r#type()))
            .ok_or((op, format!("{} has a dynamic shape", result.r#type())))?;
        let strip = TileType::try_from(strip).expect("a tile type");
        let view = TileView {
            valid_shape: Some(strip.effective_view().valid_shape),
            ..TileView::default()
        };
        Ok(TileType::with_view(self.context, &strip.shape(), element, space, &view).into())
    }

    /// Makes the iteration arguments of `for_op` whose yielded value is a
    /// converted computation carry tiles: the init becomes a tile, the
    /// body argument and the loop result are retyped.
    fn carry_tiles(&mut self, for_op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let Some(body) = for_op.region_opt(0).and_then(|r| r.first_block()) else {
            return Ok(());
        };
        let Some(terminator) = body.terminator() else {
            return Ok(());
        };
        for index in 0..terminator.operand_count() {
            let yielded = terminator.operand(index).unwrap();
            let Ok(producer) =
                melior::ir::operation::OperationResult::try_from(yielded).map(|r| r.owner())
            else {
                continue;
            };
            // Computations only: a yielded assemble or slice is a tensor in
            // memory, and a product stays in L0C.
            let converts = OpKind::of(&producer)
                .is_some_and(|kind| computes_tiles(kind) && kind != OpKind::PlTensorMatmul);
            let argument: Value = body
                .argument(index + 1)
                .map_err(|e| (for_op, e.to_string()))?
                .into();
            let shaped = static_shape(argument).is_some()
                || self
                    .strips
                    .as_ref()
                    .and_then(|s| s.tile_type(self.context, argument.r#type()))
                    .is_some();
            if !converts || producer.block() != Some(body) || !shaped {
                continue;
            }
            let init = for_op
                .operand(3 + index)
                .map_err(|e| (for_op, e.to_string()))?;
            let tile = self.tile_of(for_op, init)?;
            let tile_type = tile.r#type();
            pto_dialects::ir::edit(for_op).set_operand(3 + index, tile);
            argument.set_type(tile_type);
            let result: Value = for_op
                .result(index)
                .map_err(|e| (for_op, e.to_string()))?
                .into();
            self.carried_tensor_types
                .insert(value_key(result), result.r#type());
            result.set_type(tile_type);
            self.tiles.insert(value_key(argument), argument);
            self.tiles.insert(value_key(result), result);
        }
        Ok(())
    }

    /// `tile` read with its last two axes swapped (`pl.tile.transpose_view`),
    /// before `op`: no data moves; the move into L0 transposes.
    fn transposed(
        &self,
        block: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
        tile: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let tile_type = TileType::try_from(tile.r#type()).map_err(|e| (op, e.to_string()))?;
        let Some(result_type) = tile_type.transposed_view(self.context) else {
            return Err((
                op,
                format!(
                    "a transposed matmul operand needs rank 2 or more, got {}",
                    tile.r#type()
                ),
            ));
        };
        let view = OperationBuilder::new(OpKind::PlTileTransposeView.name(), op.location())
            .add_operands(&[tile])
            .add_results(&[result_type.into()])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        Ok(result_of(block.insert_operation_before(op, view)))
    }

    /// Converts one tensor op; `false` when it stays a tensor op.
    fn convert_op(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<bool, Failure<'c, 'a>> {
        let block = op.block().expect("ops sit in blocks");
        if kind == OpKind::PlTensorSlice {
            // A static window of a tensor in memory: a load of that window.
            let source = op.operand(0).map_err(|e| (op, e.to_string()))?;
            let result: Value = result_of(op);
            let clamped = op.attribute("clamp").is_ok();
            let Some(shape) = static_shape(result) else {
                return Ok(false);
            };
            if !clamped
                && op.operand_count() == 1 + shape.len()
                && let Some(&source_tile) = self.tiles.get(&value_key(source))
            {
                // A window of a converted value: a slice of its tile.
                let offsets: Vec<Value> = op.operands().skip(1).collect();
                let tile_type: Type =
                    TileType::new(self.context, &shape, element(result), None).into();
                let slice = OperationBuilder::new(OpKind::PlTileSlice.name(), op.location())
                    .add_operands(&[&[source_tile][..], &offsets].concat())
                    .add_results(&[tile_type])
                    .build()
                    .map_err(|e| (op, e.to_string()))?;
                let slice =
                    with_operand_segments(self.context, slice, &[1, offsets.len() as i32, 0]);
                let tile = result_of(block.insert_operation_before(op, slice));
                self.tiles.insert(value_key(result), tile);
                return Ok(true);
            }
            if clamped
                || self.tiles.contains_key(&value_key(source))
                || op.operand_count() != 1 + shape.len()
            {
                return Ok(false);
            }
            let offsets: Vec<Value> = op.operands().skip(1).collect();
            let tile_type: Type = TileType::new(self.context, &shape, element(result), None).into();
            let load = OperationBuilder::new(OpKind::PlTileLoad.name(), op.location())
                .add_operands(&[&[source][..], &offsets].concat())
                .add_results(&[tile_type])
                .build()
                .map_err(|e| (op, e.to_string()))?;
            let load = with_operand_segments(self.context, load, &[1, offsets.len() as i32, 0]);
            let tile = result_of(block.insert_operation_before(op, load));
            self.tiles.insert(value_key(result), tile);
            return Ok(true);
        }
        if kind == OpKind::PlTensorFull {
            return self.full(op);
        }
        if kind == OpKind::PlTensorCreateL1 {
            // A tile of the cube's L1, as the tensor's shape.
            let result = result_of(op);
            let tensor = TensorType::try_from(result.r#type()).map_err(|e| (op, e.to_string()))?;
            let shape: Vec<i64> = tensor.shape().into_iter().map(|d| d.unwrap_or(1)).collect();
            let tile_type: Type = TileType::new(
                self.context,
                &shape,
                element(result),
                Some(pto_dialects::types::MemorySpace::Mat),
            )
            .into();
            let create = OperationBuilder::new(OpKind::PlTileCreate.name(), op.location())
                .add_results(&[tile_type])
                .build()
                .map_err(|e| (op, e.to_string()))?;
            let tile = result_of(block.insert_operation_before(op, create));
            self.tiles.insert(value_key(result), tile);
            return Ok(true);
        }
        if kind.family() == Family::BlockQuery {
            // A query: its tile form, with the same index result.
            let tile_kind = kind
                .info()
                .tile_form
                .ok_or_else(|| (op, format!("'{kind}' has no tile form")))?;
            let query = OperationBuilder::new(tile_kind.name(), op.location())
                .add_results(&[result_of(op).r#type()])
                .build()
                .map_err(|e| (op, e.to_string()))?;
            let value = result_of(block.insert_operation_before(op, query));
            replace_uses(self.kernel, result_of(op), value);
            return Ok(true);
        }
        // The ops converted into several tile ops, each by its own builder.
        match kind {
            OpKind::PlTensorConcat => return self.concat(op),
            OpKind::PlTensorGather => return self.gather_axis(op),
            OpKind::PlTensorScatter => return self.scatter_axis(op),
            OpKind::PlTensorScatterMask => return self.scatter_mask(op),
            OpKind::PlTensorGatherCompare => return self.gather_compare(op),
            OpKind::PlTensorGatherRow => return self.gather_row(op),
            OpKind::PlTensorPagedGather => return self.paged_gather(op),
            OpKind::PlTensorSetValidshape
            | OpKind::PlTensorFillpad
            | OpKind::PlTensorFillpadExpand => return self.valid_region(op, kind),
            OpKind::PlTensorExpandClone => return self.expand_clone(op),
            _ => {}
        }
        if kind == OpKind::PlTensorAssemble
            && op
                .operand(1)
                .is_ok_and(|target| self.tiles.contains_key(&value_key(target)))
            && op.attribute("atomic_add").is_err()
        {
            // Written into a converted tensor (a filled one, say): a tile
            // assemble of the source's tile into the target's.
            let source = op.operand(0).map_err(|e| (op, e.to_string()))?;
            let target = op.operand(1).map_err(|e| (op, e.to_string()))?;
            let source_tile = self.tile_of(op, source)?;
            let target_tile = self.tile_of(op, target)?;
            let offsets: Vec<Value> = op.operands().skip(2).collect();
            let assemble = OperationBuilder::new(OpKind::PlTileAssemble.name(), op.location())
                .add_operands(&[&[source_tile, target_tile][..], &offsets].concat())
                .add_results(&[target_tile.r#type()])
                .build()
                .map_err(|e| (op, e.to_string()))?;
            let tile = result_of(block.insert_operation_before(op, assemble));
            self.tiles.insert(value_key(result_of(op)), tile);
            self.converted.push(op);
            return Ok(true);
        }
        if kind == OpKind::PlTensorAssemble {
            // A converted source written into a tensor: a store.
            let source = op.operand(0).map_err(|e| (op, e.to_string()))?;
            let Some(&tile) = self.tiles.get(&value_key(source)) else {
                return Ok(false);
            };
            let target = op.operand(1).map_err(|e| (op, e.to_string()))?;
            let offsets: Vec<Value> = op.operands().skip(2).collect();
            let mut builder = OperationBuilder::new(OpKind::PlTileStore.name(), op.location())
                .add_operands(&[&[tile, target][..], &offsets].concat())
                .add_results(&[target.r#type()]);
            if let Ok(atomic) = op.attribute("atomic_add") {
                builder = builder
                    .add_attributes(&[(Identifier::new(self.context, "atomic_add"), atomic)]);
            }
            let store = block
                .insert_operation_before(op, builder.build().map_err(|e| (op, e.to_string()))?);
            replace_uses(self.kernel, result_of(op), result_of(store));
            self.converted.push(op);
            return Ok(true);
        }
        // A tile product is 2-D: a batched product is one per batch
        // (batched.rs); a vector product would be a reshape, not made here
        // yet.
        if kind == OpKind::PlTensorMatmul {
            let ranks: Vec<usize> = op
                .operands()
                .filter_map(|v| TensorLike::try_from(v.r#type()).ok().map(|t| t.rank()))
                .collect();
            if ranks.contains(&1) {
                return Err((
                    op,
                    "a matmul of a vector operand has no tile form yet".to_string(),
                ));
            }
            if ranks.iter().any(|&r| r > 2) {
                self.batch_matmul(op)?;
                return Ok(true);
            }
        }
        if let Some(row_kind) = column_vector_reduction(kind, op) {
            return self.reduce_column_vector(op, row_kind);
        }
        // Operands as tiles (scalars pass through).
        let mut operands = Vec::new();
        for operand in op.operands() {
            if TensorLike::try_from(operand.r#type()).is_err() {
                operands.push(operand);
            } else {
                operands.push(self.tile_of(op, operand)?);
            }
        }
        if kind == OpKind::PlTensorMatmul {
            // `a_trans` / `b_trans`: the operand's last two axes are swapped
            // before the product (a transposed view of the loaded tile).
            for (index, flag) in [(0, "a_trans"), (1, "b_trans")] {
                if op.attribute(flag).is_ok() {
                    operands[index] = self.transposed(block, op, operands[index])?;
                }
            }
        }
        let result: Value = result_of(op);
        let (tile_op, tile_element) = tile_form(self.context, op, kind, &operands, result)?;
        // A product lives in L0C whatever infers spaces later (and a fix-pipe
        // store may narrow it).
        let space =
            (kind == OpKind::PlTensorMatmul).then_some(pto_dialects::types::MemorySpace::Acc);
        let mut result_type = self.result_tile_type(op, result, tile_element, space)?;
        if let Some(padded) = keeps_pad(self.context, kind, &operands, result_type) {
            result_type = padded;
        }
        let mut builder =
            OperationBuilder::new(tile_op.name(), op.location()).add_results(&[result_type]);
        let mut tile_operands = operands.clone();
        if tile_op.info().is_vector_compute() {
            // A product (in L0C) the vector unit computes on crosses to the
            // vector cores (`pl.tile.aiv_shard`, whole to each), which
            // pl-expand-mixed-kernel makes a pipe.
            for operand in tile_operands.iter_mut() {
                let Ok(tile) = TileType::try_from(operand.r#type()) else {
                    continue;
                };
                if tile.memory_space() == Some(pto_dialects::types::MemorySpace::Acc) {
                    *operand = self.shard(op, *operand, tile);
                }
            }
        }
        if let Some(scratch_type) = scratch_for(self.context, kind, &operands) {
            let scratch = OperationBuilder::new(OpKind::PlTileCreate.name(), self.location)
                .add_results(&[scratch_type])
                .build()
                .expect("pl.tile.create builds");
            tile_operands.push(result_of(block.insert_operation_before(op, scratch)));
        }
        builder = builder.add_operands(&tile_operands);
        // The attributes the tile form has (a cast's rounding, a
        // comparison, a mask pattern), as the tensor op gives them.
        let keep: Vec<(Identifier, Attribute)> = tile_op
            .info()
            .attributes
            .iter()
            .filter_map(|attribute| {
                op.attribute(attribute.name)
                    .ok()
                    .map(|a| (Identifier::new(self.context, attribute.name), a))
            })
            .collect();
        builder = builder.add_attributes(&keep);
        let new_op = builder.build().map_err(|e| (op, e.to_string()))?;
        let tile = result_of(block.insert_operation_before(op, new_op));
        if self
            .tiles
            .get(&value_key(result))
            .is_some_and(|carried| carried.r#type() != tile.r#type())
        {
            return Err((
                op,
                format!(
                    "a loop carries this value as {}, but it converts to {}",
                    self.tiles[&value_key(result)].r#type(),
                    tile.r#type()
                ),
            ));
        }
        self.tiles.insert(value_key(result), tile);
        Ok(true)
    }
}

impl<'c, 'a> Conversion<'c, 'a> {
    /// `product` (an `acc` tile) handed to the vector cores whole: one
    /// `pl.tile.aiv_shard` right after it, for every vector op using it.
    fn shard(
        &mut self,
        user: OperationRef<'c, 'a>,
        product: Value<'c, 'a>,
        tile: TileType<'c>,
    ) -> Value<'c, 'a> {
        if let Some(&shard) = self.shards.get(&value_key(product)) {
            return shard;
        }
        let split = IntegerAttribute::new(
            melior::ir::r#type::IntegerType::new(self.context, 32).into(),
            pto_dialects::enums::CoreSplit::None as i64,
        );
        let shard = OperationBuilder::new(OpKind::PlTileAivShard.name(), self.location)
            .add_operands(&[product])
            .add_attributes(&[(Identifier::new(self.context, "split"), split.into())])
            .add_results(&[TileType::new(
                self.context,
                &tile.shape(),
                melior::ir::ShapedTypeLike::element(&tile),
                None,
            )
            .into()])
            .build()
            .expect("pl.tile.aiv_shard builds");
        let shard = match melior::ir::operation::OperationResult::try_from(product) {
            Ok(result) => {
                let owner = result.owner();
                let block = owner.block().expect("in a block");
                result_of(block.insert_operation_after(owner, shard))
            }
            // A carried product: handed over where this user needs it.
            Err(_) => {
                let block = user.block().expect("in a block");
                return result_of(block.insert_operation_before(user, shard));
            }
        };
        self.shards.insert(value_key(product), shard);
        shard
    }
}

impl<'c, 'a> Conversion<'c, 'a> {
    /// A column reduction of an `[N, 1]` column vector: the row reduction
    /// `row_kind` of its `[1, N]` reshape (the same elements in the same
    /// order). a2a3's column reductions take row-major tiles and a column
    /// vector is col_major, so this is the form that translates.
    fn reduce_column_vector(
        &mut self,
        op: OperationRef<'c, 'a>,
        row_kind: OpKind,
    ) -> Result<bool, Failure<'c, 'a>> {
        let block = op.block().expect("ops sit in blocks");
        let source = op.operand(0).map_err(|e| (op, e.to_string()))?;
        let column = self.tile_of(op, source)?;
        let tile = TileType::try_from(column.r#type()).map_err(|e| (op, e.to_string()))?;
        let extent = tile.shape()[0];
        let row_type: Type = TileType::new(self.context, &[1, extent], tile.element(), None).into();
        let reshape = OperationBuilder::new(OpKind::PlTileReshape.name(), op.location())
            .add_operands(&[column])
            .add_results(&[row_type])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let row = result_of(block.insert_operation_before(op, reshape));
        let scratch = OperationBuilder::new(OpKind::PlTileCreate.name(), self.location)
            .add_results(&[row_type])
            .build()
            .expect("pl.tile.create builds");
        let scratch = result_of(block.insert_operation_before(op, scratch));
        let result = result_of(op);
        let result_type: Type = TileType::new(self.context, &[1, 1], tile.element(), None).into();
        let reduce = OperationBuilder::new(row_kind.name(), op.location())
            .add_operands(&[row, scratch])
            .add_results(&[result_type])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let reduced = result_of(block.insert_operation_before(op, reduce));
        self.tiles.insert(value_key(result), reduced);
        Ok(true)
    }

    /// `pl.tensor.full` of a static shape: `pl.tile.full` of a constant, or
    /// a tile the runtime value is expanded into (`pl.tile.expands` over a
    /// `pl.tile.create`, whose elements it does not read).
    /// `pl.tensor.concat` of static shapes: a `pl.tile.create` of the
    /// result's shape that each input's tile is assembled into in turn, at
    /// the sum of the extents before it on the axis.
    fn concat(&mut self, op: OperationRef<'c, 'a>) -> Result<bool, Failure<'c, 'a>> {
        let block = op.block().expect("ops sit in blocks");
        let result: Value = result_of(op);
        let Some(shape) = static_shape(result) else {
            return Ok(false);
        };
        let axis = op
            .attribute("axis")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value() as usize)
            .filter(|&axis| axis < shape.len())
            .ok_or((op, "a concat without an axis of its rank".to_string()))?;
        let tile_type: Type = TileType::new(self.context, &shape, element(result), None).into();
        let create = OperationBuilder::new(OpKind::PlTileCreate.name(), op.location())
            .add_results(&[tile_type])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let mut joined = result_of(block.insert_operation_before(op, create));
        let mut at = 0i64;
        for input in op.operands() {
            let extent = static_shape(input)
                .and_then(|s| s.get(axis).copied())
                .ok_or((op, "a concat input of a dynamic shape".to_string()))?;
            let source = self.tile_of(op, input)?;
            let zero = self.zero();
            let mut offsets = vec![zero; shape.len()];
            if at != 0 {
                let constant = arith::constant(
                    self.context,
                    IntegerAttribute::new(Type::index(self.context), at).into(),
                    op.location(),
                );
                offsets[axis] = result_of(block.insert_operation_before(op, constant));
            }
            let assemble = OperationBuilder::new(OpKind::PlTileAssemble.name(), op.location())
                .add_operands(&[&[source, joined][..], &offsets].concat())
                .add_results(&[tile_type])
                .build()
                .map_err(|e| (op, e.to_string()))?;
            joined = result_of(block.insert_operation_before(op, assemble));
            at += extent;
        }
        self.tiles.insert(value_key(result), joined);
        Ok(true)
    }

    fn full(&mut self, op: OperationRef<'c, 'a>) -> Result<bool, Failure<'c, 'a>> {
        let block = op.block().expect("ops sit in blocks");
        let result: Value = result_of(op);
        // A dynamic shape in a kernel run in blocks: a block's tile, whose
        // valid extents are the sizes.
        let block_type = match static_shape(result) {
            Some(_) => None,
            None => match self
                .strips
                .as_ref()
                .and_then(|s| s.tile_type(self.context, result.r#type()))
            {
                Some(block_type) => Some(block_type),
                None => return Ok(false),
            },
        };
        let shape = match block_type {
            Some(block_type) => TileType::try_from(block_type).expect("a tile").shape(),
            None => static_shape(result).expect("a static shape"),
        };
        let value = op.operand(0).map_err(|e| (op, e.to_string()))?;
        let tile_type: Type = TileType::new(self.context, &shape, element(result), None).into();
        let constant = melior::ir::operation::OperationResult::try_from(value)
            .is_ok_and(|r| op_name(r.owner()) == "arith.constant");
        let full = if constant {
            OperationBuilder::new(OpKind::PlTileFull.name(), op.location())
                .add_operands(&[value])
                .add_results(&[tile_type])
                .build()
        } else {
            let shaped = OperationBuilder::new(OpKind::PlTileCreate.name(), op.location())
                .add_results(&[tile_type])
                .build()
                .expect("pl.tile.create builds");
            let shaped = result_of(block.insert_operation_before(op, shaped));
            OperationBuilder::new(OpKind::PlTileExpands.name(), op.location())
                .add_operands(&[shaped, value])
                .add_results(&[tile_type])
                .build()
        }
        .map_err(|e| (op, e.to_string()))?;
        let mut tile = result_of(block.insert_operation_before(op, full));
        if let Some(block_type) = block_type {
            let mut sizes = op.operands().skip(1);
            let valid = TileType::try_from(block_type)
                .expect("a tile")
                .effective_view()
                .valid_shape;
            let mut extents = Vec::new();
            for extent in &valid {
                extents.push(match extent {
                    None => sizes.next().ok_or((op, "a size is missing".to_string()))?,
                    Some(e) => {
                        let constant = arith::constant(
                            self.context,
                            IntegerAttribute::new(Type::index(self.context), *e).into(),
                            op.location(),
                        );
                        result_of(block.insert_operation_before(op, constant))
                    }
                });
            }
            let set = OperationBuilder::new(OpKind::PlTileSetValidshape.name(), op.location())
                .add_operands(&[tile, extents[0], extents[1]])
                .add_results(&[block_type])
                .build()
                .map_err(|e| (op, e.to_string()))?;
            tile = result_of(block.insert_operation_before(op, set));
        }
        self.tiles.insert(value_key(result), tile);
        Ok(true)
    }
}

/// Points every use of `from` in `scope` at `to`.
fn replace_uses<'c, 'a>(scope: OperationRef<'c, 'a>, from: Value<'c, 'a>, to: Value<'c, 'a>) {
    let mut users = Vec::new();
    pto_dialects::ir::walk(scope, WalkOrder::PreOrder, |op| {
        let positions: Vec<usize> = (0..op.operand_count())
            .filter(|&i| op.operand(i).is_ok_and(|v| value_key(v) == value_key(from)))
            .collect();
        if !positions.is_empty() {
            users.push((op, positions));
        }
        WalkResult::Advance
    });
    for (user, positions) in users {
        let mut user = pto_dialects::ir::edit(user);
        for index in positions {
            user.set_operand(index, to);
        }
    }
}

/// Converts one kernel; returns how many out parameters it gained.
fn convert<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
    strips: Option<strips::Strips<'c, 'a>>,
) -> Result<usize, Failure<'c, 'a>> {
    let entry = kernel
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((kernel, "an empty kernel".to_string()))?;
    // Tensor computations under scf.if are not converted: a branch would
    // have to yield tiles.
    let mut in_branch: Option<OperationRef<'c, 'a>> = None;
    pto_dialects::ir::walk(kernel, WalkOrder::PreOrder, |op| {
        let is_compute = OpKind::of(&op).is_some_and(computes_tiles);
        let mut parent = op.parent_operation();
        while let Some(p) = parent {
            if op_name(p) == "scf.if" && is_compute {
                in_branch = Some(op);
                return WalkResult::Interrupt;
            }
            parent = p.parent_operation();
        }
        WalkResult::Advance
    });
    if let Some(op) = in_branch {
        return Err((
            op,
            "tensor computations inside scf.if branches are not converted yet".to_string(),
        ));
    }
    let mut ops = Vec::new();
    pto_dialects::ir::walk(kernel, WalkOrder::PreOrder, |op| {
        ops.push(op);
        WalkResult::Advance
    });
    let mut conversion = Conversion {
        context,
        kernel,
        entry,
        location: kernel.location(),
        zero: None,
        tiles: HashMap::new(),
        converted: Vec::new(),
        carried_tensor_types: HashMap::new(),
        strips,
        early_outputs: Vec::new(),
        shards: HashMap::new(),
    };
    for raw in ops {
        let op = raw;
        let name = op_name(op);
        if name == "scf.for" {
            conversion.carry_tiles(op)?;
            continue;
        }
        let Some(op_kind) = OpKind::of(&op).filter(|kind| kind.info().group == Group::Tensor)
        else {
            continue;
        };
        if !is_convertible(op_kind) {
            // A computation this pass has no tile form for yet: the kernel
            // keeps it, and pto-translate refuses the kernel.
            if op_kind.info().computes_on_tensors() {
                OpDiagnostic::new(format!(
                    "pl-convert-tensor-to-tile: '{name}' has no tile form yet; the kernel keeps computing on tensors here"
                ))
                .emit(op, Severity::Warning);
            }
            continue;
        }
        if conversion.convert_op(op, op_kind)? && op_kind != OpKind::PlTensorAssemble {
            conversion.converted.push(op);
        }
    }
    if conversion.converted.is_empty() {
        return Ok(0);
    }
    let tiles = conversion.tiles.clone();
    // Loops carrying tiles yield them.
    pto_dialects::ir::walk(kernel, WalkOrder::PreOrder, |op| {
        if op_name(op) == "scf.yield"
            && op
                .parent_operation()
                .is_some_and(|p| op_name(p) == "scf.for")
        {
            let parent = op.parent_operation().unwrap();
            for index in 0..op.operand_count() {
                let carried = parent
                    .result(index)
                    .is_ok_and(|r| TileType::try_from(r.r#type()).is_ok());
                if let (true, Some(&tile)) =
                    (carried, tiles.get(&value_key(op.operand(index).unwrap())))
                {
                    pto_dialects::ir::edit(op).set_operand(index, tile);
                }
            }
        }
        WalkResult::Advance
    });
    // Returned tensors: stored into new out parameters.
    let location = kernel.location();
    let terminator = entry
        .terminator()
        .ok_or((kernel, "no return".to_string()))?;
    let mut new_inputs: Vec<Type> = conversion.early_outputs.clone();
    let mut added = new_inputs.len();
    for index in 0..terminator.operand_count() {
        let returned = terminator.operand(index).unwrap();
        let Some(&tile) = tiles.get(&value_key(returned)) else {
            continue;
        };
        let tensor_type = conversion
            .carried_tensor_types
            .get(&value_key(returned))
            .copied()
            .unwrap_or(returned.r#type());
        let zero_index = conversion.zero();
        let out = entry.add_argument(tensor_type, location);
        new_inputs.push(tensor_type);
        added += 1;
        let rank = TensorLike::try_from(tensor_type).map_or(0, |t| t.rank());
        let store = OperationBuilder::new(OpKind::PlTileStore.name(), location)
            .add_operands(&[&[tile, out][..], &vec![zero_index; rank]].concat())
            .add_results(&[tensor_type])
            .build()
            .map_err(|e| (kernel, e.to_string()))?;
        let stored: Value = entry
            .insert_operation_before(terminator, store)
            .result(0)
            .unwrap()
            .into();
        let mut terminator = pto_dialects::ir::edit(terminator);
        terminator.set_operand(index, stored);
    }
    // Converted tensor ops must now be unused.
    for op in conversion.converted.iter().rev() {
        let result: Value = op.result(0).unwrap().into();
        let mut used = false;
        pto_dialects::ir::walk(kernel, WalkOrder::PreOrder, |user| {
            used |= user.operands().any(|o| value_key(o) == value_key(result));
            WalkResult::Advance
        });
        if used {
            return Err((*op, "this tensor is used by an op that is not converted; only returns, assembles and loops take converted values".to_string()));
        }
        drop(detach(*op));
    }
    if added > 0 {
        super::signature::extend_signature(context, kernel, &new_inputs, Some(ParamDirection::Out));
    }
    Ok(added)
}

/// The first converted op with a dynamically shaped tensor operand or
/// result, and that type.
fn first_dynamic<'c, 'a>(kernel: OperationRef<'c, 'a>) -> Option<(OperationRef<'c, 'a>, String)> {
    let mut found: Option<(OperationRef<'c, 'a>, String)> = None;
    pto_dialects::ir::walk(kernel, WalkOrder::PreOrder, |op| {
        // Slices and assembles convert only when static; others stay views.
        if OpKind::of(&op).is_some_and(computes_tiles) {
            let values = op.operands().chain(op.results().map(Into::into));
            for value in values {
                if TensorLike::try_from(value.r#type()).is_ok() && static_shape(value).is_none() {
                    found = Some((op, value.r#type().to_string()));
                    return WalkResult::Interrupt;
                }
            }
        }
        WalkResult::Advance
    });
    found
}

/// The row reduction that computes column reduction `op` (of kind `kind`)
/// when its operand is a static `[N, 1]` column vector (N > 1).
fn column_vector_reduction(kind: OpKind, op: OperationRef) -> Option<OpKind> {
    let row_kind = match kind {
        OpKind::PlTensorColSum => OpKind::PlTileRowSum,
        OpKind::PlTensorColMax => OpKind::PlTileRowMax,
        OpKind::PlTensorColMin => OpKind::PlTileRowMin,
        OpKind::PlTensorColProd => OpKind::PlTileRowProd,
        _ => return None,
    };
    let shape = static_shape(op.operand_opt(0)?)?;
    (shape.len() == 2 && shape[1] == 1 && shape[0] > 1).then_some(row_kind)
}

/// The scratch tile the tile form of tensor op `kind` takes, for its
/// tile operands: row reductions one of the input's shape, column
/// arg-reductions one of the input's shape with enough rows for a2a3's
/// index and running values (pto_dialects::scratch), a merge of sorted
/// lists one row with room for them all.
fn scratch_for<'c>(
    context: &'c Context,
    kind: OpKind,
    operands: &[Value<'c, '_>],
) -> Option<Type<'c>> {
    let source = *operands.first()?;
    if kind == OpKind::PlTensorMrgsortFormat2 {
        let tiles: Vec<TileType> = operands
            .iter()
            .filter_map(|v| TileType::try_from(v.r#type()).ok())
            .collect();
        let length: i64 = tiles.iter().filter_map(|t| t.shape().last().copied()).sum();
        let first = tiles.first()?;
        let mut shape = first.shape();
        *shape.last_mut()? = length;
        return Some(TileType::new(context, &shape, first.element(), first.memory_space()).into());
    }
    let row_reduction = kind.family() == Family::TensorRowReduce;
    let column_arg = matches!(kind, OpKind::PlTensorColArgmax | OpKind::PlTensorColArgmin);
    if !row_reduction && !column_arg {
        return None;
    }
    let tile = TileType::try_from(source.r#type()).ok()?;
    if row_reduction {
        // Wholly valid (a strip's rows are valid only in part).
        return Some(
            TileType::new(context, &tile.shape(), tile.element(), tile.memory_space()).into(),
        );
    }
    let mut shape = tile.shape();
    let rank = shape.len();
    if rank < 2 {
        return Some(source.r#type());
    }
    let bytes = pto_dialects::dtype::ScalarKind::of(tile.element())
        .map_or(4, |k| i64::from(k.bits().div_ceil(8)));
    let cols = shape[rank - 1].max(1);
    let needed = pto_dialects::scratch::column_arg_scratch_elements(cols, bytes);
    let others: i64 = shape[..rank - 2].iter().product();
    let rows = (needed + cols * others - 1) / (cols * others);
    shape[rank - 2] = shape[rank - 2].max(rows);
    Some(TileType::new(context, &shape, tile.element(), tile.memory_space()).into())
}

/// What pl-convert-tensor-to-tile does with op `kind` in an InCore kernel:
/// `None` for an op that is not a tensor computation (a tile, system or
/// distributed op; a view, query, creation or scalar access of a tensor,
/// which stays as it is), `Some(Ok(()))` when it converts to tiles, and
/// `Some(Err(reason))` when the computation has no tile form yet (the pass
/// warns and pto-translate refuses the kernel).
pub fn converts(kind: OpKind) -> Option<Result<(), &'static str>> {
    let info = kind.info();
    if info.dialect != Dialect::Pl || info.group != Group::Tensor {
        return None;
    }
    if is_convertible(kind) {
        return Some(Ok(()));
    }
    if !info.computes_on_tensors() {
        return None;
    }
    Some(Err(match info.family {
        Family::TensorCreate => "a filled tensor has no tile form yet",
        Family::TensorMatmul => "an accumulating product has no tile form yet",
        Family::TensorCompare => "a comparison has no tile form yet (its packed mask)",
        Family::TensorSelect => "a select has no tile form yet (its mask and scratch)",
        Family::TensorFillpad => "padding has no tile form yet",
        _ if info.compute == Some(Compute::Broadcast) => "a fill has no tile form yet",
        _ => "needs a scratch tile the pass does not make yet",
    }))
}

/// Whether this pass converts tensor op `kind`: the tile form the op table
/// gives it, or a window of memory (a slice loads, an assemble stores).
fn is_convertible(kind: OpKind) -> bool {
    kind.info().tile_form.is_some()
        || matches!(
            kind,
            OpKind::PlTensorSlice
                | OpKind::PlTensorAssemble
                | OpKind::PlTensorFull
                | OpKind::PlTensorCreateL1
                | OpKind::PlTensorConcat
                | OpKind::PlTensorGather
                | OpKind::PlTensorScatter
                | OpKind::PlTensorScatterMask
                | OpKind::PlTensorPagedGather
                | OpKind::PlTensorExpandClone
        )
}

/// Whether tensor op `kind` converts to a tile computation (not a window
/// copy).
fn computes_tiles(kind: OpKind) -> bool {
    kind.info().tile_form.is_some()
}

/// The element a product of operands of element `element` accumulates
/// in: f32 for floats, i32 for integers.
fn accumulator_of<'c>(context: &'c Context, element: Type<'c>) -> Type<'c> {
    if Dtype::of(element).is_some_and(|d| d.is_float()) {
        Type::float32(context)
    } else {
        melior::ir::r#type::IntegerType::new(context, 32).into()
    }
}

/// The tile op for tensor op `kind` and its result element type.
fn tile_form<'c, 'a>(
    context: &'c Context,
    op: OperationRef<'c, 'a>,
    kind: OpKind,
    operands: &[Value<'c, 'a>],
    result: Value<'c, 'a>,
) -> Result<(OpKind, Type<'c>), Failure<'c, 'a>> {
    let result_element = element(result);
    let info = kind.info();
    let tile_kind = info
        .tile_form
        .ok_or_else(|| (op, format!("'{}' has no tile form", info.name)))?;
    if kind == OpKind::PlTensorMatmul {
        let operand = TileType::try_from(operands[0].r#type()).map_err(|e| (op, e.to_string()))?;
        let accumulator = accumulator_of(context, melior::ir::ShapedTypeLike::element(&operand));
        return Ok((tile_kind, accumulator));
    }
    if info.family == Family::TensorBinary {
        let shapes: Vec<Vec<i64>> = operands
            .iter()
            .map(|v| {
                TileType::try_from(v.r#type())
                    .map(|t| t.shape())
                    .unwrap_or_default()
            })
            .collect();
        let (lhs, rhs) = (&shapes[0], &shapes[1]);
        let n = lhs.len();
        if lhs != rhs && n >= 2 && rhs.len() == n {
            // Only the broadcast axis may differ: the last for a column of
            // per-row values, the second-to-last for a row of per-column ones.
            let same_except = |axis: usize| (0..n).all(|d| d == axis || lhs[d] == rhs[d]);
            let expand = |family: Family| {
                let compute = match info.compute {
                    Some(Compute::Maximum) => Some(Compute::Max),
                    Some(Compute::Minimum) => Some(Compute::Min),
                    other => other,
                };
                OpKind::ALL
                    .iter()
                    .copied()
                    .find(|k| k.family() == family && k.info().compute == compute)
            };
            let broadcast = if rhs[n - 1] == 1 && same_except(n - 1) {
                Some(Family::TileRowExpand)
            } else if rhs[n - 2] == 1 && same_except(n - 2) {
                Some(Family::TileColExpand)
            } else {
                None
            };
            if let Some(expand_kind) = broadcast.and_then(expand) {
                return Ok((expand_kind, result_element));
            }
            return Err((
                op,
                format!("cannot broadcast {:?} against {:?}", shapes[1], shapes[0]),
            ));
        }
    }
    Ok((tile_kind, result_element))
}

/// `result`'s tile type with the pad of operand 0's tile, when that tile
/// records one (a `pl.tensor.fillpad`'s) and the result has its shape:
/// elementwise tile ops keep their operand's view.
fn keeps_pad<'c>(
    context: &'c Context,
    kind: OpKind,
    operands: &[Value<'c, '_>],
    result: Type<'c>,
) -> Option<Type<'c>> {
    let source = TileType::try_from(operands.first()?.r#type()).ok()?;
    let pad = source.effective_view().pad;
    let tile = TileType::try_from(result).ok()?;
    let current = tile.effective_view();
    if pad == PadValue::Null
        || kind == OpKind::PlTensorMatmul
        || tile.shape() != source.shape()
        || current.pad != PadValue::Null
    {
        return None;
    }
    let view = TileView {
        valid_shape: Some(current.valid_shape),
        pad: Some(pad),
        ..TileView::default()
    };
    Some(
        TileType::with_view(
            context,
            &tile.shape(),
            tile.element(),
            tile.memory_space(),
            &view,
        )
        .into(),
    )
}

/// Gives every parameter of `kernel` without a `pl.direction` the one its
/// body implies (pto_dialects::access): written only, `out`; written and
/// read or read-modify-written, `inout`; parameters only read stay
/// undeclared (`in`).
fn infer_directions<'c>(context: &'c Context, kernel: OperationRef<'c, '_>) {
    let Some(body) = kernel.region_opt(0).and_then(|r| r.first_block()) else {
        return;
    };
    let old_attrs = kernel
        .attribute("arg_attrs")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok());
    let empty: Attribute = DictionaryAttribute::new(context, &[]).into();
    let mut changed = false;
    let mut arg_attrs = Vec::new();
    for index in 0..body.argument_count() {
        let dictionary = old_attrs
            .and_then(|a| a.element(index).ok())
            .unwrap_or(empty);
        let declared = DictionaryAttribute::try_from(dictionary)
            .ok()
            .and_then(|d| d.element_by_name("pl.direction"));
        let argument: Value = body.argument(index).unwrap().into();
        let inferred = pto_dialects::access::access(kernel, argument);
        match (declared, inferred) {
            (None, Some(direction @ (ParamDirection::Out | ParamDirection::InOut))) => {
                let mut entries: Vec<(Identifier, Attribute)> =
                    DictionaryAttribute::try_from(dictionary)
                        .map(|d| (0..d.len()).filter_map(|i| d.element(i).ok()).collect())
                        .unwrap_or_default();
                entries.push((
                    Identifier::new(context, "pl.direction"),
                    attrs::direction(context, direction),
                ));
                arg_attrs.push(DictionaryAttribute::new(context, &entries).into());
                changed = true;
            }
            _ => arg_attrs.push(dictionary),
        }
    }
    if changed {
        pto_dialects::ir::edit(kernel)
            .set_inherent_attribute("arg_attrs", ArrayAttribute::new(context, &arg_attrs).into());
    }
}

/// Every call of `kernel` passes a fresh tensor for each new out parameter.
fn update_callers<'c, 'a>(
    context: &'c Context,
    calls: &CallSites<'c, 'a>,
    kernel: OperationRef<'c, 'a>,
    extents: &[Vec<(usize, i64)>],
) -> Result<(), Failure<'c, 'a>> {
    let added = extents.len();
    let name = attrs::text_of(kernel, "sym_name").unwrap_or_default();
    let function_type = pto_dialects::ops::function_type(kernel).expect("a function type");
    let inputs = function_type.input_count();
    let new_types: Vec<Type> = (inputs - added..inputs)
        .filter_map(|i| function_type.input(i).ok())
        .collect();
    for raw in calls.calls_of(&name) {
        let call = raw;
        let block: melior::ir::BlockRef = call.block().expect("in a block");
        let mut fresh = Vec::new();
        for (tensor_type, extents_of) in new_types.iter().zip(extents) {
            // Each dynamic extent is that of a caller's argument.
            let mut sizes = Vec::new();
            for &(parameter, axis) in extents_of {
                let argument = call.operand_opt(parameter).ok_or((
                    call,
                    format!("this call passes the kernel no parameter #{parameter}"),
                ))?;
                let dim = OperationBuilder::new(OpKind::PlTensorDim.name(), call.location())
                    .add_operands(&[argument])
                    .add_attributes(&[(
                        Identifier::new(context, "axis"),
                        IntegerAttribute::new(Type::parse(context, "i64").expect("i64"), axis)
                            .into(),
                    )])
                    .add_results(&[Type::index(context)])
                    .build()
                    .expect("pl.tensor.dim builds");
                sizes.push(result_of(block.insert_operation_before(call, dim)));
            }
            let create = OperationBuilder::new(OpKind::PlTensorCreate.name(), call.location())
                .add_operands(&sizes)
                .add_results(&[*tensor_type])
                .build()
                .expect("pl.tensor.create builds");
            let created: Value = block
                .insert_operation_before(call, create)
                .result(0)
                .unwrap()
                .into();
            fresh.push(created);
        }
        super::signature::pass_arguments(context, call, &[], &fresh);
    }
    Ok(())
}
