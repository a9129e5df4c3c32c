//! An entry orchestration run the device's way (pto-translate's
//! `--entry=runtime`; docs/passes/convert-pl-program-to-emitc.md): every
//! kernel file with its `kernel_entry` renamed (they share one program
//! here; on the device each is a binary of its own) and registered under
//! its func_id, the orchestration's PTO2 C++, and a `main` that describes
//! the host tensors as `ChipTensor`s — parameters, then one zeroed tensor
//! per result — and the scalar parameters' payloads after them, calls
//! `aicpu_orchestration_entry`, and writes and compares
//! its results as `result0`, … and its parameters by name.

use melior::{
    Context,
    ir::{Block, BlockLike, OperationRef, Region, RegionLike, Type, Value, ValueLike},
};
use pto_dialects::ops::Checked;
use pto_dialects::types::TensorLike;

use super::emit::{call, i32, include, main_block, main_function, parse_args, ret, shape_text};
use super::facts::{orchestration_file, scalar_element};
use super::{Failure, renamed_kernels};
use crate::emitc::build::opaque;
use crate::emitc::orchestration::kernels::symbol;

/// The host tensors of the program: each one's buffer and name, and its
/// `ChipTensor`.
struct Tensors<'c, 'b> {
    args: Value<'c, 'b>,
    buffers: Vec<Value<'c, 'b>>,
    descriptors: Vec<Value<'c, 'b>>,
    /// The scalar parameters' values, passed after the tensors.
    scalars: Vec<Value<'c, 'b>>,
}

/// The ops of the runtime program of `orchestration` over `kernels`
/// ((func_id, file) by func_id): its includes and `main`.
pub fn build<'c, 'a>(
    context: &'c Context,
    orchestration: OperationRef<'c, 'a>,
    kernels: &[(usize, String)],
) -> Result<Vec<melior::ir::Operation<'c>>, Failure<'c, 'a>> {
    let fail = |message: String| -> Failure { (orchestration, message) };
    let entry = orchestration
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or_else(|| fail("an empty orchestration".into()))?;
    let function_type = pto_dialects::ops::function_type(orchestration)
        .ok_or_else(|| fail("an orchestration without a type".into()))?;
    let block = main_block(context);
    let args = parse_args(context, &block);
    let mut tensors = Tensors {
        args,
        buffers: Vec::new(),
        descriptors: Vec::new(),
        scalars: Vec::new(),
    };
    for i in 0..entry.argument_count() {
        let parameter: Value = entry.argument(i).unwrap().into();
        let name = pto_dialects::ir::parameter_name(parameter, i);
        if let Some(element) = scalar_element(parameter.r#type()) {
            let read = call(
                context,
                &block,
                &format!("pto::sim::scalar<{element}>"),
                &[args],
                &[&format!("\"{name}\"")],
                Some(opaque(context, element)),
            );
            tensors.scalars.push(read.unwrap());
            continue;
        }
        host_tensor(
            context,
            &block,
            &mut tensors,
            parameter.r#type(),
            &name,
            "input",
        )
        .map_err(fail)?;
    }
    for k in 0..function_type.result_count() {
        let r#type = function_type.result(k).unwrap();
        host_tensor(
            context,
            &block,
            &mut tensors,
            r#type,
            &format!("result{k}"),
            "output",
        )
        .map_err(fail)?;
    }
    run(context, &block, &tensors, kernels);
    let region = Region::new();
    region.append_block(block);
    let mut ops = vec![include(context, "pto/sim/runtime.hpp")];
    ops.extend(renamed_kernels(context, kernels));
    ops.push(include(
        context,
        &orchestration_file(&symbol(orchestration)),
    ));
    ops.push(main_function(context, region));
    Ok(ops)
}

/// The buffer of a host tensor of `type` read (`make` = `input`) or made
/// (`output`) as `name`, and its `ChipTensor`.
fn host_tensor<'c, 'b>(
    context: &'c Context,
    block: &'b Block<'c>,
    tensors: &mut Tensors<'c, 'b>,
    r#type: Type<'c>,
    name: &str,
    make: &str,
) -> Result<(), String> {
    let tensor = TensorLike::try_from(r#type).map_err(|_| {
        format!(
            "{name}: {type} is neither a tensor nor a scalar; the runtime program drives only those"
        )
    })?;
    if tensor.is_distributed() {
        return Err(format!(
            "{name}: windows are not driven by runtime programs"
        ));
    }
    if make == "output" && tensor.shape().iter().any(Option::is_none) {
        return Err(format!(
            "{name}: a result of dynamic shape (the runtime hands outputs in, so their extents must be known)"
        ));
    }
    let element = super::facts::io_element(tensor.element())?;
    let shape = shape_text(tensor.shape().iter().map(|d| d.unwrap_or(-1)));
    let buffer = call(
        context,
        block,
        &format!("pto::sim::{make}<{element}>"),
        &[tensors.args],
        &[&format!("\"{name}\""), &shape],
        Some(opaque(context, &format!("pto::sim::Buffer<{element}>"))),
    )
    .unwrap();
    let descriptor = call(
        context,
        block,
        "pto::sim::runtime::describe",
        &[buffer],
        &[],
        Some(opaque(context, "ChipTensor")),
    );
    tensors.descriptors.push(descriptor.unwrap());
    tensors.buffers.push(buffer);
    Ok(())
}

/// The kernels registered, the orchestration configured and entered, every
/// host tensor written and compared, and the exit code returned.
fn run<'c>(
    context: &'c Context,
    block: &Block<'c>,
    tensors: &Tensors<'c, '_>,
    kernels: &[(usize, String)],
) {
    for (func_id, _) in kernels {
        let literals = [func_id.to_string(), format!("pto_kernel_entry_{func_id}")];
        call(
            context,
            block,
            "pto::sim::runtime::register_kernel",
            &[],
            &[&literals[0], &literals[1]],
            None,
        );
    }
    let orch_args = call(
        context,
        block,
        "pto::sim::runtime::task_args",
        &tensors.descriptors,
        &[],
        Some(opaque(context, "ChipTaskArgs")),
    )
    .unwrap();
    for scalar in &tensors.scalars {
        let add = "pto::sim::runtime::add_scalar";
        call(context, block, add, &[orch_args, *scalar], &[], None);
    }
    let config = call(
        context,
        block,
        "aicpu_orchestration_config",
        &[orch_args],
        &[],
        Some(opaque(context, "PTO2OrchestrationConfig")),
    )
    .unwrap();
    let check = "pto::sim::runtime::check_config";
    call(context, block, check, &[config, orch_args], &[], None);
    call(
        context,
        block,
        "aicpu_orchestration_entry",
        &[orch_args],
        &[],
        None,
    );
    for buffer in &tensors.buffers {
        call(
            context,
            block,
            "pto::sim::finish",
            &[tensors.args, *buffer],
            &[],
            None,
        );
    }
    let code = call(
        context,
        block,
        "pto::sim::exit_code",
        &[tensors.args],
        &[],
        Some(i32(context)),
    );
    block.append_operation(ret(context, code.unwrap()));
}
