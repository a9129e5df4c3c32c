//! The distributed layer: comm domains and window buffers, signals,
//! remote access, bulk transfers, and the collectives' reference
//! semantics (all ranks gather, the last to arrive moves the data).

use pto_dialects::enums::{AllreduceMode, AtomicType, EnumAttr, NotifyKind, ReduceOp, WaitCmp};

use super::{Flow, Frame, Interp};
use crate::{
    error::{Result, RunError},
    program::{Attr, Code, Collective, Op},
    types::{Elem, Ty},
    value::{BufferId, DomainId, Mem, TensorRef, Value, leading},
    world::{Blocker, CollectiveCall, SignalCmp, State, Task, World},
};

/// A completion condition `pld.system.defer_wait` registered for `task`.
#[derive(Clone, Debug)]
pub(super) struct Deferred {
    task: u64,
    signal: TensorRef,
    indices: Vec<i64>,
    expected: i64,
    location: String,
}

impl<'w> Interp<'w> {
    /// Waits until the deferred conditions of `task` (every task's with
    /// `None`) hold, and forgets them: a task is complete only then.
    pub(super) fn complete_deferred(&mut self, task: Option<u64>) -> Result<()> {
        let (due, kept): (Vec<Deferred>, Vec<Deferred>) = std::mem::take(&mut self.deferred)
            .into_iter()
            .partition(|d| task.is_none_or(|t| d.task == t));
        self.deferred = kept;
        for condition in due {
            self.wait(
                &condition.signal,
                &condition.indices,
                condition.expected,
                SignalCmp::GeUnsigned,
                &condition.location,
            )
            .map_err(|e| e.located(&condition.location))?;
        }
        Ok(())
    }

