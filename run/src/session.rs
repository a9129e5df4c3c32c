//! Running a program: inputs in, threads up, outputs out.

use std::{
    collections::HashMap,
    path::Path,
    sync::{Arc, atomic::AtomicU64},
    thread,
    time::Duration,
};

use melior::{Context, ir::Module};

use crate::{
    error::{Result, RunError},
    interp::{Interp, run_collective},
    program::{Function, Program},
    types::{Elem, TensorTy, Ty},
    value::{BufferId, DomainId, Mem, TensorRef, Value, set_tile_limit},
    world::{DEFAULT_MEMORY_LIMIT, Task, World},
};

/// An n-d array of values of one element type: an input or an output.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    pub shape: Vec<usize>,
    pub elem: Elem,
    pub data: Vec<f64>,
}

impl Array {
    pub fn new(shape: Vec<usize>, elem: Elem, data: Vec<f64>) -> Self {
        Self { shape, elem, data }
    }
}

/// What a run leaves behind.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Every tensor parameter of the entry after the run, by its source
    /// name; a distributed tensor stacks the ranks' copies: `[P, ...]`.
    pub arguments: Vec<(String, Array)>,
    /// The entry's results: `result0`, `result1`, ...
    pub results: Vec<(String, Array)>,
    /// Every window buffer the program allocated, by its name, as its
    /// first view: `[ranks of its domain, ...view shape]`.
    pub windows: Vec<(String, Array)>,
    /// Ops executed, over all threads.
    pub ops: u64,
}

impl Outcome {
    /// An output by name (arguments, results, then window buffers).
    pub fn get(&self, name: &str) -> Option<&Array> {
        self.outputs().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// Every output, named.
    pub fn outputs(&self) -> impl Iterator<Item = &(String, Array)> {
        self.arguments
            .iter()
            .chain(&self.results)
            .chain(&self.windows)
    }
}

/// A configured run of one program.
pub struct Session<'p> {
    program: &'p Program,
    ranks: usize,
    inputs: HashMap<String, Array>,
    seed: Option<u64>,
    timeout: Duration,
    memory_limit: usize,
    ops: Option<Arc<AtomicU64>>,
}

/// The inputs a seeded run generates: floats uniform in [-1, 1) (rounded
/// to the element type); integer tensors (signals, counts) start at zero.
struct Generator(u64);

impl Generator {
    fn next(&mut self) -> f64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

impl<'p> Session<'p> {
    pub fn new(program: &'p Program) -> Self {
        Self {
            program,
            ranks: 1,
            inputs: HashMap::new(),
            seed: None,
            timeout: Duration::from_secs(60),
            memory_limit: DEFAULT_MEMORY_LIMIT,
            ops: None,
        }
    }

    /// Counts the ops the run executes, on every thread, in `counter`: a
    /// caller reads it to show progress while the run goes on.
    pub fn op_counter(mut self, counter: Arc<AtomicU64>) -> Self {
        self.ops = Some(counter);
        self
    }

    /// The number of devices (`pld.system.world_size`).
    pub fn ranks(mut self, ranks: usize) -> Self {
        self.ranks = ranks.max(1);
        self
    }

    /// An input for the entry parameter `name` (its source name or `argN`).
    pub fn input(mut self, name: &str, array: Array) -> Self {
        self.inputs.insert(name.to_string(), array);
        self
    }

    /// Generates the inputs not given, from `seed`.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// A wall-clock limit (a second guard behind deadlock detection).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// A limit on the host memory the program's data takes: global memory
    /// and window buffers (every rank's copy) together, and each tile on
    /// its own. Past it, the allocating op fails. Default 1 GiB.
    pub fn memory_limit(mut self, bytes: usize) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// The entry when none is named: the only host orchestrator, else
    /// `@main`.
    pub fn default_entry(program: &Program) -> Option<String> {
        let hosts: Vec<&Function> = program.functions.iter().filter(|f| f.is_host()).collect();
        match hosts.as_slice() {
            [only] => Some(only.name.clone()),
            _ => program.function("main").map(|f| f.name.clone()),
        }
    }

