//! The machine every rank thread shares: global memory, the comm domains
//! with one window arena per member rank, the devices' task queues, and
//! the blocking that makes `wait` and collectives real. One mutex guards it
//! all; a condition variable wakes blocked threads on every change.
//!
//! A thread that blocks records what it waits for as a [`Blocker`] any
//! thread can re-evaluate, so "nobody can make progress" is decided
//! exactly: when the host has finished submitting and no device is
//! running, has queued work, or waits for something that now holds, the
//! run is deadlocked and every blocked rank is reported.

use std::{
    collections::{HashMap, VecDeque},
    sync::{
        Arc, Condvar, Mutex, MutexGuard,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use pto_dialects::enums::ReduceOp;

use crate::{
    error::{Result, RunError},
    program::Collective,
    types::Elem,
    value::{BufferId, DomainId, Mem, Value},
};

/// Window slots are rounded up to this many bytes (docs/pto-run.md, "The
/// machine").
pub const SLOT_ALIGN: usize = 32;

/// The default memory limit (`--memory-limit`): 1 GiB.
pub const DEFAULT_MEMORY_LIMIT: usize = 1 << 30;

/// A comm domain: its devices (worker indices) in rank order, and one
/// window arena per member.
#[derive(Debug)]
pub struct Domain {
    pub devices: Vec<usize>,
    pub arenas: Vec<Vec<u8>>,
    pub name: String,
}

/// A window buffer: a slot of a domain's window.
#[derive(Clone, Debug)]
pub struct WindowBuffer {
    pub domain: DomainId,
    /// Byte offset of the slot in each arena.
    pub offset: usize,
    /// Requested bytes (the slot is rounded up to [`SLOT_ALIGN`]).
    pub bytes: usize,
    pub name: String,
    /// The first view made of it (shape, element type): how it is output.
    pub view: Option<(Vec<usize>, Elem)>,
    /// An entry parameter's buffer (output as the parameter).
    pub entry: bool,
}

impl WindowBuffer {
    pub fn slot_bytes(&self) -> usize {
        self.bytes.div_ceil(SLOT_ALIGN) * SLOT_ALIGN
    }
}

/// What a device runs next.
#[derive(Clone, Debug)]
pub enum Task {
    /// A function (a chip orchestration) with its arguments; `reply`: keep
    /// its results (the entry's run on device 0).
    Call {
        function: usize,
        args: Vec<Value>,
        location: String,
        reply: bool,
    },
    /// A collective issued by the host (`pld.tensor.*` on the host path or
    /// a `pld.builtin.*` kernel).
    Collective(CollectiveCall),
}

/// One rank's call of a collective.
#[derive(Clone, Debug)]
pub struct CollectiveCall {
    pub kind: Collective,
    /// The reduction (sum for collectives that do not reduce).
    pub reduce: ReduceOp,
    pub root: i64,
    /// Ring (vs mesh) allreduce.
    pub ring: bool,
    pub args: Vec<Value>,
    pub location: String,
}

/// What a blocked thread waits for.
#[derive(Clone, Debug)]
pub enum Blocker {
    /// A signal cell (i32 at `byte` of `domain`'s arena `arena`).
    Signal {
        domain: DomainId,
        arena: usize,
        byte: usize,
        expected: i64,
        cmp: SignalCmp,
        what: String,
    },
    /// The other ranks of a collective.
    Gathering { key: (DomainId, u64), what: String },
}

/// How a signal cell is compared with its expected value: `pld.system.wait`
/// compares signed i32 (`eq`, `ge`); `pld.system.defer_wait` compares
/// unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalCmp {
    Eq,
    Ge,
    GeUnsigned,
}

/// A device thread's state.
#[derive(Clone, Debug)]
pub enum ThreadState {
    Idle,
    Running,
    Blocked(Blocker),
}

/// A collective being gathered: each rank's call, then the outcome.
#[derive(Debug, Default)]
pub struct Gathering {
    pub calls: Vec<Option<CollectiveCall>>,
    pub done: bool,
    pub departed: usize,
}

/// Everything the mutex guards.
#[derive(Debug)]
pub struct State {
    pub gm: Vec<Vec<u8>>,
    pub domains: Vec<Domain>,
    pub buffers: Vec<WindowBuffer>,
    pub queues: Vec<VecDeque<Task>>,
    pub threads: Vec<ThreadState>,
    /// The host is still running its orchestrator.
    pub host_active: bool,
    pub failure: Option<RunError>,
    pub gatherings: HashMap<(DomainId, u64), Gathering>,
    /// Collectives each (domain, rank) has entered.
    pub collective_counts: HashMap<(DomainId, usize), u64>,
    pub shutdown: bool,
    /// The results of a device-run entry.
    pub results: Option<Vec<Value>>,
    /// Where each thread (the devices, then the host) was last seen: the op
    /// it blocks at, or the op it ran at its last deadline check. Failures
    /// no op raised (a timeout, a deadlock) are reported there.
    pub at: Vec<Option<String>>,
    /// Bytes of global memory and window arenas allocated, over all ranks.
    pub memory_used: usize,
    /// What they may reach.
    pub memory_limit: usize,
}

/// The shared machine.
pub struct World {
    pub world_size: usize,
    /// Ops executed by every thread (for the interpreter's cost figures and
    /// the progress a caller shows, [`World::with_op_counter`]).
    pub ops: Arc<AtomicU64>,
    /// Set with the first failure: running threads stop at their next op.
    stop: AtomicBool,
    state: Mutex<State>,
    changed: Condvar,
    deadline: Instant,
    timeout: Duration,
}

impl World {
    /// A machine of `world_size` devices; the all-device domain is domain 0.
    pub fn new(world_size: usize, timeout: Duration) -> Self {
        let state = State {
            gm: Vec::new(),
            domains: vec![Domain {
                devices: (0..world_size).collect(),
                arenas: vec![Vec::new(); world_size],
                name: "world".into(),
            }],
            buffers: Vec::new(),
            queues: vec![VecDeque::new(); world_size],
            threads: vec![ThreadState::Idle; world_size],
            host_active: true,
            failure: None,
            gatherings: HashMap::new(),
            collective_counts: HashMap::new(),
            shutdown: false,
            results: None,
            at: vec![None; world_size + 1],
            memory_used: 0,
            memory_limit: DEFAULT_MEMORY_LIMIT,
        };
        Self {
            world_size,
            ops: Arc::new(AtomicU64::new(0)),
            stop: AtomicBool::new(false),
            state: Mutex::new(state),
            changed: Condvar::new(),
            deadline: Instant::now() + timeout,
            timeout,
        }
    }

    /// Limits the bytes of global memory and window arenas the run may
    /// allocate, over all ranks (default [`DEFAULT_MEMORY_LIMIT`]).
    pub fn with_memory_limit(self, bytes: usize) -> Self {
        self.lock().memory_limit = bytes;
        self
    }

    /// Counts executed ops in `counter` (shared with whoever reports
    /// progress).
    pub fn with_op_counter(mut self, counter: Arc<AtomicU64>) -> Self {
        self.ops = counter;
        self
    }

    /// The slot of `device` (`None`: the host) in [`State::at`].
    pub fn thread_slot(&self, device: Option<usize>) -> usize {
        device.unwrap_or(self.world_size)
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking rank thread poisons the lock; the state stays usable
        // for reporting.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes every blocked thread to re-check.
    pub fn wake(&self) {
        self.changed.notify_all();
    }

    /// Records the first failure and wakes everyone to stop.
    pub fn fail(&self, error: RunError) {
        let mut state = self.lock();
        self.record(&mut state, error);
        drop(state);
        self.wake();
    }

    /// Records `error` unless a failure is known; running threads stop.
    pub fn record(&self, state: &mut State, error: RunError) {
        if state.failure.is_none() {
            state.failure = Some(error);
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the run has failed (checked by every op), or its time is up.
    pub fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Notes that thread `slot` runs the op at `location`, and fails the
    /// run there if it is past its deadline.
    pub fn check_deadline(&self, slot: usize, location: &str) -> Result<()> {
        let mut state = self.lock();
        state.at[slot] = Some(location.to_string());
        if Instant::now() < self.deadline {
            return Ok(());
        }
        let error = self.record_timeout(&mut state, Some(location));
        drop(state);
        self.wake();
        Err(error)
    }

    /// Records the timeout, at `location` when the thread noticing it is at
    /// an op, else where a busy or blocked thread was last seen.
    fn record_timeout(&self, state: &mut State, location: Option<&str>) -> RunError {
        let report = state.report(&format!(
            "timeout: the run took longer than {} s",
            self.timeout.as_secs_f64()
        ));
        let error = state.locate(RunError::new(report), location);
        self.record(state, error.clone());
        error
    }

    /// Records a deadlock, at `location` or where a rank blocks.
    fn record_deadlock(&self, state: &mut State, location: Option<&str>) -> RunError {
        let blocked: Vec<usize> = state
            .threads
            .iter()
            .enumerate()
            .filter(|(_, thread)| matches!(thread, ThreadState::Blocked(_)))
            .map(|(device, _)| device)
            .collect();
        let headline = if blocked.len() == state.threads.len() {
            "deadlock: every rank is blocked".to_string()
        } else {
            let which: Vec<String> = blocked.iter().map(|d| d.to_string()).collect();
            format!(
                "deadlock: device{} {} blocked and nothing left running can release {}",
                if blocked.len() == 1 { "" } else { "s" },
                which.join(", "),
                if blocked.len() == 1 { "it" } else { "them" }
            )
        };
        let report = state.report(&headline);
        let error = state.locate(RunError::new(report), location);
        self.record(state, error.clone());
        error
    }

    /// Blocks device `device` at the op at `location` until `blocker`
    /// holds; diagnoses deadlock and timeout.
    pub fn block<'a>(
        &'a self,
        mut state: MutexGuard<'a, State>,
        device: usize,
        blocker: Blocker,
        location: &str,
    ) -> Result<MutexGuard<'a, State>> {
        state.at[device] = Some(location.to_string());
        loop {
            if let Some(failure) = &state.failure {
                return Err(stopped(failure));
            }
            if state.holds(&blocker) {
                state.threads[device] = ThreadState::Running;
                return Ok(state);
            }
            state.threads[device] = ThreadState::Blocked(blocker.clone());
            if state.deadlocked() {
                let error = self.record_deadlock(&mut state, Some(location));
                self.wake();
                return Err(error);
            }
            state = self.wait(state, Some(location))?;
        }
    }

    /// Waits for a change, or fails at the deadline (at `location`, the op
    /// the waiting thread is at, if any).
    fn wait<'a>(
        &'a self,
        state: MutexGuard<'a, State>,
        location: Option<&str>,
    ) -> Result<MutexGuard<'a, State>> {
        let now = Instant::now();
        if now >= self.deadline {
            let mut state = state;
            let error = self.record_timeout(&mut state, location);
            self.wake();
            return Err(error);
        }
        let (state, _) = self
            .changed
            .wait_timeout(state, self.deadline - now)
            .unwrap_or_else(|e| e.into_inner());
        Ok(state)
    }

    /// A device worker: runs its queue until shutdown or failure.
    pub fn next_task(&self, device: usize) -> Option<Task> {
        let mut state = self.lock();
        loop {
            if state.failure.is_some() || (state.shutdown && state.queues[device].is_empty()) {
                state.threads[device] = ThreadState::Idle;
                return None;
            }
            if let Some(task) = state.queues[device].pop_front() {
                state.threads[device] = ThreadState::Running;
                return Some(task);
            }
            state.threads[device] = ThreadState::Idle;
            if state.deadlocked() {
                self.record_deadlock(&mut state, None);
                self.wake();
                return None;
            }
            self.wake();
            state = match self.wait(state, None) {
                Ok(state) => state,
                Err(_) => return None,
            };
        }
    }

    /// Queues `task` on `device`.
    pub fn submit(&self, device: usize, task: Task) -> Result<()> {
        let mut state = self.lock();
        if device >= state.queues.len() {
            return Err(RunError::new(format!(
                "device {device} is outside the {} devices",
                state.queues.len()
            )));
        }
        state.queues[device].push_back(task);
        drop(state);
        self.wake();
        Ok(())
    }

    /// The host is done submitting: waits until every device is idle with
    /// an empty queue, then stops the workers.
    pub fn finish(&self) -> Result<()> {
        let mut state = self.lock();
        state.host_active = false;
        self.wake();
        loop {
            if let Some(failure) = &state.failure {
                let failure = failure.clone();
                state.shutdown = true;
                self.wake();
                return Err(failure);
            }
            let quiet = state.queues.iter().all(VecDeque::is_empty)
                && state.threads.iter().all(|t| matches!(t, ThreadState::Idle));
            if quiet {
                state.shutdown = true;
                self.wake();
                return Ok(());
            }
            if state.deadlocked() {
                self.record_deadlock(&mut state, None);
                continue;
            }
            state = match self.wait(state, None) {
                Ok(state) => state,
                Err(error) => {
                    let mut state = self.lock();
                    state.shutdown = true;
                    self.wake();
                    return Err(error);
                }
            };
        }
    }
}

