//! The `a2a3sim` host driver of a kernel, as EmitC: read the inputs (.npy
//! or seeded), run the kernel on the simulated core, write and compare the
//! outputs (`pto/sim/host.hpp`).

use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Module, Region, RegionLike, Type, Value,
        attribute::{ArrayAttribute, IntegerAttribute, StringAttribute},
        operation::OperationBuilder,
        r#type::{FunctionType, IntegerType},
    },
};
use pto_dialects::enums::ParamDirection;
use pto_dialects::ops::Checked;

use crate::cce::Parameter;
use pto_passes::emitc::orchestration::calls::{
    call_arguments, forward_call_results, replace_with_index,
};

use pto_passes::emitc::build::{opaque, opaque_attribute};

/// `#include "file"`.
pub(crate) fn include<'c>(context: &'c Context, file: &str) -> melior::ir::Operation<'c> {
    pto_passes::emitc::build::include(context, file, false)
}

/// `callee(operands..., literal args...)`: literals are printed as they are
/// after the operands.
/// What a simulator program does with a window slot once every device has
/// finished: a slot the program names is an output (written and compared
/// like pto-run's); one the compiler synthesized (`__…`, e.g. the signals of
/// pld-synthesize-allreduce-signals) has no counterpart in the unlowered
/// program, so its cells are checked to be released (zero) instead.
fn window_epilogue(slot: &str) -> &'static str {
    if slot.starts_with("__") {
        "pto::sim::expect_released"
    } else {
        "pto::sim::finish_window"
    }
}

/// [`pto_passes::emitc::build::call_opaque`] appended to `block`; its result, if any.
fn call<'c, 'b>(
    context: &'c Context,
    block: &'b Block<'c>,
    callee: &str,
    operands: &[Value<'c, '_>],
    literals: &[&str],
    result: Option<Type<'c>>,
) -> Option<Value<'c, 'b>> {
    let literals: Vec<String> = literals.iter().map(|l| l.to_string()).collect();
    let op = block.append_operation(pto_passes::emitc::build::call_opaque(
        context, callee, operands, &literals, result,
    ));
    result.map(|_| op.result(0).expect("a result").into())
}

/// `int32_t main(int32_t argc, char** argv)` with `region` as its body.
fn main_function<'c>(context: &'c Context, region: Region<'c>) -> melior::ir::Operation<'c> {
    let i32_type: Type = IntegerType::new(context, 32).into();
    let function_type = FunctionType::new(context, &[i32_type, argv_type(context)], &[i32_type]);
    pto_passes::emitc::build::func(
        context,
        Location::unknown(context),
        "main",
        function_type,
        &[],
        region,
    )
    .expect("emitc.func builds")
}

fn argv_type(context: &Context) -> Type<'_> {
    Type::parse(context, "!emitc.ptr<!emitc.ptr<!emitc.opaque<\"char\">>>").expect("argv parses")
}

fn element_bytes(element: &str) -> i64 {
    match element {
        "half" | "bfloat16_t" | "int16_t" | "uint16_t" => 2,
        "int8_t" | "uint8_t" | "bool" => 1,
        "int64_t" | "uint64_t" => 8,
        _ => 4,
    }
}

fn size_t(context: &Context) -> Type<'_> {
    Type::parse(context, "!emitc.size_t").expect("size_t parses")
}

/// `pto::sim::dim(buffer, axis)`: a size_t.
fn dim<'c, 'b>(
    context: &'c Context,
    block: &'b Block<'c>,
    buffer: Value<'c, '_>,
    axis: i64,
) -> Value<'c, 'b> {
    call(
        context,
        block,
        "pto::sim::dim",
        &[buffer],
        &[&axis.to_string()],
        Some(size_t(context)),
    )
    .unwrap()
}

/// The driver of `kernel` (defined in `kernel_file`) with `parameters`.
pub fn build<'c>(
    context: &'c Context,
    kernel: &str,
    kernel_file: &str,
    parameters: &[Parameter],
) -> Module<'c> {
    let location = Location::unknown(context);
    let module = Module::new(location);
    let body = module.body();
    body.append_operation(include(context, "pto/sim/host.hpp"));
    body.append_operation(include(context, kernel_file));
    let i32_type: Type = IntegerType::new(context, 32).into();
    let argv_type = argv_type(context);
    let block = Block::new(&[(i32_type, location), (argv_type, location)]);
    let (argc, argv): (Value, Value) = (
        block.argument(0).unwrap().into(),
        block.argument(1).unwrap().into(),
    );
    let args = call(
        context,
        &block,
        "pto::sim::parse_args",
        &[argc, argv],
        &[],
        Some(opaque(context, "pto::sim::Args")),
    )
    .unwrap();
    let mut buffers = Vec::new();
    let mut pointers = Vec::new();
    for parameter in parameters {
        let shape = format!(
            "{{{}}}",
            parameter
                .shape
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        // An output of dynamic shape is given like an input (its extent
        // is not known otherwise).
        let make = match parameter.direction {
            ParamDirection::Out if !parameter.shape.contains(&-1) => "output",
            _ => "input",
        };
        let element = &parameter.element;
        let buffer = call(
            context,
            &block,
            &format!("pto::sim::{make}<{element}>"),
            &[args],
            &[&format!("\"{}\"", parameter.name), &shape],
            Some(opaque(context, &format!("pto::sim::Buffer<{element}>"))),
        )
        .unwrap();
        let pointer = Type::parse(
            context,
            &format!("!emitc.ptr<!emitc.opaque<\"{element}\">>"),
        )
        .expect("a pointer parses");
        pointers.push(
            call(
                context,
                &block,
                "pto::sim::data",
                &[buffer],
                &[],
                Some(pointer),
            )
            .unwrap(),
        );
        buffers.push((buffer, parameter.direction));
    }
    let mut arguments = pointers;
    for (parameter, (buffer, _)) in parameters.iter().zip(&buffers) {
        if parameter.shape.first() == Some(&-1) {
            arguments.push(dim(context, &block, *buffer, 0));
        }
    }
    call(context, &block, kernel, &arguments, &[], None);
    for (buffer, direction) in buffers {
        if matches!(direction, ParamDirection::Out | ParamDirection::InOut) {
            call(
                context,
                &block,
                "pto::sim::finish",
                &[args, buffer],
                &[],
                None,
            );
        }
    }
    let code = call(
        context,
        &block,
        "pto::sim::exit_code",
        &[args],
        &[],
        Some(i32_type),
    )
    .unwrap();
    block.append_operation(
        OperationBuilder::new("emitc.return", location)
            .add_operands(&[code])
            .build()
            .expect("emitc.return builds"),
    );
    let region = Region::new();
    region.append_block(block);
    body.append_operation(main_function(context, region));
    module
}

