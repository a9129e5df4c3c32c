//! `pl-infer-memory-space`: a memory space for every tile of a kernel.
//! What it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-infer-memory-space.md).

use pto_dialects::ir::ValueKey;
use pto_dialects::ops::Checked;
use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        Attribute, BlockLike, OperationRef, RegionLike, Value, ValueLike,
        operation::{OperationBuilder, OperationLike, OperationMutLike},
    },
};
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
    enums::{FunctionKind, PadValue},
    op_table::{Family, Group, OpKind},
    ops::op_name,
    types::{MemorySpace, TileType, TileView},
};

use super::linear::{Linear, value_key};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-infer-memory-space",
    class_name: "InferMemorySpace",
    summary: "Give every tile of a kernel a memory space, moving operands where needed",
    description: r#"In InCore kernels (`pl.kind` incore, aic or aiv), every tile without a
memory space gets one:

- ops with a fixed output space use it: the matmul family writes `acc`,
  vector ops write `vec`;
- views (`set_validshape`, `reshape`, `transpose_view`) inherit their
  source's space (a transposed view its source's layouts, flipped); loop
  iteration arguments and results their init's; branch results their
  yields';
- `pl.tile.load` and `pl.tile.create` take what their users (or the
  users of their views) demand: a matmul operand makes a load `mat`
  (global memory never loads straight into L0), an accumulator operand
  makes a create `acc`, anything else `vec`.

Where an operand is in the wrong space for its user, a `pl.tile.move` is
inserted before the user: `mat` to `left`, `right` or `bias` for matmul
operands. A kernel that needs both the cube (matmul, L1/L0) and the
vector unit — say, vector math on a matmul result — is a mixed kernel:
in an `incore` kernel the value crossing between them gets a cross-core
move (`acc` to `vec`, `vec` to `mat`, then on into L0 where a matmul
takes it) and the kernel stays `incore`, for `pl-expand-mixed-kernel` to
split into a core group; an `aic` or `aiv` kernel that mixes them is an
error. Any other `incore` kernel becomes `aic` or `aiv` by what it uses
(`aiv` when it has no tile work at all, only scalar accesses or signals:
a vector core's scalar unit runs it). Explicit spaces are never
changed.

```mlir
// before
%am = pl.tile.load %a[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16>
%bm = pl.tile.load %b[%c0, %c0] : !pl.tensor<32x16xf16> -> !pl.tile<32x16xf16>
%p = pl.tile.matmul %am, %bm : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
// after
%am = pl.tile.load %a[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16, mat>
%bm = pl.tile.load %b[%c0, %c0] : !pl.tensor<32x16xf16> -> !pl.tile<32x16xf16, mat>
%l = pl.tile.move %am : !pl.tile<16x32xf16, mat> -> !pl.tile<16x32xf16, left>
%r = pl.tile.move %bm : !pl.tile<32x16xf16, mat> -> !pl.tile<32x16xf16, right>
%p = pl.tile.matmul %l, %r : ... -> !pl.tile<16x16xf32, acc>
```"#,
    example_options: "",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![pto_dialects::pl_handle()],
    run: Run::Op(run),
};

fn is_cube(op: OperationRef) -> bool {
    OpKind::of(&op).is_some_and(|kind| kind.info().is_cube())
}

/// The space operand `index` of `op` must be in (`None`: any).
fn demand(op: OperationRef, index: usize) -> Option<MemorySpace> {
    let info = OpKind::of(&op)?.info();
    if info.is_cube() {
        // The cube operands by their ODS names.
        return match info.operands.get(index)?.name {
            "acc" => Some(MemorySpace::Acc),
            "lhs" => Some(MemorySpace::Left),
            "rhs" => Some(MemorySpace::Right),
            "bias" => Some(MemorySpace::Bias),
            _ => None,
        };
    }
    // Transfers, moves and views take their operand where it is; every
    // other tile op computes in `vec`.
    let anywhere = matches!(
        info.family,
        Family::TileTransfer
            | Family::TileMove
            | Family::RemoteAccess
            | Family::CrossCore
            | Family::CoreBoundary
    ) || info.is_tile_view();
    (info.group == Group::Tile && !anywhere).then_some(MemorySpace::Vec)
}

