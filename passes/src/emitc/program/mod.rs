//! `convert-pl-program-to-emitc`: the simulator's host-side C++ programs
//! (`int main(argc, argv)`) of an entry: a kernel's driver, a host
//! program's or entry orchestration's simulator program, or an entry
//! orchestration run on the simulator's runtime. What it does and why:
//! [`PASS`]`.description` (also docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{BlockLike, OperationRef, RegionLike, operation::OperationLike};
use pto_dialects::ops::Checked;
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    enums::FunctionKind,
};

use crate::emitc::orchestration::kernels::{functions, kind, symbol};
use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed, Run},
};

mod driver;
pub mod emit;
pub mod facts;
mod host;
mod runtime;

use emit::{include, verbatim};
use facts::{Facts, kernel_file, orchestration_file};

/// A failure at an op: the op and what went wrong.
pub type Failure<'c, 'a> = crate::emitc::orchestration::calls::Failure<'c, 'a>;

/// The builtin collective kernels a program includes when it uses them
/// (pto-translate ships the file with the translation).
pub const BUILTINS_FILE: &str = "pto_builtin_collectives.hpp";

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "convert-pl-program-to-emitc",
    class_name: "ConvertPLProgramToEmitC",
    summary: "Build the simulator's host-side C++ program of an entry function as EmitC",
    description: r#"The module becomes the C++ program pto-translate's
`--target=a2a3sim` writes as `run_<entry>.cpp` for the function `entry`
names (docs/translate.md): includes and an `int main(int argc, char**
argv)` over `pto/sim/host.hpp`, which parses the command line
(`pto::sim::parse_args`), reads the inputs (.npy files or seeded), runs the
entry on the simulated core, writes and compares the outputs, and returns
the exit code. The other functions of the module are what the program
needs to know and are erased:

- the aic/aiv kernels it calls, each compiled to `<name>.cpp` on its own:
  their parameters (names from the IR, else `arg<i>`; element types and
  shapes, any extent dynamic; `pl.direction`s), the
  parameters they return, and their `func_id`s (`pto2.func_id`, else their
  position among the kernels). A kernel with a parameter a host cannot
  drive (neither a tensor nor a scalar) is only registered with the
  runtime, never called;
- the chip orchestrations it dispatches: every other orchestration, with
  its `pto2.ordering_tokens` (0 when absent).

What `main` does follows from the entry:

- an aic/aiv kernel: its driver. Each tensor parameter is a buffer read
  (`pto::sim::input<T>(args, "name", {shape})`) or, for an output of static
  shape, made (`pto::sim::output`), each scalar read from a one-element
  .npy (`pto::sim::scalar<T>(args, "name")`, an index as a `size_t`); the
  kernel is called with the buffers' data and the scalars in their places
  and, after them, each dynamic extent of each tensor (in parameter and
  axis order); outputs are written and compared (`pto::sim::finish`);
