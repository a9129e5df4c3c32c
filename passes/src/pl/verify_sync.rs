//! `pl-verify-sync`: proves a kernel's pipe synchronisation covers every
//! hazard, independently of how it was placed. What it does and why:
//! [`PASS`]`.description` (also docs/passes/pl-verify-sync.md).

use pto_dialects::ops::{Checked, constant_int};
use std::collections::{HashMap, VecDeque};

use melior::ir::{BlockLike, BlockRef, OperationRef, RegionLike, operation::OperationLike};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    enums::Pipe,
    ops::op_name,
};

use super::{
    linear::Linear,
    parameter_aliases::ParameterAliases,
    pipes::{Access, Kind, Model, PIPES, ordered, settled, slot, supersedes},
};
use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-verify-sync",
    class_name: "VerifySync",
    summary: "Prove a kernel's pipe synchronisation covers every hazard",
    description: r#"A checker for pipe synchronisation that shares nothing with
`pl-insert-sync` but the model of which pipe runs each op and which
buffers it touches. It executes the kernel's control flow — every branch
of an `scf.if` whose condition is not a constant; loops for their constant
trip count (at most `max-trips` iterations), or 0 and 2 iterations when it
is not constant — and replays each path instruction by instruction:
each pipe keeps its own order (paths that agree on the events in flight
are joined conservatively: a pipe knows only what it knows on all of them), `set_flag`/`wait_flag` carry the setting
pipe's progress to the waiting one (events are counted per pipe pair and
id), `pipe_barrier` orders one pipe (or all). Every read-after-write,
write-after-read and write-after-write between two instructions on
overlapping buffers must then be ordered; one that is not is an error at
the later op with a note at the earlier one. So is a `wait_flag` no
earlier `set_flag` can satisfy (the kernel would hang) and a `set_flag`
left unconsumed at the end (it would satisfy a wait of the next kernel).
In the kernels of a core group it also checks the slot protocol: each
popped tile is freed exactly once, in the block of its pop, and nothing
reads it after its free (the producer may refill the slot).

