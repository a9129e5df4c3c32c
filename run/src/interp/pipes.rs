//! Core groups and their cross-core pipes (docs/pto-run.md, "Core
//! groups"). A call of a `group` function launches its aic kernel on one
//! thread (the cube core) and its aiv kernel on two (vector cores 0 and
//! 1, `pl.tile.get_subblock_idx`), at once, as a2a3 runs a mixed task on
//! one core group. Their pipes block as the hardware's do: a push waits
//! for a free slot, a pop for a full one, a slot is free again once every
//! core that popped it has freed it. A group whose every running core
//! waits on a pipe is a deadlock, reported with what each waits for; a
//! launch that ends with tiles pushed and never popped, or popped and
//! never freed, is an error too.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use pto_dialects::enums::{CoreSplit, EnumAttr, PipeDirections};

use super::{Frame, Interp};
use crate::error::{Result, RunError};
use crate::program::{Code, Op};
use crate::value::{Tile, Value};

/// The vector cores of a core group (a2a3: two per cube core).
pub const VECTOR_CORES: usize = 2;

/// Which core of a group a thread is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Core {
    /// The cube core.
    Cube,
    /// Vector core `lane` (0 or 1).
    Vector(usize),
}

impl std::fmt::Display for Core {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Core::Cube => write!(f, "the cube core"),
            Core::Vector(lane) => write!(f, "vector core {lane}"),
        }
    }
}

/// The way a pipe carries tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Way {
    C2v,
    V2c,
}

impl std::fmt::Display for Way {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Way::C2v => "cube-to-vector",
            Way::V2c => "vector-to-cube",
        })
    }
}

/// A pipe's set-up, as a kernel declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Setup {
    directions: PipeDirections,
    slot_bytes: usize,
    slots: usize,
    local: usize,
}

/// One slot in flight: pushed (or being pushed by the vector cores) and not
/// yet freed by every core that pops it.
#[derive(Debug)]
struct Slot {
    split: CoreSplit,
    /// Cube to vector: the pushed tile at 0. Vector to cube: each vector
    /// core's part.
    parts: [Option<Arc<Tile>>; VECTOR_CORES],
    freed: [bool; VECTOR_CORES],
}

/// One way of one pipe.
#[derive(Debug)]
struct Fifo {
    setup: Setup,
    /// Slots not yet freed, oldest first; `queue[0]` is slot `base`.
    queue: VecDeque<Slot>,
    base: usize,
    /// Per producing core (cube: 0; vector cores: their lane), tiles pushed.
    pushed: [usize; VECTOR_CORES],
    /// Per popping core (cube: 0; vector cores: their lane), tiles popped
    /// and freed.
    popped: [usize; VECTOR_CORES],
    freed: [usize; VECTOR_CORES],
}

impl Fifo {
    fn new(setup: Setup) -> Self {
        Self {
            setup,
            queue: VecDeque::new(),
            base: 0,
            pushed: [0; VECTOR_CORES],
            popped: [0; VECTOR_CORES],
            freed: [0; VECTOR_CORES],
        }
    }

    /// The cores that pop each slot, of a launch of `lanes` vector cores.
    fn consumers(way: Way, lanes: usize) -> usize {
        match way {
            Way::C2v => lanes,
            Way::V2c => 1,
        }
    }

    /// The slot `index`, once it is in flight.
    fn slot(&mut self, index: usize) -> Option<&mut Slot> {
        index
            .checked_sub(self.base)
            .and_then(|i| self.queue.get_mut(i))
    }

    /// Whether slot `index` holds a whole tile (pushed by each of `lanes`
    /// vector cores, when they push).
    fn full(&self, way: Way, index: usize, lanes: usize) -> bool {
        let Some(slot) = index.checked_sub(self.base).and_then(|i| self.queue.get(i)) else {
            return false;
        };
        match way {
            Way::C2v => slot.parts[0].is_some(),
            Way::V2c => slot.parts[..lanes].iter().all(Option::is_some),
        }
    }
}

/// What the group's threads share.
#[derive(Default)]
struct State {
    /// Threads of the group still running.
    running: usize,
    /// Threads waiting since the last change to a pipe, and what for.
    blocked: BTreeMap<String, String>,
    /// Threads that ended, and how.
    ended: Vec<String>,
    deadlock: Option<String>,
    /// Set-ups by (pipe id, whether by the cube core).
    setups: BTreeMap<(i64, bool), Setup>,
    fifos: BTreeMap<(i64, Way), Fifo>,
}