- an orchestration or host program (`runtime=direct`, or a host program
  with `runtime=pto2`): the kernel files it can drive included (two or
  more each with its `kernel_entry`, which a kernel translated for the
  runtime defines, renamed), its body, with each tensor parameter read into a
  buffer, each scalar parameter read as the driver reads it (an index as
  an int64, cast to index for the arithmetic that uses it), each window parameter a domain of its own with one slot filled
  rank by rank, `pl.tensor.create` a temporary (`pto::sim::make`),
  `pl.tensor.full` a filled one (`pto::sim::full`), `pl.tensor.slice`
  a window of a host tensor that owns no elements (`pto::sim::slice`:
  offsets then sizes; it must be contiguous in the tensor, as kernels take
  dense tensors, which is checked where the static extents show it and
  at run time), `pl.tensor.view`/`reshape` its elements with another
  shape (`pto::sim::reshape`; views outlive their loop iteration, so a
  dispatch may use one later), `pl.tensor.read`/`write` an element
  (`pto::sim::read`/`write`, bounds-checked), `pl.tensor.assemble` a copy
  into a window of the target (`pto::sim::assemble`), a loop carrying a
  tensor it updates in place (assembles into it, writes it, or passes it
  to a kernel that returns it) the one buffer,
  `pl.call`/`pl.submit` the kernel called over the buffers' data and the
  scalars by value (an index as an int64; their results being the
  arguments the kernel returns), a `pl.call` of a core group (a `group`
  function of the module: its slot buffers, a call of its aic and of its
  aiv kernel, its return) its body in place, as for the runtime: its slot
  buffers made (`pto::sim::make<int8_t>`) and its kernels launched
  together (`pto::sim::launch_group<lanes, n>("name", aic, aiv, aic
  operands..., aiv operands...)`, the first `n` operands the aic
  kernel's; two vector cores when a pipe splits its tiles, else vector
  core 0 alone), its results the parameters its aiv kernel returns, each `pld.comm_domain`
  a domain object (over every device, or its fixed device list: the
  listed devices are its ranks, in list order) whose body runs inline and
  whose dispatches are joined
  and window slots written and compared at its end (slots the compiler
  synthesized, `__…`, checked to be released), window buffers and views
  slots and typed views of them, `pld.dispatch` the chip launched on the
  device's thread (`pto::sim::launch`; a dispatch outside every comm
  domain, which has no windows to share, runs in a window-less domain of
  every device and is joined where it is) and each builtin collective its
  builtin kernel (`pto_builtin::…`, from `pto_builtin_collectives.hpp`);
  tasks run when they are submitted, so a task id is whether it is valid
  (an `i1`: a submit's is, `pl.system.task_invalid`'s is not, a dummy
  task's is without dependencies or when one of them is; `task_is_valid`
  reads it), carried as such by loops and branches; a `pl.array` is a C
  array written in place (task ids as `bool`s, all invalid at first), a
  loop carrying it carries nothing, and reading it after an update is an
  error; the core counts are the simulated device's;
  the return writes and compares the results (`result<i>`), the windows
  given from outside and the host tensor parameters. With
  `runtime=direct` the chips are `static` functions of the program
  (`convert-pl-orchestration-to-emitc{runtime=sim}`); with `runtime=pto2`
  their PTO2 C++ (`<chip>_orchestration.cpp`, entries renamed
  `pto_chip_entry_<chip>`) is included and launched with `ChipTaskArgs`
  (`pto::sim::runtime::launch_chip`), and every kernel file is included
  with its `kernel_entry` renamed `pto_kernel_entry_<func_id>` and
  registered;
- an entry orchestration with `runtime=pto2`: the device's way. Every
  kernel file is included, renamed and registered like that, the
  orchestration's PTO2 C++ (`<entry>_orchestration.cpp`) included, and
  `main` describes the tensor parameters, then one zeroed tensor per
  result, as `ChipTensor`s, adds the scalar parameters' payloads after
  them (`pto::sim::runtime::add_scalar`), checks `aicpu_orchestration_config`, calls
  `aicpu_orchestration_entry` and writes and compares every tensor.

Index arithmetic and loops are left to `arith-expand`,
`arith-signed-index-to-i64`, `scf-while-index-to-i64`, `convert-arith-to-emitc`, `convert-scf-to-emitc` and
`reconcile-unrealized-casts` (pto-translate runs them next). Refused, with
an error: an `entry` that names no function of the module, or neither a
kernel nor an orchestration; a kernel parameter a driver cannot drive; a
program parameter that is neither a tensor nor a scalar, or a window of
dynamic shape; a
call of a kernel that is not in the module (or cannot be driven); a kernel
argument that is not a host tensor; a call result that is not a parameter
the kernel returns; window buffers and builtins outside a comm domain; a
dispatch of a device outside its domain (at run time); a dispatch of a function
that is not a chip orchestration of the module, or with results; builtins
over values that are not window views or of shapes the builtin kernels do
not take; scalar accesses and assembles inside a comm domain (they would
race the dispatches, which run on the devices' threads); a branch whose
branches yield different tensors (a loop carrying a fresh tensor each
iteration points at it: docs/translate.md, "One buffer per tensor"); a slice that is not contiguous in its
tensor or clamped, a view with a layout, strides or a valid shape; and
any other pl/pld op. With `runtime=pto2`, an entry
orchestration whose tensors are windows or results of dynamic shape, or
with a parameter that is neither a tensor nor a scalar.

Before (`entry=host`):

```mlir
func.func @host(%x: !pl.tensor<8xf32>) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.tensor.create() : !pl.tensor<8xf32>
  %r = pl.call @copy(%x, %y) : (!pl.tensor<8xf32>, !pl.tensor<8xf32>) -> !pl.tensor<8xf32>
  return %r : !pl.tensor<8xf32>
}
func.func @copy(%x: !pl.tensor<8xf32>, %y: !pl.tensor<8xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !pl.tensor<8xf32>
}
```

After (printed as C++, after the upstream EmitC conversions):

```cpp
#include "pto/sim/host.hpp"
#include "copy.cpp"
#include "pto/sim/comm.hpp"
int32_t main(int32_t v1, char** v2) {
  int64_t v3 = 8;
  pto::sim::Args v4 = pto::sim::parse_args(v1, v2);
  pto::sim::Buffer<float> v5 = pto::sim::input<float>(v4, "arg0", {8});
  pto::sim::Buffer<float> v6 = pto::sim::make<float>("tmp1", v3);
  float* v7 = pto::sim::data(v5);
  float* v8 = pto::sim::data(v6);
  copy(v7, v8);
  pto::sim::finish(v4, v6, "result0");
  pto::sim::finish(v4, v5, "arg0");
  int32_t v9 = pto::sim::exit_code(v4);
  return v9;
}
```"#,
    example_options: "entry=host",
    anchor: Some("builtin.module"),
    options: &[
        OptionSpec {
            name: "entry",
            kind: OptionKind::String,
            description: "The function whose program the module becomes (a kernel, an orchestration or a host program)",
            default: "",
        },
        OptionSpec {
            name: "runtime",
            kind: OptionKind::Enum(&["direct", "pto2"]),
            description: "How the program reaches the kernels and chips (`direct`: it calls the kernels and its chips are functions of its own; `pto2`: the device's kernel entries and PTO2 orchestrations on the simulator's runtime)",
            default: "direct",
        },
    ],
    dependent_dialects: crate::emitc::dependent_dialects,
    run: Run::Op(run),
};