fn stopped(failure: &RunError) -> RunError {
    RunError::new(format!(
        "stopped: another rank failed ({})",
        failure.message.lines().next().unwrap_or_default()
    ))
}

impl State {
    /// Locates a failure no op raised: at `location`, else where the first
    /// busy device, then the first blocked one, then the host was last
    /// seen (an error without any stays unlocated; the session then puts
    /// it at the entry function).
    pub fn locate(&self, error: RunError, location: Option<&str>) -> RunError {
        let seen = |busy: bool| {
            self.threads
                .iter()
                .enumerate()
                .find_map(|(device, thread)| {
                    let wanted = if busy {
                        matches!(thread, ThreadState::Running)
                    } else {
                        matches!(thread, ThreadState::Blocked(_))
                    };
                    if wanted {
                        self.at[device].clone()
                    } else {
                        None
                    }
                })
        };
        let found = location
            .map(str::to_string)
            .or_else(|| seen(true))
            .or_else(|| seen(false))
            .or_else(|| self.at.last().cloned().flatten());
        match found {
            Some(location) => error.located(&location),
            None => error,
        }
    }

    /// Counts `bytes` more against the memory limit; `what` is the
    /// allocation, for the error.
    fn reserve(&mut self, bytes: Option<usize>, what: &str) -> Result<()> {
        self.memory_used = self.room_for(bytes, what)?;
        Ok(())
    }