    /// `pld.comm_domain`: a domain over its devices for the buffers its
    /// slots name, while its body runs.
    pub(super) fn exec_comm_domain(&mut self, frame: &mut Frame, op: &'w Op) -> Result<Flow> {
        if self.device.is_some() {
            return Err(RunError::new(
                "pld.comm_domain belongs to a host orchestrator",
            ));
        }
        let devices: Vec<usize> = match op.attr("devices") {
            Some(Attr::Ints(devices)) => devices.iter().map(|&d| d as usize).collect(),
            _ => Vec::new(),
        };
        if let Some(&device) = devices.iter().find(|&&d| d >= self.world.world_size) {
            return Err(RunError::new(format!(
                "device {device} is outside the {} devices",
                self.world.world_size
            )));
        }
        let slots: Vec<String> = match op.attr("slots") {
            Some(Attr::Array(items)) => items
                .iter()
                .filter_map(|a| {
                    if let Attr::Str(s) = a {
                        Some(s.clone())
                    } else {
                        None
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        let name = match op.attr("sym_name") {
            Some(Attr::Str(name)) => name.clone(),
            _ => "comm_domain".to_string(),
        };
        let domain = self
            .world
            .lock()
            .add_domain(devices, &name, self.world.world_size);
        self.domains.push((domain, slots));
        let flow = self.run_region(frame, &op.regions[0], Vec::new());
        self.domains.pop();
        match flow? {
            Flow::Return(values) => Ok(Flow::Return(values)),
            _ => Ok(Flow::Next),
        }
    }
}

/// A value that must be a window view: its buffer.
fn window_of(tensor: &TensorRef) -> Result<BufferId> {
    match tensor.mem {
        Mem::Window(buffer) => Ok(buffer),
        Mem::Gm(_) => Err(RunError::new(
            "expected a window view (a pld.tensor.window of an alloc_window_buffer)",
        )),
    }
}

/// The domain of the first window view among `args`.
fn domain_of(state: &State, args: &[Value]) -> Result<DomainId> {
    args.iter()
        .find_map(|v| match v {
            Value::Tensor(TensorRef {
                mem: Mem::Window(buffer),
                ..
            }) => Some(state.buffers[buffer.0].domain),
            _ => None,
        })
        .ok_or_else(|| RunError::new("a collective needs a window view operand"))
}

/// Which operand a collective's result aliases.
fn alias_index(kind: Collective) -> usize {
    match kind {
        Collective::Allgather | Collective::AllToAll | Collective::AllToAllV => 1,
        _ => 0,
    }
}

impl Interp<'_> {
    fn device(&self) -> Result<usize> {
        self.device
            .ok_or_else(|| RunError::new("this op runs on a device, not in a host orchestrator"))
    }

    fn check_peer(&self, state: &State, tensor: &TensorRef, peer: i64) -> Result<usize> {
        let domain = state.buffers[window_of(tensor)?.0].domain;
        let size = state.domains[domain.0].devices.len();
        usize::try_from(peer)
            .ok()
            .filter(|&p| p < size)
            .ok_or_else(|| {
                RunError::new(format!(
                    "peer {peer} is outside the comm domain's {size} ranks"
                ))
            })
    }

    pub(super) fn comm_op(&mut self, frame: &Frame, op: &Op) -> Result<Vec<Value>> {
        match op.code {
            Code::WorldSize => Ok(vec![Value::Int(self.world.world_size as i64)]),
            Code::GetCommCtx => {
                let tensor = self.tensor(frame, op.operands[0])?;
                let buffer = window_of(&tensor)?;
                let domain = self.world.lock().buffers[buffer.0].domain;
                Ok(vec![Value::Ctx(domain)])
            }
            Code::Rank | Code::Nranks => {
                let domain = match self.get(frame, op.operands[0])? {
                    Value::Ctx(domain) => *domain,
                    other => {
                        return Err(RunError::new(format!(
                            "expected a comm context, got a {}",
                            other.kind()
                        )));
                    }
                };
                let state = self.world.lock();
                let value = if op.code == Code::Rank {
                    state.rank_in(domain, self.device()?)?
                } else {
                    state.domains[domain.0].devices.len()
                };
                Ok(vec![Value::Int(value as i64)])
            }
            Code::Notify => {
                let signal = self.tensor(frame, op.operands[0])?;
                let n = op.operands.len();
                let indices = self.ints(frame, &op.operands[1..n - 2])?;
                let (peer, value) = (
                    self.int(frame, op.operands[n - 2])?,
                    self.int(frame, op.operands[n - 1])?,
                );
                let set = op.enum_attr::<NotifyKind>("op") == Some(NotifyKind::Set);
                self.notify(&signal, &indices, peer, value, set)?;
                Ok(Vec::new())
            }
            Code::DeferWait => {
                // The task does not block: its completion waits (dependent
                // tasks, and the end of the device's work).
                let signal = self.tensor(frame, op.operands[0])?;
                let n = op.operands.len();
                let indices = self.ints(frame, &op.operands[1..n - 1])?;
                let expected = self.int(frame, op.operands[n - 1])?;
                self.deferred.push(Deferred {
                    task: self.task,
                    signal,
                    indices,
                    expected,
                    location: op.location.clone(),
                });
                Ok(Vec::new())
            }
            Code::Wait => {
                let signal = self.tensor(frame, op.operands[0])?;
                let n = op.operands.len();
                let indices = self.ints(frame, &op.operands[1..n - 1])?;
                let expected = self.int(frame, op.operands[n - 1])?;
                let ge = op.enum_attr::<WaitCmp>("cmp") == Some(WaitCmp::Ge);
                let cmp = if ge { SignalCmp::Ge } else { SignalCmp::Eq };
                self.wait(&signal, &indices, expected, cmp, &op.location)?;
                Ok(Vec::new())
            }
            Code::AllocWindow => {
                if self.device.is_some() {
                    return Err(RunError::new(
                        "window buffers are allocated by the host orchestrator",
                    ));
                }
                let bytes = self.index(frame, op.operands[0])?;
                let name = match op.attr("name") {
                    Some(Attr::Str(name)) => name.clone(),
                    _ => String::new(),
                };
                let domain = self
                    .domains
                    .iter()
                    .rev()
                    .find(|(_, slots)| slots.contains(&name))
                    .map_or(DomainId(0), |(domain, _)| *domain);
                Ok(vec![Value::Ptr(
                    self.world.lock().allocate(domain, bytes, &name)?,
                )])
            }
            Code::Window => {
                let buffer = match self.get(frame, op.operands[0])? {
                    Value::Ptr(buffer) => *buffer,
                    other => {
                        return Err(RunError::new(format!(
                            "expected a window buffer, got a {}",
                            other.kind()
                        )));
                    }
                };
                let ty = match op.result_types.first() {
                    Some(Ty::Tensor(t)) => t.clone(),
                    _ => return Err(RunError::new("pld.tensor.window must give a tensor")),
                };
                let sizes = self.ints(frame, &op.operands[1..])?;
                let mut state = self.world.lock();
                let window = &mut state.buffers[buffer.0];
                let shape = window_shape(&ty.shape, &sizes, ty.elem, window.bytes, &window.name)?;
                window.view.get_or_insert((shape.clone(), ty.elem));
                Ok(vec![Value::Tensor(TensorRef::contiguous(
                    Mem::Window(buffer),
                    0,
                    shape,
                    ty.elem,
                ))])
            }
            Code::RemoteLoad => {
                let tensor = self.tensor(frame, op.operands[0])?;
                let offsets = self.ints(frame, op.segment(1))?;
                let peer = self.int(frame, op.segment(2)[0])?;
                let ty = match op.result_types.first() {
                    Some(Ty::Tile(t)) => t.clone(),
                    _ => return Err(RunError::new("remote_load must give a tile")),
                };
                let valid = super::tile::valid_of(&ty, &self.ints(frame, op.segment(3))?)?;
                let rank = self.check_peer(&self.world.lock(), &tensor, peer)?;
                let tile = self.read_window(
                    &tensor,
                    Some(rank),
                    &offsets,
                    &leading(&ty.shape),
                    &ty,
                    valid,
                    op.has_attr("tail_padding"),
                )?;
                Ok(vec![Value::Tile(std::sync::Arc::new(tile))])
            }
            Code::RemoteStore => {
                let target = self.tensor(frame, op.operands[1])?;
                let n = op.operands.len();
                let offsets = self.ints(frame, &op.operands[2..n - 1])?;
                let peer = self.int(frame, op.operands[n - 1])?;
                let (tile, lead) = match self.get(frame, op.operands[0])? {
                    Value::Tile(tile) => {
                        let shape = match &op.operand_types[0] {
                            Ty::Tile(t) => leading(&t.shape),
                            _ => Vec::new(),
                        };
                        ((**tile).clone(), shape)
                    }
                    Value::Tensor(source) => (
                        self.read_all(source)?,
                        source.shape[..source.shape.len().saturating_sub(1)].to_vec(),
                    ),
                    other => {
                        return Err(RunError::new(format!(
                            "expected a tile or tensor, got a {}",
                            other.kind()
                        )));
                    }
                };
                let rank = self.check_peer(&self.world.lock(), &target, peer)?;
                self.write_window(
                    &tile,
                    &target,
                    Some(rank),
                    &offsets,
                    &lead,
                    op.enum_attr::<AtomicType>("atomic") == Some(AtomicType::Add),
                )?;
                Ok(Vec::new())
            }
            Code::TilePut | Code::TileGet | Code::TensorPut | Code::TensorGet => {
                let put = matches!(op.code, Code::TilePut | Code::TensorPut);
                // Tile forms have stage operands before the regions.
                let first_region = if matches!(op.code, Code::TilePut | Code::TileGet) {
                    5
                } else {
                    3
                };
                let dst = self.tensor(frame, op.segment(0)[0])?;
                let peer = self.int(frame, op.segment(1)[0])?;
                let src = self.tensor(frame, op.segment(2)[0])?;
                let dst_offsets = self.ints(frame, op.segment(first_region))?;
                let src_offsets = self.ints(frame, op.segment(first_region + 1))?;
                let shape = self.ints(frame, op.segment(first_region + 2))?;
                let atomic = op.enum_attr::<AtomicType>("atomic") == Some(AtomicType::Add);
                self.transfer(
                    put,
                    &dst,
                    peer,
                    &src,
                    &dst_offsets,
                    &src_offsets,
                    &shape,
                    atomic,
                )?;
                Ok(Vec::new())
            }
            Code::Collective(kind) => {
                let args = self.values(frame, &op.operands)?;
                let call = CollectiveCall {
                    kind,
                    reduce: reduce_op(op),
                    root: op.int_attr("root").unwrap_or(0),
                    ring: op.enum_attr::<AllreduceMode>("mode") == Some(AllreduceMode::Ring),
                    args: args.clone(),
                    location: op.location.clone(),
                };
                match self.device {
                    Some(device) => run_collective(self.world, device, call)?,
                    None => {
                        // The host path: every device of the domain runs it.
                        let devices = {
                            let state = self.world.lock();
                            state.domains[domain_of(&state, &args)?.0].devices.clone()
                        };
                        for device in devices {
                            self.world.submit(device, Task::Collective(call.clone()))?;
                        }
                    }
                }
                Ok(vec![args[alias_index(kind)].clone()])
            }
            Code::Builtin(kind) => {
                let (device_slot, arg_slots) = op.operands.split_last().expect("a device");
                let device = self.index(frame, *device_slot)?;
                let call = CollectiveCall {
                    kind,
                    reduce: reduce_op(op),
                    root: op.int_attr("root").unwrap_or(0),
                    ring: kind == Collective::AllreduceRing,
                    args: self.values(frame, arg_slots)?,
                    location: op.location.clone(),
                };
                self.world.submit(device, Task::Collective(call))?;
                Ok(Vec::new())
            }
            _ => unreachable!("not a pld op"),
        }
    }

    fn notify(
        &self,
        signal: &TensorRef,
        indices: &[i64],
        peer: i64,
        value: i64,
        set: bool,
    ) -> Result<()> {
        if signal.elem != Elem::I32 {
            return Err(RunError::new("a signal must be an i32 window view"));
        }
        let at = signal.locate(indices).ok_or_else(|| {
            RunError::new(format!(
                "signal cell {indices:?} is outside shape {:?}",
                signal.shape
            ))
        })?;
        let mut state = self.world.lock();
        let rank = self.check_peer(&state, signal, peer)?;
        let old = state.read(signal.mem, rank, at, Elem::I32)?.unwrap_or(0.0) as i64;
        let new = if set { value } else { old.wrapping_add(value) };
        state.write(signal.mem, rank, at, Elem::I32, new as f64)?;
        drop(state);
        self.world.wake();
        Ok(())
    }

    fn wait(
        &self,
        signal: &TensorRef,
        indices: &[i64],
        expected: i64,
        cmp: SignalCmp,
        location: &str,
    ) -> Result<()> {
        let device = self.device()?;
        if signal.elem != Elem::I32 {
            return Err(RunError::new("a signal must be an i32 window view"));
        }
        let at = signal.locate(indices).ok_or_else(|| {
            RunError::new(format!(
                "signal cell {indices:?} is outside shape {:?}",
                signal.shape
            ))
        })?;
        let state = self.world.lock();
        let buffer = window_of(signal)?;
        let rank = state.rank_in(state.buffers[buffer.0].domain, device)?;
        let (domain, arena, byte) = state.signal_cell(signal.mem, rank, at)?;
        let name = state.buffers[buffer.0].name.clone();
        let what = format!(
            "rank {rank} waits at {location} for {name}{indices:?} {} {expected}",
            match cmp {
                SignalCmp::Eq => "==",
                SignalCmp::Ge => ">=",
                SignalCmp::GeUnsigned => ">= (unsigned)",
            }
        );
        let blocker = Blocker::Signal {
            domain,
            arena,
            byte,
            expected,
            cmp,
            what,
        };
        drop(self.world.block(state, device, blocker, location)?);
        Ok(())
    }

    /// `put`: this rank's `src` region into `peer`'s `dst`; `get`: `peer`'s
    /// `src` into this rank's `dst`. No region: the whole tensors.
    #[allow(clippy::too_many_arguments)]
    fn transfer(
        &self,
        put: bool,
        dst: &TensorRef,
        peer: i64,
        src: &TensorRef,
        dst_offsets: &[i64],
        src_offsets: &[i64],
        shape: &[i64],
        atomic: bool,
    ) -> Result<()> {
        let mut state = self.world.lock();
        let window = if put { dst } else { src };
        let peer = self.check_peer(&state, window, peer)?;
        let me_src = self.local_rank(&state, src).unwrap_or(0);
        let me_dst = self.local_rank(&state, dst).unwrap_or(0);
        let (src_rank, dst_rank) = if put { (me_src, peer) } else { (peer, me_dst) };
        let shape: Vec<usize> = if shape.is_empty() {
            dst.shape.clone()
        } else {
            shape.iter().map(|&d| d.max(0) as usize).collect()
        };
        let zeros = vec![0i64; shape.len()];
        let dst_offsets = if dst_offsets.is_empty() {
            &zeros[..]
        } else {
            dst_offsets
        };
        let src_offsets = if src_offsets.is_empty() {
            &zeros[..]
        } else {
            src_offsets
        };
        let total: usize = shape.iter().product();
        for i in 0..total {
            let mut rest = i;
            let mut position = vec![0i64; shape.len()];
            for d in (0..shape.len()).rev() {
                position[d] = (rest % shape[d]) as i64;
                rest /= shape[d];
            }
            let s: Vec<i64> = position
                .iter()
                .zip(src_offsets)
                .map(|(p, o)| p + o)
                .collect();
            let d: Vec<i64> = position
                .iter()
                .zip(dst_offsets)
                .map(|(p, o)| p + o)
                .collect();
            let from = src.locate(&s).ok_or_else(|| {
                RunError::new(format!(
                    "a transfer reads {s:?} outside shape {:?}",
                    src.shape
                ))
            })?;
            let to = dst.locate(&d).ok_or_else(|| {
                RunError::new(format!(
                    "a transfer writes {d:?} outside shape {:?}",
                    dst.shape
                ))
            })?;
            let value = state
                .read(src.mem, src_rank, from, src.elem)?
                .unwrap_or(0.0);
            let value = if atomic {
                value + state.read(dst.mem, dst_rank, to, dst.elem)?.unwrap_or(0.0)
            } else {
                value
            };
            state.write(dst.mem, dst_rank, to, dst.elem, value)?;
        }
        drop(state);
        self.world.wake();
        Ok(())
    }
}

/// The shape of a window view: static dims from the type, dynamic ones
/// from `sizes`, or a single dynamic one from the buffer's size.
fn window_shape(
    dims: &[Option<i64>],
    sizes: &[i64],
    elem: Elem,
    bytes: usize,
    name: &str,
) -> Result<Vec<usize>> {
    // Saturating: a view that large is more than any buffer holds.
    let known = dims
        .iter()
        .flatten()
        .fold(1usize, |known, &d| known.saturating_mul(d as usize));
    let open = dims.iter().filter(|d| d.is_none()).count();
    let elements = bytes / elem.bytes();
    let mut given = sizes.iter();
    let shape: Vec<usize> = match (open, sizes.is_empty()) {
        (0, _) => dims.iter().map(|d| d.unwrap() as usize).collect(),
        (_, false) => dims
            .iter()
            .map(|d| {
                d.map_or_else(
                    || given.next().map_or(0, |&s| s.max(0) as usize),
                    |d| d as usize,
                )
            })
            .collect(),
        (1, true) if known > 0 => dims
            .iter()
            .map(|d| d.map_or(elements / known, |d| d as usize))
            .collect(),
        _ => {
            return Err(RunError::new(format!(
                "cannot size the view of window buffer '{name}': it has {open} dynamic dimensions and no sizes(...)"
            )));
        }
    };
    let needed = shape
        .iter()
        .try_fold(elem.bytes(), |needed, &d| needed.checked_mul(d));
    match needed {
        Some(needed) if needed <= bytes => {}
        Some(needed) => {
            return Err(RunError::new(format!(
                "a view of shape {shape:?} needs {needed} bytes; window buffer '{name}' has {bytes}"
            )));
        }
        None => {
            return Err(RunError::new(format!(
                "a view of shape {shape:?} needs more bytes than 64 bits count; window buffer '{name}' has {bytes}"
            )));
        }
    }
    Ok(shape)
}

/// One rank's part of a collective: gathers with the other ranks of the
/// domain; the last to arrive moves every rank's data.
pub fn run_collective(world: &World, device: usize, call: CollectiveCall) -> Result<()> {
    let location = call.location.clone();
    let mut state = world.lock();
    let domain = domain_of(&state, &call.args).map_err(|e| e.located(&location))?;
    let rank = state.rank_in(domain, device)?;
    let size = state.domains[domain.0].devices.len();
    let count = state.collective_counts.entry((domain, rank)).or_insert(0);
    let key = (domain, *count);
    *count += 1;
    let gathering = state.gatherings.entry(key).or_default();
    if gathering.calls.is_empty() {
        gathering.calls = vec![None; size];
    }
    gathering.calls[rank] = Some(call);
    let complete = gathering.calls.iter().all(Option::is_some);
    if complete {
        let calls: Vec<CollectiveCall> = gathering
            .calls
            .iter()
            .map(|c| c.clone().expect("arrived"))
            .collect();
        let outcome = reference(&mut state, &calls);
        state.gatherings.get_mut(&key).expect("present").done = true;
        if let Err(error) = outcome {
            let error = error.located(&location);
            world.record(&mut state, error.clone());
            drop(state);
            world.wake();
            return Err(error);
        }
        world.wake();
    } else {
        let what = format!("rank {rank} is in the collective at {location}");
        state = world
            .block(state, device, Blocker::Gathering { key, what }, &location)
            .map_err(|e| e.located(&location))?;
    }
    let gathering = state.gatherings.get_mut(&key).expect("present");
    gathering.departed += 1;
    if gathering.departed == size {
        state.gatherings.remove(&key);
    }
    Ok(())
}

fn tensor_arg(call: &CollectiveCall, index: usize) -> Result<TensorRef> {
    match call.args.get(index) {
        Some(Value::Tensor(t)) => Ok(t.clone()),
        _ => Err(RunError::new(format!(
            "collective operand {index} must be a tensor"
        ))),
    }
}

/// The rows of a collective's `tensor` (its leading dimension) and the
/// elements of one; an error unless it has at least `rows` rows (one per
/// rank, say), which the ranks' transfers index.
fn rows_of(tensor: &TensorRef, rows: usize, what: &str) -> Result<usize> {
    let have = tensor.shape.first().copied().unwrap_or(1);
    if have < rows {
        return Err(RunError::new(format!(
            "{what} has {have} {} (shape {:?}) for {rows} ranks; the collective needs a row per rank",
            if have == 1 { "row" } else { "rows" },
            tensor.shape
        )));
    }
    Ok(tensor.elements() / have.max(1))
}

/// An error unless `tensor` has at least `elements` elements.
fn needs_elements(tensor: &TensorRef, elements: usize, what: &str) -> Result<()> {
    if tensor.elements() < elements {
        return Err(RunError::new(format!(
            "{what} has {} elements (shape {:?}); the collective needs {elements}",
            tensor.elements(),
            tensor.shape
        )));
    }
    Ok(())
}

/// Reads all of `tensor` on `rank`, row-major.
fn read_tensor(state: &mut State, tensor: &TensorRef, rank: usize) -> Result<Vec<f64>> {
    tensor
        .offsets()
        .map(|at| {
            Ok(state
                .read(tensor.mem, rank, at, tensor.elem)?
                .unwrap_or(0.0))
        })
        .collect()
}

fn write_tensor(state: &mut State, tensor: &TensorRef, rank: usize, values: &[f64]) -> Result<()> {
    for (at, &value) in tensor.offsets().zip(values) {
        state.write(tensor.mem, rank, at, tensor.elem, value)?;
    }
    Ok(())
}

/// The reduction of a collective (sum when it has none: a barrier, a
/// broadcast, a gather).
fn reduce_op(op: &Op) -> ReduceOp {
    op.enum_attr::<ReduceOp>("op").unwrap_or(ReduceOp::Sum)
}

/// `a ⊕ b` for a reduction, rounded to `elem`.
fn combine(reduce: ReduceOp, a: f64, b: f64, elem: Elem) -> f64 {
    elem.round(match reduce {
        ReduceOp::Max => a.max(b),
        ReduceOp::Min => a.min(b),
        ReduceOp::Prod => a * b,
        ReduceOp::Sum => a + b,
    })
}

/// Ring segment boundary `b(i)` (docs/passes/pld-lower-composite-ops.md):
/// f32 `i*N/P`; f16 rounded up to 16 elements.
fn ring_boundary(i: usize, total: usize, ranks: usize, elem: Elem) -> usize {
    if elem == Elem::F16 {
        ((i * total).div_ceil(16 * ranks) * 16).min(total)
    } else {
        i * total / ranks
    }
}

/// The collectives' meaning, over every rank's memory at once. Reductions
/// combine in the order the lowerings do, so results compare bit-exactly:
/// mesh (and the builtins) start from the rank's own value and add the
/// others in rank order; ring folds segment s starting at rank s+1.
fn reference(state: &mut State, calls: &[CollectiveCall]) -> Result<()> {
    let first = &calls[0];
    for (rank, call) in calls.iter().enumerate() {
        if call.kind != first.kind || call.reduce != first.reduce || call.ring != first.ring {
            return Err(RunError::new(format!(
                "the ranks of a comm domain disagree on the collective: rank 0 is at {} ({:?}), rank {rank} at {} ({:?})",
                first.location, first.kind, call.location, call.kind
            )));
        }
    }
    let size = calls.len();
    match first.kind {
        Collective::Barrier => {}
        Collective::Broadcast => {
            let root = usize::try_from(first.root)
                .ok()
                .filter(|&r| r < size)
                .ok_or_else(|| {
                    RunError::new(format!(
                        "broadcast root {} is outside {size} ranks",
                        first.root
                    ))
                })?;
            let data = read_tensor(state, &tensor_arg(&calls[root], 0)?, root)?;
            for (rank, call) in calls.iter().enumerate() {
                write_tensor(state, &tensor_arg(call, 0)?, rank, &data)?;
            }
        }
        Collective::Allgather | Collective::AllToAll => {
            let all_to_all = first.kind == Collective::AllToAll;
            for call in calls {
                let row = rows_of(&tensor_arg(call, 1)?, size, "the target")?;
                needs_elements(
                    &tensor_arg(call, 0)?,
                    if all_to_all { size * row } else { row },
                    "the source",
                )?;
            }
            let inputs: Vec<Vec<f64>> = calls
                .iter()
                .enumerate()
                .map(|(rank, call)| read_tensor(state, &tensor_arg(call, 0)?, rank))
                .collect::<Result<_>>()?;
            for (me, call) in calls.iter().enumerate() {
                let target = tensor_arg(call, 1)?;
                let row = rows_of(&target, size, "the target")?;
                let mut data = read_tensor(state, &target, me)?;
                for (src, input) in inputs.iter().enumerate() {
                    let chunk = if first.kind == Collective::Allgather {
                        &input[..row]
                    } else {
                        &input[me * row..(me + 1) * row]
                    };
                    data[src * row..(src + 1) * row].copy_from_slice(chunk);
                }
                write_tensor(state, &target, me, &data)?;
            }
        }
        Collective::AllToAllV => {
            let signal_rows = tensor_arg(first, 2)?
                .shape
                .first()
                .copied()
                .unwrap_or(size)
                .max(1);
            let inputs: Vec<Vec<f64>> = calls
                .iter()
                .enumerate()
                .map(|(rank, call)| read_tensor(state, &tensor_arg(call, 0)?, rank))
                .collect::<Result<_>>()?;
            let sends: Vec<Vec<f64>> = calls
                .iter()
                .enumerate()
                .map(|(rank, call)| read_tensor(state, &tensor_arg(call, 3)?, rank))
                .collect::<Result<_>>()?;
            // The send count for peer `dest` heads row `dest` of the send
            // counts: rows of the tensor's own width, which its type may
            // give more rows than there are ranks.
            let send_rows: Vec<usize> = calls
                .iter()
                .map(|call| rows_of(&tensor_arg(call, 3)?, size, "the send counts"))
                .collect::<Result<_>>()?;
            for (dest, call) in calls.iter().enumerate() {
                let target = tensor_arg(call, 1)?;
                let rows = target.shape.first().copied().unwrap_or(1);
                let row = target.elements() / rows.max(1);
                let max_recv = rows / signal_rows;
                let block = max_recv * row;
                needs_elements(&target, size * block, "the target")?;
                for (src, input) in inputs.iter().enumerate() {
                    if input.len() < size * block {
                        return Err(RunError::new(format!(
                            "rank {src}'s source has {} elements; the collective needs {}",
                            input.len(),
                            size * block
                        )));
                    }
                }
                let mut data = read_tensor(state, &target, dest)?;
                let recv = tensor_arg(call, 4)?;
                let count_row = rows_of(&recv, size, "the receive counts")?;
                let mut counts = read_tensor(state, &recv, dest)?;
                for src in 0..size {
                    data[src * block..(src + 1) * block]
                        .copy_from_slice(&inputs[src][dest * block..(dest + 1) * block]);
                    let sent = sends[src]
                        .get(dest * send_rows[src])
                        .copied()
                        .unwrap_or(0.0);
                    if let Some(count) = counts.get_mut(src * count_row) {
                        *count = sent.min(max_recv as f64);
                    }
                }
                write_tensor(state, &target, dest, &data)?;
                write_tensor(state, &recv, dest, &counts)?;
            }
        }
        Collective::ReduceScatter => {
            let targets: Vec<TensorRef> = calls
                .iter()
                .map(|c| tensor_arg(c, 0))
                .collect::<Result<_>>()?;
            // A row per rank, the same on every rank.
            let row = rows_of(&targets[0], size, "the data")?;
            for target in &targets {
                needs_elements(target, size * row, "the data")?;
            }
            let data: Vec<Vec<f64>> = targets
                .iter()
                .enumerate()
                .map(|(r, t)| read_tensor(state, t, r))
                .collect::<Result<_>>()?;
            for (me, target) in targets.iter().enumerate() {
                let mut out = data[me].clone();
                for c in 0..row {
                    let at = me * row + c;
                    let mut acc = data[me][at];
                    for (peer, values) in data.iter().enumerate() {
                        if peer != me {
                            acc = combine(first.reduce, acc, values[at], target.elem);
                        }
                    }
                    out[at] = acc;
                }
                write_tensor(state, target, me, &out)?;
            }
        }
        Collective::Allreduce | Collective::AllreduceRing => {
            let targets: Vec<TensorRef> = calls
                .iter()
                .map(|c| tensor_arg(c, 0))
                .collect::<Result<_>>()?;
            let data: Vec<Vec<f64>> = targets
                .iter()
                .enumerate()
                .map(|(r, t)| read_tensor(state, t, r))
                .collect::<Result<_>>()?;
            let elem = targets[0].elem;
            let total = data[0].len();
            if let Some(rank) = data.iter().position(|values| values.len() != total) {
                return Err(RunError::new(format!(
                    "the ranks' data differ in size: rank 0 has {total} elements, rank {rank} {}",
                    data[rank].len()
                )));
            }
            if first.ring {
                let mut out = vec![0.0; total];
                for s in 0..size {
                    let (start, end) = (
                        ring_boundary(s, total, size, elem),
                        ring_boundary(s + 1, total, size, elem),
                    );
                    for (i, slot) in out.iter_mut().enumerate().take(end).skip(start) {
                        let mut acc = data[(s + 1) % size][i];
                        for j in 2..=size {
                            acc = combine(first.reduce, data[(s + j) % size][i], acc, elem);
                        }
                        *slot = acc;
                    }
                }
                for (rank, target) in targets.iter().enumerate() {
                    write_tensor(state, target, rank, &out)?;
                }
            } else {
                for (me, target) in targets.iter().enumerate() {
                    let out: Vec<f64> = (0..total)
                        .map(|i| {
                            let mut acc = data[me][i];
                            for (peer, values) in data.iter().enumerate() {
                                if peer != me {
                                    acc = combine(first.reduce, acc, values[i], elem);
                                }
                            }
                            acc
                        })
                        .collect();
                    write_tensor(state, target, me, &out)?;
                }
            }
        }
    }
    Ok(())
}