/// The pipes of one launch of a core group.
#[derive(Default)]
pub struct GroupPipes {
    state: Mutex<State>,
    changed: Condvar,
    /// The vector cores the launch runs (1 or 2).
    lanes: usize,
}

/// What every deadlock report starts with.
const DEADLOCK: &str = "the core group deadlocks";

impl GroupPipes {
    pub fn new(threads: usize, lanes: usize) -> Self {
        Self {
            state: Mutex::new(State {
                running: threads,
                ..State::default()
            }),
            changed: Condvar::new(),
            lanes,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A pipe changed: every waiter checks again.
    fn progress(&self, state: &mut State) {
        state.blocked.clear();
        self.changed.notify_all();
    }

    /// Waits until `ready` holds; a deadlock once every running thread
    /// waits with nothing changing.
    fn wait_until<'s>(
        &'s self,
        mut state: MutexGuard<'s, State>,
        who: &str,
        what: &str,
        mut ready: impl FnMut(&mut State) -> Result<bool>,
    ) -> Result<MutexGuard<'s, State>> {
        loop {
            if let Some(deadlock) = &state.deadlock {
                return Err(RunError::new(deadlock.clone()));
            }
            if ready(&mut state)? {
                return Ok(state);
            }
            state.blocked.insert(who.to_string(), what.to_string());
            if state.blocked.len() >= state.running {
                let report = report(&state);
                state.deadlock = Some(report.clone());
                self.changed.notify_all();
                return Err(RunError::new(report));
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
            state.blocked.remove(who);
        }
    }

    /// Thread `who` ended (`failed` by an error): the others may now wait
    /// forever.
    pub fn leave(&self, who: &str, failed: bool) {
        let mut state = self.lock();
        state.running = state.running.saturating_sub(1);
        state.blocked.remove(who);
        state
            .ended
            .push(format!("{who} {}", if failed { "failed" } else { "ended" }));
        if state.deadlock.is_none() && state.running > 0 && state.blocked.len() >= state.running {
            state.deadlock = Some(report(&state));
        }
        self.changed.notify_all();
    }

    /// What is left in the pipes once every thread ended without error.
    pub fn leftovers(&self) -> Result<()> {
        let state = self.lock();
        for ((id, way), fifo) in &state.fifos {
            let consumers = Fifo::consumers(*way, self.lanes);
            let pushed = fifo.pushed[0];
            let popped = fifo.popped[..consumers].iter().min().copied().unwrap_or(0);
            if pushed > popped {
                return Err(RunError::new(format!(
                    "pipe {id} ({way}): {} tile(s) pushed were never popped when the core group ended (on the device the next launch pops them)",
                    pushed - popped
                )));
            }
            for lane in 0..consumers {
                if fifo.popped[lane] > fifo.freed[lane] {
                    let core = match way {
                        Way::C2v => Core::Vector(lane),
                        Way::V2c => Core::Cube,
                    };
                    return Err(RunError::new(format!(
                        "pipe {id} ({way}): {core} popped {} tile(s) it never freed ({})",
                        fifo.popped[lane] - fifo.freed[lane],
                        match way {
                            Way::C2v => "pl.system.tfree_to_aic",
                            Way::V2c => "pl.system.tfree_to_aiv",
                        }
                    )));
                }
            }
        }
        Ok(())
    }
}

/// The deadlock report: who waits for what, who ended.
fn report(state: &State) -> String {
    let waits: Vec<String> = state
        .blocked
        .iter()
        .map(|(who, what)| format!("{who} waits {what}"))
        .collect();
    let mut text = format!("{DEADLOCK}: {}", waits.join("; "));
    if !state.ended.is_empty() {
        text.push_str(&format!(" ({})", state.ended.join(", ")));
    }
    text
}

/// Whether an error is a deadlock report (the consequence of another
/// thread's failure, when there is one).
pub fn is_deadlock(error: &RunError) -> bool {
    error.to_string().contains(DEADLOCK)
}

/// The part of `tile` vector core `lane` takes under `split`.
fn part(tile: &Tile, split: CoreSplit, lane: usize) -> Result<Tile> {
    let (rows, cols) = match split {
        CoreSplit::None => return Ok(tile.clone()),
        CoreSplit::UpDown => (tile.rows / 2, tile.cols),
        CoreSplit::LeftRight => (tile.rows, tile.cols / 2),
    };
    let (row0, col0) = match split {
        CoreSplit::UpDown => (lane * rows, 0),
        _ => (0, lane * cols),
    };
    let mut out = Tile::undefined(rows, cols, tile.elem)?;
    out.pad = tile.pad;
    for r in 0..rows {
        for c in 0..cols {
            let from = tile.index(row0 + r, col0 + c);
            let to = out.index(r, c);
            out.data[to] = tile.data[from];
            out.defined[to] = tile.defined[from];
        }
    }
    let valid = |extent: usize, start: usize, size: usize| extent.saturating_sub(start).min(size);
    out.valid_rows = match split {
        CoreSplit::UpDown => valid(tile.valid_rows, row0, rows),
        _ => tile.valid_rows,
    };
    out.valid_cols = match split {
        CoreSplit::LeftRight => valid(tile.valid_cols, col0, cols),
        _ => tile.valid_cols,
    };
    Ok(out)
}

/// The tile the vector cores' parts make under `split`.
fn join(parts: &[Arc<Tile>], split: CoreSplit) -> Result<Tile> {
    let first = &parts[0];
    if split == CoreSplit::None {
        return Ok((**first).clone());
    }
    let (rows, cols) = match split {
        CoreSplit::UpDown => (first.rows * 2, first.cols),
        _ => (first.rows, first.cols * 2),
    };
    let mut out = Tile::undefined(rows, cols, first.elem)?;
    out.pad = first.pad;
    for (lane, tile) in parts.iter().enumerate() {
        let (row0, col0) = match split {
            CoreSplit::UpDown => (lane * first.rows, 0),
            _ => (0, lane * first.cols),
        };
        for r in 0..tile.rows.min(first.rows) {
            for c in 0..tile.cols.min(first.cols) {
                let to = out.index(row0 + r, col0 + c);
                out.data[to] = tile.data[tile.index(r, c)];
                out.defined[to] = tile.defined[tile.index(r, c)];
            }
        }
    }
    out.valid_rows = match split {
        CoreSplit::UpDown => first.rows + parts[1].valid_rows,
        _ => first.valid_rows,
    };
    out.valid_cols = match split {
        CoreSplit::LeftRight => first.cols + parts[1].valid_cols,
        _ => first.valid_cols,
    };
    Ok(out)
}

impl Core {
    /// The index of this core among the producers or consumers of a way:
    /// the cube 0, a vector core its lane.
    fn lane(self) -> usize {
        match self {
            Core::Cube => 0,
            Core::Vector(lane) => lane,
        }
    }