    /// The memory in use with `bytes` more (`None`: more than 64 bits
    /// count), or an error past the limit.
    pub fn room_for(&self, bytes: Option<usize>, what: &str) -> Result<usize> {
        let total = bytes.and_then(|b| b.checked_add(self.memory_used));
        match total {
            Some(total) if total <= self.memory_limit => Ok(total),
            _ => {
                let asked = bytes.map_or("more than 2^64".to_string(), |b| b.to_string());
                Err(RunError::new(format!(
                    "{what} needs {asked} bytes; with {} in use that is over the memory limit of {} bytes (raise --memory-limit)",
                    self.memory_used, self.memory_limit
                )))
            }
        }
    }

    /// Whether `blocker` holds now.
    pub fn holds(&self, blocker: &Blocker) -> bool {
        match blocker {
            Blocker::Signal {
                domain,
                arena,
                byte,
                expected,
                cmp,
                ..
            } => {
                let cell = self.domains[domain.0].arenas[*arena]
                    .get(*byte..*byte + 4)
                    .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                match (cell, cmp) {
                    (Some(v), SignalCmp::Eq) => i64::from(v) == *expected,
                    (Some(v), SignalCmp::Ge) => i64::from(v) >= *expected,
                    (Some(v), SignalCmp::GeUnsigned) => i64::from(v as u32) >= *expected,
                    (None, _) => false,
                }
            }
            Blocker::Gathering { key, .. } => self.gatherings.get(key).is_some_and(|g| g.done),
        }
    }

