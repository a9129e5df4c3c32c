//! The interpreter one thread (the host, or one device) runs: frames of
//! registers, structured control flow, calls and dispatch. The op families
//! live in their own modules: [`scalar`], [`tile`], [`tensor`], [`comm`].

mod barrier;
mod comm;
mod indexing;
mod pipes;
mod regions;
mod rows;
mod scalar;
mod tensor;
mod tile;

use std::sync::Arc;

use crate::{
    error::{Result, RunError},
    program::{Code, Function, Op, Program, Region, Slot},
    types::Ty,
    value::{DomainId, TensorRef, Tile, Value},
    world::{Task, World},
};

pub use comm::run_collective;

/// How a region ended.
pub enum Flow {
    /// Fell off the end (no terminator).
    Next,
    Yield(Vec<Value>),
    Return(Vec<Value>),
    /// `scf.condition(cond) values`.
    Condition(bool, Vec<Value>),
}

/// A function's registers.
pub type Frame = Vec<Option<Value>>;

/// Calls deeper than this are reported as unbounded recursion.
const MAX_DEPTH: usize = 256;

/// The id of no task (`pl.system.task_invalid`): a dependency on it is
/// none.
pub const INVALID_TASK: u64 = u64::MAX;

/// The most blocks one SPMD launch may have here (a2a3 has at most a few
/// dozen cores; the runtime queues more).
const MAX_BLOCKS: i64 = 65536;

/// One thread's interpreter.
pub struct Interp<'w> {
    pub world: &'w World,
    pub program: &'w Program,
    /// The device this thread is; `None` for the host.
    pub device: Option<usize>,
    /// Comm domains the host opened (`pld.comm_domain`), with their slots.
    domains: Vec<(DomainId, Vec<String>)>,
    next_task: u64,
    /// The `pl.submit` task running now (0: none, or a `pl.call`).
    task: u64,
    /// Completion conditions `pld.system.defer_wait` registered and no one
    /// has waited for yet (docs/pld-guide.md, "Deferred completion").
    deferred: Vec<comm::Deferred>,
    depth: usize,
    /// The SPMD block running now and the launch's block count
    /// (`pl.submit ... blocks`, `pl.spmd_scope`): (0, 1) outside launches.
    block: (i64, i64),
    /// The barrier of the launch whose blocks run together, when this
    /// thread is one of them.
    barrier: Option<Arc<barrier::BlockBarrier>>,
    /// The core this thread is in a core group's launch, with the group's
    /// pipes.
    seat: Option<pipes::Seat>,
}

impl<'w> Interp<'w> {
    pub fn new(world: &'w World, program: &'w Program, device: Option<usize>) -> Self {
        Self {
            world,
            program,
            device,
            domains: Vec::new(),
            next_task: 0,
            task: 0,
            deferred: Vec::new(),
            depth: 0,
            block: (0, 1),
            barrier: None,
            seat: None,
        }
    }

    /// The interpreter of another thread of this one's launch: block
    /// `block` (with its launch's barrier) and, in a core group, its seat.
    fn fork(
        &self,
        block: (i64, i64),
        barrier: Option<Arc<barrier::BlockBarrier>>,
        seat: Option<pipes::Seat>,
    ) -> Self {
        Self {
            world: self.world,
            program: self.program,
            device: self.device,
            domains: self.domains.clone(),
            next_task: self.next_task,
            task: self.task,
            deferred: Vec::new(),
            depth: self.depth,
            block,
            barrier,
            seat,
        }
    }

    /// The block count of a launch: its `blocks` operand (at least 1;
    /// more than [`MAX_BLOCKS`] is refused), else 1.
    fn block_count(&self, frame: &Frame, blocks: Option<Slot>) -> Result<i64> {
        let Some(slot) = blocks else { return Ok(1) };
        let n = self.int(frame, slot)?;
        if !(1..=MAX_BLOCKS).contains(&n) {
            return Err(RunError::new(format!(
                "a launch of {n} blocks (pto-run runs 1 to {MAX_BLOCKS})"
            )));
        }
        Ok(n)
    }