fn space_of(value: Value) -> Option<MemorySpace> {
    TileType::try_from(value.r#type())
        .ok()
        .and_then(|t| t.memory_space())
}

/// `value`'s tile type in `space`, keeping its valid shape, pad and any
/// layout written explicitly (the `[1, 1]` column a row reduction of a row
/// makes, say): the rest of the view becomes the space's implicit one.
fn in_space<'c>(
    context: &'c Context,
    value: Value<'c, '_>,
    space: MemorySpace,
) -> melior::ir::Type<'c> {
    let tile = TileType::try_from(value.r#type()).expect("a tile");
    let element = melior::ir::ShapedTypeLike::element(&tile);
    let effective = tile.effective_view();
    let shape = tile.shape();
    let full = effective
        .valid_shape
        .iter()
        .zip(&shape)
        .all(|(v, s)| *v == Some(*s));
    // Without a space, only what differs from the space-less implicit view
    // was written.
    let written = |implicit: &pto_dialects::types::EffectiveTileView| {
        tile.memory_space().is_none()
            && (effective.blayout != implicit.blayout
                || effective.slayout != implicit.slayout
                || effective.fractal != implicit.fractal)
    };
    let implicit = TileType::new(context, &shape, element, None).effective_view();
    let layout = written(&implicit);
    let view = TileView {
        valid_shape: (!full).then(|| effective.valid_shape.clone()),
        pad: (effective.pad != PadValue::Null).then_some(effective.pad),
        blayout: layout.then_some(effective.blayout),
        slayout: layout.then_some(effective.slayout),
        fractal: layout.then_some(effective.fractal),
    };
    TileType::with_view(context, &shape, element, Some(space), &view).into()
}

fn run(function: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    infer_memory_space(function)
}