    /// Nobody can make progress.
    pub fn deadlocked(&self) -> bool {
        if self.host_active {
            return false;
        }
        let mut blocked = false;
        for (device, thread) in self.threads.iter().enumerate() {
            match thread {
                ThreadState::Running => return false,
                ThreadState::Idle if !self.queues[device].is_empty() => return false,
                ThreadState::Idle => {}
                ThreadState::Blocked(blocker) => {
                    if self.holds(blocker) {
                        return false;
                    }
                    blocked = true;
                }
            }
        }
        blocked
    }

    /// What every device is doing, for a deadlock or timeout report.
    pub fn report(&self, headline: &str) -> String {
        let mut report = headline.to_string();
        for (device, thread) in self.threads.iter().enumerate() {
            let line = match thread {
                ThreadState::Blocked(Blocker::Signal {
                    domain,
                    arena,
                    byte,
                    what,
                    ..
                }) => {
                    let held = self.domains[domain.0].arenas[*arena]
                        .get(*byte..*byte + 4)
                        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                    format!(
                        "{what}; the cell holds {}",
                        held.map_or("?".to_string(), |v| v.to_string())
                    )
                }
                ThreadState::Blocked(Blocker::Gathering { key, what }) => {
                    let arrived: Vec<usize> = self
                        .gatherings
                        .get(key)
                        .map(|g| {
                            g.calls
                                .iter()
                                .enumerate()
                                .filter(|(_, c)| c.is_some())
                                .map(|(r, _)| r)
                                .collect()
                        })
                        .unwrap_or_default();
                    format!("{what}; ranks arrived: {arrived:?}")
                }
                ThreadState::Idle => "idle (finished its tasks)".to_string(),
                ThreadState::Running => match &self.at[device] {
                    Some(location) => format!("running (last seen at {location})"),
                    None => "running".to_string(),
                },
            };
            report += &format!("\n  device {device}: {line}");
        }
        report
    }

