//! `convert-pl-orchestration-to-emitc`: orchestrations as the C++ their
//! runtime runs. What it does and why: [`PASS`]`.description` (also
//! docs/passes/convert-pl-orchestration-to-emitc.md).

use melior::ir::{OperationRef, attribute::IntegerAttribute, operation::OperationLike};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    enums::FunctionKind,
};

use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed, Run},
};

pub mod calls;
pub mod groups;
pub mod kernels;
mod pto2;
pub(crate) mod scopes;
mod sim;

use kernels::{functions, kind};

/// The attribute that gives an orchestration the number of ordering tokens
/// its runtime arguments carry after the tensors.
pub const ORDERING_TOKENS: &str = "pto2.ordering_tokens";

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "convert-pl-orchestration-to-emitc",
    class_name: "ConvertPLOrchestrationToEmitC",
    summary: "Lower a pl orchestration to the EmitC of its runtime's orchestration API",
    description: r#"With `runtime=pto2` (pto-translate's `--target=a2a3` and
`--entry=runtime`), the module's orchestration (`pl.kind =
#pl.kind<orchestration>`) becomes the two functions the a2a3 runtime loads
from the orchestration's library by name (docs/translate.md, "What the
runtime gets"): `aicpu_orchestration_config`, which tells the runtime how
many arguments the entry takes, and `aicpu_orchestration_entry(const
ChipTaskArgs&)`, over the PTO2 API (`pto_orchestration_api.h`):

- the parameters are read from the argument array: tensors as `const
  ChipTensor&` descriptors (`pto_orch_tensor(args, i)`, counting tensors
  from 0), scalars as 64-bit payloads (`pto_orch_scalar<T>(args, j)`,
  counting scalars from 0; an `index` is a `size_t`, a `!pld.comm_ctx` a
  `uint64_t` passed on to the kernels);
- a tensor the orchestration returns is not allocated: the runtime hands it
  in, result `k` being tensor argument `parameters + k`; every result must
  be a `pl.tensor.create` or `pl.tensor.full` (possibly through kernel
  calls that return it); a returned `pl.tensor.full` at the top level
  fills that output on the AICPU (`pto_orch_fill<T>(t, value)`) before
  the tasks after it are submitted;
- `pl.tensor.read` / `pl.tensor.write` access the element through the
  descriptor on the AICPU (`pto_orch_element<T>(t, indices...)`), for a
  tensor no task of the orchestration takes through any view (the
  orchestration does not wait for its tasks: an access of a task's tensor
  would race with it, and is refused);
- any other `pl.tensor.create` is `alloc_tensors` (`pto_orch_alloc(dtype,
  extents...)`), `pl.tensor.dim` the descriptor's extent;
- `pl.tensor.slice` is a descriptor of the same buffer
  (`pto_orch_slice(t, offsets..., sizes...)`: the start offset moved, the
  extents narrowed, the strides kept) and `pl.tensor.view`/`reshape` one
  with dense strides of its extents (`pto_orch_reshape(t, extents...)`);
  kernels take dense tensors, so a slice must be dense whatever its
  dynamic extents are (refused otherwise, as are clamped slices and views
  with a layout, strides or a valid shape);
- a `pl.tensor.assemble` of a tensor the orchestration creates for the
  kernels to fill (through views and the calls that return it) into a
  dense window of another is that window: the create becomes a slice of
  the target (viewed with the create's shape, its dynamic extents the
  create's), so the kernels write there,
  and the assemble goes (the runtime cannot copy between tensors in the
  orchestration; any other assemble is refused);
- each `pl.call` and `pl.submit` is one task: a `CoreTaskArgs` with the
  tensors by the kernel's parameter directions (`add_input`, `add_output`,
  `add_inout`), then the scalars (`add_scalar`), submitted with
  `rt_submit_aiv_task` / `rt_submit_aic_task` to the kernel's `func_id`; a
  submit's dependencies are a `PTO2TaskId` array (`set_dependencies`), its
  block count and synchronised start go on the launch spec; the call's
  results are the arguments the kernel returns;
- a `pl.call` of a core group (a `group` function of the module, which
  the pass erases) is the group's body in place: its slot buffers
  allocated, and its aic and aiv kernels one mixed task, `rt_submit_task(
  pto_orch_mixed(aic_id, aiv_id, aiv1_id), args)` with the kernels' one
  argument list (`aiv1_id` the aiv kernel's when a pipe splits tiles
  between the vector cores, else `INVALID_KERNEL_ID`); kernels that take
  different parameters are refused, as is a submit of a group;
- the body runs in one automatic `PTO2_SCOPE`, so the runtime tracks the
  tensors' producers and consumers; each `pl.runtime_scope` in it is a
  nested `PTO2_SCOPE() { ... }` block, a manual one
  `PTO2_SCOPE(PTO2ScopeMode::MANUAL)` (the runtime tracks nothing inside
  it: a task waits for the ids its submit passes); a scope with results
  is refused (what its block defines would be used past its closing
  brace: make the tensors its tasks fill before it).

