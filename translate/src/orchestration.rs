//! The orchestration C++ the a2a3 runtime runs on the AICPU
//! (docs/translate.md, "What the runtime gets"):
//! `aicpu_orchestration_config` and `aicpu_orchestration_entry` over the
//! PTO2 API, built as EmitC and printed by MLIR's C++ emitter.
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

use pto_dialects::ops::Checked;
use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Module, OperationRef, Region,
        RegionLike, Type, TypeLike, Value, ValueLike,
        attribute::{ArrayAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::FunctionType,
    },
};
use pto_dialects::{
    enums::ParamDirection,
    ops::{op_name, operand_at, operand_segments, result_at},
    types::TensorLike,
};

use pto_passes::emitc::build::opaque;

use crate::driver::Failure;

/// What an orchestration needs to know of a kernel it calls.
#[derive(Clone, Debug)]
pub struct KernelCall {
    pub func_id: usize,
    /// `aiv` or `aic`.
    pub core: &'static str,
    /// Per parameter: the direction of a tensor, `None` for a scalar.
    pub parameters: Vec<Option<ParamDirection>>,
    /// Per result: the parameter the kernel returns.
    pub returns: Vec<Option<usize>>,
}

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
static inline size_t pto_orch_extent(const ChipTensor& tensor, int axis) { return (size_t)tensor.shapes[axis]; }
#endif";

/// The runtime's `DataType` of an element type.
fn data_type(element: &str) -> Result<&'static str, String> {
    Ok(match element {
        "float" => "DataType::FLOAT32",
        "half" => "DataType::FLOAT16",
        "bfloat16_t" => "DataType::BFLOAT16",
        "int32_t" => "DataType::INT32",
        "int16_t" => "DataType::INT16",
        "int8_t" => "DataType::INT8",
        "int64_t" => "DataType::INT64",
        "uint8_t" => "DataType::UINT8",
        other => return Err(format!("no runtime data type for {other}")),
    })
}

fn verbatim<'c>(
    context: &'c Context,
    text: &str,
    operands: &[Value<'c, '_>],
) -> melior::ir::Operation<'c> {
    pto_passes::emitc::build::verbatim(context, Location::unknown(context), text, operands)
}

/// `callee(operands..., literals...)`: operands first, then the literal
/// arguments (C++ text).
fn call<'c>(
    context: &'c Context,
    callee: &str,
    operands: &[Value<'c, '_>],
    literals: &[String],
    result: Option<Type<'c>>,
) -> melior::ir::Operation<'c> {
    crate::driver::call_operation(context, callee, operands, literals, result)
}

/// Where a tensor value comes from once call results are their out
/// arguments and loops carry no tensors.
fn root<'c: 'a, 'a>(value: Value<'c, 'a>, kernels: &HashMap<String, KernelCall>) -> Value<'c, 'a> {
    let Ok(result) = melior::ir::operation::OperationResult::try_from(value) else {
        return value;
    };
    let owner = result.owner();
    let name = op_name(owner);
    if name != "pl.call" && name != "pl.submit" {
        return value;
    }
    let callee = owner
        .attribute("callee")
        .ok()
        .and_then(pto_dialects::attrs::text)
        .unwrap_or_default();
    let Some(kernel) = kernels.get(&callee) else {
        return value;
    };
    let arguments = crate::driver::call_arguments(owner);
    let returned = crate::driver::returned_arguments(&arguments, &kernel.returns);
    match returned.get(result.result_number()).copied().flatten() {
        Some(argument) => root(argument, kernels),
        None => value,
    }
}

