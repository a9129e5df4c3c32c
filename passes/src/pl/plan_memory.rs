//! `pl-plan-memory`: every on-chip tile gets a byte address in its memory
//! space. What it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-plan-memory.md).

use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::Checked;
use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        Attribute, BlockLike, Identifier, OperationRef, RegionLike, Type, Value, ValueLike,
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, OperationMutLike},
    },
};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    ops::{op_name, operand_at, result_at},
    types::{MemorySpace, TileType},
};

use super::linear::{Interval, Linear, OpKey, op_key, value_key};
use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-plan-memory",
    class_name: "PlanMemory",
    summary: "Assign every on-chip tile a byte address in its memory space",
    description: r#"Plans the on-chip memory of every InCore kernel (`pl.kind` incore, aic or
aiv; other functions are left alone): each tile
gets a byte address in its memory space, recorded on the op that defines it
as `pl.addresses` (one entry per result; -1 for results that are not
on-chip tiles; loop and branch block arguments share their op's entries),
and the function gets `pl.memory`, the bytes used per space.

Buffers. A tile is a buffer, except: a view (`pl.tile.set_validshape`,
`pl.tile.reshape`) is its source's buffer; an in-place op's result
(`matmul_acc`/`gemv_acc` on the accumulator, `tile.write`, the target of
`tile.assemble` and `tile.expands`) is its operand's buffer; a loop's init,
iteration argument, yielded value and result are one buffer (loop-carried
tiles are updated in place), and so are a branch's yielded values and its
result. Where sharing would clobber a value still needed (an init used
after the loop, an in-place operand used later, a yielded value that
cannot take the carried buffer), a `pl.tile.move` copy is inserted;
accumulators cannot be copied (there is no Acc→Acc move), which is an
error.

Reuse. Each buffer is live from its definition to its last use; a use
inside a loop of a tile defined outside keeps it live to the loop's end.
Two buffers may share memory when their lifetimes do not overlap; a buffer
may take over an operand's memory at the op that last reads it only for
elementwise ops with the same type (in-place safe). Buffers are placed per
space largest-first at the lowest aligned address free of every buffer
live at the same time. `reuse=false` gives every buffer its own memory (the
baseline). `spread=true` gives every buffer of a space its own memory
while all of them fit that way, and shares as above only when they do
not (each space on its own: the left blocks of L0A sharing leaves the
accumulators of L0C apart): a tile that
takes over another's memory must wait for that tile's last reader, which
in straight-line code (a loop `pl-unroll-loops` unrolled) keeps a load
from overlapping the compute before it. `pto-a2a3-pipeline` spreads.

Copies. The ops of copy k of a loop body `pl-double-buffer` unrolled carry
`pl.buffer_set = k`: tiles of different copies of one loop never share
memory, so one copy's loads need not wait for the other copy's compute.
When the copies in a space do not all fit that way, that space is planned
as if they were not marked (slower, as correct). Either way the marks are removed.

Rings. A kernel of a core group reserves the ring of slots the other core
pushes into (`pl.system.reserve_buffer`, in `vec` on a vector core, `mat`
on the cube): the ring is a buffer of its size live for the whole kernel,
placed first (at its `base` when it has one, else where it fits), and
every tile the pops of its pipe take is that buffer (a2a3's TPOP points
the popped tile into its slot). The reservation gets the ring's address
as its `base`.

Capacities and alignments (`arch`): a2a3 — vec (UB) 184 KiB (of its 192 KiB;
pto-isa's instructions use the top 8 KiB as their scratch), mat (L1)
512 KiB, left/right (L0A/L0B) 64 KiB, acc (L0C) 128 KiB, bias 64 KiB;
alignment 32 B for vec/mat, 512 B for left/right/acc, 64 B for bias. a5 —
vec 248 KiB, acc 256 KiB, the rest as a2a3. Accumulator rows are padded to
16. A tile that does not fit is an error naming the buffers live with it.

```mlir
// before
%a = pl.tile.load %x[%c0, %c0] : !pl.tensor<64x128xf32> -> !pl.tile<64x128xf32, vec>
%b = pl.tile.exp %a : !pl.tile<64x128xf32, vec>
// after
%a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : ...
%b = pl.tile.exp %a {pl.addresses = array<i64: 0>} : ...   // in place: %a dies here
```"#,
    example_options: "",
    anchor: Some("func.func"),
    options: &[
        OptionSpec {
            name: "arch",
            kind: OptionKind::Enum(&["a2a3", "a5"]),
            description: "The memory capacities to plan for",
            default: "a2a3",
        },
        OptionSpec {
            name: "reuse",
            kind: OptionKind::Bool,
            description: "Share memory between tiles whose lifetimes do not overlap (false: every tile its own)",
            default: "true",
        },
        OptionSpec {
            name: "spread",
            kind: OptionKind::Bool,
            description: "Give every tile its own memory while all fit that way (no tile waits to take over another's memory); share only when they do not",
            default: "false",
        },
    ],
    dependent_dialects: || vec![pto_dialects::pl_handle()],
    run: Run::Op(run),
};

pub use crate::target::a2a3::{space_limits, tile_bytes};

/// An on-chip tile's type, or `None`.
fn on_chip<'c>(value: Value<'c, '_>) -> Option<TileType<'c>> {
    let tile = TileType::try_from(value.r#type()).ok()?;
    match tile.memory_space() {
        Some(MemorySpace::Ddr) => None,
        _ => Some(tile),
    }
}

/// Ops whose result is a view of operand 0.
fn is_view(op: OperationRef) -> bool {
    OpKind::of(&op).is_some_and(|kind| kind.info().is_tile_view())
}

/// The operand an op updates in place (its result is that buffer).
fn in_place_operand(op: OperationRef) -> Option<usize> {
    OpKind::of(&op).and_then(|kind| kind.info().tied_operand)
}

/// Whether `op` may write its result over operand `index` as it reads it
/// (an elementwise op whose operand has the result's type).
fn in_place_safe(op: OperationRef, index: usize) -> bool {
    OpKind::of(&op).is_some_and(|kind| kind.info().in_place_operands.contains(&index))
        && result_at(op, 0).is_some_and(|r| {
            operand_at(op, index).is_some_and(|operand| operand.r#type() == r.r#type())
        })
}

/// A consumer's ring of pipe slots (`pl.system.reserve_buffer`): memory of
/// the kernel's space held for the whole kernel, where every tile its pops
/// take lives (a2a3's TPOP points the popped tile into its slot).
struct Ring<'c, 'a> {
    reserve: OperationRef<'c, 'a>,
    space: MemorySpace,
    bytes: u64,
    base: Option<u64>,
    /// The pops whose tiles it holds.
    pops: Vec<Value<'c, 'a>>,
}

/// The rings of an aic or aiv kernel, each with the pops of the pipe whose
/// set-up names it.
fn rings<'c, 'a>(function: OperationRef<'c, 'a>, linear: &Linear<'c, 'a>) -> Vec<Ring<'c, 'a>> {
    use pto_dialects::enums::FunctionKind;
    let space = match pto_dialects::attrs::kind_of(function) {
        Some(FunctionKind::Aiv) => MemorySpace::Vec,
        Some(FunctionKind::Aic) => MemorySpace::Mat,
        _ => return Vec::new(),
    };
    let int = |op: OperationRef, name: &str| {
        op.attribute(name)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
    };
    let mut rings: Vec<Ring> = Vec::new();
    // Pipe id -> the ring its set-up takes on this (the consuming) side.
    let mut by_pipe: HashMap<i64, usize> = HashMap::new();
    for op in &linear.ops {
        match OpKind::of(op) {
            Some(OpKind::PlSystemReserveBuffer) => rings.push(Ring {
                reserve: *op,
                space,
                bytes: int(*op, "size").unwrap_or(0).max(0) as u64,
                base: int(*op, "base").map(|b| b.max(0) as u64),
                pops: Vec::new(),
            }),
            Some(OpKind::PlSystemAicInitializePipe | OpKind::PlSystemAivInitializePipe) => {
                let segments = pto_dialects::ops::operand_segments(*op);
                // The consumer's ring: v2c on the cube, c2v on a vector core.
                let segment = if space == MemorySpace::Mat { 1 } else { 0 };
                let ring = segments
                    .get(segment)
                    .filter(|(_, len)| *len == 1)
                    .and_then(|(start, _)| op.operand_opt(*start))
                    .and_then(|v| melior::ir::operation::OperationResult::try_from(v).ok())
                    .map(|r| r.owner())
                    .and_then(|owner| rings.iter().position(|ring| ring.reserve == owner));
                if let Some(ring) = ring {
                    by_pipe.insert(int(*op, "id").unwrap_or(0), ring);
                }
            }
            Some(OpKind::PlTileTpopFromAic | OpKind::PlTileTpopFromAiv) => {
                if let (Some(&ring), Some(result)) =
                    (by_pipe.get(&int(*op, "id").unwrap_or(0)), result_at(*op, 0))
                {
                    rings[ring].pops.push(result);
                }
            }
            _ => {}
        }
    }
    rings
}

fn run(function: OperationRef, options: &OptionValues) -> Result<(), PassFailed> {
    plan_memory(
        function,
        options.string("arch") == "a5",
        options.bool("reuse"),
        options.bool("spread"),
    )
}

/// How a plan lets buffers share memory.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sharing {
    /// Every buffer its own memory.
    None,
    /// Buffers whose lifetimes do not overlap, except those of different
    /// copies of one double-buffered loop.
    ApartCopies,
    /// Buffers whose lifetimes do not overlap.
    Disjoint,
}

/// Plans `function`'s on-chip memory.
pub fn plan_memory(
    function: OperationRef,
    a5: bool,
    reuse: bool,
    spread: bool,
) -> Result<(), PassFailed> {
    let Some(_) = function.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    if !super::is_kernel(function) {
        return Ok(());
    }
    let context = pto_dialects::ir::context(&function);
    let linear = Linear::of(function);
    if !has_tiles(&linear) {
        return Ok(());
    }
    check_spaces(&linear)?;
    let linear = insert_copies(function, linear)?;
    let rings = rings(function, &linear);
    let mut classes = Classes::build(&linear);
    // A ring's pops are one buffer: the ring.
    for ring in &rings {
        for pair in ring.pops.windows(2) {
            classes.union(pair[0], pair[1]);
        }
    }
    // The first plan that fits, from the most memory given to the least:
    // every buffer its own (when spreading); the copies of a
    // double-buffered loop apart; any buffers with disjoint lifetimes
    // sharing (slower, as correct), which reports what does not fit.
    let separated = linear.ops.iter().any(|op| op.has_attribute(BUFFER_SET));
    let mut attempts = Vec::new();
    if spread || !reuse {
        attempts.push(Sharing::None);
    }
    if reuse && separated {
        attempts.push(Sharing::ApartCopies);
    }
    if reuse {
        attempts.push(Sharing::Disjoint);
    }
    // Each space takes the first attempt that fits it: the spaces are
    // planned apart, so a space that must share does not make the others
    // share too.
    let last = attempts.len() - 1;
    let mut tried: HashMap<MemorySpace, usize> = HashMap::new();
    let placed = loop {
        let choice = |space: MemorySpace| {
            let i = tried.get(&space).copied().unwrap_or(0).min(last);
            (attempts[i], i == last)
        };
        match place(&linear, &classes, &rings, a5, &choice) {
            Ok(plan) => break plan,
            Err(Unplaced::Retry(space)) => *tried.entry(space).or_default() += 1,
            Err(Unplaced::Reported) => return Err(PassFailed),
        }
    };
    annotate(context, function, &linear, &classes, &placed);
    // The marks have served: the plan now keeps the copies apart.
    for op in &linear.ops {
        if op.has_attribute(BUFFER_SET) {
            let _ = pto_dialects::ir::edit(*op).remove_attribute(BUFFER_SET);
        }
    }
    Ok(())
}

/// The discardable attribute `pl-double-buffer` marks each copy of an
/// unrolled loop body with (copy k of the loop's body: `pl.buffer_set =
/// k`): tiles of different copies of one loop are given different memory,
/// so one copy's transfers need not wait for the other copy's compute.
pub const BUFFER_SET: &str = "pl.buffer_set";

/// The loop and copy `value` belongs to: the nearest op around its
/// definition marked [`BUFFER_SET`] (block arguments belong to no copy).
fn buffer_set(linear: &Linear, value: Value) -> Option<(OpKey, i64)> {
    let (mut op, false) = linear.definer(value)? else {
        return None;
    };
    loop {
        if let Some(set) = op
            .attribute(BUFFER_SET)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
        {
            return Some((op_key(op.parent_operation()?), set.value()));
        }
        op = op.parent_operation()?;
        if op_name(op) == "func.func" {
            return None;
        }
    }
}

/// Whether any op makes a tile.
fn has_tiles(linear: &Linear) -> bool {
    linear.ops.iter().any(|op| {
        op.results()
            .any(|r| TileType::try_from(Value::from(r).r#type()).is_ok())
    })
}

/// Every tile must have a memory space.
fn check_spaces(linear: &Linear) -> Result<(), PassFailed> {
    let mut failed = false;
    for op in &linear.ops {
        for result in op.results() {
            if let Ok(tile) = TileType::try_from(Value::from(result).r#type())
                && tile.memory_space().is_none()
            {
                OpDiagnostic::new("pl-plan-memory: this tile has no memory space; run pl-infer-memory-space first")
                    .emit(*op, Severity::Error);
                failed = true;
            }
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// Inserts `%copy = pl.tile.move %value` before `anchor` and returns it.
fn copy_before<'c, 'a>(anchor: OperationRef<'c, 'a>, value: Value<'c, 'a>) -> Value<'c, 'a> {
    let block = anchor.block().expect("in a block");
    let op = OperationBuilder::new(OpKind::PlTileMove.name(), anchor.location())
        .add_operands(&[value])
        .add_results(&[value.r#type()])
        .build()
        .expect("pl.tile.move builds");
    block
        .insert_operation_before(anchor, op)
        .result(0)
        .expect("one result")
        .into()
}

fn accumulator_error(op: OperationRef, what: &str) -> PassFailed {
    OpDiagnostic::new(format!(
        "pl-plan-memory: {what}, but an accumulator cannot be copied (there is no acc-to-acc move); update it in place"
    ))
    .emit(op, Severity::Error);
    PassFailed
}

fn is_acc(value: Value) -> bool {
    on_chip(value).and_then(|t| t.memory_space()) == Some(MemorySpace::Acc)
}

/// Copies where sharing a buffer would clobber a live value; returns
/// `linear`, made again when copies were inserted.
fn insert_copies<'c, 'a>(
    function: OperationRef<'c, 'a>,
    linear: Linear<'c, 'a>,
) -> Result<Linear<'c, 'a>, PassFailed> {
    // In-place operands and loop inits still used afterwards.
    let mut edits: Vec<(usize, usize, bool)> = Vec::new(); // (op position, operand, is acc)
    for (position, op) in linear.ops.iter().enumerate() {
        let name = op_name(*op);
        let operands: Vec<usize> = match (name, in_place_operand(*op)) {
            ("scf.for", _) => (3..op.operand_count())
                .filter(|&i| on_chip(op.operand(i).unwrap()).is_some())
                .collect(),
            (_, Some(index)) => vec![index],
            _ => Vec::new(),
        };
        for index in operands {
            let value = op.operand(index).unwrap();
            if on_chip(value).is_some()
                && linear.interval(value).end > linear.end(*op).max(position)
            {
                edits.push((position, index, is_acc(value)));
            }
        }
    }
    for &(position, index, acc) in &edits {
        let op = linear.ops[position];
        if acc {
            return Err(accumulator_error(
                op,
                "this accumulator is still used after it is updated in place",
            ));
        }
        let copy = copy_before(op, op.operand(index).unwrap());
        pto_dialects::ir::set_operand(op, index, copy);
    }
    // Yields that cannot take the carried (or branch result) buffer.
    let linear = if edits.is_empty() {
        linear
    } else {
        Linear::of(function)
    };
    let mut yields: Vec<(usize, usize, bool)> = Vec::new();
    for (position, op) in linear.ops.iter().enumerate() {
        if op_name(*op) != "scf.yield" {
            continue;
        }
        let Some(parent) = op.parent_operation() else {
            continue;
        };
        let parent_name = op_name(parent);
        for (index, value) in op.operands().enumerate() {
            if on_chip(value).is_none() {
                continue;
            }
            let fits = match parent_name {
                "scf.for" => {
                    let body = parent.region(0).unwrap().first_block().unwrap();
                    let carried: Value = body.argument(index + 1).unwrap().into();
                    value_key(value) == value_key(carried)
                        || takes_carried(&linear, value, carried, position)
                }
                "scf.if" => defined_inside(&linear, value, parent),
                _ => true,
            };
            if !fits {
                yields.push((position, index, is_acc(value)));
            }
        }
    }
    for &(position, index, acc) in &yields {
        let op = linear.ops[position];
        if acc {
            return Err(accumulator_error(
                op,
                "this yielded accumulator cannot share the carried buffer",
            ));
        }
        let copy = copy_before(op, op.operand(index).unwrap());
        pto_dialects::ir::set_operand(op, index, copy);
    }
    Ok(if yields.is_empty() {
        linear
    } else {
        Linear::of(function)
    })
}

/// Whether yielded `value` (yield at `at`) can be computed in the carried
/// argument's buffer: defined in the body after the carried value's last
/// use there (or at it, in place), and not reachable from outside.
fn takes_carried<'c, 'a>(
    linear: &Linear<'c, 'a>,
    value: Value<'c, 'a>,
    carried: Value<'c, 'a>,
    at: usize,
) -> bool {
    let Some((definer, is_argument)) = linear.definer(value) else {
        return false;
    };
    if is_argument || is_view(definer) {
        return false;
    }
    let def = linear.def_point(value);
    let last_use = linear
        .uses(carried)
        .iter()
        .map(|&(p, _)| p)
        .filter(|&p| p < at)
        .max();
    let uses_after: bool = linear.uses(value).iter().any(|&(p, _)| p != at);
    if uses_after && linear.interval(value).end > at {
        return false;
    }
    match last_use {
        None => true,
        Some(last) if last < def => true,
        Some(last) if last == def => linear.uses(carried).iter().any(|&(p, index)| {
            p == def
                && (in_place_safe(linear.ops[p], index)
                    || in_place_operand(linear.ops[p]) == Some(index))
        }),
        _ => false,
    }
}

fn defined_inside<'c, 'a>(
    linear: &Linear<'c, 'a>,
    value: Value<'c, 'a>,
    region_op: OperationRef<'c, 'a>,
) -> bool {
    match linear.definer(value) {
        Some((op, false)) => {
            op != region_op && linear.within(linear.position(op), region_op) && !is_view(op)
        }
        _ => false,
    }
}

/// Values grouped into buffers (union-find over value keys).
struct Classes<'c, 'a> {
    parent: HashMap<ValueKey, ValueKey>,
    values: HashMap<ValueKey, Value<'c, 'a>>,
}

impl<'c, 'a> Classes<'c, 'a> {
    fn build(linear: &Linear<'c, 'a>) -> Self {
        let mut classes = Classes {
            parent: HashMap::new(),
            values: HashMap::new(),
        };
        for op in &linear.ops {
            for result in op.results() {
                let value: Value = result.into();
                if on_chip(value).is_some() {
                    classes.add(value);
                }
            }
            for region in op.regions() {
                if let Some(block) = region.first_block() {
                    for i in 0..block.argument_count() {
                        let value: Value = block.argument(i).unwrap().into();
                        if on_chip(value).is_some() {
                            classes.add(value);
                        }
                    }
                }
            }
        }
        for op in &linear.ops {
            let name = op_name(*op);
            let first_result = || -> Option<Value<'c, 'a>> { result_at(*op, 0) };
            if is_view(*op)
                && let (Some(result), Ok(source)) = (first_result(), op.operand(0))
            {
                classes.union(result, source);
            }
            if let (Some(index), Some(result)) = (in_place_operand(*op), first_result()) {
                classes.union(result, op.operand(index).unwrap());
            }
            match name {
                "scf.for" => {
                    let body = op.region(0).unwrap().first_block().unwrap();
                    let terminator = body.terminator().expect("scf.yield");
                    for (i, result) in op.results().enumerate() {
                        let result: Value = result.into();
                        if on_chip(result).is_none() {
                            continue;
                        }
                        classes.union(result, op.operand(3 + i).unwrap());
                        classes.union(result, body.argument(i + 1).unwrap().into());
                        classes.union(result, terminator.operand(i).unwrap());
                    }
                }
                "scf.if" => {
                    for region in op.regions() {
                        let Some(terminator) = region.first_block().and_then(|b| b.terminator())
                        else {
                            continue;
                        };
                        for (i, result) in op.results().enumerate() {
                            let result: Value = result.into();
                            if on_chip(result).is_some()
                                && let Ok(yielded) = terminator.operand(i)
                            {
                                classes.union(result, yielded);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        classes
    }

    fn add(&mut self, value: Value<'c, 'a>) {
        let key = value_key(value);
        self.parent.entry(key).or_insert(key);
        self.values.insert(key, value);
    }

    fn find(&mut self, key: ValueKey) -> ValueKey {
        let parent = self.parent[&key];
        if parent == key {
            return key;
        }
        let root = self.find(parent);
        self.parent.insert(key, root);
        root
    }

    fn union(&mut self, a: Value<'c, 'a>, b: Value<'c, 'a>) {
        let (a, b) = (value_key(a), value_key(b));
        if !self.parent.contains_key(&a) || !self.parent.contains_key(&b) {
            return;
        }
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(ra.max(rb), ra.min(rb));
        }
    }

    /// Each buffer's member values, in a deterministic order.
    fn groups(&mut self, linear: &Linear<'c, 'a>) -> Vec<Vec<Value<'c, 'a>>> {
        let keys: Vec<ValueKey> = self.parent.keys().copied().collect();
        let mut groups: HashMap<ValueKey, Vec<Value<'c, 'a>>> = HashMap::new();
        for key in keys {
            let root = self.find(key);
            groups.entry(root).or_default().push(self.values[&key]);
        }
        let mut groups: Vec<Vec<Value>> = groups.into_values().collect();
        for group in &mut groups {
            group.sort_by_key(|v| (linear.def_point(*v), value_key(*v)));
        }
        // Program order of the first definition; ties (none expected) by key.
        groups.sort_by_key(|g| (linear.def_point(g[0]), value_key(g[0])));
        groups
    }
}

/// A planned buffer.
struct Buffer<'c, 'a> {
    members: Vec<Value<'c, 'a>>,
    intervals: Vec<Interval>,
    space: MemorySpace,
    bytes: u64,
    address: u64,
    /// The `reserve_buffer` when this is a ring, and the address it asks
    /// for.
    ring: Option<(OperationRef<'c, 'a>, Option<u64>)>,
    /// The copies of double-buffered loops its members belong to.
    sets: Vec<(OpKey, i64)>,
}

/// Whether `a` and `b` hold tiles of different copies of one
/// double-buffered loop.
fn other_copies(a: &Buffer, b: &Buffer) -> bool {
    a.sets.iter().any(|(loop_a, set_a)| {
        b.sets
            .iter()
            .any(|(loop_b, set_b)| loop_a == loop_b && set_a != set_b)
    })
}

fn overlap(linear: &Linear, a: &Buffer, b: &Buffer) -> bool {
    // Every case below needs a member of each live at or next to the
    // other's: buffers whose spans are apart need no pairwise look.
    let span = |buffer: &Buffer| {
        buffer
            .intervals
            .iter()
            .fold((usize::MAX, 0), |(def, end), interval| {
                (def.min(interval.def), end.max(interval.end))
            })
    };
    let ((a_def, a_end), (b_def, b_end)) = (span(a), span(b));
    if a_end < b_def || b_end < a_def {
        return false;
    }
    for (x, vx) in a.intervals.iter().zip(&a.members) {
        for (y, vy) in b.intervals.iter().zip(&b.members) {
            if x.def < y.end && y.def < x.end {
                return true;
            }
            if x.def == y.def {
                return true;
            }
            // Touching: one dies where the other is born; fine only for an
            // in-place-safe op reading the dying value.
            let touching = |dying: &Interval, dying_value: &Value, born: &Interval| {
                dying.end == born.def
                    && !linear
                        .uses(*dying_value)
                        .iter()
                        .any(|&(p, index)| p == born.def && in_place_safe(linear.ops[p], index))
            };
            if touching(x, vx, y) || touching(y, vy, x) {
                return true;
            }
        }
    }
    false
}

/// Places every buffer, sharing memory as `sharing` allows; `report`
/// emits the error when a buffer does not fit.
/// Why [`place`] made no plan.
enum Unplaced {
    /// A space's buffers did not fit with the sharing asked of it, which
    /// was not the last to try (nothing reported).
    Retry(MemorySpace),
    /// Diagnosed.
    Reported,
}

/// Places every buffer; `choice` gives each space its sharing and whether
/// it is the last one to try (an overflow is then reported).
fn place<'c, 'a>(
    linear: &Linear<'c, 'a>,
    classes: &Classes<'c, 'a>,
    rings: &[Ring<'c, 'a>],
    a5: bool,
    choice: &dyn Fn(MemorySpace) -> (Sharing, bool),
) -> Result<Vec<Buffer<'c, 'a>>, Unplaced> {
    let mut classes = Classes {
        parent: classes.parent.clone(),
        values: classes.values.clone(),
    };
    let mut buffers: Vec<Buffer> = classes
        .groups(linear)
        .into_iter()
        .map(|members| {
            let types: Vec<TileType> = members.iter().filter_map(|v| on_chip(*v)).collect();
            let space = types[0].memory_space().expect("checked");
            let mut sets: Vec<(OpKey, i64)> = if choice(space).0 == Sharing::ApartCopies {
                members
                    .iter()
                    .filter_map(|v| buffer_set(linear, *v))
                    .collect()
            } else {
                Vec::new()
            };
            sets.sort();
            sets.dedup();
            Buffer {
                intervals: members.iter().map(|v| linear.interval(*v)).collect(),
                space,
                bytes: types.iter().map(|t| tile_bytes(*t)).max().unwrap_or(0),
                members,
                address: 0,
                ring: None,
                sets,
            }
        })
        .collect();
    // Rings: the buffer of their pops (else one of their own), the ring's
    // bytes, live for the whole kernel.
    let whole = Interval {
        def: 0,
        end: linear.ops.len(),
    };
    for ring in rings {
        let held = buffers
            .iter()
            .position(|b| ring.pops.first().is_some_and(|pop| b.members.contains(pop)));
        let index = match held {
            Some(index) => index,
            None => {
                let reserved = result_at(ring.reserve, 0).expect("a reservation's address");
                buffers.push(Buffer {
                    members: vec![reserved],
                    intervals: Vec::new(),
                    space: ring.space,
                    bytes: 0,
                    address: 0,
                    ring: None,
                    sets: Vec::new(),
                });
                buffers.len() - 1
            }
        };
        let buffer = &mut buffers[index];
        buffer.intervals = vec![whole; buffer.members.len()];
        buffer.space = ring.space;
        buffer.bytes = buffer.bytes.max(ring.bytes);
        buffer.ring = Some((ring.reserve, ring.base));
    }
    // Rings at their base first, then the other rings, then largest
    // first, then program order.
    let mut order: Vec<usize> = (0..buffers.len()).collect();
    order.sort_by_key(|&i| {
        let rank = match buffers[i].ring {
            Some((_, Some(_))) => 0,
            Some((_, None)) => 1,
            None => 2,
        };
        (rank, std::cmp::Reverse(buffers[i].bytes), i)
    });
    let mut placed: Vec<usize> = Vec::new();
    for i in order {
        let (capacity, align) = space_limits(buffers[i].space, a5).expect("an on-chip space");
        let (sharing, report) = choice(buffers[i].space);
        let retry = Unplaced::Retry(buffers[i].space);
        let mut busy: Vec<(u64, u64)> = placed
            .iter()
            .filter(|&&j| {
                buffers[j].space == buffers[i].space
                    && (sharing == Sharing::None
                        || other_copies(&buffers[i], &buffers[j])
                        || overlap(linear, &buffers[i], &buffers[j]))
            })
            .map(|&j| (buffers[j].address, buffers[j].address + buffers[j].bytes))
            .collect();
        busy.sort();
        let mut address = 0u64;
        for (start, end) in &busy {
            if address + buffers[i].bytes <= *start {
                break;
            }
            address = address.max(end.div_ceil(align) * align);
        }
        if let Some((reserve, Some(base))) = buffers[i].ring {
            let clash = busy
                .iter()
                .any(|(start, end)| base < *end && *start < base + buffers[i].bytes);
            if (clash || base % align != 0) && !report {
                return Err(retry);
            }
            if clash || base % align != 0 {
                OpDiagnostic::new(format!(
                    "pl-plan-memory: the ring at {base} ({} B of {}) {}",
                    buffers[i].bytes,
                    buffers[i].space,
                    if clash {
                        "overlaps another ring"
                    } else {
                        "is not aligned"
                    }
                ))
                .emit(reserve, Severity::Error);
                return Err(Unplaced::Reported);
            }
            address = base;
        }
        if address + buffers[i].bytes > capacity && !report {
            return Err(retry);
        }
        if address + buffers[i].bytes > capacity {
            let live: Vec<usize> = placed
                .iter()
                .copied()
                .filter(|&j| {
                    buffers[j].space == buffers[i].space
                        && overlap(linear, &buffers[i], &buffers[j])
                })
                .collect();
            let total: u64 = live.iter().map(|&j| buffers[j].bytes).sum::<u64>() + buffers[i].bytes;
            let def = buffers[i].members[0];
            let anchor = match buffers[i].ring {
                Some((reserve, _)) => reserve,
                None => linear
                    .definer(def)
                    .map(|(op, _)| op)
                    .expect("a defining op"),
            };
            let mut diagnostic = OpDiagnostic::new(format!(
                "pl-plan-memory: {} overflows: this tile needs {} B at address {address}, past the {capacity} B of {}; {} B are live here in {} buffers{}",
                buffers[i].space,
                buffers[i].bytes,
                buffers[i].space,
                total,
                live.len() + 1,
                if buffers[i].bytes > capacity {
                    " (a kernel's tensors become whole tiles unless pl-convert-tensor-to-tile runs it in blocks: compute in blocks that fit, with a loop over pl.tensor.slice windows, or give the tensors a dynamic leading extent, which pl-convert-tensor-to-tile runs in strips of rows)"
                } else {
                    ""
                }
            ));
            for &j in &live {
                let member = buffers[j].members[0];
                diagnostic = diagnostic.with_note(
                    member.location(),
                    format!(
                        "live: {} ({} B at {})",
                        member.r#type(),
                        buffers[j].bytes,
                        buffers[j].address
                    ),
                );
            }
            diagnostic.emit(anchor, Severity::Error);
            return Err(Unplaced::Reported);
        }
        buffers[i].address = address;
        placed.push(i);
    }
    Ok(buffers)
}

fn annotate<'c>(
    context: &'c Context,
    function: OperationRef<'c, '_>,
    linear: &Linear<'c, '_>,
    _classes: &Classes<'c, '_>,
    buffers: &[Buffer<'c, '_>],
) {
    let mut address: HashMap<ValueKey, i64> = HashMap::new();
    let mut used: HashMap<MemorySpace, u64> = HashMap::new();
    for buffer in buffers {
        for member in buffer.members.iter().filter(|m| on_chip(**m).is_some()) {
            address.insert(value_key(*member), buffer.address as i64);
        }
        if let Some((reserve, _)) = buffer.ring {
            let i64_type: Type = melior::ir::r#type::IntegerType::new(context, 64).into();
            let mut reserve = pto_dialects::ir::edit(reserve);
            reserve.set_attribute(
                "base",
                IntegerAttribute::new(i64_type, buffer.address as i64).into(),
            );
        }
        let top = used.entry(buffer.space).or_insert(0);
        *top = (*top).max(buffer.address + buffer.bytes);
    }
    for op in &linear.ops {
        let addresses: Vec<i64> = op
            .results()
            .map(|r| address.get(&value_key(r.into())).copied().unwrap_or(-1))
            .collect();
        if addresses.iter().any(|&a| a >= 0) {
            let mut op = pto_dialects::ir::edit(*op);
            op.set_discardable_attribute(
                "pl.addresses",
                DenseI64ArrayAttribute::new(context, &addresses).into(),
            );
        }
    }
    let mut spaces: Vec<(MemorySpace, u64)> = used.into_iter().collect();
    spaces.sort();
    let i64_type: Type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let entries: Vec<(Identifier, Attribute)> = spaces
        .iter()
        .map(|(space, bytes)| {
            (
                Identifier::new(context, space.keyword()),
                IntegerAttribute::new(i64_type, *bytes as i64).into(),
            )
        })
        .collect();
    let dictionary = dictionary_attribute(context, &entries);
    let mut function = pto_dialects::ir::edit(function);
    function.set_discardable_attribute("pl.memory", dictionary);
}

/// A dictionary attribute of `entries`.
fn dictionary_attribute<'c>(
    context: &'c Context,
    entries: &[(Identifier<'c>, Attribute<'c>)],
) -> Attribute<'c> {
    pto_dialects::ir::dictionary(context, entries)
}