/// Where the translated kernels are and what they take.
/// Per translated kernel: its file, parameters, and per result the
/// parameter it returns ([`pto_passes::emitc::orchestration::kernels::returned_parameters`]).
pub type Kernels = std::collections::BTreeMap<String, (String, Vec<Parameter>, Vec<Option<usize>>)>;

/// A failure at an op (its raw handle) with a message.
pub type Failure = (mlir_sys::MlirOperation, String);

/// The product of `factors` (element counts, byte sizes); `None` when it
/// overflows 64 bits.
pub(crate) fn checked_product(factors: impl IntoIterator<Item = i64>) -> Option<i64> {
    factors.into_iter().try_fold(1i64, i64::checked_mul)
}

fn element_of(r#type: Type) -> Result<&'static str, String> {
    let tensor = pto_dialects::types::TensorLike::try_from(r#type)
        .map_err(|_| format!("{type} is not a tensor"))?;
    pto_passes::emitc::cpp_types::element(tensor.element())
}

/// The simulator program of `orchestration`: a `main` that reads the
/// orchestration's tensor parameters (by their names in the IR, else
/// argN), runs its
/// body with every kernel call made on the simulated core, and writes and
/// compares its results as `result<i>`.
pub fn build_program<'c>(
    context: &'c Context,
    orchestration: melior::ir::OperationRef<'c, '_>,
    kernels: &Kernels,
    chips: &[String],
    runtime: Option<&RuntimeChips>,
) -> Result<Module<'c>, Failure> {
    use melior::ir::{
        TypeLike, ValueLike,
        operation::{OperationLike, OperationMutLike, WalkOrder, WalkResult},
    };
    use pto_dialects::ops::{op_name, operand_at, result_at};
    let fail =
        |op: melior::ir::OperationRef, message: String| -> Failure { (op.to_raw(), message) };
    let location = Location::unknown(context);
    let module = Module::new(location);
    let body = module.body();
    match runtime {
        // The device's files: kernels entered by func_id, each chip
        // orchestration's PTO2 entry under a name of its own.
        Some(runtime) => {
            body.append_operation(include(context, "pto/sim/runtime.hpp"));
            append_renamed_kernels(context, &body, &runtime.kernels);
            for (chip, (file, _)) in &runtime.chips {
                body.append_operation(verbatim_op(
                    context,
                    &format!("#define aicpu_orchestration_entry pto_chip_entry_{chip}"),
                ));
                body.append_operation(verbatim_op(
                    context,
                    &format!("#define aicpu_orchestration_config pto_chip_config_{chip}"),
                ));
                body.append_operation(include(context, file));
                body.append_operation(verbatim_op(context, "#undef aicpu_orchestration_entry"));
                body.append_operation(verbatim_op(context, "#undef aicpu_orchestration_config"));
            }
        }
        None => {
            body.append_operation(include(context, "pto/sim/host.hpp"));
            for (file, _, _) in kernels.values() {
                body.append_operation(include(context, file));
            }
        }
    }
    body.append_operation(include(context, "pto/sim/comm.hpp"));
    let clone = pto_dialects::ir::clone(&orchestration);
    let function = body.append_operation(clone);
    let entry = function
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or_else(|| fail(orchestration, "an empty orchestration".into()))?;
    let i32_type: Type = IntegerType::new(context, 32).into();
    let argv_type = argv_type(context);
    // The buffers standing for each tensor value (raw value keys).
    let mut buffers: std::collections::HashMap<usize, (Value, &'static str)> =
        std::collections::HashMap::new();
    let key = |value: Value| value.to_raw().ptr as usize;
    // argc, argv and the parsed arguments first.
    let parameter_count = entry.argument_count();
    let argc_value = entry.insert_argument(0, i32_type, location);
    let argv_value = entry.insert_argument(1, argv_type, location);
    let first = entry
        .first_operation()
        .ok_or_else(|| fail(orchestration, "an orchestration without a return".into()))?;
    let insert = |op: melior::ir::Operation<'c>| -> melior::ir::OperationRef<'c, '_> {
        entry.insert_operation_before(first, op)
    };
    let call_op = |callee: &str,
                   operands: &[Value<'c, '_>],
                   literals: &[String],
                   result: Option<Type<'c>>| {
        pto_passes::emitc::build::call_opaque(context, callee, operands, literals, result)
    };
    let args_op = insert(call_op(
        "pto::sim::parse_args",
        &[argc_value, argv_value],
        &[],
        Some(opaque(context, "pto::sim::Args")),
    ));
    let args: Value = args_op.result(0).unwrap().into();
    if let Some(runtime) = runtime {
        for (func_id, _) in &runtime.kernels {
            insert(call_op(
                "pto::sim::runtime::register_kernel",
                &[],
                &[func_id.to_string(), format!("pto_kernel_entry_{func_id}")],
                None,
            ));
        }
    }
    let mut parameters: Vec<(Value, String)> = Vec::new();
    let mut external_windows: Vec<(Value, String)> = Vec::new();
    for i in 0..parameter_count {
        let parameter: Value = entry.argument(i + 2).unwrap().into();
        let element = element_of(parameter.r#type())
            .map_err(|m| fail(orchestration, format!("parameter #{i}: {m}")))?;
        let tensor = pto_dialects::types::TensorLike::try_from(parameter.r#type()).unwrap();
        if tensor.is_distributed() {
            // A window given from outside: a domain of its own, one slot
            // filled rank by rank from the input and written at the end.
            let dims: Option<Vec<i64>> = tensor.shape().into_iter().collect();
            let dims = dims.ok_or_else(|| fail(orchestration, format!("parameter #{i}: windows of dynamic shape given from outside are not simulated yet")))?;
            let name = pto_dialects::ir::value_name(parameter).unwrap_or_else(|| format!("arg{i}"));
            let domain_type = Type::parse(
                context,
                "!emitc.ptr<!emitc.opaque<\"pto::sim::CommDomain\">>",
            )
            .expect("a pointer parses");
            let domain: Value = insert(call_op(
                "pto::sim::domain",
                &[args],
                &[format!("\"{name}\"")],
                Some(domain_type),
            ))
            .result(0)
            .unwrap()
            .into();
            let bytes = checked_product(dims.iter().copied().chain([element_bytes(element)]))
                .ok_or_else(|| {
                    fail(
                        orchestration,
                        format!(
                            "parameter #{i}: the size in bytes of the window overflows 64 bits"
                        ),
                    )
                })?;
            let slot: Value = insert(call_op(
                "pto::sim::window_buffer",
                &[domain],
                &[bytes.to_string(), format!("\"{name}\"")],
                Some(opaque(context, "pto::sim::Slot")),
            ))
            .result(0)
            .unwrap()
            .into();
            let extents: Vec<String> = dims.iter().map(i64::to_string).collect();
            let window: Value = insert(call_op(
                &format!("pto::sim::window<{element}>"),
                &[slot],
                &extents,
                Some(opaque(context, &format!("pto::sim::Window<{element}>"))),
            ))
            .result(0)
            .unwrap()
            .into();
            let mut literals = vec![format!("\"{name}\"")];
            literals.extend(extents.iter().cloned());
            insert(call_op(
                &format!("pto::sim::fill_slot<{element}>"),
                &[args, domain],
                &literals,
                None,
            ));
            external_windows.push((window, name));
            pto_dialects::ir::replace_all_uses(parameter, window);
            continue;
        }
        let shape = format!(
            "{{{}}}",
            tensor
                .shape()
                .iter()
                .map(|d| d.unwrap_or(-1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let name = pto_dialects::ir::value_name(parameter).unwrap_or_else(|| format!("arg{i}"));
        let buffer_type = opaque(context, &format!("pto::sim::Buffer<{element}>"));
        let buffer: Value = insert(call_op(
            &format!("pto::sim::input<{element}>"),
            &[args],
            &[format!("\"{name}\""), shape],
            Some(buffer_type),
        ))
        .result(0)
        .unwrap()
        .into();
        buffers.insert(key(buffer), (buffer, element));
        parameters.push((buffer, name.clone()));
        pto_dialects::ir::replace_all_uses(parameter, buffer);
    }
    for i in (0..parameter_count).rev() {
        if !pto_dialects::ir::erase_argument(entry, i + 2) {
            return Err(fail(orchestration, format!("parameter #{i} is still used")));
        }
    }
    // Comm domain scopes: a domain object, the body inline, then every
    // dispatch joined and every window slot written and compared.
    let mut domain_of: std::collections::HashMap<usize, Value> = std::collections::HashMap::new();
    let mut scopes = Vec::new();
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        if op_name(op) == "pld.comm_domain" {
            scopes.push(op);
        }
        WalkResult::Advance
    });
    for scope in scopes {
        let block = scope
            .block()
            .ok_or_else(|| fail(scope, "a comm domain outside a block".into()))?;
        let name = scope
            .attribute("sym_name")
            .ok()
            .and_then(pto_dialects::attrs::text)
            .unwrap_or_default();
        let devices = scope
            .attribute("devices")
            .ok()
            .and_then(|a| melior::ir::attribute::DenseI64ArrayAttribute::try_from(a).ok())
            .map_or(0, |d| d.len());
        if devices > 0 {
            return Err(fail(
                scope,
                "comm domains over a fixed device list are not simulated yet".into(),
            ));
        }
        let domain_type = Type::parse(
            context,
            "!emitc.ptr<!emitc.opaque<\"pto::sim::CommDomain\">>",
        )
        .expect("a pointer parses");
        let domain: Value = block
            .insert_operation_before(
                scope,
                call_op(
                    "pto::sim::domain",
                    &[args],
                    &[format!("\"{name}\"")],
                    Some(domain_type),
                ),
            )
            .result(0)
            .unwrap()
            .into();
        let body = scope
            .region_opt(0)
            .and_then(|r| r.first_block())
            .ok_or_else(|| fail(scope, "an empty comm domain".into()))?;
        // The first view of each slot names its output.
        let mut windows: Vec<(String, Value)> = Vec::new();
        pto_dialects::ir::walk(scope, WalkOrder::PreOrder, |op| {
            domain_of.insert(op.to_raw().ptr as usize, domain);
            if op_name(op) == "pld.tensor.window"
                && let (Some(slot), Some(view)) = (operand_at(op, 0), result_at(op, 0))
                && let Ok(alloc) =
                    melior::ir::operation::OperationResult::try_from(slot).map(|r| r.owner())
                && let Some(slot_name) = alloc
                    .attribute("name")
                    .ok()
                    .and_then(pto_dialects::attrs::text)
                && !windows.iter().any(|w| w.0 == slot_name)
            {
                windows.push((slot_name, view));
            }
            WalkResult::Advance
        });
        // The body's ops move before the scope (its yield, if any, stays).
        while let Some(first) = body.first_operation() {
            if first.next_in_block().is_none() && op_name(first).ends_with("yield") {
                break;
            }
            pto_dialects::ir::edit(first).move_before(scope);
        }
        block.insert_operation_before(scope, call_op("pto::sim::join", &[domain], &[], None));
        for (slot, view) in windows {
            block.insert_operation_before(
                scope,
                call_op(
                    window_epilogue(&slot),
                    &[args, view],
                    &[format!("\"{slot}\"")],
                    None,
                ),
            );
        }
        // The scope is empty now and unused.
        pto_dialects::ir::erase(scope);
    }
    // The body, op by op.
    let mut ops = Vec::new();
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        ops.push(op);
        WalkResult::Advance
    });
    let mut retired = Vec::new();
    let mut temporaries = 0;
    let mut uses_builtins = false;
    // The pl shape and element type of each window view (by value).
    let mut window_shapes: std::collections::HashMap<usize, (Vec<Option<i64>>, &'static str)> =
        std::collections::HashMap::new();
    // The dynamic axes of each window view (by value).
    let mut window_axes: std::collections::HashMap<usize, Vec<usize>> =
        std::collections::HashMap::new();
    for op in ops {
        let name = op_name(op);
        let block = match op.block() {
            Some(block) => block,
            None => continue,
        };
        let before = |new: melior::ir::Operation<'c>| -> melior::ir::OperationRef<'c, '_> {
            block.insert_operation_before(op, new)
        };
        let as_i64 = |value: Value<'c, '_>| -> Value<'c, '_> {
            let cast = melior::dialect::arith::index_cast(
                value,
                IntegerType::new(context, 64).into(),
                location,
            );
            block
                .insert_operation_before(op, cast)
                .result(0)
                .unwrap()
                .into()
        };
        match name.as_str() {
            "pl.tensor.create" => {
                let result = result_at(op, 0).unwrap();
                let element = element_of(result.r#type()).map_err(|m| fail(op, m))?;
                let tensor = pto_dialects::types::TensorLike::try_from(result.r#type()).unwrap();
                let mut dynamic = op.operands();
                let mut extents = Vec::new();
                for extent in tensor.shape() {
                    let value = match extent {
                        Some(fixed) => {
                            let constant = melior::dialect::arith::constant(
                                context,
                                IntegerAttribute::new(Type::index(context), fixed).into(),
                                location,
                            );
                            before(constant).result(0).unwrap().into()
                        }
                        None => dynamic.next().ok_or_else(|| {
                            fail(op, "a dynamic extent without its operand".into())
                        })?,
                    };
                    extents.push(as_i64(value));
                }
                temporaries += 1;
                let buffer_type = opaque(context, &format!("pto::sim::Buffer<{element}>"));
                // The name, then the extents: args = ["tmpN", 0, 1, ...].
                let mut args: Vec<Attribute> =
                    vec![opaque_attribute(context, &format!("\"tmp{temporaries}\""))];
                args.extend((0..extents.len()).map(|i| -> Attribute {
                    IntegerAttribute::new(Type::index(context), i as i64).into()
                }));
                let make = OperationBuilder::new("emitc.call_opaque", location)
                    .add_attributes(&[
                        (
                            Identifier::new(context, "callee"),
                            StringAttribute::new(context, &format!("pto::sim::make<{element}>"))
                                .into(),
                        ),
                        (
                            Identifier::new(context, "args"),
                            ArrayAttribute::new(context, &args).into(),
                        ),
                    ])
                    .add_operands(&extents)
                    .add_results(&[buffer_type])
                    .build()
                    .expect("emitc.call_opaque builds");
                let buffer: Value = before(make).result(0).unwrap().into();
                buffers.insert(key(buffer), (buffer, element));
                pto_dialects::ir::replace_all_uses(result, buffer);
                retired.push(op);
            }
            "pl.tensor.dim" => {
                let axis = op
                    .attribute("axis")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map_or(0, |a| a.value());
                let size = before(call_op(
                    "pto::sim::dim",
                    &[operand_at(op, 0).unwrap()],
                    &[axis.to_string()],
                    Some(size_t(context)),
                ));
                replace_with_index(context, op, size.result(0).unwrap().into());
                retired.push(op);
            }
            "pl.call" | "pl.submit" => {
                let callee = op
                    .attribute("callee")
                    .ok()
                    .and_then(pto_dialects::attrs::text)
                    .unwrap_or_default();
                let (_, parameters, returns) = kernels
                    .get(&callee)
                    .ok_or_else(|| fail(op, format!("@{callee} is not a translated kernel")))?;
                let arguments = call_arguments(op);
                let mut pointers: Vec<Value> = Vec::new();
                let mut dims: Vec<Value> = Vec::new();
                for (argument, parameter) in arguments.iter().zip(parameters) {
                    let element = buffers.get(&key(*argument)).map(|b| b.1).ok_or_else(|| {
                        fail(op, "a kernel argument that is not a host tensor".into())
                    })?;
                    let pointer = Type::parse(
                        context,
                        &format!("!emitc.ptr<!emitc.opaque<\"{element}\">>"),
                    )
                    .expect("a pointer parses");
                    pointers.push(
                        before(call_op("pto::sim::data", &[*argument], &[], Some(pointer)))
                            .result(0)
                            .unwrap()
                            .into(),
                    );
                    if parameter.shape.first() == Some(&-1) {
                        dims.push(
                            before(call_op(
                                "pto::sim::dim",
                                &[*argument],
                                &["0".into()],
                                Some(size_t(context)),
                            ))
                            .result(0)
                            .unwrap()
                            .into(),
                        );
                    }
                }
                pointers.extend(dims);
                before(call_op(&callee, &pointers, &[], None));
                forward_call_results(op, &arguments, returns)
                    .map_err(|(op, m)| (op.to_raw(), m))?;
                retired.push(op);
            }
            "pld.system.world_size" => {
                let size = before(call_op(
                    "pto::sim::world_size",
                    &[args],
                    &[],
                    Some(IntegerType::new(context, 64).into()),
                ));
                pto_dialects::ir::replace_all_uses(
                    result_at(op, 0).unwrap(),
                    size.result(0).unwrap(),
                );
                retired.push(op);
            }
            "pld.tensor.alloc_window_buffer" => {
                let domain = domain_of
                    .get(&(op.to_raw().ptr as usize))
                    .copied()
                    .ok_or_else(|| fail(op, "a window buffer outside a comm domain".into()))?;
                let slot_name = op
                    .attribute("name")
                    .ok()
                    .and_then(pto_dialects::attrs::text)
                    .unwrap_or_default();
                let mut bytes = operand_at(op, 0).unwrap();
                if bytes.r#type().is_index() {
                    bytes = as_i64(bytes);
                }
                let slot = before(call_op(
                    "pto::sim::window_buffer",
                    &[domain, bytes],
                    &[format!("\"{slot_name}\"")],
                    Some(opaque(context, "pto::sim::Slot")),
                ));
                pto_dialects::ir::replace_all_uses(
                    result_at(op, 0).unwrap(),
                    slot.result(0).unwrap(),
                );
                retired.push(op);
            }
            "pld.tensor.window" => {
                let view = result_at(op, 0).unwrap();
                let element = element_of(view.r#type()).map_err(|m| fail(op, m))?;
                // The view's extents: static ones, the `sizes` operands for
                // dynamic ones, else -1 (from the slot's size).
                let tensor = pto_dialects::types::TensorLike::try_from(view.r#type()).unwrap();
                let mut sizes = (1..op.operand_count()).filter_map(|i| operand_at(op, i));
                let mut operands = vec![operand_at(op, 0).unwrap()];
                let mut literals: Vec<Attribute> =
                    vec![IntegerAttribute::new(Type::index(context), 0).into()];
                for extent in tensor.shape() {
                    match (extent, sizes.next()) {
                        (Some(fixed), _) => {
                            literals.push(opaque_attribute(context, &fixed.to_string()))
                        }
                        (None, Some(size)) => {
                            literals.push(
                                IntegerAttribute::new(Type::index(context), operands.len() as i64)
                                    .into(),
                            );
                            operands.push(as_i64(size));
                        }
                        (None, None) => literals.push(opaque_attribute(context, "-1")),
                    }
                }
                let make = OperationBuilder::new("emitc.call_opaque", location)
                    .add_attributes(&[
                        (
                            Identifier::new(context, "callee"),
                            StringAttribute::new(context, &format!("pto::sim::window<{element}>"))
                                .into(),
                        ),
                        (
                            Identifier::new(context, "args"),
                            ArrayAttribute::new(context, &literals).into(),
                        ),
                    ])
                    .add_operands(&operands)
                    .add_results(&[opaque(context, &format!("pto::sim::Window<{element}>"))])
                    .build()
                    .expect("emitc.call_opaque builds");
                let window = before(make);
                let dynamic_axes: Vec<usize> = tensor
                    .shape()
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.is_none())
                    .map(|(a, _)| a)
                    .collect();
                window_axes.insert(
                    window.result(0).unwrap().to_raw().ptr as usize,
                    dynamic_axes,
                );
                window_shapes.insert(
                    window.result(0).unwrap().to_raw().ptr as usize,
                    (tensor.shape(), element),
                );
                pto_dialects::ir::replace_all_uses(view, window.result(0).unwrap());
                retired.push(op);
            }
            "pld.system.get_comm_ctx" => {
                let domain_type = Type::parse(
                    context,
                    "!emitc.ptr<!emitc.opaque<\"pto::sim::CommDomain\">>",
                )
                .expect("a pointer parses");
                let ctx = before(call_op(
                    "pto::sim::comm_ctx",
                    &[operand_at(op, 0).unwrap()],
                    &[],
                    Some(domain_type),
                ));
                pto_dialects::ir::replace_all_uses(
                    result_at(op, 0).unwrap(),
                    ctx.result(0).unwrap(),
                );
                retired.push(op);
            }
            "pld.dispatch" => {
                let domain = domain_of
                    .get(&(op.to_raw().ptr as usize))
                    .copied()
                    .ok_or_else(|| fail(op, "a dispatch outside a comm domain".into()))?;
                let callee = op
                    .attribute("callee")
                    .ok()
                    .and_then(pto_dialects::attrs::text)
                    .unwrap_or_default();
                let runtime_chip = runtime.and_then(|r| r.chips.get(&callee));
                if runtime_chip.is_none() && !chips.contains(&callee) {
                    return Err(fail(
                        op,
                        format!("@{callee} is not a simulated chip orchestration"),
                    ));
                }
                if op.result_count() > 0 {
                    return Err(fail(
                        op,
                        "dispatches with results are not simulated yet".into(),
                    ));
                }
                let n = op.operand_count();
                let device = as_i64(operand_at(op, n - 1).unwrap());
                let mut operands = vec![domain, device];
                for i in 0..n - 1 {
                    let argument = operand_at(op, i).unwrap();
                    // Host tensors go by reference: the threads share them.
                    let passed = match buffers.get(&key(argument)) {
                        Some((_, element)) => {
                            let pointer = Type::parse(
                                context,
                                &format!(
                                    "!emitc.ptr<!emitc.opaque<\"pto::sim::Buffer<{element}>\">>"
                                ),
                            )
                            .expect("a pointer parses");
                            before(call_op("pto::sim::ref", &[argument], &[], Some(pointer)))
                                .result(0)
                                .unwrap()
                                .into()
                        }
                        None => argument,
                    };
                    operands.push(passed);
                }
                match runtime_chip {
                    // The chip's PTO2 entry on the device's thread, with
                    // ChipTaskArgs made of the device's windows (and its
                    // ordering tokens) and CommContexts.
                    Some((_, tokens)) => {
                        let literals = [
                            format!("pto_chip_entry_{callee}"),
                            format!("pto_chip_config_{callee}"),
                            tokens.to_string(),
                        ];
                        before(launch_call(
                            context,
                            "pto::sim::runtime::launch_chip",
                            &literals,
                            &operands,
                            &[],
                        ));
                    }
                    None => {
                        // The dynamic extents of window views follow, in order.
                        for i in 0..n - 1 {
                            let argument = operand_at(op, i).unwrap();
                            for &axis in window_axes
                                .get(&key(argument))
                                .map(Vec::as_slice)
                                .unwrap_or(&[])
                            {
                                operands.push(
                                    before(call_op(
                                        "pto::sim::dim",
                                        &[argument],
                                        &[axis.to_string()],
                                        Some(size_t(context)),
                                    ))
                                    .result(0)
                                    .unwrap()
                                    .into(),
                                );
                            }
                        }
                        before(launch_call(
                            context,
                            "pto::sim::launch",
                            std::slice::from_ref(&callee),
                            &operands,
                            &[],
                        ));
                    }
                }
                retired.push(op);
            }
            builtin if builtin.starts_with("pld.builtin.") => {
                // The builtin kernel (translate/builtins/collectives.hpp) on
                // every device, like a dispatch.
                let domain = domain_of
                    .get(&(op.to_raw().ptr as usize))
                    .copied()
                    .ok_or_else(|| fail(op, "a builtin collective outside a comm domain".into()))?;
                let kind = builtin.trim_start_matches("pld.builtin.");
                let int_attr = |name: &str| {
                    op.attribute(name)
                        .ok()
                        .and_then(|a| IntegerAttribute::try_from(a).ok())
                        .map(|a| a.value())
                };
                let windows: Vec<Value> = (0..op.operand_count() - 1)
                    .filter_map(|i| operand_at(op, i))
                    .collect();
                let device = operand_at(op, op.operand_count() - 1).unwrap();
                let dims_of = |value: Value| -> Result<(Vec<Option<i64>>, &'static str), Failure> {
                    window_shapes.get(&key(value)).cloned().ok_or_else(|| {
                        fail(
                            op,
                            format!("a builtin {kind} of a value that is not a window view"),
                        )
                    })
                };
                let shape_of = |value: Value| -> Result<(Vec<i64>, &'static str), Failure> {
                    let (shape, element) = dims_of(value)?;
                    let shape: Option<Vec<i64>> = shape.into_iter().collect();
                    Ok((shape.ok_or_else(|| fail(op, format!("a builtin {kind} of a window of dynamic shape is not simulated yet")))?, element))
                };
                // The extent of a row (the trailing dimensions, which must be
                // static; the leading one may be the rank count).
                let row_of = |value: Value| -> Result<(i64, &'static str), Failure> {
                    let (dims, element) = dims_of(value)?;
                    let row: Option<Vec<i64>> = dims.iter().skip(1).copied().collect();
                    let row = row.ok_or_else(|| {
                        fail(
                            op,
                            format!(
                                "a builtin {kind} of rows of dynamic extent is not simulated yet"
                            ),
                        )
                    })?;
                    Ok((
                        checked_product(row).ok_or_else(|| {
                            fail(
                                op,
                                format!(
                                    "a builtin {kind} of rows whose element count overflows 64 bits"
                                ),
                            )
                        })?,
                        element,
                    ))
                };
                // The element count of a window, at run time.
                let count_of = |value: Value<'c, '_>| -> Value<'c, '_> {
                    before(call_op(
                        "pto::sim::elements",
                        &[value],
                        &[],
                        Some(IntegerType::new(context, 32).into()),
                    ))
                    .result(0)
                    .unwrap()
                    .into()
                };
                // The signal: last, but third of all_to_all_v's five.
                let signal = if kind == "all_to_all_v" {
                    windows.get(2)
                } else {
                    windows.last()
                };
                let signal = *signal
                    .ok_or_else(|| fail(op, "a builtin collective without a signal".into()))?;
                // Cells of a rank in one signal row are `stride` apart (a
                // [P, cores] signal: one per core; a [rows, P] ring signal: 1).
                let signal_shape = window_shapes
                    .get(&key(signal))
                    .map(|(shape, _)| shape.clone())
                    .unwrap_or_default();
                let stride = match (kind, signal_shape.get(1)) {
                    ("allreduce", Some(Some(cores))) => *cores,
                    ("allreduce", Some(None)) => return Err(fail(op, "a builtin allreduce whose signal has a dynamic core count is not simulated yet".into())),
                    _ => 1,
                };
                let reduce = int_attr("op").unwrap_or(0);
                // The kernel, the windows it takes first and the values
                // after the CommContext.
                let (kernel, data, extra): (String, Vec<Value>, Vec<Value>) = match kind {
                    "allreduce" | "allreduce_ring" => {
                        let element = dims_of(windows[0])?.1;
                        (
                            format!("pto_builtin::{kind}<{element}, {reduce}>"),
                            vec![windows[0]],
                            vec![count_of(windows[0])],
                        )
                    }
                    "barrier" => ("pto_builtin::barrier_only".into(), vec![], vec![]),
                    "broadcast" => {
                        let element = dims_of(windows[0])?.1;
                        (
                            format!(
                                "pto_builtin::broadcast<{element}, {}>",
                                int_attr("root").unwrap_or(0)
                            ),
                            vec![windows[0]],
                            vec![count_of(windows[0])],
                        )
                    }
                    "reduce_scatter" => {
                        let (row, element) = row_of(windows[0])?;
                        (
                            format!("pto_builtin::reduce_scatter<{element}, {row}, {reduce}>"),
                            vec![windows[0]],
                            vec![],
                        )
                    }
                    "allgather" | "all_to_all" => {
                        let (row, element) = row_of(windows[1])?;
                        (
                            format!(
                                "pto_builtin::exchange<{element}, {row}, {}>",
                                kind == "all_to_all"
                            ),
                            vec![windows[0], windows[1]],
                            vec![],
                        )
                    }
                    "all_to_all_v" => {
                        let (shape, element) = shape_of(windows[1])?;
                        let rows = shape.first().copied().unwrap_or(1);
                        let overflow = || {
                            fail(
                                op,
                                format!("a builtin {kind} whose element counts overflow 64 bits"),
                            )
                        };
                        let row =
                            checked_product(shape.iter().skip(1).copied()).ok_or_else(overflow)?;
                        let send = checked_product(shape_of(windows[3])?.0).ok_or_else(overflow)?;
                        let recv_shape = shape_of(windows[4])?.0;
                        let count_row = checked_product(recv_shape.iter().skip(1).copied())
                            .ok_or_else(overflow)?;
                        (
                            format!(
                                "pto_builtin::exchange_v<{element}, {row}, {rows}, {send}, {count_row}>"
                            ),
                            vec![windows[0], windows[1], windows[3], windows[4]],
                            vec![],
                        )
                    }
                    other => {
                        return Err(fail(
                            op,
                            format!("the builtin {other} is not simulated yet"),
                        ));
                    }
                };
                let domain_type = Type::parse(
                    context,
                    "!emitc.ptr<!emitc.opaque<\"pto::sim::CommDomain\">>",
                )
                .expect("a pointer parses");
                let ctx: Value = before(call_op(
                    "pto::sim::comm_ctx",
                    &[signal],
                    &[],
                    Some(domain_type),
                ))
                .result(0)
                .unwrap()
                .into();
                let device = as_i64(device);
                let mut operands = vec![domain, device];
                operands.extend(data);
                operands.push(signal);
                operands.push(ctx);
                operands.extend(extra);
                // The signal row stride goes last.
                before(launch_call(
                    context,
                    "pto::sim::launch",
                    &[kernel],
                    &operands,
                    &[stride.to_string()],
                ));
                uses_builtins = true;
                retired.push(op);
            }
            "func.return" => {
                for i in 0..op.operand_count() {
                    let result = operand_at(op, i).unwrap();
                    before(call_op(
                        "pto::sim::finish",
                        &[args, result],
                        &[format!("\"result{i}\"")],
                        None,
                    ));
                }
                for (window, name) in &external_windows {
                    let window = *window;
                    before(call_op(
                        window_epilogue(name),
                        &[args, window],
                        &[format!("\"{name}\"")],
                        None,
                    ));
                }
                // Parameters too, as pto-run writes them: a host tensor the
                // program writes is one of its outputs.
                for (parameter, name) in &parameters {
                    let buffer = *parameter;
                    before(call_op(
                        "pto::sim::finish",
                        &[args, buffer],
                        &[format!("\"{name}\"")],
                        None,
                    ));
                }
                let code: Value =
                    before(call_op("pto::sim::exit_code", &[args], &[], Some(i32_type)))
                        .result(0)
                        .unwrap()
                        .into();
                before(
                    OperationBuilder::new("emitc.return", location)
                        .add_operands(&[code])
                        .build()
                        .expect("emitc.return builds"),
                );
                retired.push(op);
            }
            "func.func" => {}
            other if other.starts_with("pl.") || other.starts_with("pld.") => {
                return Err(fail(
                    op,
                    format!("'{other}' is not simulated on the host yet"),
                ));
            }
            _ => {}
        }
    }
    for op in retired.into_iter().rev() {
        // The op is unused now.
        pto_dialects::ir::erase(op);
    }
    // The function becomes `int main(int argc, char** argv)`.
    let region = Region::new();
    pto_dialects::ir::take_body(&region, &function.region(0).unwrap());
    body.append_operation(main_function(context, region));
    // The emptied clone is unused.
    pto_dialects::ir::erase(function);
    if uses_builtins {
        let first = module.body().first_operation().expect("the includes");
        module
            .body()
            .insert_operation_after(first, include(context, BUILTINS_FILE));
    }
    Ok(module)
}

/// The builtin collective kernels programs include when they use them.
pub const BUILTINS_FILE: &str = "pto_builtin_collectives.hpp";

/// Their source, shipped with the translation.
pub const BUILTINS_SOURCE: &str = include_str!("../builtins/collectives.hpp");

/// `callee(operands[0], operands[1], literals..., operands[2..],
/// trailing...)`: a launch on a domain's device of a function the literals
/// name.
fn launch_call<'c>(
    context: &'c Context,
    callee: &str,
    literals: &[String],
    operands: &[Value<'c, '_>],
    trailing: &[String],
) -> melior::ir::Operation<'c> {
    let index =
        |i: usize| -> Attribute { IntegerAttribute::new(Type::index(context), i as i64).into() };
    let mut args: Vec<Attribute> = vec![index(0), index(1)];
    args.extend(
        literals
            .iter()
            .map(|literal| opaque_attribute(context, literal)),
    );
    args.extend((2..operands.len()).map(index));
    args.extend(
        trailing
            .iter()
            .map(|literal| opaque_attribute(context, literal)),
    );
    OperationBuilder::new("emitc.call_opaque", Location::unknown(context))
        .add_attributes(&[
            (
                Identifier::new(context, "callee"),
                StringAttribute::new(context, callee).into(),
            ),
            (
                Identifier::new(context, "args"),
                ArrayAttribute::new(context, &args).into(),
            ),
        ])
        .add_operands(operands)
        .build()
        .expect("emitc.call_opaque builds")
}