    /// Runs function `index` with `args`; returns its results.
    pub fn call(&mut self, index: usize, args: Vec<Value>) -> Result<Vec<Value>> {
        let function: &'w Function = &self.program.functions[index];
        if function.kind == Some(pto_dialects::enums::FunctionKind::Group) {
            return self.call_group(index, args);
        }
        if args.len() != function.params.len() {
            return Err(RunError::at(
                &function.location,
                format!(
                    "@{} takes {} arguments, got {}",
                    function.name,
                    function.params.len(),
                    args.len()
                ),
            ));
        }
        if self.depth >= MAX_DEPTH {
            return Err(RunError::at(
                &function.location,
                format!("calls nest deeper than {MAX_DEPTH} (recursion?)"),
            ));
        }
        let mut frame: Frame = vec![None; function.slots];
        for (&slot, arg) in function.params.iter().zip(args) {
            frame[slot] = Some(arg);
        }
        self.depth += 1;
        let flow = self.run_ops(&mut frame, &function.body.ops);
        self.depth -= 1;
        // A device's work (or the entry) completes when every task has:
        // the conditions its tasks deferred must hold by then.
        if self.depth == 0 && flow.is_ok() {
            self.complete_deferred(None)?;
        }
        match flow? {
            Flow::Return(values) | Flow::Yield(values) => Ok(values),
            _ => Ok(Vec::new()),
        }
    }

    fn run_ops(&mut self, frame: &mut Frame, ops: &'w [Op]) -> Result<Flow> {
        for op in ops {
            match self.exec(frame, op).map_err(|e| e.located(&op.location))? {
                Flow::Next => {}
                flow => return Ok(flow),
            }
        }
        Ok(Flow::Next)
    }

    /// Binds `args` to `region`'s arguments and runs it.
    fn run_region(
        &mut self,
        frame: &mut Frame,
        region: &'w Region,
        args: Vec<Value>,
    ) -> Result<Flow> {
        for (&slot, arg) in region.args.iter().zip(args) {
            frame[slot] = Some(arg);
        }
        self.run_ops(frame, &region.ops)
    }

