//! `runtime=pto2`: an orchestration as the `aicpu_orchestration_config` and
//! `aicpu_orchestration_entry` the a2a3 runtime runs on the AICPU, over the
//! PTO2 API (docs/translate.md, "What the runtime gets").
//!
//! The entry reads its tensors (`ChipTensor` descriptors) and scalars
//! (64-bit payloads) from `orch_args`, allocates `pl.tensor.create`s with
//! `alloc_tensors`, and submits one task per kernel call (`CoreTaskArgs`:
//! tensors by direction, then scalars) to the kernel's `func_id`, all in one
//! `PTO2_SCOPE`. The runtime hands outputs in: a tensor the orchestration
//! returns is one more tensor argument after its parameters (result `k` is
//! tensor `parameters + k`), not an allocation. A chip orchestration a host
//! program dispatches takes its windows as tensors, one ordering token per
//! comm domain after them (not read here), and its CommContexts as 64-bit
//! scalars it passes on to the kernels.

use std::collections::HashMap;

use melior::{
    Context,
    ir::operation::{OperationLike, WalkOrder, WalkResult},
    ir::{BlockLike, BlockRef, OperationRef, RegionLike, Type, Value},
};
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{Checked, op_name};

use super::calls::Failure;
use super::kernels::KernelCall;
use crate::emitc::build::{self, opaque};

mod access;
mod arguments;
mod entry;
mod fuse;
mod tasks;
mod tensors;
mod views;

/// Accessors over the PTO2 API the generated code calls: the value-making
/// member calls as functions (statements use `emitc.verbatim` with format
/// arguments). Guarded, like the kernels' helpers.
const ORCHESTRATION_HELPERS: &str = "#ifndef PTO_ORCHESTRATION_HELPERS
#define PTO_ORCHESTRATION_HELPERS
static inline const ChipTensor& pto_orch_tensor(const ChipTaskArgs& args, int index) { return args.tensor(index).ref(); }
template <typename T>
static inline T pto_orch_scalar(const ChipTaskArgs& args, int index) {
  union { uint64_t u64; T value; } payload;
  payload.u64 = args.scalar(index);
  return payload.value;
}
template <typename T>
static inline uint64_t pto_orch_payload(T value) {
  union { uint64_t u64; T value; } payload;
  payload.u64 = 0;
  payload.value = value;
  return payload.u64;
}
template <typename... Extents>
static inline TaskOutputTensors pto_orch_alloc(DataType dtype, Extents... extents) {
  uint32_t shapes[] = {(uint32_t)extents...};
  TensorCreateInfo info(shapes, sizeof...(Extents), dtype);
  return alloc_tensors(info);
}
static inline const ChipTensor& pto_orch_ref(const TaskOutputTensors& tensors, int index) { return tensors.get_ref(index); }
static inline PTO2TaskId pto_orch_task_id(const TaskOutputTensors& outputs) { return outputs.task_id(); }
static inline MixedKernels pto_orch_mixed(int32_t aic, int32_t aiv0, int32_t aiv1) {
  MixedKernels kernels;
  kernels.aic_kernel_id = aic;
  kernels.aiv0_kernel_id = aiv0;
  kernels.aiv1_kernel_id = aiv1;
  return kernels;
}
static inline PTO2TaskId pto_orch_invalid_task() { return PTO2TaskId::invalid(); }
static inline bool pto_orch_task_valid(PTO2TaskId task) { return task.is_valid(); }
static inline PTO2TaskId pto_orch_dummy(const CoreTaskArgs& params, uint32_t valid, uint32_t given) {
  if (given > 0 && valid == 0) return PTO2TaskId::invalid();
  return rt_submit_dummy_task(params).task_id();
}
template <size_t N>
static inline void pto_orch_invalidate(PTO2TaskId (&ids)[N]) {
  for (size_t i = 0; i < N; ++i) ids[i] = PTO2TaskId::invalid();
}
static inline size_t pto_orch_extent(const ChipTensor& tensor, int axis) { return (size_t)tensor.shapes[axis]; }
template <typename T, typename... Indices>
static inline T& pto_orch_element(const ChipTensor& tensor, Indices... indices) {
  const size_t at[] = {(size_t)indices...};
  uint64_t offset = tensor.start_offset;
  for (uint32_t axis = 0; axis < tensor.ndims; ++axis) offset += at[axis] * tensor.strides[axis];
  return reinterpret_cast<T*>(tensor.buffer.addr)[offset];
}
template <typename T>
static inline void pto_orch_fill(const ChipTensor& tensor, T value) {
  uint64_t count = 1;
  for (uint32_t axis = 0; axis < tensor.ndims; ++axis) count *= tensor.shapes[axis];
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t rest = i, offset = tensor.start_offset;
    for (uint32_t axis = tensor.ndims; axis-- > 0; rest /= tensor.shapes[axis]) offset += (rest % tensor.shapes[axis]) * tensor.strides[axis];
    reinterpret_cast<T*>(tensor.buffer.addr)[offset] = value;
  }
}
template <typename... Bounds>
static inline ChipTensor pto_orch_slice(const ChipTensor& tensor, Bounds... bounds) {
  const size_t given[] = {(size_t)bounds...};
  ChipTensor view = tensor;
  for (uint32_t axis = 0; axis < tensor.ndims; ++axis) {
    view.start_offset += given[axis] * tensor.strides[axis];
    view.shapes[axis] = (uint32_t)given[tensor.ndims + axis];
  }
  return view;
}
template <typename... Extents>
static inline ChipTensor pto_orch_reshape(const ChipTensor& tensor, Extents... extents) {
  const size_t shape[] = {(size_t)extents...};
  ChipTensor view = tensor;
  view.ndims = (uint32_t)sizeof...(Extents);
  uint64_t stride = 1;
  for (uint32_t axis = view.ndims; axis-- > 0; stride *= shape[axis]) {
    view.shapes[axis] = (uint32_t)shape[axis];
    view.strides[axis] = (uint32_t)stride;
  }
  return view;
}
#endif";