/// What a runtime-mode program includes of the device's files: kernels by
/// func_id and file; per chip orchestration its file and how many ordering
/// tokens its dispatches carry.
#[derive(Clone, Debug, Default)]
pub struct RuntimeChips {
    pub kernels: Vec<(usize, String)>,
    pub chips: std::collections::BTreeMap<String, (String, usize)>,
}

fn verbatim_op<'c>(context: &'c Context, text: &str) -> melior::ir::Operation<'c> {
    pto_passes::emitc::build::verbatim(context, Location::unknown(context), text, &[])
}

/// Every kernel file, its `kernel_entry` renamed after its func_id (they
/// share one program here; on the device each is a binary of its own).
fn append_renamed_kernels<'c>(
    context: &'c Context,
    body: &melior::ir::BlockRef<'c, '_>,
    kernels: &[(usize, String)],
) {
    for (func_id, file) in kernels {
        body.append_operation(verbatim_op(
            context,
            &format!("#define kernel_entry pto_kernel_entry_{func_id}"),
        ));
        body.append_operation(include(context, file));
        body.append_operation(verbatim_op(context, "#undef kernel_entry"));
    }
}

/// The simulator program of `orchestration` run the device's way
/// (`--entry=runtime`): every kernel file with its `kernel_entry` renamed
/// (they share one program here; on the device each is a binary of its
/// own) and registered under its func_id, the orchestration's PTO2 C++
/// (`orchestration_file`), and a `main` that describes the host tensors as
/// `ChipTensor`s — parameters, then one zeroed tensor per result — calls
/// `aicpu_orchestration_entry`, and writes and compares its results as
/// `result0`, … and its parameters by name.
pub fn build_runtime<'c>(
    context: &'c Context,
    orchestration: melior::ir::OperationRef<'c, '_>,
    kernels: &[(usize, String)],
    orchestration_file: &str,
) -> Result<Module<'c>, Failure> {
    use melior::ir::ValueLike;
    let fail = |message: String| -> Failure { (orchestration.to_raw(), message) };
    let location = Location::unknown(context);
    let module = Module::new(location);
    let body = module.body();
    body.append_operation(include(context, "pto/sim/runtime.hpp"));
    append_renamed_kernels(context, &body, kernels);
    body.append_operation(include(context, orchestration_file));
    let entry = orchestration
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or_else(|| fail("an empty orchestration".into()))?;
    let function_type = pto_dialects::ops::function_type(orchestration)
        .ok_or_else(|| fail("an orchestration without a type".into()))?;
    let i32_type: Type = IntegerType::new(context, 32).into();
    let block = Block::new(&[(i32_type, location), (argv_type(context), location)]);
    let (argc, argv): (Value, Value) = (
        block.argument(0).unwrap().into(),
        block.argument(1).unwrap().into(),
    );
    let args = call(
        context,
        &block,
        "pto::sim::parse_args",
        &[argc, argv],
        &[],
        Some(opaque(context, "pto::sim::Args")),
    )
    .unwrap();
    let chip_tensor = opaque(context, "ChipTensor");
    let mut buffers = Vec::new();
    let mut descriptors = Vec::new();
    let mut host_tensor = |r#type: Type<'c>, name: String, make: &str| -> Result<(), Failure> {
        let tensor = pto_dialects::types::TensorLike::try_from(r#type).map_err(|_| {
            fail(format!(
                "{name}: {type} is not a tensor; the runtime program drives tensors only"
            ))
        })?;
        if tensor.is_distributed() {
            return Err(fail(format!(
                "{name}: windows are not driven by runtime programs"
            )));
        }
        if make == "output" && tensor.shape().iter().any(Option::is_none) {
            return Err(fail(format!(
                "{name}: a result of dynamic shape (the runtime hands outputs in, so their extents must be known)"
            )));
        }
        let element = element_of(r#type).map_err(fail)?;
        let shape = format!(
            "{{{}}}",
            tensor
                .shape()
                .iter()
                .map(|d| d.unwrap_or(-1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let buffer = call(
            context,
            &block,
            &format!("pto::sim::{make}<{element}>"),
            &[args],
            &[&format!("\"{name}\""), &shape],
            Some(opaque(context, &format!("pto::sim::Buffer<{element}>"))),
        )
        .unwrap();
        descriptors.push(
            call(
                context,
                &block,
                "pto::sim::runtime::describe",
                &[buffer],
                &[],
                Some(chip_tensor),
            )
            .unwrap(),
        );
        buffers.push((buffer, name));
        Ok(())
    };
    for i in 0..entry.argument_count() {
        let parameter: Value = entry.argument(i).unwrap().into();
        let name = pto_dialects::ir::value_name(parameter).unwrap_or_else(|| format!("arg{i}"));
        host_tensor(parameter.r#type(), name, "input")?;
    }
    for k in 0..function_type.result_count() {
        host_tensor(
            function_type.result(k).unwrap(),
            format!("result{k}"),
            "output",
        )?;
    }
    for (func_id, _) in kernels {
        call(
            context,
            &block,
            "pto::sim::runtime::register_kernel",
            &[],
            &[&func_id.to_string(), &format!("pto_kernel_entry_{func_id}")],
            None,
        );
    }
    let orch_args = call(
        context,
        &block,
        "pto::sim::runtime::task_args",
        &descriptors,
        &[],
        Some(opaque(context, "ChipTaskArgs")),
    )
    .unwrap();
    let config = call(
        context,
        &block,
        "aicpu_orchestration_config",
        &[orch_args],
        &[],
        Some(opaque(context, "PTO2OrchestrationConfig")),
    )
    .unwrap();
    call(
        context,
        &block,
        "pto::sim::runtime::check_config",
        &[config, orch_args],
        &[],
        None,
    );
    call(
        context,
        &block,
        "aicpu_orchestration_entry",
        &[orch_args],
        &[],
        None,
    );
    for (buffer, _) in &buffers {
        call(
            context,
            &block,
            "pto::sim::finish",
            &[args, *buffer],
            &[],
            None,
        );
    }
    let code = call(
        context,
        &block,
        "pto::sim::exit_code",
        &[args],
        &[],
        Some(i32_type),
    )
    .unwrap();
    block.append_operation(
        OperationBuilder::new("emitc.return", location)
            .add_operands(&[code])
            .build()
            .expect("emitc.return builds"),
    );
    let region = Region::new();
    region.append_block(block);
    body.append_operation(main_function(context, region));
    Ok(module)
}
