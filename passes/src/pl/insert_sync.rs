//! `pl-insert-sync`: pipe synchronisation for planned kernels. What it does
//! and why: [`PASS`]`.description` (also docs/passes/pl-insert-sync.md).

use melior::{
    Context,
    ir::{
        Attribute, BlockLike, BlockRef, Identifier, Operation, OperationRef, RegionLike, Type,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
    },
};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    enums::Pipe,
    ops::{Checked, op_name},
};
use pto_dialects::{ir::BlockKey, op_table::OpKind};
use std::rc::Rc;

use super::{
    linear::Linear,
    parameter_aliases::ParameterAliases,
    pipes::{Access, Kind, Model, PIPES, ordered, settled, slot, supersedes},
};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-insert-sync",
    class_name: "InsertSync",
    summary: "Synchronise the pipes of planned kernels (set_flag/wait_flag, pipe_barrier)",
    description: r#"The units of an AI core run asynchronously in pipes: MTE2 loads
global memory into UB/L1, MTE1 moves L1 to L0A/L0B, M multiplies, FIX
drains L0C, V computes vectors, MTE3 stores UB to global memory, S runs
scalars. After `pl-plan-memory`, every buffer an op reads or writes is
known (on-chip address ranges; global tensors by their root parameter,
parameters a call in the module may pass one tensor to sharing one; a
vector op's scratch tile, `tmp`, is written as well as read), so
every read-after-write, write-after-read and write-after-write between two
ops is found, and ordered:

- across pipes, by `pl.system.sync_src set Q wait P event E` (set_flag)
  and `pl.system.sync_dst set Q wait P event E` (wait_flag) before the
  later op;
- within one pipe, by `pl.system.pipe_barrier P` (the scalar pipe is in
  order already);

and every kernel ends with `pl.system.pipe_barrier all`.

A module pass: which parameters of a kernel may be one tensor depends on
every call of it in the module, so the pass learns that for all kernels in
one walk, then works on the module's functions in parallel as a function
pass would (diagnostics in the functions' order).

Nothing redundant is added: the pass tracks, per pipe, how far it is
known to be ordered after every other pipe (vector clocks), transitively
(`MTE2→V` then `V→MTE3` orders `MTE2→MTE3`), so a hazard already covered
gets no pair. A set is placed right after the last conflicting op when
that op is in the same block (so the producer's pipe runs on), else right
before the wait. Event ids come from a pool of 8 per pipe pair, reused once
a pair's wait has passed (a loop-carried pair holds its id for the whole
loop); should a block need more at once, a full barrier replaces the
pair.

Control flow. Branches are analysed separately and joined
conservatively, and a set and its wait are in the same block (hoisting
pairs across `scf.if` is a known way to deadlock). Loops are analysed
twice, the second time from the join of the entry and the end of the
first, so loop-carried hazards (this iteration's accesses against the
next one's) are found. In an `scf.for`, such a pair's set goes right
after the conflicting op, for the next iteration, so the pipe it waits
for is not held up by the rest of the body (iteration i+1's load starts
once iteration i's compute has read its buffer, not after everything
before the loop's end); the first iteration's wait takes a set made
right before the loop and the last iteration's set is taken right after
it, so every wait has exactly one set on every path, a zero-trip loop
included. The first iteration learns from the set before the loop only
what was known at the loop's entry, which the analysis keeps apart from
what a previous iteration teaches. In an `scf.while`, a loop-carried
pair sits before the op that waits.

Communication ops read on MTE2 and write on MTE3 (two steps around their
staging tile). `pl-verify-sync` checks the result independently.

```mlir
// before
%a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : ...
%b = pl.tile.exp %a {pl.addresses = array<i64: 0>} : ...
%r = pl.tile.store %b, %out[%c0, %c0] : ...
// after
%a = pl.tile.load ...
pl.system.sync_src set mte2 wait v event 0
pl.system.sync_dst set mte2 wait v event 0
%b = pl.tile.exp %a ...
pl.system.sync_src set v wait mte3 event 0
pl.system.sync_dst set v wait mte3 event 0
%r = pl.tile.store %b, ...
pl.system.pipe_barrier all
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || vec![pto_dialects::pl_handle()],
    run: Run::Functions(run),
};

const N: usize = PIPES.len();
/// Event ids per pipe pair.
const EVENTS: i64 = 8;

/// Event ids available for a pipe pair: MTE2↔MTE3 keep id 7 for the
/// communication library's own staging handshake inside put/get.
fn events_for(q: usize, p: usize) -> i64 {
    let (mte2, mte3) = (slot(Pipe::Mte2), slot(Pipe::Mte3));
    if (q == mte2 && p == mte3) || (q == mte3 && p == mte2) {
        EVENTS - 1
    } else {
        EVENTS
    }
}

/// Where an op is: (block, op index in it) from the function body down.
type Path = Rc<[(BlockKey, usize)]>;

/// A past access not yet known to be ordered before everything.
#[derive(Clone, Debug)]
struct Pending {
    pipe: usize,
    index: u64,
    access: Access,
    /// (block, op index in it) from the function body down to the op
    /// (shared by the op's accesses).
    path: Path,
}

/// The clocks of a [`State`]: what a flag anchored after an earlier op
/// orders (kept per op, so without the pending accesses).
#[derive(Clone, Copy, Debug)]
struct Clocks {
    clock: [u64; N],
    known: [[u64; N]; N],
}

/// What the pass knows at a program point.
#[derive(Clone, Debug)]
struct State {
    /// The last instruction issued on each pipe.
    clock: [u64; N],
    /// `known[p][q]`: p's later instructions start after q's up to this one.
    known: [[u64; N]; N],
    /// `barrier[p]`: p's instructions up to this one are done before its
    /// next one starts (by a pipe_barrier, or transitively by a wait).
    barrier: [u64; N],
    pending: Vec<Pending>,
}

impl State {
    fn new() -> Self {
        State {
            clock: [0; N],
            known: [[0; N]; N],
            barrier: [0; N],
            pending: Vec::new(),
        }
    }

    /// Either path may have been taken.
    fn meet(&self, other: &State) -> State {
        let mut state = self.clone();
        for p in 0..N {
            state.clock[p] = self.clock[p].max(other.clock[p]);
            state.barrier[p] = self.barrier[p].min(other.barrier[p]);
            for q in 0..N {
                state.known[p][q] = self.known[p][q].min(other.known[p][q]);
            }
        }
        for pending in &other.pending {
            if !state.pending.iter().any(|p| {
                p.pipe == pending.pipe && p.index == pending.index && p.access == pending.access
            }) {
                state.pending.push(pending.clone());
            }
        }
        state
    }

    fn covered(&self, pending: &Pending, pipe: usize) -> bool {
        ordered(
            &self.known,
            &self.barrier,
            pipe,
            pending.pipe,
            pending.index,
        )
    }

    /// p waits for q's progress `(clock_q, known_q)`.
    fn join(&mut self, p: usize, q: usize, clock_q: u64, known_q: [u64; N]) {
        for (mine, theirs) in self.known[p].iter_mut().zip(known_q) {
            *mine = (*mine).max(theirs);
        }
        self.known[p][q] = self.known[p][q].max(clock_q);
        // What q knew of p is done before p goes on.
        self.barrier[p] = self.barrier[p].max(known_q[p]);
    }

    /// Drops accesses every pipe of `used` is already ordered after.
    fn prune(&mut self, used: &[bool; N]) {
        let (known, barrier) = (self.known, self.barrier);
        self.pending
            .retain(|pending| !settled(&known, &barrier, used, pending.pipe, pending.index));
    }

    /// Records `access` by instruction `index` of pipe `p`, dropping the
    /// earlier ones of that pipe it supersedes.
    fn record(&mut self, p: usize, index: u64, access: Access, path: &Path) {
        self.pending
            .retain(|older| older.pipe != p || !supersedes(&access, &older.access));
        self.pending.push(Pending {
            pipe: p,
            index,
            access,
            path: Rc::clone(path),
        });
    }

    fn full_barrier(&mut self) {
        for p in 0..N {
            self.barrier[p] = self.clock[p];
            self.known[p] = self.clock;
        }
        self.pending.clear();
    }
}

/// Where an op sits: its index among its block's original ops, the block,
/// its path from the function body, the state after each earlier op of
/// the block (for anchoring sets), the block's ops, and what is known of
/// the previous iteration when the block is a loop body analysed again.
struct Site<'c, 'a, 's> {
    op: OperationRef<'c, 'a>,
    index: usize,
    block: BlockRef<'c, 'a>,
    path: &'s Path,
    history: &'s [(OperationRef<'c, 'a>, Clocks)],
    ops: &'s [OperationRef<'c, 'a>],
    carried: Option<&'s Carried<'c, 'a>>,
}

/// The body of an `scf.for` analysed the second time: the state at the
/// loop's entry and the clocks after each op of the first analysis (the
/// previous iteration, as far as the analysis can know it).
struct Carried<'c, 'a> {
    looped: OperationRef<'c, 'a>,
    entry: State,
    previous: Vec<Clocks>,
}

impl Carried<'_, '_> {
    /// What a wait before this iteration's op learns of pipe `q` from a
    /// set after op `j` of the previous iteration, or, in the first
    /// iteration, from the set before the loop: q's progress up to op `j`
    /// (the set before the loop covers all of q's earlier work), and what
    /// q knew of the other pipes there, except where that would claim
    /// work before the loop that q did not know of at the loop's entry.
    fn learned(&self, j: usize, q: usize) -> (u64, [u64; N]) {
        let after = &self.previous[j];
        let mut known = after.known[q];
        for (r, known_r) in known.iter_mut().enumerate() {
            let at_entry = self.entry.known[q][r];
            let over_claimed = r != q
                && self
                    .entry
                    .pending
                    .iter()
                    .any(|a| a.pipe == r && a.index > at_entry && a.index <= *known_r);
            if over_claimed {
                *known_r = at_entry;
            }
        }
        (after.clock[q], known)
    }
}

/// A planned flag: where it lives and which id it holds.
struct Flag {
    from: usize,
    to: usize,
    event: i64,
    /// Its lifetime in doubled linear positions (set .. wait).
    span: (usize, usize),
}

struct Inserter<'c, 'a, 'm> {
    context: &'c Context,
    linear: &'m Linear<'c, 'a>,
    model: &'m Model,
    counter: u64,
    flags: Vec<Flag>,
}

fn run(
    function: OperationRef,
    aliases: &ParameterAliases,
    _options: &OptionValues,
) -> Result<(), PassFailed> {
    insert_sync(function, aliases)
}

/// Synchronises `function`'s pipes.
pub fn insert_sync(function: OperationRef, aliases: &ParameterAliases) -> Result<(), PassFailed> {
    let Some((body, linear, model)) = super::pipes::kernel_model(function, aliases) else {
        return Ok(());
    };
    // Kernels only: something must run on a pipe.
    let mut any = false;
    for op in &linear.ops {
        match model.kind(&linear, *op).as_deref() {
            Ok(Kind::Steps(_)) => any = true,
            Ok(_) => {}
            Err(message) => {
                OpDiagnostic::new(format!("pl-insert-sync: {message}")).emit(*op, Severity::Error);
                return Err(PassFailed);
            }
        }
    }
    if !any {
        return Ok(());
    }
    let context = pto_dialects::ir::context(&function);
    let mut inserter = Inserter {
        context,
        linear: &linear,
        model: &model,
        counter: 0,
        flags: Vec::new(),
    };
    inserter
        .block(body, &[], State::new(), true, None)
        .map_err(|(op, message)| {
            OpDiagnostic::new(format!("pl-insert-sync: {message}")).emit(op, Severity::Error);
            PassFailed
        })?;
    if let Some(terminator) = body.terminator() {
        body.insert_operation_before(terminator, pipe_barrier(context, terminator, Pipe::All));
    }
    Ok(())
}

fn pipe_attribute<'c>(context: &'c Context, pipe: Pipe) -> Attribute<'c> {
    IntegerAttribute::new(IntegerType::new(context, 32).into(), pipe as i64).into()
}

fn pipe_barrier<'c>(context: &'c Context, at: OperationRef<'c, '_>, pipe: Pipe) -> Operation<'c> {
    OperationBuilder::new(OpKind::PlSystemPipeBarrier.name(), at.location())
        .add_attributes(&[(
            Identifier::new(context, "pipe"),
            pipe_attribute(context, pipe),
        )])
        .build()
        .expect("pl.system.pipe_barrier builds")
}

fn flag_op<'c>(
    context: &'c Context,
    at: OperationRef<'c, '_>,
    set: bool,
    from: Pipe,
    to: Pipe,
    event: i64,
) -> Operation<'c> {
    let i32_type: Type = IntegerType::new(context, 32).into();
    OperationBuilder::new(
        if set {
            OpKind::PlSystemSyncSrc.name()
        } else {
            OpKind::PlSystemSyncDst.name()
        },
        at.location(),
    )
    .add_attributes(&[
        (
            Identifier::new(context, "set_pipe"),
            pipe_attribute(context, from),
        ),
        (
            Identifier::new(context, "wait_pipe"),
            pipe_attribute(context, to),
        ),
        (
            Identifier::new(context, "event"),
            IntegerAttribute::new(i32_type, event).into(),
        ),
    ])
    .build()
    .expect("pl sync ops build")
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

impl<'c, 'a, 'm> Inserter<'c, 'a, 'm> {
    /// Analyses (and with `emit`, synchronises) `block` from `state`;
    /// returns the state at its end and the clocks after each of its ops.
    fn block(
        &mut self,
        block: BlockRef<'c, 'a>,
        prefix: &[(BlockKey, usize)],
        mut state: State,
        emit: bool,
        carried: Option<&Carried<'c, 'a>>,
    ) -> Result<(State, Vec<Clocks>), Failure<'c, 'a>> {
        let mut ops = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            ops.push(op);
            next = op.next_in_block();
        }
        // The state after each op of this block (for flag anchors).
        let mut history: Vec<(OperationRef<'c, 'a>, Clocks)> = Vec::with_capacity(ops.len());
        for (i, op) in ops.iter().copied().enumerate() {
            let path: Path = prefix
                .iter()
                .copied()
                .chain([(BlockKey::of(&block), i)])
                .collect();
            let name = op_name(op);
            match name {
                "scf.for" => {
                    // Twice: the second time from where either the loop's
                    // entry or a previous iteration left off, with that
                    // iteration's clocks for loop-carried pairs.
                    if let Some(body) = op.region_opt(0).and_then(|r| r.first_block()) {
                        let entry = state.clone();
                        let (first, previous) =
                            self.block(body, &path, entry.clone(), false, None)?;
                        let head = entry.meet(&first);
                        let carried = Carried {
                            looped: op,
                            entry,
                            previous,
                        };
                        let (last, _) = self.block(body, &path, head, emit, Some(&carried))?;
                        state = carried.entry.meet(&last);
                    }
                }
                "scf.while" => {
                    let entry = state.clone();
                    let mut first = entry.clone();
                    for region in op.regions() {
                        if let Some(body) = region.first_block() {
                            first = self.block(body, &path, first, false, None)?.0;
                        }
                    }
                    let mut head = entry.meet(&first);
                    for region in op.regions() {
                        if let Some(body) = region.first_block() {
                            head = self.block(body, &path, head, emit, None)?.0;
                        }
                    }
                    state = entry.meet(&head);
                }
                "scf.if" => {
                    let mut branches = Vec::new();
                    for region in op.regions() {
                        match region.first_block() {
                            Some(body) => {
                                branches.push(self.block(body, &path, state.clone(), emit, None)?.0)
                            }
                            None => branches.push(state.clone()),
                        }
                    }
                    if branches.len() == 1 {
                        branches.push(state.clone());
                    }
                    state = branches
                        .iter()
                        .skip(1)
                        .fold(branches[0].clone(), |joined, b| joined.meet(b));
                }
                _ if op.region_count() > 0 => {
                    for region in op.regions() {
                        if let Some(body) = region.first_block() {
                            state = self.block(body, &path, state, emit, None)?.0;
                        }
                    }
                }
                _ => {
                    let model = self.model;
                    let kind = model.kind(self.linear, op).map_err(|m| (op, m))?;
                    let site = Site {
                        op,
                        index: i,
                        block,
                        path: &path,
                        history: &history,
                        ops: &ops,
                        carried,
                    };
                    self.execute(&site, &mut state, &kind, emit);
                }
            }
            if state.pending.len() > 32 {
                state.prune(self.model.used_pipes());
            }
            history.push((
                op,
                Clocks {
                    clock: state.clock,
                    known: state.known,
                },
            ));
        }
        Ok((
            state,
            history.into_iter().map(|(_, clocks)| clocks).collect(),
        ))
    }

    /// Applies one op: synchronises its hazards, then records its accesses.
    fn execute(&mut self, site: &Site<'c, 'a, '_>, state: &mut State, kind: &Kind, emit: bool) {
        match *kind {
            Kind::None => {}
            Kind::Barrier(Pipe::All) => state.full_barrier(),
            Kind::Barrier(pipe) => state.barrier[slot(pipe)] = state.clock[slot(pipe)],
            Kind::SetFlag { .. } | Kind::WaitFlag { .. } => {
                // Pairs already present: model them as adjacent (the pass
                // only ever adds adjacent or same-block pairs itself).
                if let Kind::WaitFlag { from, to, .. } = *kind {
                    let (q, p) = (slot(from), slot(to));
                    let (clock_q, known_q) = (state.clock[q], state.known[q]);
                    state.join(p, q, clock_q, known_q);
                }
            }
            Kind::Steps(ref steps) => {
                let mut previous: Option<usize> = None;
                for step in steps {
                    let p = slot(step.pipe);
                    // The steps of one op (a transfer's read and write) are
                    // ordered by the library inside the op.
                    if let Some(q) = previous.filter(|&q| q != p) {
                        let (clock_q, known_q) = (state.clock[q], state.known[q]);
                        state.join(p, q, clock_q, known_q);
                    }
                    // Hazards of every step with earlier ops are ordered before
                    // the op starts.
                    self.synchronise(site, state, p, &step.accesses, emit);
                    self.counter += 1;
                    state.clock[p] = self.counter;
                    state.known[p][p] = self.counter;
                    for &access in &step.accesses {
                        state.record(p, self.counter, access, site.path);
                    }
                    previous = Some(p);
                }
            }
        }
    }

    /// Orders every unsynchronised earlier access that conflicts with
    /// `accesses` before the op (on pipe `p`).
    fn synchronise(
        &mut self,
        site: &Site<'c, 'a, '_>,
        state: &mut State,
        p: usize,
        accesses: &[Access],
        emit: bool,
    ) {
        let Site {
            op,
            index,
            block,
            path,
            history,
            ops,
            carried,
        } = *site;
        let depth = path.len() - 1;
        // Synchronise the latest conflicting access first: its pair may
        // order the earlier ones transitively.
        loop {
            let mut latest: Option<usize> = None;
            for (k, pending) in state.pending.iter().enumerate() {
                let conflicts = accesses.iter().any(|a| {
                    (a.write || pending.access.write)
                        && a.resource.overlaps(&pending.access.resource)
                });
                if conflicts
                    && !state.covered(pending, p)
                    && latest.is_none_or(|j| state.pending[j].index < pending.index)
                {
                    latest = Some(k);
                }
            }
            let Some(k) = latest else { break };
            let q = state.pending[k].pipe;
            if q == p {
                if emit {
                    block.insert_operation_before(op, pipe_barrier(self.context, op, PIPES[p]));
                }
                state.barrier[p] = state.clock[p];
                continue;
            }
            // Anchor the set after the conflicting op when it sits in this
            // block (directly or nested): before `op`, or, in a loop body,
            // at or after it in the previous iteration.
            let front = &state.pending[k].path;
            let in_block = front.len() > depth
                && front[..depth] == path[..depth]
                && front[depth].0 == path[depth].0;
            let anchor = in_block.then(|| front[depth].1);
            let (clock_q, known_q, placement) = match (anchor, carried) {
                (Some(j), _) if j < index => (
                    history[j].1.clock[q],
                    history[j].1.known[q],
                    Placement::After(history[j].0),
                ),
                (Some(j), Some(carried)) => {
                    let (clock_q, known_q) = carried.learned(j, q);
                    (clock_q, known_q, Placement::Carried(ops[j], carried.looped))
                }
                _ => (state.clock[q], state.known[q], Placement::Before),
            };
            if emit {
                let full = self.place_flag(op, block, placement, q, p);
                if full {
                    state.full_barrier();
                    continue;
                }
            }
            state.join(p, q, clock_q, known_q);
        }
    }

    /// Inserts a set (where `placement` says) and a wait before `op`, with
    /// a free event id; a full barrier when none is (`true`).
    fn place_flag(
        &mut self,
        op: OperationRef<'c, 'a>,
        block: BlockRef<'c, 'a>,
        placement: Placement<'c, 'a>,
        q: usize,
        p: usize,
    ) -> bool {
        let at = self.linear.position(op) * 2;
        // Lifetimes in doubled positions: a loop-carried flag is held from
        // the set before the loop to the wait after it.
        let span = match placement {
            Placement::After(anchor) => (self.linear.end(anchor) * 2 + 1, at - 1),
            Placement::Before => (at - 1, at - 1),
            Placement::Carried(_, looped) => (
                (self.linear.position(looped) * 2).saturating_sub(1),
                self.linear.end(looped) * 2 + 1,
            ),
        };
        let taken: Vec<i64> = self
            .flags
            .iter()
            .filter(|f| f.from == q && f.to == p && f.span.0 <= span.1 && span.0 <= f.span.1)
            .map(|f| f.event)
            .collect();
        let Some(event) = (0..events_for(q, p)).find(|e| !taken.contains(e)) else {
            block.insert_operation_before(op, pipe_barrier(self.context, op, Pipe::All));
            return true;
        };
        self.flags.push(Flag {
            from: q,
            to: p,
            event,
            span,
        });
        let flag = |at: OperationRef<'c, 'a>, set: bool| {
            flag_op(self.context, at, set, PIPES[q], PIPES[p], event)
        };
        match placement {
            Placement::After(anchor) => {
                block.insert_operation_after(anchor, flag(op, true));
            }
            Placement::Before => {
                block.insert_operation_before(op, flag(op, true));
            }
            Placement::Carried(anchor, looped) => {
                // Set after the conflicting op for the next iteration; the
                // first iteration's wait takes a set made before the loop,
                // and the last iteration's set is taken after it.
                block.insert_operation_after(anchor, flag(anchor, true));
                if let Some(outer) = looped.block() {
                    outer.insert_operation_before(looped, flag(looped, true));
                    outer.insert_operation_after(looped, flag(looped, false));
                }
            }
        }
        block.insert_operation_before(op, flag(op, false));
        false
    }
}

/// Where a flag's set goes.
#[derive(Clone, Copy)]
enum Placement<'c, 'a> {
    /// Right after this earlier op of the block.
    After(OperationRef<'c, 'a>),
    /// Right before the wait.
    Before,
    /// After this op of a loop body (at or after the wait), with a set
    /// before the loop and a wait after it.
    Carried(OperationRef<'c, 'a>, OperationRef<'c, 'a>),
}