A module pass: which parameters of a kernel may be one tensor depends on
every call of it in the module, so the pass learns that for all kernels in
one walk, then works on the module's functions in parallel as a function
pass would (diagnostics in the functions' order).

```mlir
%a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : ...
// error: pl-verify-sync: read-after-write on vec[0, 4096) is not
// synchronised: pl.tile.load (mte2) before this pl.tile.exp (v)
%b = pl.tile.exp %a {pl.addresses = array<i64: 0>} : ...
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[OptionSpec {
        name: "max-trips",
        kind: OptionKind::Int { min: 1 },
        description: "Iterations to replay of a loop with a constant trip count",
        default: "3",
    }],
    dependent_dialects: Vec::new,
    run: Run::Functions(run),
};

const N: usize = PIPES.len();
/// Paths replayed at most (further ones are dropped, with a warning).
const MAX_PATHS: usize = 1024;

#[derive(Clone)]
struct Done {
    pipe: usize,
    index: u64,
    access: Access,
    op: usize,
}

/// One path's replay state.
#[derive(Clone)]
struct Replay {
    counter: u64,
    clock: [u64; N],
    known: [[u64; N]; N],
    barrier: [u64; N],
    history: Vec<Done>,
    /// Set events per (from, to, id): the setter's progress when set.
    events: HashMap<(usize, usize, i64), VecDeque<Progress>>,
}

/// A pipe's progress: its last instruction and what it knows of the others.
type Progress = (u64, [u64; N]);

impl Replay {
    /// p waits for q's progress.
    fn join(&mut self, p: usize, q: usize, (clock, known): Progress) {
        for (mine, theirs) in self.known[p].iter_mut().zip(known) {
            *mine = (*mine).max(theirs);
        }
        self.known[p][q] = self.known[p][q].max(clock);
        // What q knew of p is done before p goes on.
        self.barrier[p] = self.barrier[p].max(known[p]);
    }

    fn new() -> Self {
        Replay {
            counter: 0,
            clock: [0; N],
            known: [[0; N]; N],
            barrier: [0; N],
            history: Vec::new(),
            events: HashMap::new(),
        }
    }
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String, Option<OperationRef<'c, 'a>>);

struct Verifier<'c, 'a> {
    linear: Linear<'c, 'a>,
    model: Model,
    max_trips: i64,
    truncated: bool,
}

fn run(
    function: OperationRef,
    aliases: &ParameterAliases,
    options: &OptionValues,
) -> Result<(), PassFailed> {
    // A check: it changes nothing.
    crate::registry::left_unchanged();
    verify_sync(function, aliases, options.int("max-trips"))
}

/// Checks `function`; diagnoses the first hazard, hang or leftover event.
pub fn verify_sync(
    function: OperationRef,
    aliases: &ParameterAliases,
    max_trips: i64,
) -> Result<(), PassFailed> {
    let Some((body, linear, model)) = super::pipes::kernel_model(function, aliases) else {
        return Ok(());
    };
    if let Err((op, message)) = slots_given_back(function) {
        OpDiagnostic::new(format!("pl-verify-sync: {message}")).emit(op, Severity::Error);
        return Err(PassFailed);
    }
    let mut verifier = Verifier {
        linear,
        model,
        max_trips,
        truncated: false,
    };
    let outcome = verifier.block(body, vec![Replay::new()]).and_then(|replays| {
        for replay in &replays {
            if let Some(((from, to, event), _)) = replay.events.iter().find(|(_, queue)| !queue.is_empty()) {
                return Err((
                    function,
                    format!(
                        "pl-verify-sync: event {event} from {} to {} is set but never waited for (it would satisfy a later kernel's wait)",
                        PIPES[*from], PIPES[*to]
                    ),
                    None,
                ));
            }
        }
        Ok(())
    });
    if verifier.truncated {
        OpDiagnostic::new(format!(
            "pl-verify-sync: more than {MAX_PATHS} paths; the first {MAX_PATHS} were checked"
        ))
        .emit(function, Severity::Warning);
    }
    match outcome {
        Ok(()) => Ok(()),
        Err((op, message, earlier)) => {
            let mut diagnostic = OpDiagnostic::new(message);
            if let Some(earlier) = earlier {
                diagnostic = diagnostic.with_note(earlier.location(), "the earlier access");
            }
            diagnostic.emit(op, Severity::Error);
            Err(PassFailed)
        }
    }
}

/// The cross-core slot protocol: each popped tile is given back exactly
/// once, by its core's free in the pop's block, after every use of the
/// tile (a2a3's next pushes overwrite a slot once it is free).
fn slots_given_back<'c, 'a>(
    function: OperationRef<'c, 'a>,
) -> Result<(), (OperationRef<'c, 'a>, String)> {
    use pto_dialects::op_table::OpKind;
    let mut pops = Vec::new();
    pto_dialects::ir::walk(function, melior::ir::operation::WalkOrder::PreOrder, |op| {
        if matches!(
            OpKind::of(&op),
            Some(OpKind::PlTileTpopFromAic | OpKind::PlTileTpopFromAiv)
        ) {
            pops.push(op);
        }
        melior::ir::operation::WalkResult::Advance
    });
    for pop in pops {
        let Some(tile) = pop.result_opt(0).map(melior::ir::Value::from) else {
            continue;
        };
        let uses = pto_dialects::ir::uses(tile);
        let frees: Vec<OperationRef> = uses
            .iter()
            .map(|(user, _)| *user)
            .filter(|user| {
                matches!(
                    OpKind::of(user),
                    Some(OpKind::PlSystemTfreeToAic | OpKind::PlSystemTfreeToAiv)
                )
            })
            .collect();
        let [free] = frees.as_slice() else {
            return Err((
                pop,
                format!(
                    "this popped tile's slot is given back {} times: a pop is freed exactly once",
                    frees.len()
                ),
            ));
        };
        if free.block() != pop.block() {
            return Err((
                *free,
                "a popped tile is freed in the block of its pop (after the loop or branch that uses it)"
                    .to_string(),
            ));
        }
        // No use of the tile after the free, in the block or nested in the
        // ops that follow it.
        let mut later = free.next_in_block();
        while let Some(op) = later {
            let mut reads = None;
            pto_dialects::ir::walk(op, melior::ir::operation::WalkOrder::PreOrder, |nested| {
                if nested.operands().any(|v| v == tile) {
                    reads = Some(nested);
                    return melior::ir::operation::WalkResult::Interrupt;
                }
                melior::ir::operation::WalkResult::Advance
            });
            if let Some(reader) = reads {
                return Err((
                    reader,
                    "this op reads a popped tile after its slot is freed (the producer may have overwritten it)"
                        .to_string(),
                ));
            }
            later = op.next_in_block();
        }
    }
    Ok(())
}

impl Replay {
    /// Joins two paths (see [`merge_alternatives`]).
    fn merge(mut self, other: Replay) -> Replay {
        self.counter = self.counter.max(other.counter);
        for p in 0..N {
            self.clock[p] = self.clock[p].max(other.clock[p]);
            self.barrier[p] = self.barrier[p].min(other.barrier[p]);
            for q in 0..N {
                self.known[p][q] = self.known[p][q].min(other.known[p][q]);
            }
        }
        for done in other.history {
            if !self.history.iter().any(|d| {
                d.pipe == done.pipe
                    && d.index == done.index
                    && d.op == done.op
                    && d.access == done.access
            }) {
                self.history.push(done);
            }
        }
        self
    }
}

/// Joins paths that agree on the events in flight: what every pipe knows
/// is the least of what it knows on each (conservative: a hazard ordered
/// on one path only is reported), the accesses are all of theirs. Paths
/// with different events in flight stay apart (a wait could hang on one).
fn merge_alternatives(alternatives: Vec<Vec<Replay>>) -> Vec<Replay> {
    let mut merged: Vec<Replay> = Vec::new();
    for replay in alternatives.into_iter().flatten() {
        match merged.iter().position(|m| same_events(m, &replay)) {
            Some(i) => {
                let existing = merged.swap_remove(i);
                merged.push(existing.merge(replay));
            }
            None => merged.push(replay),
        }
    }
    merged
}

fn same_events(a: &Replay, b: &Replay) -> bool {
    let live = |r: &Replay| {
        let mut events: Vec<((usize, usize, i64), usize)> = r
            .events
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|(k, q)| (*k, q.len()))
            .collect();
        events.sort();
        events
    };
    live(a) == live(b)
}

impl Replay {
    /// Drops accesses every pipe is already ordered after: they can never
    /// be part of an unsynchronised hazard again.
    fn prune(&mut self, used: &[bool; N]) {
        let (known, barrier) = (self.known, self.barrier);
        self.history
            .retain(|done| !settled(&known, &barrier, used, done.pipe, done.index));
    }
}

impl<'c, 'a> Verifier<'c, 'a> {
    fn block(
        &mut self,
        block: BlockRef<'c, 'a>,
        mut replays: Vec<Replay>,
    ) -> Result<Vec<Replay>, Failure<'c, 'a>> {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            replays = self.op(op, replays)?;
            for replay in &mut replays {
                if replay.history.len() > 32 {
                    replay.prune(self.model.used_pipes());
                }
            }
            if replays.len() > MAX_PATHS {
                replays.truncate(MAX_PATHS);
                self.truncated = true;
            }
        }
        Ok(replays)
    }

    fn op(
        &mut self,
        op: OperationRef<'c, 'a>,
        replays: Vec<Replay>,
    ) -> Result<Vec<Replay>, Failure<'c, 'a>> {
        let name = op_name(op);
        match name {
            "scf.for" => {
                let trips: Vec<i64> = match (
                    op.operand_opt(0).and_then(constant_int),
                    op.operand_opt(1).and_then(constant_int),
                    op.operand_opt(2).and_then(constant_int),
                ) {
                    (Some(lower), Some(upper), Some(step)) if step > 0 => {
                        // In i128: bounds near the ends of i64 must not
                        // overflow the count.
                        let span = (i128::from(upper) - i128::from(lower)).max(0);
                        let trips = (span + i128::from(step) - 1) / i128::from(step);
                        vec![trips.min(i128::from(self.max_trips)) as i64]
                    }
                    // Two iterations replay the first one and the
                    // loop-carried hazards; none, what follows a skipped loop.
                    _ => vec![0, 2],
                };
                let body = op
                    .region_opt(0)
                    .and_then(|r| r.first_block())
                    .expect("a body");
                let mut out = Vec::new();
                for replay in replays {
                    let mut alternatives = Vec::new();
                    for &trip in &trips {
                        let mut current = vec![replay.clone()];
                        for _ in 0..trip {
                            current = self.block(body, current)?;
                        }
                        alternatives.push(current);
                    }
                    out.extend(merge_alternatives(alternatives));
                }
                Ok(out)
            }
            "scf.while" => {
                // Replayed as 1 and 2 rounds of condition + body.
                let mut out = Vec::new();
                for rounds in [1, 2] {
                    let mut current = replays.clone();
                    for _ in 0..rounds {
                        for region in op.regions() {
                            if let Some(body) = region.first_block() {
                                current = self.block(body, current)?;
                            }
                        }
                    }
                    out.extend(current);
                }
                Ok(out)
            }
            "scf.if" => {
                let taken = op.operand_opt(0).and_then(constant_int);
                let mut out = Vec::new();
                for replay in replays {
                    let mut alternatives = Vec::new();
                    for (index, region) in op.regions().enumerate() {
                        if taken.is_some_and(|t| (t != 0) != (index == 0)) {
                            continue;
                        }
                        match region.first_block() {
                            Some(body) => {
                                alternatives.push(self.block(body, vec![replay.clone()])?)
                            }
                            None => alternatives.push(vec![replay.clone()]),
                        }
                    }
                    if op.region_count() == 1 && taken != Some(1) {
                        alternatives.push(vec![replay.clone()]);
                    }
                    out.extend(merge_alternatives(alternatives));
                }
                Ok(out)
            }
            _ if op.region_count() > 0 => {
                let mut current = replays;
                for region in op.regions() {
                    if let Some(body) = region.first_block() {
                        current = self.block(body, current)?;
                    }
                }
                Ok(current)
            }
            _ => {
                let kind = self
                    .model
                    .kind(&self.linear, op)
                    .map_err(|m| (op, format!("pl-verify-sync: {m}"), None))?;
                replays
                    .into_iter()
                    .map(|replay| self.step(op, replay, &kind))
                    .collect()
            }
        }
    }

    fn step(
        &self,
        op: OperationRef<'c, 'a>,
        mut replay: Replay,
        kind: &Kind,
    ) -> Result<Replay, Failure<'c, 'a>> {
        match kind {
            Kind::None => {}
            Kind::Barrier(Pipe::All) => {
                for p in 0..N {
                    replay.barrier[p] = replay.clock[p];
                    replay.known[p] = replay.clock;
                }
            }
            Kind::Barrier(pipe) => replay.barrier[slot(*pipe)] = replay.clock[slot(*pipe)],
            Kind::SetFlag { from, to, event } => {
                let q = slot(*from);
                let progress = (replay.clock[q], replay.known[q]);
                replay
                    .events
                    .entry((q, slot(*to), *event))
                    .or_default()
                    .push_back(progress);
            }
            Kind::WaitFlag { from, to, event } => {
                let (q, p) = (slot(*from), slot(*to));
                let Some(progress) = replay
                    .events
                    .get_mut(&(q, p, *event))
                    .and_then(VecDeque::pop_front)
                else {
                    return Err((
                        op,
                        format!(
                            "pl-verify-sync: this wait for event {event} from {from} to {to} has no earlier set on this path: the kernel would hang"
                        ),
                        None,
                    ));
                };
                replay.join(p, q, progress);
            }
            Kind::Steps(steps) => {
                let mut previous: Option<usize> = None;
                for step in steps {
                    let p = slot(step.pipe);
                    // A transfer's read and write steps are ordered inside
                    // the op by the library.
                    if let Some(q) = previous.filter(|&q| q != p) {
                        let progress = (replay.clock[q], replay.known[q]);
                        replay.join(p, q, progress);
                    }
                    previous = Some(p);
                    for access in &step.accesses {
                        for done in &replay.history {
                            if !(access.write || done.access.write)
                                || !access.resource.overlaps(&done.access.resource)
                            {
                                continue;
                            }
                            if !ordered(&replay.known, &replay.barrier, p, done.pipe, done.index) {
                                let hazard = match (done.access.write, access.write) {
                                    (true, false) => "read-after-write",
                                    (false, true) => "write-after-read",
                                    _ => "write-after-write",
                                };
                                let earlier = self.linear.ops[done.op];
                                return Err((
                                    op,
                                    format!(
                                        "pl-verify-sync: {hazard} on {} is not synchronised: {} ({}) before this {} ({})",
                                        access.resource,
                                        op_name(earlier),
                                        PIPES[done.pipe],
                                        op_name(op),
                                        step.pipe
                                    ),
                                    Some(earlier),
                                ));
                            }
                        }
                    }
                    replay.counter += 1;
                    replay.clock[p] = replay.counter;
                    replay.known[p][p] = replay.counter;
                    let position = self.linear.position(op);
                    for access in &step.accesses {
                        // A later access of the pipe that supersedes an
                        // earlier one finds every hazard it would.
                        replay
                            .history
                            .retain(|older| older.pipe != p || !supersedes(access, &older.access));
                        replay.history.push(Done {
                            pipe: p,
                            index: replay.counter,
                            access: *access,
                            op: position,
                        });
                    }
                }
            }
        }
        Ok(replay)
    }
}
