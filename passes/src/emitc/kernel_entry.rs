//! The packed-argument entry the a2a3 runtime calls (docs/translate.md,
//! "What the runtime gets"):
//! `extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args)` unpacks
//! the runtime's argument array and calls the kernel, which becomes
//! `static __aicore__`.
//!
//! `args` holds, in order, one `ChipTensor*` descriptor per tensor parameter
//! (its data is `buffer.addr` plus `start_offset` elements; its extents are
//! `shapes[]`; the kernel reads it dense and row-major, which CPU builds
//! check against its `strides[]`), then one 64-bit payload per scalar
//! parameter, bit for bit — a CommContext pointer is such a scalar and
//! comes after the others, as the kernel's CommContext parameters do.

use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, Identifier, OperationRef, Region, RegionLike, Type, Value,
        attribute::{ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, IntegerType},
    },
};

/// Where one kernel parameter comes from in the runtime's `args`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryArg {
    /// A tensor (or window view): the data pointer of a descriptor.
    Tensor { element: &'static str },
    /// A scalar: a 64-bit payload reinterpreted as `cpp`.
    Scalar { cpp: String },
    /// A CommContext: a payload that is a `__gm__ int64_t*`.
    Context,
    /// A dynamic extent: `shapes[axis]` of tensor parameter `parameter`.
    Extent { parameter: usize, axis: usize },
    /// The SPMD identity: the runtime's accessor of the arguments.
    Spmd(super::spmd::Query),
}

/// The accessors the entry calls (`ChipTensor` is the runtime's
/// descriptor from `tensor.h`). Guarded: several kernels may share a
/// translation unit.
pub const ENTRY_HELPERS: &str = "#ifndef __aicore__
#define __aicore__ [aicore]
#endif
#ifndef PTO_KERNEL_ENTRY_HELPERS
#define PTO_KERNEL_ENTRY_HELPERS
static __aicore__ inline void pto_entry_prologue() {
#ifndef __CPU_SIM
  set_atomic_none();
#endif
}
template <typename T>
static __aicore__ inline __gm__ T* pto_tensor_arg(__gm__ int64_t* args, int index) {
  __gm__ ChipTensor* tensor = reinterpret_cast<__gm__ ChipTensor*>(args[index]);
#ifdef __CPU_SIM
  // The kernel reads its tensors row-major and dense.
  uint64_t dense = 1;
  for (uint32_t axis = tensor->ndims; axis-- > 0; dense *= tensor->shapes[axis]) {
    if (tensor->shapes[axis] > 1 && tensor->strides[axis] != dense) {
      fprintf(stderr, \"kernel_entry: error: tensor argument %d is not dense row-major (axis %u has stride %u, not %llu)\\n\",
              index, axis, (unsigned)tensor->strides[axis], (unsigned long long)dense);
      abort();
    }
  }
#endif
  return reinterpret_cast<__gm__ T*>(tensor->buffer.addr) + tensor->start_offset;
}
static __aicore__ inline size_t pto_tensor_extent(__gm__ int64_t* args, int index, int axis) {
  return (size_t)reinterpret_cast<__gm__ ChipTensor*>(args[index])->shapes[axis];
}
template <typename T>
static __aicore__ inline T pto_scalar_arg(__gm__ int64_t* args, int index) {
  union { uint64_t u64; T value; } payload;
  payload.u64 = (uint64_t)args[index];
  return payload.value;
}
#endif";

