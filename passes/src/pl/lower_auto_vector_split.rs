//! `pl-lower-auto-vector-split`: a mixed kernel marked `pl.split` shares
//! its vector work between the two vector cores of its core group, each
//! taking half of every vector tile. What it does and why:
//! [`PASS`]`.description` (also docs/passes/pl-lower-auto-vector-split.md).

use melior::{
    Context,
    dialect::arith,
    ir::{
        Attribute, BlockLike, Identifier, OperationRef, RegionLike, Type, Value, ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike, OperationMutLike, WalkOrder, WalkResult},
    },
};
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
    enums::{CoreSplit, EnumAttr, MemorySpace},
    op_table::{Family, OpKind},
    ops::{Checked, op_name, operand_segments},
    types::{TensorType, TileType, TileView},
};

use super::expand_mixed_kernel::is_mixed;
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-lower-auto-vector-split",
    class_name: "LowerAutoVectorSplit",
    summary: "Share a mixed kernel's vector work between the two vector cores (pl.split)",
    description: r#"A core group has one cube core and two vector cores. A
mixed `incore` kernel marked `pl.split = #pl.split<up_down>` (or
`left_right`) asks for its vector work to be shared between them: this
pass (PyPTO's LowerAutoVectorSplit), after `pl-infer-memory-space` and
before `pl-expand-mixed-kernel`, rewrites the kernel so that each vector
core computes one half of every vector tile, by rows (`up_down`: vector
core 0 the upper half) or by columns (`left_right`: the left half):

- every `vec` tile whose extent along the split axis is more than 1
  becomes its half (that extent even; its valid extent, when narrower,
  not known until run time, or odd, is an error); a `vec` tile of extent
  1 along the axis (`[1, N]` under `up_down`, `[N, 1]` under
  `left_right`) stays whole, computed alike by both vector cores;
- a move of a cube tile into `vec` becomes `pl.tile.aiv_shard` (each
  vector core receives its half), a move of a split `vec` tile into `mat`
  becomes `pl.tile.aic_gather` (the cube receives both halves as one
  tile), so pl-expand-mixed-kernel makes split pushes and pops;
- a load into or a store from a split tile reads or writes its half of
  the window: the offset along the axis moves by
  `pl.tile.get_subblock_idx × half`;
- elementwise, scalar, cast, compare, select and carry ops, creates,
  reductions and expansions along the other axis, and expansions of a
  whole row (`col_expand_*` under `up_down`) or column (`row_expand_*`
  under `left_right`) compute on the halves as they did on the whole.

The attribute is consumed. What the pass cannot split is an error at the
op: a reduction across the split axis (`col_sum` under `up_down`), a
view, slice, gather, scatter, sort, transpose or scalar read of a split
tile, a load or store of a split tile in `partition` form, a cube tile
crossing into a whole `vec` tile. A kernel marked `pl.split` without cube
work gets a warning and runs whole on one vector core.

```mlir
// before (after pl-infer-memory-space)
func.func @k(%x: !X, %w: !W, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y
    attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  ...
  %p = pl.tile.matmul %xt, %wt : ... -> !pl.tile<16x64xf32, acc>
  %v = pl.tile.move %p : !pl.tile<16x64xf32, acc> -> !pl.tile<16x64xf32, vec>
  %e = pl.tile.exp %v : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
  %s = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<16x64xf32, vec>, !Y
// after
  %lane = pl.tile.get_subblock_idx
  ...
  %v = pl.tile.aiv_shard %p up_down : !pl.tile<16x64xf32, acc> -> !pl.tile<8x64xf32, vec>
  %e = pl.tile.exp %v : !pl.tile<8x64xf32, vec> -> !pl.tile<8x64xf32, vec>
  %c8 = arith.constant 8 : index
  %0 = arith.muli %lane, %c8 : index
  %1 = arith.addi %c0, %0 : index
  %s = pl.tile.store %e, %y[%1, %c0] : !pl.tile<8x64xf32, vec>, !Y
```"#,
    example_options: "",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![pto_dialects::pl_handle()],
    run: Run::Op(run),
};

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