/// The lowering of one orchestration: what its parts share.
struct Lowering<'c, 'a, 'k> {
    context: &'c Context,
    orchestration: OperationRef<'c, 'a>,
    kernels: &'k HashMap<String, KernelCall>,
    /// The entry's `const ChipTaskArgs&` argument.
    orch_args: Value<'c, 'a>,
    tensor_type: Type<'c>,
    size_t: Type<'c>,
    /// The tensor argument each returned `pl.tensor.create` is handed in as.
    outputs: HashMap<ValueKey, usize>,
    /// How many dependency arrays the submits declared.
    dependency_arrays: usize,
    /// The task ids known to be valid: the submits' own.
    submitted: std::collections::HashSet<ValueKey>,
    /// The first kernel call of a core group, whose peer comes next: the
    /// group and the kernel.
    pending_group: Option<(String, String)>,
}

impl<'c, 'a> Lowering<'c, 'a, '_> {
    fn fail(&self, message: impl Into<String>) -> Failure<'c, 'a> {
        (self.orchestration, message.into())
    }

    /// `text` as it is, each `{}` the next of `operands`.
    fn verbatim(&self, text: &str, operands: &[Value<'c, '_>]) -> melior::ir::Operation<'c> {
        verbatim(self.context, text, operands)
    }

    /// `callee(operands..., literals...)` returning `result`.
    fn call(
        &self,
        callee: &str,
        operands: &[Value<'c, '_>],
        literals: &[String],
        result: Option<Type<'c>>,
    ) -> melior::ir::Operation<'c> {
        build::call_opaque(self.context, callee, operands, literals, result)
    }
}