    /// Runs `entry`. An error no op raised (about the entry, its inputs,
    /// a timeout or deadlock noticed outside any op) is located at the
    /// entry function, an input's at its parameter.
    pub fn run(&self, entry: &str) -> Result<Outcome> {
        let index = self.program.index(entry).ok_or_else(|| {
            let error = RunError::new(format!("no function @{entry}"));
            match &self.program.location {
                Some(location) => error.located(location),
                None => error,
            }
        })?;
        let function = &self.program.functions[index];
        self.run_function(index)
            .map_err(|error| error.located(&function.location))
    }

    fn run_function(&self, index: usize) -> Result<Outcome> {
        let function = &self.program.functions[index];
        let mut unknown: Vec<&String> = self
            .inputs
            .keys()
            .filter(|name| {
                !function
                    .param_names
                    .iter()
                    .enumerate()
                    .any(|(i, param)| *name == param || **name == format!("arg{i}"))
            })
            .collect();
        unknown.sort();
        if let Some(name) = unknown.first() {
            let params: Vec<String> = function
                .param_names
                .iter()
                .map(|name| format!("%{name}"))
                .collect();
            let params = if params.is_empty() {
                "it has none".to_string()
            } else {
                format!("its parameters: {}", params.join(", "))
            };
            return Err(RunError::new(format!(
                "an input is given for %{name}, which is no parameter of @{} ({params})",
                function.name
            )));
        }
        let mut world = World::new(self.ranks, self.timeout).with_memory_limit(self.memory_limit);
        if let Some(counter) = &self.ops {
            world = world.with_op_counter(counter.clone());
        }
        set_tile_limit(self.memory_limit);
        let mut generator = Generator(self.seed.unwrap_or(0));
        let mut args = Vec::new();
        for (i, (ty, name)) in function
            .param_types
            .iter()
            .zip(&function.param_names)
            .enumerate()
        {
            let given = self
                .inputs
                .get(name)
                .or_else(|| self.inputs.get(&format!("arg{i}")));
            let argument = self.argument(&world, ty, name, given, &mut generator);
            let location = function
                .param_locations
                .get(i)
                .filter(|location| is_file_location(location));
            args.push(match location {
                Some(location) => argument.map_err(|error| error.located(location))?,
                None => argument?,
            });
        }
        let memory_limit = self.memory_limit;
        let program = self.program;
        let world_ref = &world;
        let outcome: Result<Vec<Value>> = thread::scope(|scope| {
            let workers: Vec<_> = (0..self.ranks)
                .map(|device| {
                    thread::Builder::new()
                        .name(format!("device{device}"))
                        .spawn_scoped(scope, move || {
                            set_tile_limit(memory_limit);
                            worker(world_ref, program, device)
                        })
                        .expect("a device thread starts")
                })
                .collect();
            let results = if function.is_host() {
                let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    Interp::new(world_ref, program, None).call(index, args.clone())
                }))
                .unwrap_or_else(|panic| Err(internal_error(panic)));
                if let Err(error) = &results {
                    world_ref.fail(error.clone());
                }
                // The first failure is the one to report (the host's own
                // may only say that it stopped because of it).
                match (results, world_ref.finish()) {
                    (Ok(results), Ok(())) => Ok(results),
                    (_, Err(first)) => Err(first),
                    (Err(error), Ok(())) => Err(error),
                }
            } else {
                // Any other entry runs on every device (SPMD); the results
                // are device 0's.
                let submitted: Result<()> = (0..self.ranks).try_for_each(|device| {
                    let task = Task::Call {
                        function: index,
                        args: args.clone(),
                        location: function.location.clone(),
                        reply: device == 0,
                    };
                    world_ref.submit(device, task)
                });
                if let Err(error) = &submitted {
                    world_ref.fail(error.clone());
                }
                let finished = world_ref.finish();
                submitted
                    .and(finished)
                    .map(|_| world_ref.lock().results.take().unwrap_or_default())
            };
            for worker in workers {
                if worker.join().is_err() {
                    return Err(RunError::new("a device thread panicked"));
                }
            }
            results
        });
        let results = outcome?;
        let mut state_outcome = Outcome {
            ops: world.ops.load(std::sync::atomic::Ordering::Relaxed),
            ..Outcome::default()
        };
        for ((arg, name), ty) in args
            .iter()
            .zip(&function.param_names)
            .zip(&function.param_types)
        {
            if let (Value::Tensor(tensor), Ty::Tensor(_)) = (arg, ty) {
                state_outcome
                    .arguments
                    .push((name.clone(), read_out(&world, tensor)?));
            }
        }
        for (i, value) in results.iter().enumerate() {
            let array = match value {
                Value::Tensor(tensor) => read_out(&world, tensor)?,
                Value::Int(v) => Array::new(Vec::new(), Elem::I64, vec![*v as f64]),
                Value::Float(v) => Array::new(Vec::new(), Elem::F64, vec![*v]),
                _ => continue,
            };
            state_outcome.results.push((format!("result{i}"), array));
        }
        let buffers: Vec<(usize, String, Vec<usize>, Elem)> = world
            .lock()
            .buffers
            .iter()
            .enumerate()
            .filter(|(_, b)| !b.entry)
            .filter_map(|(i, b)| {
                b.view
                    .clone()
                    .map(|(shape, elem)| (i, b.name.clone(), shape, elem))
            })
            .collect();
        for (i, name, shape, elem) in buffers {
            let view = TensorRef::contiguous(Mem::Window(BufferId(i)), 0, shape, elem);
            state_outcome.windows.push((name, read_out(&world, &view)?));
        }
        Ok(state_outcome)
    }

    /// Materializes one entry argument.
    fn argument(
        &self,
        world: &World,
        ty: &Ty,
        name: &str,
        given: Option<&Array>,
        generator: &mut Generator,
    ) -> Result<Value> {
        match ty {
            Ty::Int(_) | Ty::Float(_) => {
                let Some(array) = given else {
                    return Err(RunError::new(format!(
                        "no input for the scalar parameter %{name} (give one; --random-inputs draws tensors only)"
                    )));
                };
                let x = *array
                    .data
                    .first()
                    .ok_or_else(|| RunError::new(format!("input %{name} is empty")))?;
                Ok(if matches!(ty, Ty::Float(_)) {
                    Value::Float(x)
                } else {
                    Value::Int(x as i64)
                })
            }
            Ty::Tensor(tensor_ty) => self.tensor_argument(world, tensor_ty, name, given, generator),
            other => Err(RunError::new(format!(
                "pto-run cannot pass a {other:?} to the entry (%{name})"
            ))),
        }
    }

    fn tensor_argument(
        &self,
        world: &World,
        ty: &TensorTy,
        name: &str,
        given: Option<&Array>,
        generator: &mut Generator,
    ) -> Result<Value> {
        // A distributed tensor's input stacks the ranks' copies: [P, ...].
        let per_rank_shape: Vec<usize> = match given {
            Some(array) => {
                let shape = if ty.distributed {
                    if array.shape.first() != Some(&self.ranks) {
                        return Err(RunError::new(format!(
                            "input %{name} is a distributed tensor: its first dimension must be the rank count {}, got shape {:?}",
                            self.ranks, array.shape
                        )));
                    }
                    array.shape[1..].to_vec()
                } else {
                    array.shape.clone()
                };
                check_shape(&ty.shape, &shape, name)?;
                shape
            }
            None => ty
                .shape
                .iter()
                .map(|d| d.map(|d| d as usize))
                .collect::<Option<Vec<usize>>>()
                .ok_or_else(|| {
                    RunError::new(format!("no input for %{name}, whose shape is dynamic"))
                })?,
        };
        let copies = if ty.distributed { self.ranks } else { 1 };
        let too_large = || {
            RunError::new(format!(
                "%{name} of shape {per_rank_shape:?} has more elements than 64 bits count"
            ))
        };
        let elements = per_rank_shape
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .ok_or_else(too_large)?;
        let bytes = elements
            .checked_mul(ty.elem.bytes())
            .ok_or_else(too_large)?;
        if let Some(array) = given
            && array.data.len() != elements * copies
        {
            return Err(RunError::new(format!(
                "input %{name} has {} values for shape {:?}",
                array.data.len(),
                array.shape
            )));
        }
        if given.is_none() && self.seed.is_none() && ty.elem.is_float() {
            return Err(RunError::new(format!(
                "no input for %{name} (give one, or --random-inputs)"
            )));
        }
        // Memory first (the limit applies), then the values: the input's,
        // else random floats, else zeros (the memory starts zeroed).
        let mut state = world.lock();
        let mem = if ty.distributed {
            let buffer: BufferId = state.allocate(DomainId(0), bytes, name)?;
            state.buffers[buffer.0].entry = true;
            Mem::Window(buffer)
        } else {
            Mem::Gm(state.allocate_gm(elements, ty.elem)?)
        };
        let random = given.is_none() && self.seed.is_some() && ty.elem.is_float();
        if given.is_some() || random {
            for copy in 0..copies {
                for i in 0..elements {
                    let value = match given {
                        Some(array) => array.data[copy * elements + i],
                        None => ty.elem.round(generator.next()),
                    };
                    state.write(mem, copy, i, ty.elem, value)?;
                }
            }
        }
        Ok(Value::Tensor(TensorRef::contiguous(
            mem,
            0,
            per_rank_shape,
            ty.elem,
        )))
    }
}