    /// The way this core pushes into (`push`) or pops from.
    fn way(self, push: bool) -> Way {
        if (self == Core::Cube) == push {
            Way::C2v
        } else {
            Way::V2c
        }
    }
}

/// The bytes a tile of `tile`'s extents takes in a slot.
fn tile_bytes(tile: &Tile) -> usize {
    tile.rows * tile.cols * tile.elem.bytes()
}

/// How one core of a group launch ended: its member call, its core, its
/// results and the conditions it deferred.
type CoreOutcome = (usize, Core, Result<Vec<Value>>, Vec<super::comm::Deferred>);

/// A thread's place in a core group's launch.
pub struct Seat {
    pub core: Core,
    pub pipes: Arc<GroupPipes>,
    /// The kernel it runs, for reports.
    pub kernel: String,
    /// The pipes it has set up.
    pub set_up: Vec<i64>,
}

impl<'w> Interp<'w> {
    /// The index of this vector core in its group (0 elsewhere).
    pub(super) fn subblock(&self) -> i64 {
        match self.seat.as_ref().map(|s| s.core) {
            Some(Core::Vector(lane)) => lane as i64,
            _ => 0,
        }
    }

    /// Runs group `index`: its calls of an aic and an aiv kernel launch the
    /// cube core and both vector cores at once; the group returns what
    /// its return names (the aiv kernel's results those of vector core 0,
    /// which computes what core 1 does on the tensors they share).
    pub(super) fn call_group(&mut self, index: usize, args: Vec<Value>) -> Result<Vec<Value>> {
        let function = &self.program.functions[index];
        let mut frame: Frame = vec![None; function.slots];
        for (&slot, arg) in function.params.iter().zip(args) {
            frame[slot] = Some(arg);
        }
        let mut members = Vec::new();
        for op in &function.body.ops {
            match op.code {
                Code::Call => {
                    let callee = self.callee(op)?;
                    members.push((op, callee, self.values(&frame, &op.operands)?));
                }
                Code::Return => {
                    self.launch_group(&mut frame, &members)
                        .map_err(|e| e.located(&op.location))?;
                    return self.values(&frame, &op.operands);
                }
                _ => {
                    self.exec(&mut frame, op)
                        .map_err(|e| e.located(&op.location))?;
                }
            }
        }
        Ok(Vec::new())
    }