fn verbatim<'c>(
    context: &'c Context,
    text: &str,
    operands: &[Value<'c, '_>],
) -> melior::ir::Operation<'c> {
    build::verbatim(
        context,
        melior::ir::Location::unknown(context),
        text,
        operands,
    )
}

/// The first result of `op`, just inserted.
fn value<'c, 'a>(op: OperationRef<'c, 'a>) -> Value<'c, 'a> {
    op.result(0).expect("the op has a result").into()
}

/// Lowers `orchestration` (in `module`, whose aic/aiv kernels `kernels`
/// describes) in place: the module gains the PTO2 headers and helpers, and
/// the orchestration becomes the config and entry functions. `tokens`
/// ordering tokens follow the tensors in the runtime's arguments.
pub fn lower<'c, 'a>(
    module: OperationRef<'c, 'a>,
    orchestration: OperationRef<'c, 'a>,
    kernels: &HashMap<String, KernelCall>,
    tokens: usize,
) -> Result<(), Failure<'c, 'a>> {
    let context = pto_dialects::ir::context(&module);
    let body = module
        .region_opt(0)
        .and_then(|r| r.first_block())
        .expect("a module has a body");
    add_prologue(context, body);
    // Arrays get their storage while loops still carry them (the steps
    // below drop carried arrays with carried tensors).
    crate::emitc::convert_pl_to_emitc::give_arrays_storage(orchestration)?;
    super::scopes::open_runtime_scopes(orchestration, true)?;
    // Tensors loops and branches update in place are one tensor.
    let returned = |kernel: &str, k: usize| {
        kernels
            .get(kernel)
            .and_then(|call| call.returns.get(k).copied().flatten())
    };
    let shares = |kernel: &str| {
        kernels
            .get(kernel)
            .map_or(Vec::new(), |call| call.shares.clone())
    };
    crate::emitc::buffers::one_buffer_per_tensor(
        orchestration,
        &returned,
        &shares,
        "emitted for the runtime",
        true,
    )?;
    // An array is one C array its updates write in place.
    crate::emitc::convert_pl_to_emitc::drop_carried_arrays(orchestration)?;
    crate::emitc::carried::retype_carried_tasks(orchestration, opaque(context, "PTO2TaskId"));
    fuse::fuse_assembles(orchestration, kernels)?;
    views::check_views(orchestration)?;
    access::check_accesses(orchestration, kernels)?;
    let entry = orchestration
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or_else(|| (orchestration, "an empty orchestration".to_string()))?;
    let args_type = opaque(context, "const ChipTaskArgs&");
    // The argument array goes first.
    let orch_args: Value =
        entry.insert_argument(0, args_type, melior::ir::Location::unknown(context));
    let mut lowering = Lowering {
        context,
        orchestration,
        kernels,
        orch_args,
        tensor_type: opaque(context, "const ChipTensor&"),
        size_t: Type::parse(context, "!emitc.size_t").expect("size_t parses"),
        outputs: HashMap::new(),
        dependency_arrays: 0,
        submitted: std::collections::HashSet::new(),
        pending_group: None,
    };
    let (tensors, scalars) = lowering.read_parameters(entry)?;
    let results = lowering.hand_in_outputs(entry, tensors)?;
    // Tensors: the parameters, the outputs handed in, then the host's
    // per-domain ordering tokens (not read here); then the scalars.
    let argument_count = tensors + results + tokens + scalars;
    lowering.lower_body()?;
    // A loop rebinding a tensor (`x = layer(x)`) keeps its descriptor in a
    // variable it assigns at each yield.
    let descriptor = opaque(context, "ChipTensor");
    crate::emitc::carried::hold_rebinding_carries(
        orchestration,
        &|_| descriptor,
        &|_| "ChipTensor",
    );
    let (config, entry_function) = entry::functions(context, orchestration, argument_count)?;
    body.insert_operation_before(orchestration, config);
    body.insert_operation_before(orchestration, entry_function);
    // The emptied orchestration is unused.
    pto_dialects::ir::erase(orchestration);
    Ok(())
}