/// Whether `text` is a `file:line:col` location.
fn is_file_location(text: &str) -> bool {
    let mut parts = text.rsplitn(3, ':');
    let numeric = |part: Option<&str>| {
        part.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    numeric(parts.next())
        && numeric(parts.next())
        && parts.next().is_some_and(|file| !file.is_empty())
}

fn check_shape(dims: &[Option<i64>], shape: &[usize], name: &str) -> Result<()> {
    let fits = dims.len() == shape.len()
        && dims
            .iter()
            .zip(shape)
            .all(|(d, &s)| d.is_none_or(|d| d as usize == s));
    if fits {
        Ok(())
    } else {
        Err(RunError::new(format!(
            "input %{name} has shape {shape:?}, the parameter's type wants {dims:?}"
        )))
    }
}

/// Reads a tensor out: global memory once, a window view once per rank.
fn read_out(world: &World, tensor: &TensorRef) -> Result<Array> {
    let mut state = world.lock();
    let copies = match tensor.mem {
        Mem::Gm(_) => 1,
        Mem::Window(buffer) => state.domains[state.buffers[buffer.0].domain.0]
            .devices
            .len(),
    };
    let mut data = Vec::with_capacity(copies * tensor.elements());
    for rank in 0..copies {
        for at in tensor.offsets() {
            data.push(
                state
                    .read(tensor.mem, rank, at, tensor.elem)?
                    .unwrap_or(0.0),
            );
        }
    }
    let shape = match tensor.mem {
        Mem::Gm(_) => tensor.shape.clone(),
        Mem::Window(_) => std::iter::once(copies)
            .chain(tensor.shape.iter().copied())
            .collect(),
    };
    Ok(Array::new(shape, tensor.elem, data))
}

/// A device thread: runs its queue until the host finishes. A panic (an
/// interpreter bug) becomes an internal error that stops the run.
fn worker(world: &World, program: &Program, device: usize) {
    while let Some(task) = world.next_task(device) {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_task(world, program, device, task)
        }))
        .unwrap_or_else(|panic| Err(internal_error(panic)));
        if let Err(error) = outcome {
            world.fail(error);
        }
    }
}

