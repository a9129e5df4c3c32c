//! `pl-estimate-cycles`: a kernel's cycles on a2a3 from a pipe timeline.
//! What it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-estimate-cycles.md); the costs: docs/cost-model.md.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use melior::ir::{
    BlockLike, BlockRef, OperationRef, RegionLike, Value, ValueLike,
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationResult},
};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    dtype::Dtype,
    enums::Pipe,
    ir::ValueKey,
    op_table::OpKind,
    ops::{Checked, constant_int, op_name},
    types::{MemorySpace, TileType},
};

use super::{
    linear::{Linear, value_key},
    parameter_aliases::ParameterAliases,
    pipes::{Kind, Model, PIPES, Resource, Step, slot},
};
use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed, Run},
    target::a2a3_costs::{self as costs, Path},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-estimate-cycles",
    class_name: "EstimateCycles",
    summary: "Estimate each kernel's cycles on a2a3 from a pipe timeline",
    description: r#"For each planned, synchronised kernel (the output of
`pto-a2a3-pipeline`), a remark with its estimated cycles and its pipe
bound. The kernel is replayed instruction by instruction on a timeline of
a2a3's pipes (MTE2, MTE1, M, V, MTE3, FIX and the scalar pipe S): each
pipe runs its instructions in order, each taking the cycles
docs/cost-model.md gives it (from the tile shapes and element types);
pipes run at the same time except where `set_flag`/`wait_flag` order them
(a wait holds its pipe until the matching set's pipe has finished what it
issued before the set) and `pipe_barrier(PIPE_ALL)` joins them all. The
scalar pipe issues every instruction, so a wait on it holds everything
after it. Loops run for their trip count (bounds evaluated from constants
and enclosing induction variables); past `max-iterations` iterations the
last iteration's cost is repeated for the rest. A loop whose trip count
is not known runs `unknown-trips` times, and a branch whose condition is
not known costs its dearer side; the remark says when either happened.
`nranks` and `rank` give what `pld.system.nranks` and `pld.system.rank`
return, for the loops and branches of distributed kernels.

The estimate is the time the last pipe finishes; the pipe bound is the
busiest pipe's total work, which no schedule can beat. Their ratio says
how much the synchronisation serialises the pipes (1.0: the busiest pipe
never waits).