/// The dynamic axes (-1) of a kernel parameter's shape, in order: each is
/// one more `size_t` argument after all others.
pub(crate) fn dynamic_axes(shape: &[i64]) -> impl Iterator<Item = usize> + '_ {
    shape
        .iter()
        .enumerate()
        .filter(|(_, e)| **e < 0)
        .map(|(axis, _)| axis)
}

fn error(op: OperationRef, message: &str) -> PassFailed {
    OpDiagnostic::new(format!("convert-pl-program-to-emitc: {message}")).emit(op, Severity::Error);
    PassFailed
}

use crate::pld::ir::is_host;

fn run(module: OperationRef, options: &OptionValues) -> Result<(), PassFailed> {
    let name = options.string("entry");
    let pto2 = options.string("runtime") == "pto2";
    let Some(entry) = functions(module).into_iter().find(|f| symbol(*f) == name) else {
        let message = format!("entry=@{name} names no function of the module");
        return Err(error(module, &message));
    };
    // A simulator program launches a core group from its calls of the
    // group's kernels, the group's body in place (as the runtime's
    // orchestrations do).
    let simulated = is_host(entry) || kind(entry) == Some(FunctionKind::Orchestration) && !pto2;
    if simulated {
        crate::emitc::orchestration::groups::inline_groups(module, entry)
            .map_err(|(op, m)| error(op, &m))?;
    }
    let functions = functions(module);
    let context = pto_dialects::ir::context(&module);
    let facts = facts::facts(&functions, entry);
    let ops = match kind(entry) {
        Some(FunctionKind::Aic | FunctionKind::Aiv) => {
            let parameters = facts::parameters(entry).map_err(|m| error(entry, &m))?;
            driver::build(
                context,
                name,
                &parameters,
                crate::emitc::spmd::Queries::of(entry),
            )
        }
        _ if is_host(entry) => program(module, entry, &facts, pto2)?,
        Some(FunctionKind::Orchestration) if pto2 => {
            runtime::build(context, entry, &facts.kernel_files).map_err(|(op, m)| error(op, &m))?
        }
        Some(FunctionKind::Orchestration) => program(module, entry, &facts, pto2)?,
        _ => {
            let message =
                format!("@{name} is neither a kernel, an orchestration nor a host program");
            return Err(error(entry, &message));
        }
    };
    let body = module
        .region_opt(0)
        .and_then(|r| r.first_block())
        .expect("a module has a body");
    while let Some(op) = body.first_operation() {
        pto_dialects::ir::erase(op);
    }
    for op in ops {
        body.append_operation(op);
    }
    Ok(())
}