/// The message of a caught panic, as an internal error.
fn internal_error(panic: Box<dyn std::any::Any + Send>) -> RunError {
    let message = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".to_string());
    RunError::new(format!("internal error: {message}"))
}

fn run_task(world: &World, program: &Program, device: usize, task: Task) -> Result<()> {
    match task {
        Task::Call {
            function,
            args,
            location,
            reply,
        } => {
            let results = Interp::new(world, program, Some(device))
                .call(function, args)
                .map_err(|e| e.located(&location))?;
            if reply {
                world.lock().results = Some(results);
            }
            Ok(())
        }
        Task::Collective(call) => run_collective(world, device, call),
    }
}

/// Parses `path` into a module of `context`, verified; diagnostics go to
/// the context's handler (the error is then [`RunError::reported`]).
pub fn parse_file<'c>(context: &'c Context, path: &Path) -> Result<Module<'c>> {
    let text = path.to_string_lossy().to_string();
    let source = std::fs::read(path)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok());
    // Text MLIR's parser would crash on is reported before it parses.
    if let Some(message) = source
        .as_deref()
        .and_then(|source| pto_dialects::source::unparsable(&text, source))
    {
        eprintln!("{message}");
        return Err(RunError::reported());
    }
    let module = pto_dialects::ir::parse_file(context, &text).ok_or_else(RunError::reported)?;
    if !melior::ir::operation::OperationLike::verify(&module.as_operation()) {
        return Err(RunError::reported());
    }
    if let Some(source) = &source {
        pto_dialects::source::name_arguments(&module, source);
    }
    Ok(module)
}
