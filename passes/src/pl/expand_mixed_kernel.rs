//! `pl-expand-mixed-kernel`: an `incore` kernel that needs the cube core
//! and the vector cores becomes a core group of an aic and an aiv kernel
//! exchanging tiles through a cross-core pipe. What it does and why:
//! [`PASS`]`.description` (also docs/passes/pl-expand-mixed-kernel.md).

use melior::{
    Context,
    dialect::func,
    ir::{
        Attribute, BlockLike, Identifier, Operation, OperationRef, RegionLike, Type, Value,
        ValueLike,
        attribute::{FlatSymbolRefAttribute, IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike, OperationMutLike, WalkOrder, WalkResult},
        r#type::IntegerType,
    },
};
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
    enums::{CoreSplit, FunctionKind, MemorySpace, PipeDirections},
    ops::{Checked, OpKind, op_name, with_operand_segments},
    types::TileType,
};

use crate::{
    emitc::convert_pl_to_emitc::keep_results,
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-expand-mixed-kernel",
    class_name: "ExpandMixedKernel",
    summary: "Split every kernel that mixes cube and vector work into a core group",
    description: r#"After `pl-infer-memory-space`, an `incore` kernel whose tiles are in
both cube spaces (`mat`, `left`, `right`, `acc`, `bias`) and `vec` runs on
a core group: one cube core and two vector cores, separate cores
(docs/pl-guide.md, "Mixed kernels"). This pass (PyPTO's ExpandMixedKernel)
makes two kernels of it, `<name>_aic` and `<name>_aiv`, each taking the
whole parameter list, and turns the kernel itself into a `group` function
calling both, so its callers are unchanged:

- every op whose tiles are in cube spaces goes to the aic kernel, every op
  whose tiles are in `vec` to the aiv kernel; scalar code, loops and
  branches go to both (each loop keeps, on each side, the values that
  side carries);
- each cross-core move `pl-infer-memory-space` placed becomes a pipe
  transfer: an `acc` tile moved to `vec` is pushed by the cube
  (`pl.tile.tpush_to_aiv`) and popped by the vector cores
  (`pl.tile.tpop_from_aic`), a `vec` tile moved to `mat` is pushed by the
  vector cores (`pl.tile.tpush_to_aic`) and popped by the cube
  (`pl.tile.tpop_from_aiv`); each pop is freed right after the last use of
  its tile in the pop's block (after the loop or branch holding that use);
- each kernel sets the pipe up first: the consumer of each way reserves a
  ring of 2 slots (`<name>_c2v`, `<name>_v2c`), the producer imports it,
  and both initialise pipe 0 alike, a slot holding the largest tile
  crossing.

A move becomes a transfer split `none` (vector core 0 runs the aiv kernel
on whole tiles); a crossing marked `pl.tile.aiv_shard` or
`pl.tile.aic_gather` (written so, or made by pl-lower-auto-vector-split
from a kernel's `pl.split`) keeps its split, and both vector cores run the
aiv kernel, each on its half. A kernel still marked `pl.split` is an error:
pl-lower-auto-vector-split comes first. Pushes and pops sit at the same place of the same
loops on both sides, so every push has its pop at any trip count, zero
included. A store from one side leaves the other side's tensor as it was
(the same parameter), and the group returns what the aiv kernel returns.

Errors: a value one side computes that the other needs without a
cross-core move (a scalar read from a vector tile that the cube's loop
bound needs, say).

```mlir
// before (after pl-infer-memory-space)
func.func @k(%a: !A, %b: !B, %o: !O {pl.direction = #pl.direction<out>}) -> !O
    attributes {pl.kind = #pl.kind<incore>} {
  ...
  %p = pl.tile.matmul %l, %r : ... -> !pl.tile<16x32xf32, acc>
  %v = pl.tile.move %p : !pl.tile<16x32xf32, acc> -> !pl.tile<16x32xf32, vec>
  %e = pl.tile.exp %v : !pl.tile<16x32xf32, vec> -> !pl.tile<16x32xf32, vec>
  %s = pl.tile.store %e, %o[%c0, %c0] : !pl.tile<16x32xf32, vec>, !O
  return %s : !O
}
// after
func.func @k(...) -> !O attributes {pl.kind = #pl.kind<group>} {
  %0 = pl.call @k_aic(%a, %b, %o) : (!A, !B, !O) -> !O
  %1 = pl.call @k_aiv(%a, %b, %o) : (!A, !B, !O) -> !O
  return %1 : !O
}
func.func @k_aic(...) -> !O attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "k_c2v" from @k_aiv : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  ...
  pl.tile.tpush_to_aiv %p none : !pl.tile<16x32xf32, acc>
  return %o : !O
}
func.func @k_aiv(...) -> !O attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "k_c2v" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  %v = pl.tile.tpop_from_aic none : !pl.tile<16x32xf32, vec>
  %e = pl.tile.exp %v : ...
  pl.system.tfree_to_aic %v : !pl.tile<16x32xf32, vec>
  %s = pl.tile.store %e, %o[%c0, %c0] : !pl.tile<16x32xf32, vec>, !O
  return %s : !O
}
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || vec![pto_dialects::pl_handle()],
    run: Run::Op(run),
};

/// The slots of each ring the pass makes (PyPTO's default depth).
const SLOTS: i64 = 2;

/// A core of the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Cube,
    Vector,
}

impl Side {
    fn other(self) -> Self {
        match self {
            Side::Cube => Side::Vector,
            Side::Vector => Side::Cube,
        }
    }
}

/// The core a tile in `space` lives on.
fn side_of_space(space: MemorySpace) -> Option<Side> {
    match space {
        MemorySpace::Vec => Some(Side::Vector),
        MemorySpace::Ddr => None,
        _ => Some(Side::Cube),
    }
}

fn tile_side(value: Value) -> Option<Side> {
    TileType::try_from(value.r#type())
        .ok()
        .and_then(|t| t.memory_space())
        .and_then(side_of_space)
}

/// A cross-core move: the way it crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    C2v,
    V2c,
}

fn crossing(op: OperationRef) -> Option<Way> {
    match OpKind::of(&op)? {
        OpKind::PlTileAivShard => return Some(Way::C2v),
        OpKind::PlTileAicGather => return Some(Way::V2c),
        OpKind::PlTileMove => {}
        _ => return None,
    }
    match (
        tile_side(op.operand_opt(0)?),
        tile_side(op.result_opt(0)?.into()),
    ) {
        (Some(Side::Cube), Some(Side::Vector)) => Some(Way::C2v),
        (Some(Side::Vector), Some(Side::Cube)) => Some(Way::V2c),
        _ => None,
    }
}

/// The side an op (not a loop or branch) belongs to, by its tiles; `None`
/// for scalar and tensor code both sides run.
fn op_side(op: OperationRef) -> Option<Side> {
    if matches!(op_name(op), "scf.for" | "scf.if" | "scf.while") {
        return None;
    }
    let operands = (0..op.operand_count()).filter_map(|i| op.operand_opt(i));
    let results = op.results().map(Into::into);
    operands.chain(results).find_map(tile_side)
}

/// Whether a function is an `incore` kernel with tiles on both sides.
pub(crate) fn is_mixed(function: OperationRef) -> bool {
    if kind_of(function) != Some(FunctionKind::InCore) {
        return false;
    }
    let (mut cube, mut vector) = (false, false);
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        for value in op.results().map(Into::into) {
            match tile_side(value) {
                Some(Side::Cube) => cube = true,
                Some(Side::Vector) => vector = true,
                None => {}
            }
        }
        WalkResult::Advance
    });
    cube && vector
}

use pto_dialects::attrs::kind_of;

fn run(module: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let Some(body) = module.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut mixed = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(op) == "func.func" && is_mixed(op) {
            mixed.push(op);
        }
    }
    if mixed.is_empty() {
        crate::registry::left_unchanged();
    }
    let mut failed = false;
    for function in mixed {
        if let Err((at, message)) = expand(function) {
            OpDiagnostic::new(format!("pl-expand-mixed-kernel: {message}"))
                .emit(at, Severity::Error);
            failed = true;
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

/// What crosses between the halves: the ways used and the largest tile.
#[derive(Default)]
struct Crossings {
    c2v: bool,
    v2c: bool,
    slot_bytes: i64,
}

fn crossings(function: OperationRef) -> Crossings {
    let mut found = Crossings::default();
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        if let Some(way) = crossing(op) {
            match way {
                Way::C2v => found.c2v = true,
                Way::V2c => found.v2c = true,
            }
            // A slot holds the whole tile: a gathered tile (the vector
            // cores' halves joined) is its result, a sharded one its
            // operand.
            let tiles = [op.operand_opt(0), op.result_opt(0).map(Into::into)];
            for tile in tiles
                .into_iter()
                .flatten()
                .filter_map(|v| TileType::try_from(v.r#type()).ok())
            {
                let bytes = crate::target::a2a3::tile_bytes(tile).div_ceil(32) * 32;
                found.slot_bytes = found.slot_bytes.max(bytes.min(i64::MAX as u64) as i64);
            }
        }
        WalkResult::Advance
    });
    found
}

/// Splits `function` into its aic and aiv halves and makes it their group.
fn expand<'c, 'a>(function: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
    let context = pto_dialects::ir::context(&function);
    let name = attrs::text_of(function, "sym_name").unwrap_or_default();
    let module_block = function
        .block()
        .ok_or((function, "a kernel outside a module".to_string()))?;
    if let Some(split) = attrs::split_of(function) {
        return Err((
            function,
            format!(
                "the kernel is marked pl.split {split}: pl-lower-auto-vector-split shares its vector work first"
            ),
        ));
    }
    let crossed = crossings(function);
    let names = (format!("{name}_aic"), format!("{name}_aiv"));
    for (side, half_name) in [(Side::Cube, &names.0), (Side::Vector, &names.1)] {
        let mut half = pto_dialects::ir::clone(&function);
        half.set_attribute("sym_name", StringAttribute::new(context, half_name).into());
        half.set_attribute(
            "pl.kind",
            attrs::function_kind(
                context,
                match side {
                    Side::Cube => FunctionKind::Aic,
                    Side::Vector => FunctionKind::Aiv,
                },
            ),
        );
        let half = module_block.insert_operation_after(function, half);
        let peer = if side == Side::Cube {
            &names.1
        } else {
            &names.0
        };
        keep_side(half, side)?;
        set_up_pipe(context, half, side, &name, peer, &crossed)?;
    }
    make_group(context, function, &names)
}

/// Turns `half` (a copy of the mixed kernel) into the kernel of `side`:
/// crossings become pushes and pops, the other side's ops and carried
/// tiles go.
fn keep_side<'c, 'a>(half: OperationRef<'c, 'a>, side: Side) -> Result<(), Failure<'c, 'a>> {
    let context = pto_dialects::ir::context(&half);
    let mut ops = Vec::new();
    pto_dialects::ir::walk(half, WalkOrder::PreOrder, |op| {
        ops.push(op);
        WalkResult::Advance
    });
    // Crossings: pushes on the producing side, pops on the consuming one.
    for &op in &ops {
        let Some(way) = crossing(op) else { continue };
        let split: Attribute = op
            .attribute("split")
            .unwrap_or_else(|_| split_none(context));
        let block = op.block().expect("in a block");
        let source = op.operand_opt(0).expect("a move's operand");
        let produces = matches!(
            (way, side),
            (Way::C2v, Side::Cube) | (Way::V2c, Side::Vector)
        );
        if produces {
            let push = if side == Side::Cube {
                OpKind::PlTileTpushToAiv
            } else {
                OpKind::PlTileTpushToAic
            };
            block.insert_operation_before(
                op,
                OperationBuilder::new(push.name(), op.location())
                    .add_operands(&[source])
                    .add_attributes(&[(Identifier::new(context, "split"), split)])
                    .build()
                    .expect("a push builds"),
            );
        } else {
            let (pop, free) = if side == Side::Cube {
                (OpKind::PlTileTpopFromAiv, OpKind::PlSystemTfreeToAiv)
            } else {
                (OpKind::PlTileTpopFromAic, OpKind::PlSystemTfreeToAic)
            };
            let moved = op.result_opt(0).expect("a move's result");
            let popped = block.insert_operation_before(
                op,
                OperationBuilder::new(pop.name(), op.location())
                    .add_results(&[moved.r#type()])
                    .add_attributes(&[(Identifier::new(context, "split"), split)])
                    .build()
                    .expect("a pop builds"),
            );
            let tile: Value = popped.result(0).unwrap().into();
            pto_dialects::ir::replace_all_uses(moved, tile);
            sink_pop(popped, tile, op);
            // Freed after the tile's last use in the pop's block.
            let mut last = popped;
            let mut cursor = popped.next_in_block();
            while let Some(candidate) = cursor {
                let mut uses = false;
                candidate.walk(WalkOrder::PreOrder, |nested| {
                    uses |= nested.operands().any(|v| v == tile);
                    WalkResult::Advance
                });
                if uses {
                    last = candidate;
                }
                cursor = candidate.next_in_block();
            }
            let free_op = OperationBuilder::new(free.name(), op.location())
                .add_operands(&[tile])
                .build()
                .expect("a free builds");
            if last.next_in_block().is_none() {
                // The terminator yields or returns the tile: it leaves the
                // block as a copy, the slot freed before.
                let uses_tile = last.operands().any(|v| v == tile);
                if uses_tile {
                    if side != Side::Vector {
                        return Err((
                            last,
                            "a tile the cube pops leaves its block (yielded or returned); copy it into a tile of its own first".to_string(),
                        ));
                    }
                    let copy = block.insert_operation_before(
                        last,
                        OperationBuilder::new(OpKind::PlTileMove.name(), op.location())
                            .add_operands(&[tile])
                            .add_results(&[tile.r#type()])
                            .build()
                            .expect("a vec move builds"),
                    );
                    let copied: Value = copy.result(0).unwrap().into();
                    for index in 0..last.operand_count() {
                        if last.operand_opt(index) == Some(tile) {
                            pto_dialects::ir::set_operand(last, index, copied);
                        }
                    }
                }
                block.insert_operation_before(last, free_op);
            } else {
                block.insert_operation_after(last, free_op);
            }
        }
    }
    // The other side's carried tiles leave its loops and branches.
    let other = side.other();
    let mut structured = Vec::new();
    pto_dialects::ir::walk(half, WalkOrder::PostOrder, |op| {
        if matches!(op_name(op), "scf.for" | "scf.if") {
            structured.push(op);
        }
        WalkResult::Advance
    });
    for op in structured {
        drop_other_carries(op, other)?;
    }
    // The other side's ops (and the crossings) go, users first; a store's
    // result is its tensor unchanged.
    let mut doomed = Vec::new();
    pto_dialects::ir::walk(half, WalkOrder::PreOrder, |op| {
        if crossing(op).is_some() || op_side(op) == Some(other) {
            doomed.push(op);
            return WalkResult::Skip;
        }
        WalkResult::Advance
    });
    for &op in doomed.iter().rev() {
        if matches!(OpKind::of(&op), Some(OpKind::PlTileStore))
            && let (Some(result), Some(target)) = (op.result_opt(0), op.operand_opt(1))
        {
            pto_dialects::ir::replace_all_uses(result, target);
        }
    }
    for &op in doomed.iter().rev() {
        for result in op.results() {
            if let Some(user) = first_user(half, result.into()) {
                return Err((
                    user,
                    format!(
                        "the {} half needs this value, which the other core computes (make it cross with a tile)",
                        match side {
                            Side::Cube => "cube",
                            Side::Vector => "vector",
                        }
                    ),
                ));
            }
        }
        pto_dialects::ir::erase(op);
    }
    Ok(())
}

/// The first op in `function` using `value`.
fn first_user<'c, 'a>(
    function: OperationRef<'c, 'a>,
    value: Value,
) -> Option<OperationRef<'c, 'a>> {
    let mut found = None;
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        if op.operands().any(|v| v == value) {
            found = Some(op);
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Moves a pop down its block to just before the first op that uses its
/// tile (`replaced`, the crossing it stands for, aside), not past another
/// push or pop (or a crossing still to become one) or a loop or branch
/// holding one, past frees: the same pops in the same order, each holding
/// its slot for less time. With the frees after
/// the last uses, a consumer then holds one popped tile where its uses do
/// not overlap (SwiGLU's g is freed before u is popped), which is also what
/// pto-isa's CPU backend needs of split pipes: its split consumer frees
/// the slot it popped last.
fn sink_pop(popped: OperationRef, tile: Value, replaced: OperationRef) {
    let mut before = None;
    let mut cursor = popped.next_in_block();
    while let Some(candidate) = cursor {
        if candidate == replaced {
            // The move the pop replaces, erased later.
            cursor = candidate.next_in_block();
            continue;
        }
        let mut stop = false;
        candidate.walk(WalkOrder::PreOrder, |nested| {
            stop |= nested.operands().any(|v| v == tile)
                || crossing(nested).is_some()
                || OpKind::of(&nested).is_some_and(|k| {
                    k.family() == pto_dialects::op_table::Family::CrossCore
                        && !matches!(k, OpKind::PlSystemTfreeToAic | OpKind::PlSystemTfreeToAiv)
                });
            WalkResult::Advance
        });
        if stop || candidate.next_in_block().is_none() {
            before = Some(candidate);
            break;
        }
        cursor = candidate.next_in_block();
    }
    if let Some(before) = before
        && popped.next_in_block() != Some(before)
    {
        pto_dialects::ir::edit(popped).move_before(before);
    }
}

/// `split none`.
fn split_none(context: &Context) -> Attribute<'_> {
    split_attribute(context, CoreSplit::None)
}

/// The `split` keyword attribute of the cross-core ops.
pub(crate) fn split_attribute(context: &Context, split: CoreSplit) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 32).into(), split as i64).into()
}

/// Removes from an `scf.for` or `scf.if` the results (and iteration
/// arguments) that are tiles of `other`'s side.
fn drop_other_carries<'c, 'a>(
    op: OperationRef<'c, 'a>,
    other: Side,
) -> Result<(), Failure<'c, 'a>> {
    let results = op.result_count();
    let dropped: Vec<usize> = (0..results)
        .filter(|&i| {
            op.result_opt(i)
                .is_some_and(|r| tile_side(r.into()) == Some(other))
        })
        .collect();
    if dropped.is_empty() {
        return Ok(());
    }
    let kept: Vec<usize> = (0..results).filter(|i| !dropped.contains(i)).collect();
    let is_for = op_name(op) == "scf.for";
    // The dropped results' users are the other side's ops (erased next):
    // they take a placeholder of the other side meanwhile.
    let block = op
        .block()
        .ok_or((op, "a loop outside a block".to_string()))?;
    for &i in &dropped {
        let result = op.result_opt(i).expect("a result");
        let placeholder = block.insert_operation_before(
            op,
            OperationBuilder::new(OpKind::PlTileCreate.name(), op.location())
                .add_results(&[result.r#type()])
                .build()
                .expect("a placeholder tile builds"),
        );
        pto_dialects::ir::replace_all_uses(result, placeholder.result(0).unwrap());
    }
    if is_for {
        let body = op
            .region_opt(0)
            .and_then(|r| r.first_block())
            .ok_or((op, "a loop without a body".to_string()))?;
        for &i in dropped.iter().rev() {
            let argument = body.argument(i + 1).expect("an iteration argument");
            let init = op.operand_opt(3 + i).expect("an init");
            // Only the other side's ops (erased next) use them.
            pto_dialects::ir::replace_all_uses(argument, init);
            if !pto_dialects::ir::erase_argument(body, i + 1) {
                return Err((op, "a carried tile is still used".to_string()));
            }
        }
        let mut operands: Vec<Value> = (0..3).filter_map(|i| op.operand_opt(i)).collect();
        operands.extend(kept.iter().filter_map(|&i| op.operand_opt(3 + i)));
        keep_results(op, "scf.for", &operands, &kept)
    } else {
        let operands: Vec<Value> = op.operand_opt(0).into_iter().collect();
        keep_results(op, "scf.if", &operands, &kept)
    }
}

/// The pipe set-up at the top of `half`: the consumer's ring of each way
/// reserved, the producer's imported, pipe 0 initialised.
fn set_up_pipe<'c, 'a>(
    context: &'c Context,
    half: OperationRef<'c, 'a>,
    side: Side,
    kernel: &str,
    peer: &str,
    crossed: &Crossings,
) -> Result<(), Failure<'c, 'a>> {
    let body = half
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((half, "a kernel without a body".to_string()))?;
    let first = body
        .first_operation()
        .ok_or((half, "a kernel without a return".to_string()))?;
    let location = half.location();
    let i32_type: Type = IntegerType::new(context, 32).into();
    let i64_attr = |v: i64| -> Attribute {
        IntegerAttribute::new(IntegerType::new(context, 64).into(), v).into()
    };
    let ring = |way: &str, consumes: bool| -> Value<'c, 'a> {
        let buffer = format!("{kernel}_{way}");
        let op = if consumes {
            OperationBuilder::new(OpKind::PlSystemReserveBuffer.name(), location).add_attributes(&[
                (
                    Identifier::new(context, "name"),
                    StringAttribute::new(context, &buffer).into(),
                ),
                (
                    Identifier::new(context, "size"),
                    i64_attr(crossed.slot_bytes * SLOTS),
                ),
            ])
        } else {
            OperationBuilder::new(OpKind::PlSystemImportPeerBuffer.name(), location).add_attributes(
                &[
                    (
                        Identifier::new(context, "name"),
                        StringAttribute::new(context, &buffer).into(),
                    ),
                    (
                        Identifier::new(context, "peer"),
                        FlatSymbolRefAttribute::new(context, peer).into(),
                    ),
                ],
            )
        };
        let op = body.insert_operation_before(
            first,
            op.add_results(&[i32_type])
                .build()
                .expect("a ring op builds"),
        );
        op.result(0).unwrap().into()
    };
    let cube = side == Side::Cube;
    let c2v = crossed.c2v.then(|| ring("c2v", !cube));
    let v2c = crossed.v2c.then(|| ring("v2c", cube));
    let directions = match (crossed.c2v, crossed.v2c) {
        (true, true) => PipeDirections::Both,
        (true, false) => PipeDirections::C2v,
        _ => PipeDirections::V2c,
    };
    let initialize = if cube {
        OpKind::PlSystemAicInitializePipe
    } else {
        OpKind::PlSystemAivInitializePipe
    };
    let operands: Vec<Value> = c2v.into_iter().chain(v2c).collect();
    let op = OperationBuilder::new(initialize.name(), location)
        .add_operands(&operands)
        .add_attributes(&[
            (
                Identifier::new(context, "directions"),
                IntegerAttribute::new(IntegerType::new(context, 32).into(), directions as i64)
                    .into(),
            ),
            (
                Identifier::new(context, "slot_size"),
                i64_attr(crossed.slot_bytes),
            ),
            (Identifier::new(context, "slot_num"), i64_attr(SLOTS)),
        ])
        .build()
        .expect("a pipe set-up builds");
    let op = with_operand_segments(
        context,
        op,
        &[i32::from(crossed.c2v), i32::from(crossed.v2c), 0],
    );
    body.insert_operation_before(first, op);
    Ok(())
}

/// Replaces `function`'s body by calls of its halves (the same arguments)
/// returning the aiv half's results, and makes it a group.
fn make_group<'c, 'a>(
    context: &'c Context,
    function: OperationRef<'c, 'a>,
    names: &(String, String),
) -> Result<(), Failure<'c, 'a>> {
    let body = function
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((function, "a kernel without a body".to_string()))?;
    let arguments: Vec<Value> = (0..body.argument_count())
        .map(|i| body.argument(i).unwrap().into())
        .collect();
    let returned: Vec<Type> = body
        .terminator()
        .map(|t| t.operands().map(|v| v.r#type()).collect())
        .unwrap_or_default();
    // The old body goes (users first).
    let mut old = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        old.push(op);
    }
    for op in old.into_iter().rev() {
        pto_dialects::ir::erase(op);
    }
    let location = function.location();
    let call = |callee: &str| -> Operation<'c> {
        OperationBuilder::new(OpKind::PlCall.name(), location)
            .add_operands(&arguments)
            .add_results(&returned)
            .add_attributes(&[(
                Identifier::new(context, "callee"),
                FlatSymbolRefAttribute::new(context, callee).into(),
            )])
            .build()
            .expect("a call builds")
    };
    body.append_operation(call(&names.0));
    let aiv = body.append_operation(call(&names.1));
    let results: Vec<Value> = aiv.results().map(Into::into).collect();
    body.append_operation(func::r#return(&results, location));
    let mut function = pto_dialects::ir::edit(function);
    function.set_discardable_attribute(
        "pl.kind",
        attrs::function_kind(context, FunctionKind::Group),
    );
    Ok(())
}