/// `<stddef.h>`, `<stdint.h>`, the PTO2 API and the helpers, first in the
/// module.
fn add_prologue<'c>(context: &'c Context, body: BlockRef<'c, '_>) {
    let mut prologue = Vec::new();
    for header in ["stddef.h", "stdint.h"] {
        prologue.push(build::include(context, header, true));
    }
    prologue.push(build::include(context, "pto_orchestration_api.h", false));
    prologue.push(verbatim(context, ORCHESTRATION_HELPERS, &[]));
    match body.first_operation() {
        Some(first) => {
            for op in prologue {
                body.insert_operation_before(first, op);
            }
        }
        None => {
            for op in prologue {
                body.append_operation(op);
            }
        }
    }
}

impl<'c, 'a> Lowering<'c, 'a, '_> {
    /// Each pl op of the body in its PTO2 form; other ops are left to the
    /// upstream EmitC conversions.
    fn lower_body(&mut self) -> Result<(), Failure<'c, 'a>> {
        let mut ops = Vec::new();
        pto_dialects::ir::walk(self.orchestration, WalkOrder::PreOrder, |op| {
            ops.push(op);
            WalkResult::Advance
        });
        let mut retired = Vec::new();
        for op in ops {
            let name = op_name(op);
            let Some(block) = op.block() else { continue };
            match (OpKind::of(&op), name) {
                (Some(OpKind::PlTensorCreate), _) => self.tensor_create(block, op)?,
                (Some(OpKind::PlTensorDim), _) => self.tensor_dim(block, op),
                (
                    Some(
                        kind @ (OpKind::PlTensorSlice
                        | OpKind::PlTensorView
                        | OpKind::PlTensorReshape),
                    ),
                    _,
                ) => self.tensor_view(block, op, kind)?,
                (Some(OpKind::PlCall | OpKind::PlSubmit), _) => self.submit(block, op)?,
                (
                    Some(
                        kind @ (OpKind::PlSystemTaskDummy
                        | OpKind::PlSystemTaskInvalid
                        | OpKind::PlSystemTaskIsValid
                        | OpKind::PlSystemAvailableClusterCount
                        | OpKind::PlSystemAvailableAivCount),
                    ),
                    _,
                ) => self.task_op(block, op, kind),
                (
                    Some(
                        kind @ (OpKind::PlArrayCreate
                        | OpKind::PlArrayGetElement
                        | OpKind::PlArrayUpdateElement),
                    ),
                    _,
                ) => {
                    let array = (kind != OpKind::PlArrayCreate).then(|| op.operand(0).unwrap());
                    let value = crate::emitc::convert_pl_to_emitc::lower_array_op(
                        op,
                        kind,
                        array,
                        crate::emitc::convert_pl_to_emitc::TaskIds::Runtime,
                    )?;
                    pto_dialects::ir::replace_all_uses(
                        pto_dialects::ops::result_at(op, 0).unwrap(),
                        value,
                    );
                }
                (Some(OpKind::PlTensorRead), _) => self.tensor_read(block, op)?,
                (Some(OpKind::PlTensorWrite), _) => self.tensor_write(block, op)?,
                (Some(OpKind::PlTensorFull), _) => self.tensor_full(block, op)?,
                (Some(_), other) => {
                    return Err((
                        op,
                        format!("'{other}' in an orchestration is not emitted for the runtime yet"),
                    ));
                }
                (None, "func.return") => {
                    block.insert_operation_before(op, self.verbatim("}", &[]));
                    block.insert_operation_before(op, entry::emitc_return(self.context));
                }
                (None, _) => continue,
            }
            retired.push(op);
        }
        for &op in retired.iter().rev() {
            // Each retired op's results are unused now.
            pto_dialects::ir::erase(op);
        }
        Ok(())
    }
}