What the runtime's arguments hold is fixed by the module:

- the kernels the orchestration calls must be in the module, as the aic/aiv
  `func.func`s (with or without bodies lowered; their parameters'
  `pl.direction`s, or what their bodies write, give the tensors'
  directions, and their returns the results). A kernel's `func_id` is its
  `pto2.func_id` integer attribute, else its position among the module's
  aic/aiv kernels. The kernels are erased: each is compiled on its own
  (pto-translate gives each kernel its position in the whole program);
- a chip orchestration a host program dispatches takes, after its tensors
  and the outputs, one ordering token per comm domain of its dispatches'
  windows: its `pto2.ordering_tokens` integer attribute (0 when absent)
  says how many, for `expected_arg_count`.

The entry's name is fixed, so the pass wants one orchestration per module;
index arithmetic and loops are left to `arith-expand`,
`arith-signed-index-to-i64`, `scf-while-index-to-i64`, `convert-arith-to-emitc`, `convert-scf-to-emitc` and
`reconcile-unrealized-casts` (pto-translate runs them next). Refused, with
an error: a call to a function that is not an aic/aiv kernel of the
module, a result that is not a tensor the orchestration creates or
fills, a `pl.tensor.full` it does not return (or makes in a loop or a
branch), a read or write of a tensor a task takes, a call
result that is not a parameter the kernel returns, a submit's task used
other than as a dependency, a branch whose branches yield different
tensors, and pl/pld ops without a runtime form
(`pld.dispatch`, tile ops, ...). A loop carrying a tensor it does not
update in place (assemble into, write, or pass to a kernel that returns
it: such a loop's tensor is one tensor) rebinds it: the loop carries a
`ChipTensor` variable, `ChipTensor(init)` first and `ChipTensor(next)` at
each yield (docs/translate.md, "One buffer per tensor"); with
`runtime=sim` it is refused.

With `runtime=sim` (pto-translate's `--target=a2a3sim`, for the chip
orchestrations a host program dispatches: docs/translate.md), every
orchestration of the module becomes a `static` C++ function of the same
name, of this rank's pointers, that the host's simulator program launches
on each device's thread:

- a host tensor (`!pl.tensor`) arrives whole, as a
  `pto::sim::Buffer<T>*`; a window view (`!pld.dtensor`) as this rank's
  `T*`, each of its dynamic extents as one more `size_t` parameter after
  all others (in parameter order); a `!pld.comm_ctx` as an `int64_t*`; a
  scalar by value (an `index` as a `size_t`);
- each `pl.call` calls the kernel: a host tensor passes its data
  (`pto::sim::data`), a window and a comm context their pointers, a scalar
  its value, then,
  after all other arguments, a host tensor's extents (`pto::sim::dim(t,
  axis)`) where the kernel's are dynamic and a window's dynamic extents
  where the kernel's are. What a kernel wants is read from its
  parameter types, so the module must hold the aic/aiv kernels the chips
  call (pto-translate gives it the ones it translated); they are erased;
- a value that names a window's buffer is the window's pointer: a
  kernel's result that is a parameter it returns, a static-shaped view of
  a window, and an `scf.if` result or loop carry both of whose ways update
  one tensor in place (one buffer per tensor, as for the runtime);
- a `pl.runtime_scope` is its body (tasks run at once, in order), its
  results the values the body yields;
- scalar arithmetic, constants, `scf.if` and `scf.for` are left to the
  EmitC conversions, their bodies lowered in turn; an `index` scalar
  parameter the chip computes with is taken back as an `index` by an
  unrealized cast they reconcile.

Refused, with an error: a parameter that is neither a tensor, a scalar
nor a comm context, a call to a function that is not an aic/aiv kernel of
the module, a used kernel result that is not a parameter it returns, a
branch choosing between tensors, a scalar other than an `index` that the
chip computes with, a window passed to a kernel that wants an extent the
window does not have, and any other op (`pl.tensor.create`, `pl.submit`,
views of host tensors, ...).

Before:

```mlir
func.func @rows(%x: !pl.tensor<64x64xf32>, %s: f32) -> !pl.tensor<64x64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %out = pl.tensor.create() : !pl.tensor<64x64xf32>
  %r = pl.call @scale(%x, %s, %out) : (!pl.tensor<64x64xf32>, f32, !pl.tensor<64x64xf32>) -> !pl.tensor<64x64xf32>
  return %r : !pl.tensor<64x64xf32>
}
func.func @scale(%x: !pl.tensor<64x64xf32>, %s: f32, %y: !pl.tensor<64x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64x64xf32> attributes {pl.kind = #pl.kind<aiv>, pto2.func_id = 3 : i64} {
  return %y : !pl.tensor<64x64xf32>
}
```

After, with `runtime=pto2` (printed as C++):

```cpp
extern "C" __attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& v1) {
  return PTO2OrchestrationConfig{ .expected_arg_count = 3 };
}
extern "C" __attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs& v1) {
  const ChipTensor& v2 = pto_orch_tensor(v1, 0);
  float v3 = pto_orch_scalar<float>(v1, 0);
  PTO2_SCOPE() {
  const ChipTensor& v4 = pto_orch_tensor(v1, 1);
  CoreTaskArgs v5 = CoreTaskArgs();
  v5.add_input(v2);
  v5.add_output(v4);
  uint64_t v6 = pto_orch_payload(v3);
  v5.add_scalar(v6);
  rt_submit_aiv_task(3, v5);
  }
  return;
}
```

A chip with `runtime=sim`:

```mlir
func.func @chip(%h: !pl.tensor<?x64xf32>, %w: !pld.dtensor<?x64xf32>, %c: !pld.comm_ctx) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @scale(%h, %w, %c) : (!pl.tensor<?x64xf32>, !pld.dtensor<?x64xf32>, !pld.comm_ctx) -> ()
  return
}
func.func @scale(%h: !pl.tensor<?x64xf32>, %w: !pld.dtensor<?x64xf32> {pl.direction = #pl.direction<inout>}, %c: !pld.comm_ctx) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
```

becomes:

```cpp
static void chip(pto::sim::Buffer<float>* v1, float* v2, int64_t* v3, size_t v4) {
  float* v5 = pto::sim::data(v1);
  size_t v6 = pto::sim::dim(v1, 0);
  scale(v5, v2, v3, v6, v4);
  return;
}
```"#,
    example_options: "runtime=pto2",
    anchor: Some("builtin.module"),
    options: &[OptionSpec {
        name: "runtime",
        kind: OptionKind::Enum(&["pto2", "sim"]),
        description: "The runtime whose orchestration API the orchestration is lowered to (`pto2`: the a2a3 runtime's AICPU orchestration; `sim`: chip orchestrations as functions of the simulator's host programs)",
        default: "pto2",
    }],
    dependent_dialects: crate::emitc::dependent_dialects,
    run: Run::Op(run),
};

fn error(op: OperationRef, message: &str) -> PassFailed {
    OpDiagnostic::new(format!("convert-pl-orchestration-to-emitc: {message}"))
        .emit(op, Severity::Error);
    PassFailed
}

fn run(module: OperationRef, options: &OptionValues) -> Result<(), PassFailed> {
    if options.string("runtime") == "sim" {
        return run_sim(module);
    }
    let functions = functions(module);
    let orchestrations: Vec<OperationRef> = functions
        .iter()
        .copied()
        .filter(|f| kind(*f) == Some(FunctionKind::Orchestration))
        .collect();
    let kernels: Vec<OperationRef> = functions
        .iter()
        .copied()
        .filter(|f| matches!(kind(*f), Some(FunctionKind::Aic | FunctionKind::Aiv)))
        .collect();
    let Some(&orchestration) = orchestrations.first() else {
        return Ok(());
    };
    if let Some(&second) = orchestrations.get(1) {
        return Err(error(
            second,
            "runtime=pto2 wants one orchestration per module (every orchestration's entry is `aicpu_orchestration_entry`)",
        ));
    }
    let tokens = orchestration
        .attribute(ORDERING_TOKENS)
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(0, |a| a.value().max(0) as usize);
    let calls = kernels::kernel_calls(&kernels);
    groups::inline_groups(module, orchestration).map_err(|(op, m)| error(op, &m))?;
    pto2::lower(module, orchestration, &calls, tokens).map_err(|(op, m)| error(op, &m))?;
    for kernel in kernels {
        pto_dialects::ir::erase(kernel);
    }
    Ok(())
}

/// `runtime=sim`: every orchestration of the module is a chip
/// orchestration its host's simulator program calls.
pub(crate) fn run_sim(module: OperationRef) -> Result<(), PassFailed> {
    let functions = functions(module);
    let kernels: Vec<OperationRef> = functions
        .iter()
        .copied()
        .filter(|f| matches!(kind(*f), Some(FunctionKind::Aic | FunctionKind::Aiv)))
        .collect();
    let parameters: std::collections::HashMap<String, _> = kernels
        .iter()
        .map(|&kernel| (kernels::symbol(kernel), sim::parameters(kernel)))
        .collect();
    let calls = kernels::kernel_calls(&kernels);
    for chip in functions
        .iter()
        .copied()
        .filter(|f| kind(*f) == Some(FunctionKind::Orchestration))
    {
        sim::lower(chip, &parameters, &calls).map_err(|(op, m)| error(op, &m))?;
    }
    for kernel in kernels {
        pto_dialects::ir::erase(kernel);
    }
    Ok(())
}