A module pass: which parameters of a kernel may be one tensor depends on
every call of it in the module, so the pass learns that for all kernels in
one walk, then works on the module's functions in parallel as a function
pass would (diagnostics in the functions' order).

```mlir
// remark: pl-estimate-cycles: @add_kernel: 3400 cycles (1.84 us at
// 1.85 GHz); pipe bound 2240 cycles (mte2); ratio 1.52; busy: mte1 0,
// mte2 2240, mte3 600, m 0, v 560, s 0, fix 0
func.func @add_kernel(...) attributes {pl.kind = #pl.kind<aiv>} { ... }
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[
        OptionSpec {
            name: "unknown-trips",
            kind: OptionKind::Int { min: 0 },
            description: "Iterations assumed of a loop whose trip count is not known",
            default: "1",
        },
        OptionSpec {
            name: "max-iterations",
            kind: OptionKind::Int { min: 1 },
            description: "Iterations of one loop replayed before the rest are extrapolated",
            default: "4096",
        },
        OptionSpec {
            name: "nranks",
            kind: OptionKind::Int { min: 0 },
            description: "The rank count `pld.system.nranks` gives (0: not known)",
            default: "0",
        },
        OptionSpec {
            name: "rank",
            kind: OptionKind::Int { min: -1 },
            description: "The rank `pld.system.rank` gives (-1: not known)",
            default: "-1",
        },
    ],
    dependent_dialects: Vec::new,
    run: Run::Functions(run),
};

const N: usize = PIPES.len();

/// Instructions replayed in one kernel at most; past it, loops
/// extrapolate their remaining iterations (no run is unbounded).
const MAX_STEPS: u64 = 20_000_000;

fn run(
    function: OperationRef,
    aliases: &ParameterAliases,
    options: &OptionValues,
) -> Result<(), PassFailed> {
    // An analysis: it changes nothing.
    crate::registry::left_unchanged();
    let Some((body, linear, model)) = super::pipes::kernel_model(function, aliases) else {
        return Ok(());
    };
    let mut estimator = Estimator {
        linear: &linear,
        model: &model,
        unknown_trips: options.int("unknown-trips").max(0) as u64,
        max_iterations: options.int("max-iterations").max(1) as u64,
        nranks: Some(options.int("nranks")).filter(|&n| n > 0),
        rank: Some(options.int("rank")).filter(|&r| r >= 0),
        values: HashMap::new(),
        steps: 0,
        approximations: Approximations::default(),
    };
    let mut timeline = Timeline::default();
    if let Err((op, message)) = estimator.block(body, &mut timeline) {
        OpDiagnostic::new(format!("pl-estimate-cycles: {message}")).emit(op, Severity::Error);
        return Err(PassFailed);
    }
    let estimate = timeline.estimate();
    let name = function
        .attribute("sym_name")
        .ok()
        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
        .map_or_else(String::new, |s| s.value().to_string());
    let mut message = format!("pl-estimate-cycles: @{name}: {estimate}");
    let notes = estimator.approximations.describe(estimator.unknown_trips);
    if !notes.is_empty() {
        message.push_str("; approximate: ");
        message.push_str(&notes.join(", "));
    }
    OpDiagnostic::new(message).emit(function, Severity::Remark);
    Ok(())
}

/// A kernel's estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// When the last pipe finishes.
    pub cycles: u64,
    /// Each pipe's total work, in [`PIPES`] order.
    pub busy: [u64; N],
    /// When the last pipe would finish were every instruction held only by
    /// its pipe's order and the data it reads (no flag, barrier or reused
    /// buffer holding it): no placement of synchronisation and buffers
    /// does better, and it is never below the pipe bound.
    pub data_bound: u64,
}

impl Estimate {
    /// The busiest pipe and its work.
    pub fn bound(&self) -> (Pipe, u64) {
        let (index, work) = self
            .busy
            .iter()
            .enumerate()
            .max_by_key(|(i, w)| (**w, std::cmp::Reverse(*i)))
            .expect("pipes");
        (PIPES[index], *work)
    }
}

impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (pipe, bound) = self.bound();
        let micros = self.cycles as f64 / costs::CLOCK_HZ * 1e6;
        write!(
            f,
            "{} cycles ({micros:.2} us at 1.85 GHz); pipe bound {bound} cycles ({pipe}); ",
            self.cycles
        )?;
        let ratio = |bound: u64| {
            if bound == 0 {
                1.0
            } else {
                self.cycles as f64 / bound as f64
            }
        };
        write!(
            f,
            "ratio {:.2}; data bound {} cycles (ratio {:.2})",
            ratio(bound),
            self.data_bound,
            ratio(self.data_bound)
        )?;
        write!(f, "; busy:")?;
        for (i, pipe) in PIPES.iter().enumerate() {
            let separator = if i == 0 { " " } else { ", " };
            write!(f, "{separator}{pipe} {}", self.busy[i])?;
        }
        Ok(())
    }
}

/// The pipes' state while the kernel is replayed.
#[derive(Clone, Default)]
struct Timeline {
    /// When each pipe has finished what it was given.
    ready: [u64; N],
    /// Each pipe's work so far.
    busy: [u64; N],
    /// The times of sets not yet waited for, per (from, to, event).
    events: BTreeMap<(usize, usize, i64), VecDeque<u64>>,
    /// The same instructions held only by their pipes and their data.
    dataflow: Dataflow,
}

/// The replay behind [`Estimate::data_bound`]: each pipe runs in order
/// and issues in the scalar pipe's order, and an instruction starts once
/// what it reads has been written; flags and barriers are not waited for,
/// and a buffer written again is a fresh one (as if every tile had as
/// many buffers as it needs).
#[derive(Clone, Default)]
struct Dataflow {
    ready: [u64; N],
    /// When each buffer's last write finishes.
    written: Vec<(Resource, u64)>,
}

impl Dataflow {
    fn run(&mut self, step: &Step, cycles: u64, after: u64) -> u64 {
        let p = slot(step.pipe);
        let mut start = self.ready[p].max(self.ready[slot(Pipe::S)]).max(after);
        for access in step.accesses.iter().filter(|a| !a.write) {
            for (resource, done) in &self.written {
                if resource.overlaps(&access.resource) {
                    start = start.max(*done);
                }
            }
        }
        let done = start + cycles;
        self.ready[p] = done;
        for access in step.accesses.iter().filter(|a| a.write) {
            self.written
                .retain(|(resource, _)| *resource != access.resource);
            self.written.push((access.resource, done));
        }
        done
    }
}

impl Timeline {
    fn estimate(&self) -> Estimate {
        Estimate {
            cycles: self.ready.iter().copied().max().unwrap_or(0),
            busy: self.busy,
            data_bound: self.dataflow.ready.iter().copied().max().unwrap_or(0),
        }
    }

    /// The scalar pipe issues instructions in order: none starts before
    /// it is free.
    fn issued(&self) -> u64 {
        self.ready[slot(Pipe::S)]
    }

    /// Runs `cycles` on `pipe`, starting no earlier than `after` (the end
    /// of the op's previous step); returns when it finishes.
    fn run(&mut self, pipe: Pipe, cycles: u64, after: u64) -> u64 {
        let p = slot(pipe);
        let start = self.ready[p].max(self.issued()).max(after);
        self.ready[p] = start + cycles;
        self.busy[p] += cycles;
        self.ready[p]
    }

    fn set(&mut self, from: Pipe, to: Pipe, event: i64) {
        let at = self.ready[slot(from)].max(self.issued());
        self.events
            .entry((slot(from), slot(to), event))
            .or_default()
            .push_back(at);
    }

    /// False when no set is in flight for the wait.
    fn wait(&mut self, from: Pipe, to: Pipe, event: i64) -> bool {
        let Some(at) = self
            .events
            .get_mut(&(slot(from), slot(to), event))
            .and_then(VecDeque::pop_front)
        else {
            return false;
        };
        let t = slot(to);
        self.ready[t] = self.ready[t].max(at).max(self.issued());
        true
    }

    fn join_all(&mut self) {
        let all = self.ready.iter().copied().max().unwrap_or(0);
        self.ready = [all; N];
    }

    /// Repeats `times` more the change from `before` to now.
    fn extrapolate(&mut self, before: &Timeline, times: u64) {
        let grow = |now: &mut u64, then: u64| {
            *now = now.saturating_add(now.saturating_sub(then).saturating_mul(times));
        };
        for p in 0..N {
            grow(&mut self.ready[p], before.ready[p]);
            grow(&mut self.busy[p], before.busy[p]);
            grow(&mut self.dataflow.ready[p], before.dataflow.ready[p]);
        }
        // Data written in the repeated iterations is as late as their
        // pipes' growth: shift it by the latest pipe's.
        let last = |ready: &[u64; N]| ready.iter().copied().max().unwrap_or(0);
        let shift = last(&self.dataflow.ready).saturating_sub(last(&before.dataflow.ready))
            / (times + 1)
            * times;
        for (_, done) in &mut self.dataflow.written {
            *done = done.saturating_add(shift);
        }
    }
}

/// What the estimate had to assume, for the remark.
#[derive(Default)]
struct Approximations {
    unknown_loops: BTreeSet<usize>,
    extrapolated_loops: BTreeSet<usize>,
    unknown_branches: BTreeSet<usize>,
    while_loops: BTreeSet<usize>,
    unmatched_waits: u64,
    uncosted: BTreeSet<String>,
}

impl Approximations {
    fn describe(&self, unknown_trips: u64) -> Vec<String> {
        let mut notes = Vec::new();
        let count = |set: &BTreeSet<usize>| set.len();
        if !self.unknown_loops.is_empty() {
            notes.push(format!(
                "{} loop(s) of unknown trip count run {unknown_trips} time(s)",
                count(&self.unknown_loops)
            ));
        }
        if !self.extrapolated_loops.is_empty() {
            notes.push(format!(
                "{} loop(s) extrapolated from their last replayed iteration",
                count(&self.extrapolated_loops)
            ));
        }
        if !self.unknown_branches.is_empty() {
            notes.push(format!(
                "{} branch(es) of unknown condition cost their dearer side",
                count(&self.unknown_branches)
            ));
        }
        if !self.while_loops.is_empty() {
            notes.push(format!(
                "{} while loop(s) run once",
                count(&self.while_loops)
            ));
        }
        if self.unmatched_waits > 0 {
            notes.push(format!(
                "{} wait(s) found no set in flight",
                self.unmatched_waits
            ));
        }
        if !self.uncosted.is_empty() {
            let names: Vec<&str> = self.uncosted.iter().map(String::as_str).collect();
            notes.push(format!(
                "no cost for {} (a binary vector op's charged)",
                names.join(", ")
            ));
        }
        notes
    }
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

struct Estimator<'c, 'a, 'm> {
    linear: &'m Linear<'c, 'a>,
    model: &'m Model,
    unknown_trips: u64,
    max_iterations: u64,
    /// What `pld.system.nranks` and `pld.system.rank` give, when known.
    nranks: Option<i64>,
    rank: Option<i64>,
    /// Induction variables' values in the iteration being replayed.
    values: HashMap<ValueKey, i64>,
    steps: u64,
    approximations: Approximations,
}

impl<'c, 'a, 'm> Estimator<'c, 'a, 'm> {
    fn block(
        &mut self,
        block: BlockRef<'c, 'a>,
        timeline: &mut Timeline,
    ) -> Result<(), Failure<'c, 'a>> {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            self.op(op, timeline)?;
        }
        Ok(())
    }

    fn op(
        &mut self,
        op: OperationRef<'c, 'a>,
        timeline: &mut Timeline,
    ) -> Result<(), Failure<'c, 'a>> {
        let position = self.linear.position(op);
        match op_name(op) {
            "scf.for" => {
                let body = op
                    .region_opt(0)
                    .and_then(|r| r.first_block())
                    .ok_or((op, "a loop without a body".to_string()))?;
                let bounds = [0, 1, 2].map(|i| op.operand_opt(i).and_then(|v| self.value(v, 0)));
                let (lower, step, trips) = match bounds {
                    [Some(lower), Some(upper), Some(step)] if step > 0 => {
                        let span = (i128::from(upper) - i128::from(lower)).max(0);
                        let trips = (span + i128::from(step) - 1) / i128::from(step);
                        (lower, step, trips.min(i128::from(u32::MAX)) as u64)
                    }
                    _ => {
                        self.approximations.unknown_loops.insert(position);
                        (0, 1, self.unknown_trips)
                    }
                };
                let iv = value_key(body.argument(0).expect("an induction variable").into());
                let mut replayed = 0;
                let mut before = timeline.clone();
                while replayed < trips && replayed < self.max_iterations && self.steps < MAX_STEPS {
                    let at = i128::from(lower) + i128::from(replayed) * i128::from(step);
                    self.values
                        .insert(iv, at.clamp(0, i128::from(i64::MAX)) as i64);
                    before = timeline.clone();
                    self.block(body, timeline)?;
                    replayed += 1;
                }
                self.values.remove(&iv);
                if replayed < trips && replayed > 0 {
                    self.approximations.extrapolated_loops.insert(position);
                    timeline.extrapolate(&before, trips - replayed);
                }
                Ok(())
            }
            "scf.if" => {
                let condition = op.operand_opt(0).and_then(|v| self.value(v, 0));
                let regions: Vec<Option<BlockRef<'c, 'a>>> =
                    op.regions().map(|r| r.first_block()).collect();
                if let Some(condition) = condition {
                    let index = usize::from(condition == 0);
                    if let Some(Some(body)) = regions.get(index) {
                        self.block(*body, timeline)?;
                    }
                    return Ok(());
                }
                self.approximations.unknown_branches.insert(position);
                let mut dearest: Option<Timeline> = None;
                for body in regions.iter().flatten() {
                    let mut side = timeline.clone();
                    self.block(*body, &mut side)?;
                    if dearest
                        .as_ref()
                        .is_none_or(|d| side.estimate().cycles > d.estimate().cycles)
                    {
                        dearest = Some(side);
                    }
                }
                if let Some(side) = dearest
                    && (regions.len() > 1 || side.estimate().cycles > timeline.estimate().cycles)
                {
                    *timeline = side;
                }
                Ok(())
            }
            "scf.while" => {
                self.approximations.while_loops.insert(position);
                for region in op.regions() {
                    if let Some(body) = region.first_block() {
                        self.block(body, timeline)?;
                    }
                }
                Ok(())
            }
            _ if op.region_count() > 0 => {
                for region in op.regions() {
                    if let Some(body) = region.first_block() {
                        self.block(body, timeline)?;
                    }
                }
                Ok(())
            }
            _ => {
                let model = self.model;
                let kind = model
                    .kind(self.linear, op)
                    .map_err(|message| (op, message))?;
                self.replay(op, &kind, timeline);
                Ok(())
            }
        }
    }

    fn replay(&mut self, op: OperationRef<'c, 'a>, kind: &Kind, timeline: &mut Timeline) {
        match kind {
            Kind::None => {}
            Kind::Barrier(Pipe::All) => timeline.join_all(),
            // One pipe runs in order: a barrier on it changes no time.
            Kind::Barrier(_) => {}
            Kind::SetFlag { from, to, event } => timeline.set(*from, *to, *event),
            Kind::WaitFlag { from, to, event } => {
                if !timeline.wait(*from, *to, *event) {
                    self.approximations.unmatched_waits += 1;
                }
            }
            Kind::Steps(steps) => {
                // The steps of one op (a transfer through a staging tile:
                // MTE2 in, MTE3 out) run one after the other.
                let (mut after, mut data_after) = (0, 0);
                for step in steps {
                    self.steps += 1;
                    let cycles =
                        instruction_cycles(op, step.pipe, &mut self.approximations.uncosted);
                    after = timeline.run(step.pipe, cycles, after);
                    data_after = timeline.dataflow.run(step, cycles, data_after);
                }
            }
        }
    }

    /// An index or integer value, when it follows from constants and the
    /// induction variables being replayed.
    fn value(&self, value: Value<'c, 'a>, depth: usize) -> Option<i64> {
        if let Some(known) = self.values.get(&value_key(value)) {
            return Some(*known);
        }
        if depth > 32 || value.is_block_argument() {
            return None;
        }
        let op = OperationResult::try_from(value).ok()?.owner();
        match OpKind::of(&op) {
            Some(OpKind::PldSystemNranks) => return self.nranks,
            Some(OpKind::PldSystemRank) => return self.rank,
            _ => {}
        }
        if let Some(constant) = constant_int(value) {
            return Some(constant);
        }
        let name = op_name(op);
        let operand = |i: usize| op.operand_opt(i).and_then(|v| self.value(v, depth + 1));
        let (a, b) = (operand(0), operand(1));
        let binary = |f: fn(i64, i64) -> Option<i64>| f(a?, b?);
        match name {
            "arith.addi" => binary(i64::checked_add),
            "arith.subi" => binary(i64::checked_sub),
            "arith.muli" => binary(i64::checked_mul),
            "arith.divsi" | "arith.divui" => binary(i64::checked_div),
            "arith.remsi" | "arith.remui" => binary(i64::checked_rem),
            "arith.ceildivsi" => {
                binary(|x, y| (y != 0).then(|| x.div_euclid(y) + i64::from(x.rem_euclid(y) != 0)))
            }
            "arith.floordivsi" => binary(|x, y| (y != 0).then(|| x.div_euclid(y))),
            "arith.minsi" | "arith.minui" => binary(|x, y| Some(x.min(y))),
            "arith.maxsi" | "arith.maxui" => binary(|x, y| Some(x.max(y))),
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" => a,
            "arith.select" => {
                let chosen = if operand(0)? != 0 { 1 } else { 2 };
                operand(chosen)
            }
            "arith.cmpi" => {
                let predicate = op
                    .attribute("predicate")
                    .ok()
                    .and_then(|p| IntegerAttribute::try_from(p).ok())?
                    .value();
                let (x, y) = (a?, b?);
                let holds = match predicate {
                    0 => x == y,
                    1 => x != y,
                    2 | 6 => x < y,
                    3 | 7 => x <= y,
                    4 | 8 => x > y,
                    5 | 9 => x >= y,
                    _ => return None,
                };
                Some(i64::from(holds))
            }
            _ => None,
        }
    }
}

/// The cycles `op` takes on `pipe` (docs/cost-model.md); the
/// instructions the table has no figure for are added to `uncosted`.
pub fn instruction_cycles(op: OperationRef, pipe: Pipe, uncosted: &mut BTreeSet<String>) -> u64 {
    let instruction = OpKind::of(&op)
        .and_then(|k| k.info().instruction)
        .unwrap_or("");
    let tiles = Tiles::of(op);
    match pipe {
        Pipe::M => match (
            tiles.in_space(MemorySpace::Left),
            tiles.in_space(MemorySpace::Right),
        ) {
            (Some(left), Some(right)) => {
                costs::cube_cycles(left.rows, left.cols, right.cols, left.dtype)
            }
            _ => costs::cube_cycles(16, 16, 16, None),
        },
        Pipe::Mte2 => {
            let into = tiles.first_result().or_else(|| tiles.largest());
            let path = match into.and_then(|t| t.space) {
                Some(MemorySpace::Mat) => Path::GmToMat,
                _ => Path::GmToVec,
            };
            costs::transfer_cycles(path, into.map_or(0, |t| t.bytes))
        }
        Pipe::Mte3 => {
            let from = tiles.first_operand().or_else(|| tiles.largest());
            let path = match from.and_then(|t| t.space) {
                Some(MemorySpace::Mat) => Path::MatToGm,
                _ => Path::VecToGm,
            };
            costs::transfer_cycles(path, from.map_or(0, |t| t.bytes))
        }
        Pipe::Fix => {
            let from = tiles.in_space(MemorySpace::Acc).or_else(|| tiles.largest());
            let path = match tiles.first_result().and_then(|t| t.space) {
                Some(MemorySpace::Mat) => Path::AccToMat,
                _ => Path::AccToGm,
            };
            costs::transfer_cycles(path, from.map_or(0, |t| t.bytes))
        }
        Pipe::Mte1 => {
            let into = tiles.first_result().or_else(|| tiles.largest());
            let path = match into.and_then(|t| t.space) {
                Some(MemorySpace::Left) => Path::MatToLeft,
                Some(MemorySpace::Right) => Path::MatToRight,
                _ => Path::MatToTable,
            };
            costs::transfer_cycles(path, into.map_or(0, |t| t.bytes))
        }
        Pipe::V => vector_cycles(instruction, op, &tiles, uncosted),
        Pipe::S | Pipe::All => costs::SCALAR_CYCLES,
    }
}

fn vector_cycles(
    instruction: &str,
    op: OperationRef,
    tiles: &Tiles,
    uncosted: &mut BTreeSet<String>,
) -> u64 {
    let Some(largest) = tiles.largest() else {
        return costs::SCALAR_CYCLES;
    };
    // Ops whose instruction the lowering picks by form: copies in UB
    // (TFILLPAD*, TINSERT).
    let instruction = match OpKind::of(&op) {
        Some(OpKind::PlTileFillpad) => "TFILLPAD_EXPAND",
        Some(OpKind::PlTileAssemble) => "TINSERT",
        _ => instruction,
    };
    let result = tiles.first_result().unwrap_or(largest);
    let source = tiles.first_operand().unwrap_or(largest);
    if let Some(cycles) = costs::row_walk_cycles(instruction, source.rows.max(result.rows)) {
        return cycles;
    }
    if let Some((expansion, then)) = costs::expand_then(instruction) {
        let expand = if expansion == "TCOLEXPAND" {
            costs::transfer_cycles(Path::VecToVec, result.bytes)
        } else {
            costs::row_walk_cycles(expansion, result.rows).unwrap_or(0)
        };
        return expand
            + then
                .iter()
                .map(|i| costs::vector_cycles(i, result.repeats()))
                .sum::<u64>();
    }
    match instruction {
        // Copies within UB.
        "TMOV" | "TEXTRACT" | "TINSERT" | "TCONCAT" | "TFILLPAD_EXPAND" | "TFILLPAD_INPLACE"
        | "TCOLEXPAND" | "TTRANS" => {
            costs::transfer_cycles(Path::VecToVec, result.bytes.max(source.bytes))
        }
        // Scalar loops over the elements.
        "TSHL" | "TSHR" | "TSCATTER" | "TCI" => {
            largest.elements.saturating_mul(costs::SCALAR_CYCLES)
        }
        // Per-row transfers from global memory.
        "MGATHER" => costs::transfer_cycles(Path::GmToVec, result.bytes) + result.rows,
        "TTRI" => costs::vector_cycles("TEXPANDS", result.repeats()),
        _ => {
            if !costs::names_vector(instruction) {
                let name = if instruction.is_empty() {
                    op_name(op)
                } else {
                    instruction
                };
                uncosted.insert(name.to_string());
            }
            costs::vector_cycles(instruction, largest.repeats())
        }
    }
}

/// One tile an op touches: its extents (valid ones where static), element
/// type and memory space.
#[derive(Clone, Copy, Debug)]
struct TileFacts {
    rows: u64,
    cols: u64,
    elements: u64,
    bytes: u64,
    dtype: Option<Dtype>,
    space: Option<MemorySpace>,
}

impl TileFacts {
    fn of(tile: TileType) -> Self {
        let shape = tile.shape();
        let valid = tile.effective_view().valid_shape;
        let extents: Vec<u64> = shape
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                valid
                    .get(i)
                    .copied()
                    .flatten()
                    .filter(|v| *v >= 0)
                    .unwrap_or(d)
                    .max(0) as u64
            })
            .collect();
        let cols = extents.last().copied().unwrap_or(1);
        let rows = extents[..extents.len().saturating_sub(1)]
            .iter()
            .product::<u64>();
        let dtype = Dtype::of(melior::ir::r#type::ShapedTypeLike::element(&tile));
        let elements = rows.saturating_mul(cols);
        TileFacts {
            rows,
            cols,
            elements,
            bytes: elements
                .saturating_mul(crate::target::a2a3::element_bits(dtype))
                .div_ceil(8),
            dtype,
            space: tile.memory_space(),
        }
    }

    fn repeats(&self) -> u64 {
        costs::repeats(self.rows, self.cols, self.dtype)
    }
}

/// The tiles an op reads (operands) and writes (results).
struct Tiles {
    operands: Vec<TileFacts>,
    results: Vec<TileFacts>,
}

impl Tiles {
    fn of(op: OperationRef) -> Self {
        let facts = |value: Value| TileType::try_from(value.r#type()).ok().map(TileFacts::of);
        Tiles {
            operands: op.operands().filter_map(facts).collect(),
            results: op.results().filter_map(|r| facts(r.into())).collect(),
        }
    }

    fn first_result(&self) -> Option<TileFacts> {
        self.results.first().copied()
    }

    fn first_operand(&self) -> Option<TileFacts> {
        self.operands.first().copied()
    }

    fn in_space(&self, space: MemorySpace) -> Option<TileFacts> {
        self.operands
            .iter()
            .chain(&self.results)
            .find(|t| t.space == Some(space))
            .copied()
    }

    fn largest(&self) -> Option<TileFacts> {
        self.operands
            .iter()
            .chain(&self.results)
            .max_by_key(|t| t.bytes)
            .copied()
    }
}
