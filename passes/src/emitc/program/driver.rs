//! A kernel's driver (`run_<kernel>.cpp`): read the inputs (.npy or
//! seeded), run the kernel on the simulated core, write and compare the
//! outputs (`pto/sim/host.hpp`; docs/passes/convert-pl-program-to-emitc.md).

use melior::{
    Context,
    ir::{BlockLike, Region, RegionLike},
};
use pto_dialects::enums::ParamDirection;

use super::emit::{
    call, i32, main_block, main_function, parse_args, pointer, ret, shape_text, size_t,
};
use super::facts::{Parameter, kernel_file};
use crate::emitc::build::opaque;

/// The ops of the driver of `kernel` with `parameters`: its includes and
/// `main`.
pub fn build<'c>(
    context: &'c Context,
    kernel: &str,
    parameters: &[Parameter],
    queries: crate::emitc::spmd::Queries,
) -> Vec<melior::ir::Operation<'c>> {
    let block = main_block(context);
    let args = parse_args(context, &block);
    let mut buffers = Vec::new();
    let mut arguments = Vec::new();
    for parameter in parameters {
        if parameter.scalar {
            // A scalar is read from its one-element .npy and passed by value.
            let element = &parameter.element;
            let value = call(
                context,
                &block,
                &format!("pto::sim::scalar<{element}>"),
                &[args],
                &[&format!("\"{}\"", parameter.name)],
                Some(opaque(context, element)),
            );
            arguments.push(value.unwrap());
            continue;
        }
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
            &[
                &format!("\"{}\"", parameter.name),
                &shape_text(parameter.shape.iter().copied()),
            ],
            Some(opaque(context, &format!("pto::sim::Buffer<{element}>"))),
        )
        .unwrap();
        let data = call(
            context,
            &block,
            "pto::sim::data",
            &[buffer],
            &[],
            Some(pointer(context, element)),
        );
        arguments.push(data.unwrap());
        buffers.push((buffer, parameter.direction));
    }
    let tensors = parameters.iter().filter(|p| !p.scalar);
    for (parameter, (buffer, _)) in tensors.zip(&buffers) {
        for axis in super::dynamic_axes(&parameter.shape) {
            let size = Some(size_t(context));
            let axis = axis.to_string();
            arguments
                .push(call(context, &block, "pto::sim::dim", &[*buffer], &[&axis], size).unwrap());
        }
    }
    // Alone: one block (its identity, if it reads it, block 0 of 1).
    block.append_operation(crate::emitc::spmd::sim_call(
        context, kernel, queries, None, false, &arguments,
    ));
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
        Some(i32(context)),
    );
    block.append_operation(ret(context, code.unwrap()));
    let region = Region::new();
    region.append_block(block);
    vec![
        super::emit::include(context, "pto/sim/host.hpp"),
        super::emit::include(context, &kernel_file(kernel)),
        main_function(context, region),
    ]
}