/// The orchestration C++ module of `orchestration`.
pub fn build<'c>(
    context: &'c Context,
    orchestration: OperationRef<'c, '_>,
    kernels: &HashMap<String, KernelCall>,
    tokens: usize,
) -> Result<Module<'c>, Failure> {
    let fail = |op: OperationRef, message: String| -> Failure { (op.to_raw(), message) };
    let location = Location::unknown(context);
    let module = Module::new(location);
    let body = module.body();
    for header in ["stddef.h", "stdint.h"] {
        body.append_operation(pto_passes::emitc::build::include(context, header, true));
    }
    body.append_operation(crate::driver::include(context, "pto_orchestration_api.h"));
    body.append_operation(verbatim(context, ORCHESTRATION_HELPERS, &[]));
    let clone = pto_dialects::ir::clone(&orchestration);
    let function = body.append_operation(clone);
    pto_passes::emitc::convert_pl_to_emitc::drop_carried_buffers(function)
        .map_err(|(op, m)| fail(op, m))?;
    let entry = function
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or_else(|| fail(orchestration, "an empty orchestration".into()))?;
    let args_type = opaque(context, "const ChipTaskArgs&");
    let tensor_type = opaque(context, "const ChipTensor&");
    let size_t = Type::parse(context, "!emitc.size_t").expect("size_t parses");
    // The argument array goes first.
    let orch_args: Value = entry.insert_argument(0, args_type, location);
    let first = entry
        .first_operation()
        .ok_or_else(|| fail(orchestration, "an orchestration without a return".into()))?;
    let insert = |op: melior::ir::Operation<'c>| -> OperationRef<'c, '_> {
        entry.insert_operation_before(first, op)
    };
    let parameter_count = entry.argument_count() - 1;
    let (mut tensors, mut scalars) = (0usize, 0usize);
    for i in 0..parameter_count {
        let parameter: Value = entry.argument(i + 1).unwrap().into();
        let r#type = parameter.r#type();
        let replacement: Value = if TensorLike::try_from(r#type).is_ok() {
            // A window view is a tensor too: the runtime hands in the
            // rank's window buffer.
            tensors += 1;
            insert(call(
                context,
                "pto_orch_tensor",
                &[orch_args],
                &[(tensors - 1).to_string()],
                Some(tensor_type),
            ))
            .result(0)
            .unwrap()
            .into()
        } else {
            // A CommContext is a 64-bit scalar, passed on to the kernels as
            // one.
            let (cpp, converted) = if r#type.is_index() {
                ("size_t".to_string(), size_t)
            } else if r#type.to_string() == "!pld.comm_ctx" {
                (
                    "uint64_t".to_string(),
                    Type::parse(context, "ui64").expect("ui64 parses"),
                )
            } else {
                (
                    crate::cce::passes_element(r#type)
                        .map_err(|m| fail(orchestration, m))?
                        .to_string(),
                    r#type,
                )
            };
            scalars += 1;
            let value: Value = insert(call(
                context,
                &format!("pto_orch_scalar<{cpp}>"),
                &[orch_args],
                &[(scalars - 1).to_string()],
                Some(converted),
            ))
            .result(0)
            .unwrap()
            .into();
            if r#type.is_index() {
                let cast = OperationBuilder::new("builtin.unrealized_conversion_cast", location)
                    .add_operands(&[value])
                    .add_results(&[r#type])
                    .build()
                    .expect("a cast builds");
                insert(cast).result(0).unwrap().into()
            } else {
                value
            }
        };
        pto_dialects::ir::replace_all_uses(parameter, replacement);
    }
    // One automatic scope: the runtime tracks the tensors' producers and
    // consumers, and explicit dependencies add edges on top (a manual scope
    // would drop the tracked ones).
    insert(verbatim(context, "PTO2_SCOPE() {", &[]));
    for i in (0..parameter_count).rev() {
        // The parameter has no uses left; `orch_args` stays.
        if !pto_dialects::ir::erase_argument(entry, i + 1) {
            return Err(fail(orchestration, format!("parameter #{i} is still used")));
        }
    }
    // Returned tensors are handed in after the parameters.
    let terminator = entry
        .terminator()
        .ok_or_else(|| fail(orchestration, "an orchestration without a return".into()))?;
    let mut outputs: HashMap<usize, usize> = HashMap::new();
    for k in 0..terminator.operand_count() {
        let value = root(operand_at(terminator, k).unwrap(), kernels);
        let created = melior::ir::operation::OperationResult::try_from(value)
            .is_ok_and(|r| op_name(r.owner()) == "pl.tensor.create");
        if let Ok(result) = melior::ir::operation::OperationResult::try_from(value)
            && matches!(op_name(result.owner()).as_str(), "pl.call" | "pl.submit")
        {
            let callee = result
                .owner()
                .attribute("callee")
                .ok()
                .and_then(pto_dialects::attrs::text)
                .unwrap_or_default();
            return Err(fail(
                orchestration,
                format!("@{callee} is not a translated kernel"),
            ));
        }
        if !created {
            return Err(fail(
                orchestration,
                format!(
                    "result #{k} is not a tensor this orchestration creates; the runtime hands outputs in as arguments"
                ),
            ));
        }
        outputs
            .entry(value.to_raw().ptr as usize)
            .or_insert(tensors + k);
    }
    // Tensors: the parameters, the outputs handed in, then the host's
    // per-domain ordering tokens (not read here); then the scalars.
    let argument_count = tensors + terminator.operand_count() + tokens + scalars;
    let mut ops = Vec::new();
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        ops.push(op);
        WalkResult::Advance
    });
    let mut retired = Vec::new();
    let mut dependency_arrays = 0usize;
    for raw in ops {
        let op = raw;
        let name = op_name(op);
        let Some(block) = op.block() else { continue };
        let before = |new: melior::ir::Operation<'c>| -> OperationRef<'c, '_> {
            block.insert_operation_before(op, new)
        };
        match name.as_str() {
            "pl.tensor.create" => {
                let result = result_at(op, 0).unwrap();
                let replacement: Value = if let Some(&index) =
                    outputs.get(&(result.to_raw().ptr as usize))
                {
                    before(call(
                        context,
                        "pto_orch_tensor",
                        &[orch_args],
                        &[index.to_string()],
                        Some(tensor_type),
                    ))
                    .result(0)
                    .unwrap()
                    .into()
                } else {
                    let tensor = TensorLike::try_from(result.r#type()).unwrap();
                    let element =
                        crate::cce::passes_element(tensor.element()).map_err(|m| fail(op, m))?;
                    let dtype = data_type(element).map_err(|m| fail(op, m))?;
                    let mut dynamic = op.operands();
                    let mut extents: Vec<Value> = Vec::new();
                    let mut literals = vec![dtype.to_string()];
                    for extent in tensor.shape() {
                        match extent {
                            Some(fixed) => literals.push(fixed.to_string()),
                            None => {
                                let value = dynamic.next().ok_or_else(|| {
                                    fail(op, "a dynamic extent without its operand".into())
                                })?;
                                let cast = OperationBuilder::new(
                                    "builtin.unrealized_conversion_cast",
                                    location,
                                )
                                .add_operands(&[value])
                                .add_results(&[size_t])
                                .build()
                                .expect("a cast builds");
                                extents.push(before(cast).result(0).unwrap().into());
                                literals.push(String::new());
                            }
                        }
                    }
                    // The dtype, then each extent: a literal or the next operand.
                    let mut next_operand = 0;
                    let args: Vec<Attribute> = literals
                        .iter()
                        .map(|literal| -> Attribute {
                            if literal.is_empty() {
                                next_operand += 1;
                                IntegerAttribute::new(Type::index(context), next_operand - 1).into()
                            } else {
                                Attribute::parse(context, &format!("#emitc.opaque<\"{literal}\">"))
                                    .expect("an opaque attribute parses")
                            }
                        })
                        .collect();
                    let alloc = OperationBuilder::new("emitc.call_opaque", location)
                        .add_attributes(&[
                            (
                                Identifier::new(context, "callee"),
                                StringAttribute::new(context, "pto_orch_alloc").into(),
                            ),
                            (
                                Identifier::new(context, "args"),
                                ArrayAttribute::new(context, &args).into(),
                            ),
                        ])
                        .add_operands(&extents)
                        .add_results(&[opaque(context, "TaskOutputTensors")])
                        .build()
                        .expect("emitc.call_opaque builds");
                    let alloc: Value = before(alloc).result(0).unwrap().into();
                    before(call(
                        context,
                        "pto_orch_ref",
                        &[alloc],
                        &["0".into()],
                        Some(tensor_type),
                    ))
                    .result(0)
                    .unwrap()
                    .into()
                };
                pto_dialects::ir::replace_all_uses(result, replacement);
                retired.push(raw);
            }
            "pl.tensor.dim" => {
                let axis = op
                    .attribute("axis")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map_or(0, |a| a.value());
                let tensor = operand_at(op, 0).unwrap();
                let size: Value = before(call(
                    context,
                    "pto_orch_extent",
                    &[tensor],
                    &[axis.to_string()],
                    Some(size_t),
                ))
                .result(0)
                .unwrap()
                .into();
                crate::driver::replace_with_index(context, op, size);
                retired.push(raw);
            }
            "pl.call" | "pl.submit" => {
                let callee = op
                    .attribute("callee")
                    .ok()
                    .and_then(pto_dialects::attrs::text)
                    .unwrap_or_default();
                let kernel = kernels
                    .get(&callee)
                    .ok_or_else(|| fail(op, format!("@{callee} is not a translated kernel")))?;
                let arguments = crate::driver::call_arguments(op);
                let params: Value = before(call(
                    context,
                    "CoreTaskArgs",
                    &[],
                    &[],
                    Some(opaque(context, "CoreTaskArgs")),
                ))
                .result(0)
                .unwrap()
                .into();
                // Tensors first, by direction; then the scalars.
                for (argument, parameter) in arguments.iter().zip(&kernel.parameters) {
                    let method = match parameter {
                        Some(ParamDirection::In) => "add_input",
                        Some(ParamDirection::Out) => "add_output",
                        Some(ParamDirection::InOut) => "add_inout",
                        None => continue,
                    };
                    before(verbatim(
                        context,
                        &format!("{{}}.{method}({{}});"),
                        &[params, *argument],
                    ));
                }
                for (argument, parameter) in arguments.iter().zip(&kernel.parameters) {
                    if parameter.is_some() {
                        continue;
                    }
                    let value = if argument.r#type().is_index() {
                        let cast =
                            OperationBuilder::new("builtin.unrealized_conversion_cast", location)
                                .add_operands(&[*argument])
                                .add_results(&[size_t])
                                .build()
                                .expect("a cast builds");
                        before(cast).result(0).unwrap().into()
                    } else {
                        *argument
                    };
                    let payload: Value = before(call(
                        context,
                        "pto_orch_payload",
                        &[value],
                        &[],
                        Some(Type::parse(context, "ui64").unwrap()),
                    ))
                    .result(0)
                    .unwrap()
                    .into();
                    before(verbatim(context, "{}.add_scalar({});", &[params, payload]));
                }
                let segments = operand_segments(op);
                let segment = |index: usize| -> Vec<Value> {
                    segments
                        .get(index)
                        .map(|&(start, count)| {
                            (start..start + count)
                                .filter_map(|i| operand_at(op, i))
                                .collect()
                        })
                        .unwrap_or_default()
                };
                if name == "pl.submit" {
                    // Dependencies (the tasks' ids), the SPMD block count
                    // and a synchronised start, on the task's arguments.
                    let deps = segment(1);
                    if !deps.is_empty() {
                        // The runtime keeps the array's address, not a
                        // copy: it lives in the submitting scope.
                        dependency_arrays += 1;
                        let array = format!("pto_deps_{dependency_arrays}");
                        let slots = vec!["{}"; deps.len()].join(", ");
                        before(verbatim(
                            context,
                            &format!("PTO2TaskId {array}[] = {{{{{slots}}};"),
                            &deps,
                        ));
                        before(verbatim(
                            context,
                            &format!("{{}}.set_dependencies({array}, {});", deps.len()),
                            &[params],
                        ));
                    }
                    if let Some(blocks) = segment(2).first() {
                        let cast =
                            OperationBuilder::new("builtin.unrealized_conversion_cast", location)
                                .add_operands(&[*blocks])
                                .add_results(&[size_t])
                                .build()
                                .expect("a cast builds");
                        let blocks: Value = before(cast).result(0).unwrap().into();
                        before(verbatim(
                            context,
                            "{}.launch_spec.set_block_num({});",
                            &[params, blocks],
                        ));
                    }
                    if op.attribute("sync_start").is_ok() {
                        before(verbatim(
                            context,
                            "{}.launch_spec.set_require_sync_start(true);",
                            &[params],
                        ));
                    }
                }
                // rt_submit_<core>_task(func_id, params), its task id kept
                // when a later task depends on it.
                let task = if name == "pl.submit" {
                    result_at(op, op.result_count() - 1).filter(|t| crate::driver::has_uses(*t))
                } else {
                    None
                };
                let func_id =
                    Attribute::parse(context, &format!("#emitc.opaque<\"{}\">", kernel.func_id))
                        .expect("an opaque attribute parses");
                let mut submit = OperationBuilder::new("emitc.call_opaque", location)
                    .add_attributes(&[
                        (
                            Identifier::new(context, "callee"),
                            StringAttribute::new(
                                context,
                                &format!("rt_submit_{}_task", kernel.core),
                            )
                            .into(),
                        ),
                        (
                            Identifier::new(context, "args"),
                            ArrayAttribute::new(
                                context,
                                &[
                                    func_id,
                                    IntegerAttribute::new(Type::index(context), 0).into(),
                                ],
                            )
                            .into(),
                        ),
                    ])
                    .add_operands(&[params]);
                if task.is_some() {
                    submit = submit.add_results(&[opaque(context, "TaskOutputTensors")]);
                }
                let submit = before(submit.build().expect("emitc.call_opaque builds"));
                if let Some(task) = task {
                    // The submit returns the task's outputs; its id is
                    // theirs.
                    let outputs: Value = submit.result(0).unwrap().into();
                    let id = before(
                        OperationBuilder::new("emitc.call_opaque", location)
                            .add_attributes(&[(
                                Identifier::new(context, "callee"),
                                StringAttribute::new(context, "pto_orch_task_id").into(),
                            )])
                            .add_operands(&[outputs])
                            .add_results(&[opaque(context, "PTO2TaskId")])
                            .build()
                            .expect("emitc.call_opaque builds"),
                    );
                    pto_dialects::ir::replace_all_uses(task, id.result(0).unwrap());
                }
                crate::driver::forward_call_results(op, &arguments, &kernel.returns)?;
                retired.push(raw);
            }
            "func.return" => {
                before(verbatim(context, "}", &[]));
                before(
                    OperationBuilder::new("emitc.return", location)
                        .build()
                        .expect("emitc.return builds"),
                );
                retired.push(raw);
            }
            other if other.starts_with("pl.") || other.starts_with("pld.") => {
                return Err(fail(
                    op,
                    format!("'{other}' in an orchestration is not emitted for the runtime yet"),
                ));
            }
            _ => {}
        }
    }
    for &op in retired.iter().rev() {
        // Each retired op's results are unused now.
        pto_dialects::ir::erase(op);
    }
    // The entry as an emitc.func; the config beside it.
    let entry_type = FunctionType::new(context, &[args_type], &[]);
    // Exported whatever the library's default visibility: the runtime
    // finds both by name (dlsym).
    let specifiers: Vec<Attribute> = vec![
        StringAttribute::new(context, "extern \"C\"").into(),
        StringAttribute::new(context, "__attribute__((visibility(\"default\")))").into(),
    ];
    let region = Region::new();
    pto_dialects::ir::take_body(&region, &function.region(0).unwrap());
    let entry_function = OperationBuilder::new("emitc.func", location)
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, "aicpu_orchestration_entry").into(),
            ),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(entry_type.into()).into(),
            ),
            (
                Identifier::new(context, "specifiers"),
                ArrayAttribute::new(context, &specifiers).into(),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| fail(orchestration, e.to_string()))?;
    let config_type = opaque(context, "PTO2OrchestrationConfig");
    let config_block = Block::new(&[(args_type, location)]);
    let config = config_block.append_operation(
        OperationBuilder::new("emitc.literal", location)
            .add_attributes(&[(
                Identifier::new(context, "value"),
                StringAttribute::new(
                    context,
                    &format!("PTO2OrchestrationConfig{{ .expected_arg_count = {argument_count} }}"),
                )
                .into(),
            )])
            .add_results(&[config_type])
            .build()
            .expect("emitc.literal builds"),
    );
    let config_value: Value = config.result(0).unwrap().into();
    config_block.append_operation(
        OperationBuilder::new("emitc.return", location)
            .add_operands(&[config_value])
            .build()
            .expect("emitc.return builds"),
    );
    let config_region = Region::new();
    config_region.append_block(config_block);
    let config_function = OperationBuilder::new("emitc.func", location)
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, "aicpu_orchestration_config").into(),
            ),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(FunctionType::new(context, &[args_type], &[config_type]).into())
                    .into(),
            ),
            (
                Identifier::new(context, "specifiers"),
                ArrayAttribute::new(context, &specifiers).into(),
            ),
        ])
        .add_regions([config_region])
        .build()
        .map_err(|e| fail(orchestration, e.to_string()))?;
    body.insert_operation_before(function, config_function);
    body.insert_operation_before(function, entry_function);
    // The emptied clone is unused.
    pto_dialects::ir::erase(function);
    Ok(module)
}