/// The `kernel_entry` of `kernel` (an `emitc.func` taking `parameters`,
/// described by `abi`), built after it.
pub fn build<'c>(
    context: &'c Context,
    kernel: OperationRef<'c, '_>,
    name: &str,
    parameters: &[Type<'c>],
    abi: &[EntryArg],
) -> Result<(), String> {
    let location = kernel.location();
    let args_type = super::build::pointer(context, "int64_t");
    let block = Block::new(&[(args_type, location)]);
    let args: Value = block.argument(0).expect("one argument").into();
    let tensors = abi
        .iter()
        .filter(|a| matches!(a, EntryArg::Tensor { .. }))
        .count();
    // Payload slots: the plain scalars first, then the CommContexts.
    let scalar_slots = abi
        .iter()
        .filter(|a| matches!(a, EntryArg::Scalar { .. }))
        .count();
    let (mut next_scalar, mut next_context) = (tensors, tensors + scalar_slots);
    let mut tensor_slots = Vec::new();
    let mut next_tensor = 0;
    for arg in abi {
        tensor_slots.push(next_tensor);
        if matches!(arg, EntryArg::Tensor { .. }) {
            next_tensor += 1;
        }
    }
    let call = |callee: &str,
                literals: &[Attribute<'c>],
                templates: Option<&str>,
                result: Option<Type<'c>>| {
        let index = IntegerAttribute::new(Type::index(context), 0).into();
        let mut arguments = vec![index];
        arguments.extend_from_slice(literals);
        let mut builder = OperationBuilder::new("emitc.call_opaque", location)
            .add_attributes(&[(
                Identifier::new(context, "callee"),
                StringAttribute::new(context, callee).into(),
            )])
            .add_operands(&[args]);
        if !literals.is_empty() {
            builder = builder.add_attributes(&[(
                Identifier::new(context, "args"),
                ArrayAttribute::new(context, &arguments).into(),
            )]);
        }
        if let Some(template) = templates {
            let attribute = super::build::opaque_attribute(context, template);
            builder = builder.add_attributes(&[(
                Identifier::new(context, "template_args"),
                ArrayAttribute::new(context, &[attribute]).into(),
            )]);
        }
        if let Some(result) = result {
            builder = builder.add_results(&[result]);
        }
        builder.build().expect("emitc.call_opaque builds")
    };
    let int = |value: usize| -> Attribute<'c> {
        IntegerAttribute::new(IntegerType::new(context, 32).into(), value as i64).into()
    };
    block.append_operation(
        OperationBuilder::new("emitc.call_opaque", location)
            .add_attributes(&[(
                Identifier::new(context, "callee"),
                StringAttribute::new(context, "pto_entry_prologue").into(),
            )])
            .build()
            .expect("emitc.call_opaque builds"),
    );
    let mut operands = Vec::new();
    for (i, (arg, parameter)) in abi.iter().zip(parameters).enumerate() {
        let op = match arg {
            EntryArg::Tensor { element } => call(
                "pto_tensor_arg",
                &[int(tensor_slots[i])],
                Some(element),
                Some(*parameter),
            ),
            EntryArg::Scalar { cpp } => {
                next_scalar += 1;
                call(
                    "pto_scalar_arg",
                    &[int(next_scalar - 1)],
                    Some(cpp),
                    Some(*parameter),
                )
            }
            EntryArg::Context => {
                next_context += 1;
                call(
                    "pto_scalar_arg",
                    &[int(next_context - 1)],
                    Some("__gm__ int64_t*"),
                    Some(*parameter),
                )
            }
            EntryArg::Extent {
                parameter: tensor,
                axis,
            } => {
                let EntryArg::Tensor { .. } =
                    abi.get(*tensor).ok_or("an extent of a missing parameter")?
                else {
                    return Err("an extent of a parameter that is not a tensor".into());
                };
                call(
                    "pto_tensor_extent",
                    &[int(tensor_slots[*tensor]), int(*axis)],
                    None,
                    Some(*parameter),
                )
            }
            EntryArg::Spmd(query) => call(query.runtime_accessor(), &[], None, Some(*parameter)),
        };
        let op = block.append_operation(op);
        operands.push(op.result(0).expect("one result").into());
    }
    let callee = FlatSymbolRefAttribute::new(context, name);
    block.append_operation(
        OperationBuilder::new("emitc.call", location)
            .add_attributes(&[(Identifier::new(context, "callee"), callee.into())])
            .add_operands(&operands)
            .build()
            .map_err(|e| e.to_string())?,
    );
    block.append_operation(
        OperationBuilder::new("emitc.return", location)
            .build()
            .expect("emitc.return builds"),
    );
    let region = Region::new();
    region.append_block(block);
    let function_type = FunctionType::new(context, &[args_type], &[]);
    let entry = crate::emitc::build::func(
        context,
        location,
        "kernel_entry",
        function_type,
        &[
            "extern \"C\"",
            "__aicore__",
            "__attribute__((always_inline))",
        ],
        region,
    )
    .map_err(|e| e.to_string())?;
    kernel
        .block()
        .expect("the kernel is in a module")
        .insert_operation_after(kernel, entry);
    Ok(())
}