    /// The rank of `device` in `domain`.
    pub fn rank_in(&self, domain: DomainId, device: usize) -> Result<usize> {
        let members = &self.domains[domain.0].devices;
        members.iter().position(|&d| d == device).ok_or_else(|| {
            RunError::new(format!(
                "device {device} is not in comm domain '{}' (devices {members:?})",
                self.domains[domain.0].name
            ))
        })
    }

    /// Allocates a window buffer of `bytes` in `domain`, zero-filled, one
    /// slot per member rank; an error past the memory limit.
    pub fn allocate(&mut self, domain: DomainId, bytes: usize, name: &str) -> Result<BufferId> {
        let offset = self.domains[domain.0].arenas.first().map_or(0, Vec::len);
        let buffer = WindowBuffer {
            domain,
            offset,
            bytes,
            name: name.to_string(),
            view: None,
            entry: false,
        };
        let slot = bytes.checked_next_multiple_of(SLOT_ALIGN);
        let ranks = self.domains[domain.0].arenas.len();
        let what = format!(
            "window buffer '{name}' ({bytes} bytes on each of the {ranks} ranks of comm domain '{}')",
            self.domains[domain.0].name
        );
        self.reserve(slot.and_then(|slot| slot.checked_mul(ranks)), &what)?;
        let size = offset + buffer.slot_bytes();
        for arena in &mut self.domains[domain.0].arenas {
            arena.resize(size, 0);
        }
        self.buffers.push(buffer);
        Ok(BufferId(self.buffers.len() - 1))
    }

    /// A domain over `devices` (empty: all devices).
    pub fn add_domain(&mut self, devices: Vec<usize>, name: &str, world_size: usize) -> DomainId {
        let devices = if devices.is_empty() {
            (0..world_size).collect()
        } else {
            devices
        };
        let arenas = vec![Vec::new(); devices.len()];
        self.domains.push(Domain {
            devices,
            arenas,
            name: name.to_string(),
        });
        DomainId(self.domains.len() - 1)
    }

    /// Allocates global memory for `elements` of `elem`, zero-filled; an
    /// error past the memory limit.
    pub fn allocate_gm(&mut self, elements: usize, elem: Elem) -> Result<usize> {
        let bytes = elements.checked_mul(elem.bytes());
        self.reserve(bytes, &format!("a tensor of {elements} elements"))?;
        self.gm.push(vec![0; bytes.unwrap_or_default()]);
        Ok(self.gm.len() - 1)
    }

    /// The bytes of `mem` as `rank` (a domain rank; ignored for global
    /// memory) sees them, and the byte range a window view may touch.
    pub fn bytes_mut(&mut self, mem: Mem, rank: usize) -> Result<(&mut Vec<u8>, usize, usize)> {
        match mem {
            Mem::Gm(id) => {
                let bytes = &mut self.gm[id];
                let len = bytes.len();
                Ok((bytes, 0, len))
            }
            Mem::Window(buffer) => {
                let window = &self.buffers[buffer.0];
                let (domain, offset, slot) = (window.domain, window.offset, window.slot_bytes());
                let domain = &mut self.domains[domain.0];
                let arena = domain.arenas.get_mut(rank).ok_or_else(|| {
                    RunError::new(format!(
                        "rank {rank} is outside comm domain '{}'",
                        domain.name
                    ))
                })?;
                Ok((arena, offset, slot))
            }
        }
    }