/// A tile's or tensor's extents.
fn extents(value: Value) -> Option<Vec<i64>> {
    match TileType::try_from(value.r#type()) {
        Ok(tile) => Some(tile.shape()),
        Err(_) => TensorType::try_from(value.r#type())
            .ok()
            .map(|t| t.shape().into_iter().map(|d| d.unwrap_or(-1)).collect()),
    }
}

fn run(function: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let Some(split) = attrs::split_of(function) else {
        crate::registry::left_unchanged();
        return Ok(());
    };
    let axis = match split {
        CoreSplit::UpDown => 0,
        CoreSplit::LeftRight => 1,
        CoreSplit::None => {
            remove_split(function);
            return Ok(());
        }
    };
    if !is_mixed(function) {
        OpDiagnostic::new(format!(
            "pl-lower-auto-vector-split: the kernel is split {split} but has no cube work: it runs whole on one vector core"
        ))
        .emit(function, Severity::Warning);
        remove_split(function);
        return Ok(());
    }
    let result = Splitter {
        context: pto_dialects::ir::context(&function),
        split,
        axis,
    }
    .lower(function);
    match result {
        Ok(()) => {
            remove_split(function);
            Ok(())
        }
        Err((at, message)) => {
            OpDiagnostic::new(format!(
                "pl-lower-auto-vector-split: {message} (the kernel is split {split})"
            ))
            .emit(at, Severity::Error);
            Err(PassFailed)
        }
    }
}

fn remove_split(function: OperationRef) {
    pto_dialects::ir::edit(function)
        .remove_attribute("pl.split")
        .ok();
}

/// How a value of the kernel is shared between the vector cores.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Share {
    /// Not a `vec` tile (a cube tile, a tensor, a scalar).
    Other,
    /// A `vec` tile of extent 1 along the axis: whole on each vector core.
    Whole,
    /// A `vec` tile halved along the axis.
    Split,
}

struct Splitter<'c> {
    context: &'c Context,
    split: CoreSplit,
    axis: usize,
}