    /// Runs the group's kernels on their cores, each on a thread, and
    /// stores their results.
    fn launch_group(
        &mut self,
        frame: &mut Frame,
        members: &[(&'w Op, usize, Vec<Value>)],
    ) -> Result<()> {
        use pto_dialects::enums::FunctionKind;
        // Vector core 0 alone unless a pipe splits tiles between both
        // (pto-isa's TILE_NO_SPLIT is one-to-one, on vector core 0); the
        // verifier refuses a group whose halves disagree.
        let lanes = members
            .iter()
            .map(|(_, callee, _)| self.program.functions[*callee].group_lanes as usize)
            .max()
            .unwrap_or(1)
            .min(VECTOR_CORES);
        let mut seats = Vec::new();
        for (member, (_, callee, _)) in members.iter().enumerate() {
            match self.program.functions[*callee].kind {
                Some(FunctionKind::Aic) => seats.push((member, Core::Cube)),
                Some(FunctionKind::Aiv) => {
                    seats.extend((0..lanes).map(|lane| (member, Core::Vector(lane))))
                }
                _ => {
                    return Err(RunError::new(format!(
                        "a group launches aic and aiv kernels, not @{}",
                        self.program.functions[*callee].name
                    )));
                }
            }
        }
        let pipes = Arc::new(GroupPipes::new(seats.len(), lanes));
        let outcomes: Vec<CoreOutcome> = std::thread::scope(|scope| {
            let handles: Vec<_> = seats
                .iter()
                .map(|&(member, core)| {
                    let (_, callee, args) = &members[member];
                    let kernel = self.program.functions[*callee].name.clone();
                    let who = format!("{core} (@{kernel})");
                    let seat = Seat {
                        core,
                        pipes: pipes.clone(),
                        kernel,
                        set_up: Vec::new(),
                    };
                    let mut interp = self.fork(self.block, self.barrier.clone(), Some(seat));
                    let (callee, args, pipes) = (*callee, args.clone(), pipes.clone());
                    scope.spawn(move || {
                        let result = interp.call(callee, args);
                        pipes.leave(&who, result.is_err());
                        (member, core, result, std::mem::take(&mut interp.deferred))
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        (
                            0,
                            Core::Cube,
                            Err(RunError::new("a core's thread panicked")),
                            Vec::new(),
                        )
                    })
                })
                .collect()
        });
        // A core's own failure explains the others' deadlock: it is the
        // error reported.
        let mut errors = Vec::new();
        let mut results: Vec<Option<Vec<Value>>> = vec![None; members.len()];
        for (member, core, result, deferred) in outcomes {
            self.deferred.extend(deferred);
            match result {
                Ok(values) if matches!(core, Core::Cube | Core::Vector(0)) => {
                    results[member] = Some(values)
                }
                Ok(_) => {}
                Err(error) => errors.push(error),
            }
        }
        if !errors.is_empty() {
            let own = errors.iter().position(|e| !is_deadlock(e)).unwrap_or(0);
            return Err(errors.swap_remove(own));
        }
        pipes.leftovers()?;
        for ((op, _, _), values) in members.iter().zip(results) {
            self.set(frame, op, values.unwrap_or_default())?;
        }
        Ok(())
    }

    /// The core this thread is, and its group's pipes; an error outside a
    /// group launch.
    fn group(&self, op: &Op) -> Result<(Core, Arc<GroupPipes>)> {
        match &self.seat {
            Some(seat) => Ok((seat.core, seat.pipes.clone())),
            _ => Err(RunError::at(
                &op.location,
                format!(
                    "{} outside a core group: the other core is not running (call the kernels through a function of kind group)",
                    op.name
                ),
            )),
        }
    }

    /// Who this thread is, in reports.
    fn who(&self, core: Core) -> String {
        let kernel = self.seat.as_ref().map_or("", |s| s.kernel.as_str());
        format!("{core} (@{kernel})")
    }

    /// Runs a cross-core op.
    pub(super) fn exec_pipe(&mut self, frame: &mut Frame, op: &Op) -> Result<()> {
        let (core, pipes) = self.group(op)?;
        let id = op.int_attr("id").unwrap_or(0);
        let split = op
            .enum_attr::<CoreSplit>("split")
            .unwrap_or(CoreSplit::None);
        let who = self.who(core);
        let at = |message: String| RunError::at(&op.location, message);
        match op.code {
            Code::PipeSetup => {
                let directions = op
                    .enum_attr::<PipeDirections>("directions")
                    .ok_or_else(|| at("a pipe set-up without directions".into()))?;
                let int = |name: &str| op.int_attr(name).map(|v| v.max(0) as usize);
                let slots = int("slot_num").unwrap_or(1);
                let setup = Setup {
                    directions,
                    slot_bytes: int("slot_size").unwrap_or(0),
                    slots,
                    local: int("local_slot_num").unwrap_or(slots),
                };
                let mut state = pipes.lock();
                let cube = core == Core::Cube;
                let shared = |s: &Setup| (s.directions, s.slot_bytes, s.slots);
                if let Some(other) = state.setups.get(&(id, !cube))
                    && shared(other) != shared(&setup)
                {
                    return Err(at(format!(
                        "pipe {id} is set up differently by the cube and the vector cores"
                    )));
                }
                state.setups.insert((id, cube), setup);
                for (way, carried) in [
                    (Way::C2v, directions != PipeDirections::V2c),
                    (Way::V2c, directions != PipeDirections::C2v),
                ] {
                    if carried {
                        let fifo = state
                            .fifos
                            .entry((id, way))
                            .or_insert_with(|| Fifo::new(setup));
                        // The consumer's set-up says how deep its ring is.
                        let consumes = (way == Way::C2v) != cube;
                        if consumes {
                            fifo.setup.local = setup.local;
                        }
                    }
                }
                if let Some(seat) = &mut self.seat {
                    seat.set_up.push(id);
                }
                pipes.progress(&mut state);
                Ok(())
            }
            Code::PipePush => {
                let tile = self.tile(frame, op.operands[0])?;
                let (way, lane) = (core.way(true), core.lane());
                self.require_set_up(op, id)?;
                let state = pipes.lock();
                let what = format!("for a free slot of pipe {id} at {}", op.location);
                let mut state = pipes.wait_until(state, &who, &what, |state| {
                    let fifo = state
                        .fifos
                        .get(&(id, way))
                        .ok_or_else(|| at(format!("pipe {id} does not carry {way} tiles")))?;
                    let bytes = tile_bytes(&tile);
                    if bytes > fifo.setup.slot_bytes {
                        return Err(at(format!(
                            "a [{}, {}] tile takes {bytes} bytes, more than pipe {id}'s {}-byte slot",
                            tile.rows, tile.cols, fifo.setup.slot_bytes
                        )));
                    }
                    Ok(fifo.pushed[lane] < fifo.base + fifo.setup.slots)
                })?;
                let fifo = state.fifos.get_mut(&(id, way)).expect("checked");
                let index = fifo.pushed[lane];
                while fifo.base + fifo.queue.len() <= index {
                    fifo.queue.push_back(Slot {
                        split,
                        parts: [None, None],
                        freed: [false; VECTOR_CORES],
                    });
                }
                let slot = fifo.slot(index).expect("just made");
                if slot.split != split {
                    return Err(at(format!(
                        "vector core {lane} pushes into pipe {id} split {split}, the other split {}",
                        slot.split
                    )));
                }
                if split == CoreSplit::None
                    && way == Way::V2c
                    && let Some(other) = &slot.parts[1 - lane]
                    && **other != *tile
                {
                    return Err(at(format!(
                        "the vector cores push different tiles into pipe {id} split none: the cube core would receive either (split the tile, or push it from one core's data)"
                    )));
                }
                slot.parts[lane] = Some(tile);
                if way == Way::C2v {
                    slot.parts[1] = slot.parts[0].clone();
                }
                fifo.pushed[lane] += 1;
                if way == Way::C2v {
                    fifo.pushed[1] = fifo.pushed[0];
                }
                pipes.progress(&mut state);
                Ok(())
            }
            Code::PipePop => {
                let (way, lane) = (core.way(false), core.lane());
                let lanes = pipes.lanes;
                self.require_set_up(op, id)?;
                let state = pipes.lock();
                let what = format!("for a tile in pipe {id} at {}", op.location);
                let mut state = pipes.wait_until(state, &who, &what, |state| {
                    let fifo = state
                        .fifos
                        .get(&(id, way))
                        .ok_or_else(|| at(format!("pipe {id} does not carry {way} tiles")))?;
                    Ok(fifo.full(way, fifo.popped[lane], lanes))
                })?;
                let fifo = state.fifos.get_mut(&(id, way)).expect("checked");
                let index = fifo.popped[lane];
                let local = fifo.setup.local;
                let slot = fifo.slot(index).expect("full");
                if slot.split != split {
                    return Err(at(format!(
                        "pops split {split} from pipe {id}, whose tile was pushed split {}",
                        slot.split
                    )));
                }
                let parts: Vec<Arc<Tile>> = slot.parts[..lanes].iter().flatten().cloned().collect();
                let tile = match way {
                    Way::C2v => part(&parts[0], split, lane)?,
                    Way::V2c => join(&parts, split)?,
                };
                fifo.popped[lane] += 1;
                if fifo.popped[lane] - fifo.freed[lane] > local {
                    return Err(at(format!(
                        "{who} holds {} popped tiles of pipe {id}, more than its {local} local slot(s): the next pop overwrites a tile still in use (free it first)",
                        fifo.popped[lane] - fifo.freed[lane]
                    )));
                }
                pipes.progress(&mut state);
                drop(state);
                self.set_popped(frame, op, tile)
            }
            Code::PipeFree => {
                let (way, lane) = (core.way(false), core.lane());
                // The slot the operand's pop took: its pipe id and split.
                let id = op.int_attr("popped_id").unwrap_or(id);
                let mut state = pipes.lock();
                let fifo = state
                    .fifos
                    .get_mut(&(id, way))
                    .ok_or_else(|| at(format!("pipe {id} does not carry {way} tiles")))?;
                if fifo.freed[lane] >= fifo.popped[lane] {
                    return Err(at(format!(
                        "{who} frees a slot of pipe {id} it holds none of"
                    )));
                }
                let index = fifo.freed[lane];
                fifo.slot(index).expect("held").freed[lane] = true;
                fifo.freed[lane] += 1;
                let consumers = Fifo::consumers(way, pipes.lanes);
                while fifo
                    .queue
                    .front()
                    .is_some_and(|s| s.freed[..consumers].iter().all(|&f| f))
                {
                    fifo.queue.pop_front();
                    fifo.base += 1;
                }
                pipes.progress(&mut state);
                Ok(())
            }
            _ => Err(at(format!("{} is no pipe op", op.name))),
        }
    }

    fn require_set_up(&self, op: &Op, id: i64) -> Result<()> {
        if self.seat.as_ref().is_some_and(|s| s.set_up.contains(&id)) {
            return Ok(());
        }
        Err(RunError::at(
            &op.location,
            format!("pipe {id} is used before this kernel sets it up (*_initialize_pipe)"),
        ))
    }

    /// Stores a popped tile as `op`'s result, in the result type's shape.
    fn set_popped(&mut self, frame: &mut Frame, op: &Op, tile: Tile) -> Result<()> {
        if let Some(crate::types::Ty::Tile(ty)) = op.result_types.first() {
            let (rows, cols) = super::tile::grid(&ty.shape);
            if (rows, cols) != (tile.rows, tile.cols) || ty.elem != tile.elem {
                return Err(RunError::at(
                    &op.location,
                    format!(
                        "pops a [{rows}, {cols}] {} tile, but the slot holds a [{}, {}] {} part",
                        ty.elem.name(),
                        tile.rows,
                        tile.cols,
                        tile.elem.name()
                    ),
                ));
            }
        }
        self.set1(frame, op, Value::Tile(Arc::new(tile)))
            .map(|_| ())
    }
}