    /// Reads element `index` (in elements from the view's memory start) of
    /// `mem` on `rank`; `None` out of bounds.
    pub fn read(&mut self, mem: Mem, rank: usize, index: usize, elem: Elem) -> Result<Option<f64>> {
        let (bytes, base, limit) = self.bytes_mut(mem, rank)?;
        let start = index * elem.bytes();
        if start + elem.bytes() > limit {
            return Ok(None);
        }
        Ok(Some(decode(
            &bytes[base + start..base + start + elem.bytes()],
            elem,
        )))
    }

    /// Writes element `index`; `false` out of bounds.
    pub fn write(
        &mut self,
        mem: Mem,
        rank: usize,
        index: usize,
        elem: Elem,
        value: f64,
    ) -> Result<bool> {
        let (bytes, base, limit) = self.bytes_mut(mem, rank)?;
        let start = index * elem.bytes();
        if start + elem.bytes() > limit {
            return Ok(false);
        }
        encode(
            &mut bytes[base + start..base + start + elem.bytes()],
            elem,
            value,
        );
        Ok(true)
    }

    /// Where a signal cell lives: (domain, arena, byte).
    pub fn signal_cell(
        &self,
        mem: Mem,
        rank: usize,
        index: usize,
    ) -> Result<(DomainId, usize, usize)> {
        match mem {
            Mem::Window(buffer) => {
                let window = &self.buffers[buffer.0];
                let byte = index * 4;
                if byte + 4 > window.slot_bytes() {
                    return Err(RunError::new(format!(
                        "signal cell {index} is outside window buffer '{}'",
                        window.name
                    )));
                }
                Ok((window.domain, rank, window.offset + byte))
            }
            Mem::Gm(_) => Err(RunError::new("a signal must be a window view")),
        }
    }
}

/// Decodes one little-endian element.
pub fn decode(bytes: &[u8], elem: Elem) -> f64 {
    let mut raw = [0u8; 8];
    raw[..bytes.len()].copy_from_slice(bytes);
    match elem {
        Elem::Bool | Elem::U8 => f64::from(raw[0]),
        Elem::I8 => f64::from(raw[0] as i8),
        Elem::I16 => f64::from(i16::from_le_bytes([raw[0], raw[1]])),
        Elem::U16 => f64::from(u16::from_le_bytes([raw[0], raw[1]])),
        Elem::I32 => f64::from(i32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]])),
        Elem::U32 => f64::from(u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]])),
        Elem::I64 | Elem::Index => i64::from_le_bytes(raw) as f64,
        Elem::U64 => u64::from_le_bytes(raw) as f64,
        Elem::F16 => half::f16::from_le_bytes([raw[0], raw[1]]).to_f64(),
        Elem::Bf16 => half::bf16::from_le_bytes([raw[0], raw[1]]).to_f64(),
        Elem::F32 => f64::from(f32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]])),
        Elem::F64 => f64::from_le_bytes(raw),
    }
}

/// Encodes one element (rounded or wrapped to the type).
pub fn encode(bytes: &mut [u8], elem: Elem, value: f64) {
    let value = elem.round(value);
    match elem {
        Elem::Bool | Elem::U8 | Elem::I8 => bytes[0] = value as i64 as u8,
        Elem::I16 | Elem::U16 => bytes.copy_from_slice(&(value as i64 as u16).to_le_bytes()),
        Elem::I32 | Elem::U32 => bytes.copy_from_slice(&(value as i64 as u32).to_le_bytes()),
        Elem::I64 | Elem::Index | Elem::U64 => bytes.copy_from_slice(&(value as i64).to_le_bytes()),
        Elem::F16 => bytes.copy_from_slice(&half::f16::from_f64(value).to_le_bytes()),
        Elem::Bf16 => bytes.copy_from_slice(&half::bf16::from_f64(value).to_le_bytes()),
        Elem::F32 => bytes.copy_from_slice(&(value as f32).to_le_bytes()),
        Elem::F64 => bytes.copy_from_slice(&value.to_le_bytes()),
    }
}