/// The simulator program of a host program or entry orchestration: its
/// includes, its chips' functions (`runtime=direct`) and `main`.
fn program<'c>(
    module: OperationRef<'c, '_>,
    entry: OperationRef<'c, '_>,
    facts: &Facts,
    pto2: bool,
) -> Result<Vec<melior::ir::Operation<'c>>, PassFailed> {
    let context = pto_dialects::ir::context(&module);
    let chips = if pto2 {
        Vec::new()
    } else {
        sim_chips(module, facts)?
    };
    let (main, uses_builtins) = host::build(entry, facts, pto2).map_err(|(op, m)| error(op, &m))?;
    let mut ops = includes(context, facts, pto2);
    if uses_builtins {
        ops.insert(1, include(context, BUILTINS_FILE));
    }
    ops.extend(chips);
    ops.push(main);
    Ok(ops)
}

/// The chip orchestrations of the module as `static` functions of the
/// program: `convert-pl-orchestration-to-emitc{runtime=sim}` on a module of
/// them and the kernels a host can drive (it reports what it refuses).
fn sim_chips<'c>(
    module: OperationRef<'c, '_>,
    facts: &Facts,
) -> Result<Vec<melior::ir::Operation<'c>>, PassFailed> {
    let context = pto_dialects::ir::context(&module);
    let functions = functions(module);
    let chips: Vec<OperationRef> = functions
        .iter()
        .copied()
        .filter(|f| facts.chips.contains_key(&symbol(*f)))
        .collect();
    if chips.is_empty() {
        return Ok(Vec::new());
    }
    let kernels = functions.iter().copied().filter(|f| {
        matches!(kind(*f), Some(FunctionKind::Aic | FunctionKind::Aiv))
            && facts.kernels.contains_key(&symbol(*f))
    });
    let lowered = melior::ir::Module::new(melior::ir::Location::unknown(context));
    for function in kernels.chain(chips) {
        lowered
            .body()
            .append_operation(pto_dialects::ir::clone(&function));
    }
    crate::emitc::orchestration::run_sim(lowered.as_operation())?;
    let mut functions = Vec::new();
    let mut next = lowered.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        functions.push(pto_dialects::ir::clone(&op));
    }
    Ok(functions)
}

/// What a host program includes: the simulator's host (or runtime) API,
/// the kernels (and chips) it runs, and the comm API.
fn includes<'c>(
    context: &'c melior::Context,
    facts: &Facts,
    pto2: bool,
) -> Vec<melior::ir::Operation<'c>> {
    let mut ops = Vec::new();
    if pto2 {
        // The device's files: kernels entered by func_id, each chip
        // orchestration's PTO2 entry under a name of its own.
        ops.push(include(context, "pto/sim/runtime.hpp"));
        ops.extend(renamed_kernels(context, &facts.kernel_files));
        for chip in facts.chips.keys() {
            ops.push(verbatim(
                context,
                &format!("#define aicpu_orchestration_entry pto_chip_entry_{chip}"),
            ));
            ops.push(verbatim(
                context,
                &format!("#define aicpu_orchestration_config pto_chip_config_{chip}"),
            ));
            ops.push(include(context, &orchestration_file(chip)));
            ops.push(verbatim(context, "#undef aicpu_orchestration_entry"));
            ops.push(verbatim(context, "#undef aicpu_orchestration_config"));
        }
    } else {
        ops.push(include(context, "pto/sim/host.hpp"));
        // The program calls its kernels by name; a kernel translated for
        // the runtime also defines `kernel_entry`, so two or more are
        // included with it renamed (one each).
        let files: Vec<(usize, String)> = facts
            .kernels
            .keys()
            .enumerate()
            .map(|(n, kernel)| (n, kernel_file(kernel)))
            .collect();
        if files.len() > 1 {
            ops.extend(renamed_kernels(context, &files));
        } else {
            ops.extend(files.iter().map(|(_, file)| include(context, file)));
        }
    }
    ops.push(include(context, "pto/sim/comm.hpp"));
    ops
}

/// Every kernel file, its `kernel_entry` renamed after its func_id (they
/// share one program here; on the device each is a binary of its own).
fn renamed_kernels<'c>(
    context: &'c melior::Context,
    kernels: &[(usize, String)],
) -> Vec<melior::ir::Operation<'c>> {
    let mut ops = Vec::new();
    for (func_id, file) in kernels {
        ops.push(verbatim(
            context,
            &format!("#define kernel_entry pto_kernel_entry_{func_id}"),
        ));
        ops.push(include(context, file));
        ops.push(verbatim(context, "#undef kernel_entry"));
    }
    ops
}