impl<'c> Splitter<'c> {
    fn lower<'a>(&self, function: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let mut ops = Vec::new();
        pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
            if op != function {
                ops.push(op);
            }
            WalkResult::Advance
        });
        // First every op's rule, on the types as written, so that a
        // refused kernel is left as it was.
        for &op in &ops {
            self.check(op)?;
        }
        let entry = function
            .region_opt(0)
            .and_then(|r| r.first_block())
            .ok_or((function, "a kernel without a body".to_string()))?;
        // The vector core's index, read once at the top when a transfer
        // needs it.
        let mut lane: Option<Value> = None;
        for &op in &ops {
            if !matches!(
                OpKind::of(&op),
                Some(OpKind::PlTileLoad | OpKind::PlTileStore)
            ) {
                continue;
            }
            let Some(half) = self.split_transfer(op)? else {
                continue;
            };
            let lane = *lane.get_or_insert_with(|| {
                let query = entry.insert_operation(
                    0,
                    OperationBuilder::new(OpKind::PlTileGetSubblockIdx.name(), function.location())
                        .add_results(&[Type::index(self.context)])
                        .build()
                        .expect("pl.tile.get_subblock_idx builds"),
                );
                query.result(0).expect("the query's result").into()
            });
            self.shift_window(op, lane, half);
        }
        // Then the halves: every value's type, and the crossings.
        for &op in &ops {
            for result in op.results() {
                self.halve(result.into());
            }
            for index in 0..op.region_count() {
                let Some(region) = op.region_opt(index) else {
                    continue;
                };
                let mut block = region.first_block();
                while let Some(current) = block {
                    for i in 0..current.argument_count() {
                        if let Ok(argument) = current.argument(i) {
                            self.halve(argument.into());
                        }
                    }
                    block = current.next_in_region();
                }
            }
        }
        for &op in &ops {
            match OpKind::of(&op) {
                Some(OpKind::PlTileMove) => self.boundary(op),
                // A crossing the tensor-to-tile conversion made whole.
                Some(OpKind::PlTileAivShard | OpKind::PlTileAicGather) => {
                    let halved = match (op.operand_opt(0), op.result_opt(0)) {
                        (Some(from), Some(to)) => extents(from) != extents(to.into()),
                        _ => false,
                    };
                    if halved {
                        pto_dialects::ir::edit(op).set_attribute(
                            "split",
                            super::expand_mixed_kernel::split_attribute(self.context, self.split),
                        );
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// How `value` is shared, by its type as written.
    fn share(&self, value: Value) -> Share {
        let Ok(tile) = TileType::try_from(value.r#type()) else {
            return Share::Other;
        };
        if tile.memory_space() != Some(MemorySpace::Vec)
            || melior::ir::r#type::ShapedTypeLike::rank(&tile) != 2
        {
            return Share::Other;
        }
        if tile.shape()[self.axis] == 1 {
            Share::Whole
        } else {
            Share::Split
        }
    }

    /// The half of a split tile: its extent along the axis halved (the
    /// valid extent with it), its layout, pad and space kept.
    fn half(&self, tile: TileType<'c>) -> Option<TileType<'c>> {
        let mut shape = tile.shape();
        let view = tile.effective_view();
        let extent = shape[self.axis];
        if extent < 2 || extent % 2 != 0 || view.valid_shape[self.axis] != Some(extent) {
            return None;
        }
        shape[self.axis] = extent / 2;
        let mut valid = view.valid_shape.clone();
        valid[self.axis] = Some(extent / 2);
        let view = TileView {
            valid_shape: Some(valid),
            blayout: Some(view.blayout),
            slayout: Some(view.slayout),
            fractal: Some(view.fractal),
            pad: Some(view.pad),
        };
        Some(TileType::with_view(
            self.context,
            &shape,
            melior::ir::r#type::ShapedTypeLike::element(&tile),
            tile.memory_space(),
            &view,
        ))
    }

    fn halve(&self, value: Value<'c, '_>) {
        if self.share(value) != Share::Split {
            return;
        }
        let tile = TileType::try_from(value.r#type()).expect("a split value is a tile");
        if let Some(half) = self.half(tile) {
            value.set_type(half.into());
        }
    }

    fn axis_name(&self) -> &'static str {
        if self.axis == 0 { "rows" } else { "columns" }
    }

    /// Whether `op` computes on halves as on the whole tile.
    fn check<'a>(&self, op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let values: Vec<Value> = (0..op.operand_count())
            .filter_map(|i| op.operand_opt(i))
            .chain(op.results().map(Into::into))
            .collect();
        if OpKind::of(&op) == Some(OpKind::PlTileMove) && self.crosses_whole(op) {
            return Err((
                op,
                format!(
                    "a tile crossing the cores whole ({}): in a split kernel every tile that crosses is halved, and one of extent 1 along the {} cannot be",
                    values
                        .iter()
                        .map(|v| v.r#type().to_string())
                        .collect::<Vec<_>>()
                        .join(" to "),
                    self.axis_name()
                ),
            ));
        }
        if !values.iter().any(|v| self.share(*v) == Share::Split) {
            return Ok(());
        }
        for value in &values {
            if self.share(*value) != Share::Split {
                continue;
            }
            let tile = TileType::try_from(value.r#type()).expect("a split value is a tile");
            if self.half(tile).is_none() {
                let extent = tile.shape()[self.axis];
                let valid = tile.effective_view().valid_shape[self.axis];
                let why = if extent % 2 != 0 {
                    format!("its {} ({extent}) are odd", self.axis_name())
                } else {
                    match valid {
                        None => {
                            format!("its valid {} are known only at run time", self.axis_name())
                        }
                        Some(v) => {
                            format!("only {v} of its {extent} {} are valid", self.axis_name())
                        }
                    }
                };
                return Err((
                    op,
                    format!("the vector tile {} cannot be halved: {why}", value.r#type()),
                ));
            }
        }
        let name = op_name(op);
        if matches!(
            name,
            "scf.for" | "scf.if" | "scf.while" | "scf.yield" | "scf.condition"
        ) {
            return Ok(());
        }
        let Some(kind) = OpKind::of(&op) else {
            return Err((op, format!("{name} on a split vector tile is not split")));
        };
        let reduces_across = match self.split {
            CoreSplit::UpDown => Family::TileColReduce,
            _ => Family::TileRowReduce,
        };
        let refuse = |why: &str| Err((op, format!("{name} {why}")));
        match kind.family() {
            Family::TileBinary
            | Family::TileUnary
            | Family::TileScalar
            | Family::TileCast
            | Family::TileCompare
            | Family::TileSelect
            | Family::TileCarry
            | Family::TileCreate
            | Family::TileRowExpand
            | Family::TileColExpand => Ok(()),
            Family::TileRowReduce | Family::TileColReduce if kind.family() == reduces_across => {
                refuse(&format!(
                    "reduces across the {}, which the two vector cores hold apart",
                    self.axis_name()
                ))
            }
            Family::TileRowReduce | Family::TileColReduce => Ok(()),
            Family::TileTransfer => {
                if op.attribute("partition").is_ok() {
                    return refuse("of a split tile in partition form is not split");
                }
                self.split_transfer(op).map(|_| ())
            }
            Family::TileMove if kind == OpKind::PlTileMove => {
                let from = op.operand_opt(0).map(|v| self.share(v));
                let to = op.result_opt(0).map(|r| self.share(r.into()));
                match (from, to) {
                    (Some(Share::Split), Some(Share::Split | Share::Other))
                    | (Some(Share::Other), Some(Share::Split)) => Ok(()),
                    _ => refuse("between a split and a whole tile is not split"),
                }
            }
            Family::CoreBoundary => {
                if op.enum_attr::<CoreSplit>("split") != Some(CoreSplit::None) {
                    return refuse(
                        "is split already: a kernel marked pl.split leaves the splitting to this pass",
                    );
                }
                Ok(())
            }
            family => refuse(&format!(
                "({} family) on a split vector tile is not split",
                family.name()
            )),
        }
    }

    /// Whether a move crosses the cores with a whole `vec` tile.
    fn crosses_whole(&self, op: OperationRef) -> bool {
        let (Some(source), Some(result)) = (op.operand_opt(0), op.result_opt(0)) else {
            return false;
        };
        let (from, to) = (self.share(source), self.share(result.into()));
        let cube = |value: Value| {
            TileType::try_from(value.r#type())
                .ok()
                .and_then(|t| t.memory_space())
                .is_some_and(|s| s != MemorySpace::Vec)
        };
        (from == Share::Whole && cube(result.into())) || (to == Share::Whole && cube(source))
    }

    /// For a load into or a store from a split tile: the operand index of
    /// its offset along the axis and the half extent.
    fn split_transfer<'a>(
        &self,
        op: OperationRef<'c, 'a>,
    ) -> Result<Option<(usize, i64)>, Failure<'c, 'a>> {
        let is_load = OpKind::of(&op) == Some(OpKind::PlTileLoad);
        let tile = if is_load {
            op.result_opt(0).map(Into::into)
        } else {
            op.operand_opt(0)
        };
        let Some(tile) = tile else { return Ok(None) };
        if self.share(tile) != Share::Split {
            return Ok(None);
        }
        let extent = TileType::try_from(tile.r#type())
            .map(|t| t.shape()[self.axis])
            .unwrap_or(0);
        let tensor = op.operand_opt(if is_load { 0 } else { 1 });
        let rank = tensor
            .and_then(|t| TensorType::try_from(t.r#type()).ok())
            .map(|t| t.shape().len())
            .ok_or((
                op,
                "a transfer of a split tile without a tensor".to_string(),
            ))?;
        // The offsets: a load's second operand group, a store's operands
        // after its tile and tensor; the tile's axes are the tensor's last
        // two.
        let (start, count) = if is_load {
            operand_segments(op).get(1).copied().unwrap_or((1, 0))
        } else {
            (2, op.operand_count().saturating_sub(2))
        };
        if count != rank || rank < 2 {
            return Err((
                op,
                "a transfer without one offset per dimension".to_string(),
            ));
        }
        Ok(Some((start + rank - 2 + self.axis, extent / 2)))
    }

    /// Moves the transfer's offset operand `index` by `lane × half`: the
    /// vector core's half of the window.
    fn shift_window<'a>(
        &self,
        op: OperationRef<'c, 'a>,
        lane: Value<'c, 'a>,
        (index, half): (usize, i64),
    ) {
        let offset = op.operand_opt(index).expect("the offset exists");
        let block = op.block().expect("in a block");
        let location = op.location();
        let half: Attribute = IntegerAttribute::new(Type::index(self.context), half).into();
        let half = block.insert_operation_before(op, arith::constant(self.context, half, location));
        let step = block.insert_operation_before(
            op,
            arith::muli(lane, half.result(0).unwrap().into(), location),
        );
        let moved = block.insert_operation_before(
            op,
            arith::addi(offset, step.result(0).unwrap().into(), location),
        );
        pto_dialects::ir::set_operand(op, index, moved.result(0).unwrap().into());
    }

    /// A move across the cores into or out of a split tile becomes the
    /// boundary that shards or gathers it.
    fn boundary(&self, op: OperationRef<'c, '_>) {
        let (Some(source), Some(result)) = (op.operand_opt(0), op.result_opt(0)) else {
            return;
        };
        let space = |value: Value| {
            TileType::try_from(value.r#type())
                .ok()
                .and_then(|t| t.memory_space())
        };
        let (from, to) = (space(source), space(result.into()));
        let kind = match (from, to) {
            (Some(MemorySpace::Vec), Some(MemorySpace::Vec)) | (_, None) | (None, _) => return,
            (Some(MemorySpace::Vec), Some(MemorySpace::Mat)) => OpKind::PlTileAicGather,
            (Some(MemorySpace::Acc), Some(MemorySpace::Vec)) => OpKind::PlTileAivShard,
            _ => return,
        };
        let block = op.block().expect("in a block");
        let boundary = block.insert_operation_before(
            op,
            OperationBuilder::new(kind.name(), op.location())
                .add_operands(&[source])
                .add_results(&[result.r#type()])
                .add_attributes(&[(
                    Identifier::new(self.context, "split"),
                    super::expand_mixed_kernel::split_attribute(self.context, self.split),
                )])
                .build()
                .expect("a core boundary builds"),
        );
        pto_dialects::ir::replace_all_uses(result, boundary.result(0).unwrap());
        pto_dialects::ir::erase(op);
    }
}