    /// The value in `slot`.
    pub fn get<'f>(&self, frame: &'f Frame, slot: Slot) -> Result<&'f Value> {
        frame[slot]
            .as_ref()
            .ok_or_else(|| RunError::new("a value is used before it is defined"))
    }

    pub fn int(&self, frame: &Frame, slot: Slot) -> Result<i64> {
        match self.get(frame, slot)? {
            Value::Int(v) => Ok(*v),
            other => Err(RunError::new(format!(
                "expected an integer, got a {}",
                other.kind()
            ))),
        }
    }

    /// A non-negative integer as an index.
    pub fn index(&self, frame: &Frame, slot: Slot) -> Result<usize> {
        let value = self.int(frame, slot)?;
        usize::try_from(value)
            .map_err(|_| RunError::new(format!("expected a non-negative index, got {value}")))
    }

    pub fn ints(&self, frame: &Frame, slots: &[Slot]) -> Result<Vec<i64>> {
        slots.iter().map(|&s| self.int(frame, s)).collect()
    }

    /// A scalar as f64 (integers convert).
    pub fn number(&self, frame: &Frame, slot: Slot) -> Result<f64> {
        match self.get(frame, slot)? {
            Value::Int(v) => Ok(*v as f64),
            Value::Float(v) => Ok(*v),
            other => Err(RunError::new(format!(
                "expected a scalar, got a {}",
                other.kind()
            ))),
        }
    }

    pub fn tile(&self, frame: &Frame, slot: Slot) -> Result<Arc<Tile>> {
        match self.get(frame, slot)? {
            Value::Tile(t) => Ok(t.clone()),
            other => Err(RunError::new(format!(
                "expected a tile, got a {}",
                other.kind()
            ))),
        }
    }

    pub fn tensor(&self, frame: &Frame, slot: Slot) -> Result<TensorRef> {
        match self.get(frame, slot)? {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(RunError::new(format!(
                "expected a tensor, got a {}",
                other.kind()
            ))),
        }
    }

    /// Sets the op's results.
    fn set(&self, frame: &mut Frame, op: &Op, values: Vec<Value>) -> Result<()> {
        if values.len() != op.results.len() {
            return Err(RunError::new(format!(
                "'{}' produced {} values for {} results",
                op.name,
                values.len(),
                op.results.len()
            )));
        }
        for ((&slot, mut value), ty) in op.results.iter().zip(values).zip(&op.result_types) {
            if let (Value::Tensor(tensor), Ty::Tensor(ty)) = (&mut value, ty) {
                tensor.valid = typed_valid(tensor, ty.valid.as_deref());
            }
            frame[slot] = Some(value);
        }
        Ok(())
    }

    fn set1(&self, frame: &mut Frame, op: &Op, value: Value) -> Result<Flow> {
        self.set(frame, op, vec![value])?;
        Ok(Flow::Next)
    }

    fn values(&self, frame: &Frame, slots: &[Slot]) -> Result<Vec<Value>> {
        slots.iter().map(|&s| self.get(frame, s).cloned()).collect()
    }

    fn callee(&self, op: &Op) -> Result<usize> {
        let name = match op.attr("callee") {
            Some(crate::program::Attr::Str(name)) => name.clone(),
            _ => return Err(RunError::new(format!("'{}' has no callee", op.name))),
        };
        self.program
            .index(&name)
            .ok_or_else(|| RunError::new(format!("no function @{name}")))
    }

    fn exec(&mut self, frame: &mut Frame, op: &'w Op) -> Result<Flow> {
        use Code::*;
        let executed = self
            .world
            .ops
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if self.world.should_stop() {
            return Err(RunError::new("stopped: the run failed elsewhere"));
        }
        if executed.is_multiple_of(65536) {
            self.world
                .check_deadline(self.world.thread_slot(self.device), &op.location)?;
        }
        match op.code {
            Constant | IntCast | TruncI | SIToFP | UIToFP | FPToSI | FPToUI | FloatCast
            | IntBinary(_) | FloatBinary(_) | Cmpi | Cmpf | Select | NegF | MathUnary(_) => {
                let value = self.scalar_op(frame, op)?;
                self.set1(frame, op, value)
            }
            For => self.exec_for(frame, op),
            If => {
                let region = if self.int(frame, op.operands[0])? != 0 {
                    0
                } else {
                    1
                };
                let values = match op.regions.get(region) {
                    Some(region) => match self.run_region(frame, region, Vec::new())? {
                        Flow::Yield(values) => values,
                        Flow::Return(values) => return Ok(Flow::Return(values)),
                        _ => Vec::new(),
                    },
                    None => Vec::new(),
                };
                self.set(frame, op, values)?;
                Ok(Flow::Next)
            }
            While => {
                let mut carried = self.values(frame, &op.operands)?;
                loop {
                    let (go, values) = match self.run_region(frame, &op.regions[0], carried)? {
                        Flow::Condition(go, values) => (go, values),
                        _ => {
                            return Err(RunError::new(
                                "scf.while's first region must end in scf.condition",
                            ));
                        }
                    };
                    if !go {
                        self.set(frame, op, values)?;
                        return Ok(Flow::Next);
                    }
                    carried = match self.run_region(frame, &op.regions[1], values)? {
                        Flow::Yield(values) => values,
                        _ => return Err(RunError::new("scf.while's body must end in scf.yield")),
                    };
                }
            }
            Condition => {
                let go = self.int(frame, op.operands[0])? != 0;
                Ok(Flow::Condition(go, self.values(frame, &op.operands[1..])?))
            }
            Yield => Ok(Flow::Yield(self.values(frame, &op.operands)?)),
            Return => Ok(Flow::Return(self.values(frame, &op.operands)?)),
            Scope => {
                // An SPMD scope runs its body once per block, in order
                // (blocks do not wait for each other; a schedule that runs
                // them one after another is one the hardware may choose).
                let spmd = pto_dialects::op_table::OpKind::from_name(&op.name)
                    == Some(pto_dialects::op_table::OpKind::PlSpmdScope);
                let blocks = if spmd {
                    self.block_count(frame, op.operands.first().copied())?
                } else {
                    1
                };
                let outer = self.block;
                let mut values = Vec::new();
                for b in 0..blocks {
                    if spmd {
                        self.block = (b, blocks);
                    }
                    let flow = self.run_region(frame, &op.regions[0], Vec::new());
                    self.block = outer;
                    values = match flow? {
                        Flow::Yield(values) => values,
                        Flow::Return(values) => return Ok(Flow::Return(values)),
                        _ => Vec::new(),
                    };
                }
                self.set(frame, op, values)?;
                Ok(Flow::Next)
            }
            CommDomain => self.exec_comm_domain(frame, op),
            PipeSetup | PipePush | PipePop | PipeFree => {
                self.exec_pipe(frame, op)?;
                Ok(Flow::Next)
            }
            CoreBoundary => {
                let split = pto_dialects::enums::EnumAttr::enum_attr::<
                    pto_dialects::enums::CoreSplit,
                >(op, "split")
                .unwrap_or(pto_dialects::enums::CoreSplit::None);
                if split != pto_dialects::enums::CoreSplit::None {
                    return Err(RunError::new(format!(
                        "{} split {split} gives each vector core its part: pto-run runs it once pl-expand-mixed-kernel has made a core group of the kernel",
                        op.name
                    )));
                }
                let value = self.get(frame, op.operands[0])?.clone();
                self.set1(frame, op, value)
            }
            RingAddress => {
                let base = op.int_attr("base").unwrap_or(0);
                self.set1(frame, op, Value::Int(base))
            }
            Call => {
                let callee = self.callee(op)?;
                let args = self.values(frame, &op.operands)?;
                let results = self.call(callee, args)?;
                self.set(frame, op, results)?;
                Ok(Flow::Next)
            }
            Submit => {
                let callee = self.callee(op)?;
                let args = self.values(frame, op.segment(0))?;
                // A task starts once the tasks it depends on are complete,
                // their deferred conditions included.
                for dependency in self.values(frame, op.segment(1))? {
                    if let Value::Task(id) = dependency
                        && id != INVALID_TASK
                    {
                        self.complete_deferred(Some(id))?;
                    }
                }
                // Each block of an SPMD launch runs the kernel, in order.
                let blocks = self.block_count(frame, op.segment(2).first().copied())?;
                self.next_task += 1;
                let outer = std::mem::replace(&mut self.task, self.next_task);
                let outer_block = self.block;
                let mut results = Ok(Vec::new());
                let together = blocks > 1
                    && op.has_attr("sync_start")
                    && self.program.functions[callee].has_syncall;
                if together {
                    // A barrier needs its blocks running at once.
                    results = self.call_blocks_together(callee, &args, blocks);
                } else {
                    for b in 0..blocks {
                        self.block = (b, blocks);
                        results = self.call(callee, args.clone());
                        if results.is_err() {
                            break;
                        }
                    }
                }
                self.block = outer_block;
                self.task = outer;
                let mut results = results?;
                results.push(Value::Task(self.next_task));
                self.set(frame, op, results)?;
                Ok(Flow::Next)
            }
            TaskDummy => {
                // Done once its valid dependencies are; none of them valid
                // (but some given): no task, the invalid id.
                let deps = self.values(frame, &op.operands)?;
                let mut valid = 0;
                for dependency in &deps {
                    if let Value::Task(id) = dependency
                        && *id != INVALID_TASK
                    {
                        self.complete_deferred(Some(*id))?;
                        valid += 1;
                    }
                }
                let id = if valid == 0 && !deps.is_empty() {
                    INVALID_TASK
                } else {
                    self.next_task += 1;
                    self.next_task
                };
                self.set1(frame, op, Value::Task(id))
            }
            ArrayCreate => {
                let Some(crate::types::Ty::Array(element, extent)) = op.result_types.first() else {
                    return Err(RunError::new("pl.array.create makes an array"));
                };
                let zero = if **element == crate::types::Ty::TaskId {
                    Value::Task(INVALID_TASK)
                } else {
                    Value::Int(0)
                };
                self.set1(frame, op, Value::Array(Arc::new(vec![zero; *extent])))
            }
            ArrayGet | ArraySet => {
                let Value::Array(elements) = self.get(frame, op.operands[0])?.clone() else {
                    return Err(RunError::new("expected an array"));
                };
                let at = self.int(frame, op.operands[1])?;
                let index = usize::try_from(at)
                    .ok()
                    .filter(|&i| i < elements.len())
                    .ok_or_else(|| {
                        RunError::new(format!(
                            "array index {at} is outside the array's {} elements",
                            elements.len()
                        ))
                    })?;
                if op.code == ArrayGet {
                    let element = elements[index].clone();
                    return self.set1(frame, op, element);
                }
                let mut updated = (*elements).clone();
                updated[index] = self.get(frame, op.operands[2])?.clone();
                self.set1(frame, op, Value::Array(Arc::new(updated)))
            }
            // A cache hint: the program computes the same without it.
            PrefetchHandle => self.set1(frame, op, Value::Prefetch),
            Poison => self.set1(frame, op, Value::Poison),
            PrefetchWait => self.set1(frame, op, Value::Int(1)),
            TaskInvalid => self.set1(frame, op, Value::Task(INVALID_TASK)),
            TaskIsValid => {
                let valid = !matches!(self.get(frame, op.operands[0])?, Value::Task(INVALID_TASK));
                self.set1(frame, op, Value::Int(i64::from(valid)))
            }
            ClusterCount => {
                let clusters = pto_passes::target::a2a3::CLUSTERS as i64;
                self.set1(frame, op, Value::Int(clusters))
            }
            AivCount => {
                let cores = (pto_passes::target::a2a3::CLUSTERS
                    * pto_passes::target::a2a3::AIV_PER_CLUSTER) as i64;
                self.set1(frame, op, Value::Int(cores))
            }
            Dispatch => {
                let callee = self.callee(op)?;
                let (device_slot, arg_slots) =
                    op.operands.split_last().expect("dispatch has a device");
                let device = self.index(frame, *device_slot)?;
                let args = self.values(frame, arg_slots)?;
                if self.device.is_some() {
                    return Err(RunError::new(
                        "pld.dispatch runs only in a host orchestrator",
                    ));
                }
                self.world.submit(
                    device,
                    Task::Call {
                        function: callee,
                        args,
                        location: op.location.clone(),
                        reply: false,
                    },
                )?;
                self.set(frame, op, Vec::new())?;
                Ok(Flow::Next)
            }
            Nop => Ok(Flow::Next),
            Syncall => {
                // A soft barrier counts `used` blocks (0: all of them).
                let (block, blocks) = self.block;
                if let Some(&used) = op.segment(1).first() {
                    let used = self.int(frame, used)?;
                    if used != 0 && used != blocks {
                        return Err(RunError::new(format!(
                            "a soft pl.system.syncall for {used} blocks in a launch of {blocks}: pto-run runs a barrier across the whole launch"
                        )));
                    }
                }
                match &self.barrier {
                    _ if blocks == 1 => Ok(Flow::Next),
                    Some(barrier) => barrier.wait(block).map(|()| Flow::Next),
                    None => Err(RunError::new(format!(
                        "a pl.system.syncall in a launch of {blocks} blocks that does not start them together: its blocks may run one after another and the barrier never completes (launch it with sync_start)"
                    ))),
                }
            }
            TileLoad | TileStore | TileCreate | TileFull | TileMove | TileFillpad
            | TileSetValid | TileCast | TileRead | TileWrite | TileSlice | TileReshape
            | TileTranspose | TileExtract | TileAssemble | TileExpands | TileBinary(_)
            | TileScalar(_) | TileUnary(_) | TileRowReduce(_) | TileColReduce(_)
            | TileRowExpand(_) | TileColExpand(_) | TileMatmul | TileMatmulAcc | TileMatmulBias
            | TileCmp | TileCmps | TileSel | TileSels | TileBlockIdx | TileBlockNum
            | TileSubblockIdx => {
                let values = self.tile_op(frame, op)?;
                self.set(frame, op, values)?;
                Ok(Flow::Next)
            }
            TensorCreate | TensorFull | TensorView | TensorReshape | TensorSlice | TensorDim
            | TensorRead | TensorWrite | TensorAssemble | TensorConcat | TensorTranspose
            | TensorCast | TensorFillpad | TensorFillpadExpand | TensorSetValid
            | TensorExpandClone | TensorBinary(_) | TensorScalar(_) | TensorUnary(_)
            | TensorRowReduce(_) | TensorColReduce(_) | TensorRowExpand(_) | TensorColExpand(_)
            | TensorMatmul | TensorMatmulAcc | TensorExpands => {
                let values = self.tensor_op(frame, op)?;
                self.set(frame, op, values)?;
                Ok(Flow::Next)
            }
            TilePartial(_) | TensorPartial(_) | TileCarry(_) | TileConcat | TileFillpadExpand => {
                let value = self.region_op(frame, op)?;
                self.set1(frame, op, value)
            }
            GatherCompare => {
                let values = self.gather_compare(frame, op)?;
                self.set(frame, op, values)?;
                Ok(Flow::Next)
            }
            TileIndexing(how) | TensorIndexing(how) => {
                let value = self.indexing_op(frame, op, how)?;
                self.set1(frame, op, value)
            }
            WorldSize | GetCommCtx | Rank | Nranks | Notify | Wait | DeferWait | AllocWindow
            | Window | RemoteLoad | RemoteStore | TilePut | TileGet | TensorPut | TensorGet
            | Collective(_) | Builtin(_) => {
                let values = self.comm_op(frame, op)?;
                self.set(frame, op, values)?;
                Ok(Flow::Next)
            }
            Unsupported => Err(RunError::new(format!(
                "pto-run does not execute '{}'",
                op.name
            ))),
        }
    }

    fn exec_for(&mut self, frame: &mut Frame, op: &'w Op) -> Result<Flow> {
        let (lower, upper, step) = (
            self.int(frame, op.operands[0])?,
            self.int(frame, op.operands[1])?,
            self.int(frame, op.operands[2])?,
        );
        if step <= 0 {
            return Err(RunError::new(format!(
                "scf.for step {step} is not positive"
            )));
        }
        let mut carried = self.values(frame, &op.operands[3..])?;
        let mut iv = Some(lower);
        // The loop ends where the next value would pass `upper` or i64.
        while let Some(value) = iv.filter(|&value| value < upper) {
            let mut args = vec![Value::Int(value)];
            args.extend(carried);
            carried = match self.run_region(frame, &op.regions[0], args)? {
                Flow::Yield(values) => values,
                Flow::Return(values) => return Ok(Flow::Return(values)),
                _ => Vec::new(),
            };
            iv = value.checked_add(step);
        }
        self.set(frame, op, carried)?;
        Ok(Flow::Next)
    }
}

/// The valid extents of `tensor` as a value of a type whose valid extents
/// are `typed` (docs/pto-run.md, "Valid regions"): a type without them
/// makes the tensor wholly valid, a constant extent is the extent, a `?`
/// keeps what the tensor carries (unknown when it carries nothing).
fn typed_valid(tensor: &TensorRef, typed: Option<&[Option<i64>]>) -> Option<Vec<Option<usize>>> {
    let typed = typed.filter(|t| t.len() == tensor.shape.len())?;
    let carried = tensor.valid.as_ref();
    let valid: Vec<Option<usize>> = typed
        .iter()
        .enumerate()
        .map(|(axis, extent)| match extent {
            Some(extent) => Some((*extent).max(0) as usize).map(|v| v.min(tensor.shape[axis])),
            None => carried.and_then(|c| c[axis]),
        })
        .collect();
    let whole = valid.iter().zip(&tensor.shape).all(|(v, &d)| *v == Some(d));
    (!whole).then_some(valid)
}