/// Infers `function`'s tile spaces.
pub fn infer_memory_space(function: OperationRef) -> Result<(), PassFailed> {
    if !super::is_kernel(function) {
        return Ok(());
    }
    let context = pto_dialects::ir::context(&function);
    let linear = Linear::of(function);
    // Decide a space for every open tile, to a fixpoint.
    let mut decided: HashMap<ValueKey, MemorySpace> = HashMap::new();
    let space = |decided: &HashMap<ValueKey, MemorySpace>, v: Value| {
        space_of(v).or_else(|| decided.get(&value_key(v)).copied())
    };
    let open: Vec<Value> = linear
        .ops
        .iter()
        .flat_map(|op| {
            let results: Vec<Value> = op.results().map(Into::into).collect();
            let arguments: Vec<Value> = op
                .regions()
                .filter_map(|r| r.first_block())
                .flat_map(|b| {
                    (0..b.argument_count())
                        .map(move |i| b.argument(i).unwrap().into())
                        .collect::<Vec<Value>>()
                })
                .collect();
            results.into_iter().chain(arguments)
        })
        .filter(|v| TileType::try_from(v.r#type()).is_ok() && space_of(*v).is_none())
        .collect();
    for _ in 0..8 {
        let mut changed = false;
        for value in &open {
            if decided.contains_key(&value_key(*value)) {
                continue;
            }
            let Some((owner, is_argument)) = linear.definer(*value) else {
                continue;
            };
            let name = op_name(owner);
            let chosen = if is_argument || matches!(name, "scf.for" | "scf.if") {
                // Loop-carried / branch values follow the init or yields.
                carried_space(*value, owner, is_argument).and_then(|v| space(&decided, v))
            } else if is_cube(owner) {
                Some(MemorySpace::Acc)
            } else if OpKind::of(&owner) == Some(OpKind::PlTileAicGather) {
                // The cube core pops what the vector cores gather into L1.
                Some(MemorySpace::Mat)
            } else if OpKind::of(&owner).is_some_and(|kind| kind.info().is_tile_view()) {
                owner.operand_opt(0).and_then(|v| space(&decided, v))
            } else if let Some(source @ (OpKind::PlTileLoad | OpKind::PlTileCreate)) =
                OpKind::of(&owner)
            {
                Some(retarget(&linear, *value, source == OpKind::PlTileLoad))
            } else {
                Some(MemorySpace::Vec)
            };
            if let Some(chosen) = chosen {
                decided.insert(value_key(*value), chosen);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for value in &open {
        match decided.get(&value_key(*value)) {
            Some(&chosen) => value.set_type(match transposed_source(&linear, *value) {
                // A transposed view's type follows its source's (placed
                // first: `open` is in program order).
                Some(source) => source
                    .transposed_view(context)
                    .expect("a verified transpose_view")
                    .into(),
                None => in_space(context, *value, chosen),
            }),
            None => {
                let owner = linear.definer(*value).map_or(function, |(op, _)| op);
                OpDiagnostic::new(
                    "pl-infer-memory-space: no memory space can be inferred for this tile",
                )
                .emit(owner, Severity::Error);
                return Err(PassFailed);
            }
        }
    }
    insert_moves(context, function)?;
    classify(context, function)
}

/// The source tile of `value` when `pl.tile.transpose_view` defines it.
fn transposed_source<'c>(linear: &Linear<'c, '_>, value: Value<'c, '_>) -> Option<TileType<'c>> {
    let (owner, is_argument) = linear.definer(value)?;
    if is_argument || OpKind::of(&owner) != Some(OpKind::PlTileTransposeView) {
        return None;
    }
    TileType::try_from(owner.operand_opt(0)?.r#type()).ok()
}

/// The value a loop-carried or branch value takes its space from.
fn carried_space<'c, 'a>(
    value: Value<'c, 'a>,
    owner: OperationRef<'c, 'a>,
    is_argument: bool,
) -> Option<Value<'c, 'a>> {
    let name = op_name(owner);
    if name == "scf.for" {
        let body = owner.region_opt(0)?.first_block()?;
        let index = if is_argument {
            (0..body.argument_count())
                .find(|&i| value_key(body.argument(i).unwrap().into()) == value_key(value))?
                .checked_sub(1)?
        } else {
            (0..owner.result_count())
                .find(|&i| value_key(owner.result(i).unwrap().into()) == value_key(value))?
        };
        return owner.operand_opt(3 + index);
    }
    if name == "scf.if" && !is_argument {
        let index = (0..owner.result_count())
            .find(|&i| value_key(owner.result(i).unwrap().into()) == value_key(value))?;
        for region in owner.regions() {
            if let Some(yielded) = region
                .first_block()
                .and_then(|b| b.terminator())
                .and_then(|t| t.operand_opt(index))
            {
                return Some(yielded);
            }
        }
    }
    None
}

/// Where a load or create should place its tile, by its users' demands.
fn retarget<'c, 'a>(linear: &Linear<'c, 'a>, value: Value<'c, 'a>, load: bool) -> MemorySpace {
    match demanded(linear, value, 0) {
        Some(MemorySpace::Left | MemorySpace::Right | MemorySpace::Bias) if load => {
            MemorySpace::Mat
        }
        Some(space) => space,
        None => MemorySpace::Vec,
    }
}

/// The first real demand on `value`, looking through views (a transposed
/// view of a load feeds the matmul) but not into loops.
fn demanded<'c, 'a>(
    linear: &Linear<'c, 'a>,
    value: Value<'c, 'a>,
    depth: usize,
) -> Option<MemorySpace> {
    for &(user, index) in linear.uses(value) {
        let user = linear.ops[user];
        if op_name(user) == "scf.for" {
            continue;
        }
        if let Some(demanded) = demand(user, index) {
            return Some(demanded);
        }
        let is_view = OpKind::of(&user).is_some_and(|kind| kind.info().is_tile_view());
        if is_view && index == 0 && depth < 16 {
            let through = user
                .results()
                .find_map(|result| demanded(linear, result.into(), depth + 1));
            if through.is_some() {
                return through;
            }
        }
    }
    None
}

/// The moves that bring a tile from `have` to `want`: within a core
/// (`mat` into L0), or, in an `incore` kernel (`mixed`), across the cores
/// of a core group (an accumulator to the vector cores, a vector tile to
/// the cube's L1) and on into L0; `None` when no path exists.
fn path(have: MemorySpace, want: MemorySpace, mixed: bool) -> Option<Vec<MemorySpace>> {
    use MemorySpace::{Acc, Bias, Left, Mat, Right, Vec};
    let into_l0 = matches!(want, Left | Right | Bias);
    Some(match (have, want) {
        (Mat, _) if into_l0 => vec![want],
        (Acc, Vec) if mixed => vec![Vec],
        (Acc, _) if into_l0 && mixed => vec![Mat, want],
        (Vec, Mat) if mixed => vec![Mat],
        (Vec, _) if into_l0 && mixed => vec![Mat, want],
        _ => return None,
    })
}

/// Moves operands into the space their user demands.
fn insert_moves<'c>(
    context: &'c Context,
    function: OperationRef<'c, '_>,
) -> Result<(), PassFailed> {
    let linear = Linear::of(function);
    let mixed = attrs::kind_of(function) == Some(FunctionKind::InCore);
    let mut failed = false;
    for op in &linear.ops {
        for index in 0..op.operand_count() {
            let operand = op.operand(index).unwrap();
            let (Some(have), Some(want)) = (space_of(operand), demand(*op, index)) else {
                continue;
            };
            if have == want {
                continue;
            }
            let Some(steps) = path(have, want, mixed) else {
                let why = if mixed || have == MemorySpace::Mat {
                    format!(
                        "no move takes a tile from {have} to {want} (load it again where it is needed)"
                    )
                } else {
                    "moving it is a cross-core transfer, which only an incore kernel (split by pl-expand-mixed-kernel) makes".to_string()
                };
                OpDiagnostic::new(format!(
                    "pl-infer-memory-space: this op needs operand #{index} in {want}, but it is in {have}: {why}"
                ))
                .emit(*op, Severity::Error);
                failed = true;
                continue;
            };
            let block = op.block().expect("in a block");
            let mut moved = operand;
            for step in steps {
                let next = block.insert_operation_before(
                    *op,
                    OperationBuilder::new(OpKind::PlTileMove.name(), op.location())
                        .add_operands(&[moved])
                        .add_results(&[in_space(context, moved, step)])
                        .build()
                        .expect("pl.tile.move builds"),
                );
                moved = next.result(0).unwrap().into();
            }
            let mut user = pto_dialects::ir::edit(*op);
            user.set_operand(index, moved);
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// Rejects mixed kernels; an `incore` kernel becomes `aic` or `aiv`.
fn classify<'c>(context: &'c Context, function: OperationRef<'c, '_>) -> Result<(), PassFailed> {
    let linear = Linear::of(function);
    let (mut cube, mut vector): (Option<OperationRef>, Option<OperationRef>) = (None, None);
    for op in &linear.ops {
        for result in op.results() {
            match space_of(result.into()) {
                Some(MemorySpace::Vec) => {
                    vector.get_or_insert(*op);
                }
                Some(MemorySpace::Ddr) | None => {}
                Some(_) => {
                    cube.get_or_insert(*op);
                }
            }
        }
    }
    let Some(kind) = attrs::kind_of(function) else {
        return Ok(());
    };
    if let (Some(cube), Some(vector)) = (cube, vector) {
        // An incore kernel that mixes them stays incore: pl-expand-mixed-kernel
        // makes a core group of it.
        if kind == FunctionKind::InCore {
            return Ok(());
        }
        OpDiagnostic::new(format!(
            "pl-infer-memory-space: this {kind} kernel mixes cube and vector work: declare it incore, and pl-expand-mixed-kernel splits it into a core group"
        ))
        .with_note(cube.location(), "cube work")
        .with_note(vector.location(), "vector work")
        .emit(function, Severity::Error);
        return Err(PassFailed);
    }
    // A kernel without tile work (scalar accesses, signals) runs on a
    // vector core's scalar unit.
    if kind == FunctionKind::InCore {
        let new_kind = if cube.is_some() {
            FunctionKind::Aic
        } else {
            FunctionKind::Aiv
        };
        if let Some(split) = attrs::split_of(function) {
            // pl.split shares a mixed kernel's vector work between the
            // vector cores; this kernel runs on one core.
            OpDiagnostic::new(format!(
                "pl-infer-memory-space: the kernel is split {split} but runs on one {} core: its split is dropped",
                if new_kind == FunctionKind::Aic { "cube" } else { "vector" }
            ))
            .emit(function, Severity::Warning);
            pto_dialects::ir::edit(function)
                .remove_attribute("pl.split")
                .ok();
        }
        let attribute: Attribute = attrs::function_kind(context, new_kind);
        let mut function = pto_dialects::ir::edit(function);
        function.set_discardable_attribute("pl.kind", attribute);
    }
    Ok(())
}
