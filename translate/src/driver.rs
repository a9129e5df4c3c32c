//! The `a2a3sim` host driver of a kernel, as EmitC: read the inputs (.npy
//! or seeded), run the kernel on the simulated core, write and compare the
//! outputs (`pto/sim/host.hpp`).

use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Module, Region, RegionLike, Type, Value,
        attribute::{ArrayAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        operation::OperationBuilder,
        r#type::{FunctionType, IntegerType},
    },
};
use pto_dialects::enums::ParamDirection;

use crate::cce::Parameter;

fn opaque<'c>(context: &'c Context, text: &str) -> Type<'c> {
    Type::parse(context, &format!("!emitc.opaque<\"{}\">", text.replace('"', "\\\""))).expect("an opaque type parses")
}

fn opaque_attribute<'c>(context: &'c Context, text: &str) -> Attribute<'c> {
    Attribute::parse(context, &format!("#emitc.opaque<\"{}\">", text.replace('"', "\\\""))).expect("an opaque attribute parses")
}

fn include<'c>(context: &'c Context, file: &str) -> melior::ir::Operation<'c> {
    OperationBuilder::new("emitc.include", Location::unknown(context))
        .add_attributes(&[(Identifier::new(context, "include"), StringAttribute::new(context, file).into())])
        .build()
        .expect("emitc.include builds")
}

/// `callee(operands..., extra literal args...)` appended to `block`.
fn call<'c, 'b>(
    context: &'c Context,
    block: &'b Block<'c>,
    callee: &str,
    operands: &[Value<'c, '_>],
    literals: &[&str],
    result: Option<Type<'c>>,
) -> Option<Value<'c, 'b>> {
    let location = Location::unknown(context);
    let mut builder = OperationBuilder::new("emitc.call_opaque", location)
        .add_attributes(&[(Identifier::new(context, "callee"), StringAttribute::new(context, callee).into())])
        .add_operands(operands);
    if !literals.is_empty() {
        let mut args: Vec<Attribute> = (0..operands.len()).map(|i| IntegerAttribute::new(Type::index(context), i as i64).into()).collect();
        args.extend(literals.iter().map(|l| opaque_attribute(context, l)));
        builder = builder.add_attributes(&[(Identifier::new(context, "args"), ArrayAttribute::new(context, &args).into())]);
    }
    if let Some(result) = result {
        builder = builder.add_results(&[result]);
    }
    let op = block.append_operation(builder.build().expect("emitc.call_opaque builds"));
    result.map(|_| op.result(0).expect("a result").into())
}

/// The driver of `kernel` (defined in `kernel_file`) with `parameters`.
pub fn build<'c>(context: &'c Context, kernel: &str, kernel_file: &str, parameters: &[Parameter]) -> Module<'c> {
    let location = Location::unknown(context);
    let module = Module::new(location);
    let body = module.body();
    body.append_operation(include(context, "pto/sim/host.hpp"));
    body.append_operation(include(context, kernel_file));
    let i32_type: Type = IntegerType::new(context, 32).into();
    let argv_type = Type::parse(context, "!emitc.ptr<!emitc.ptr<!emitc.opaque<\"char\">>>").expect("argv parses");
    let block = Block::new(&[(i32_type, location), (argv_type, location)]);
    let (argc, argv): (Value, Value) = (block.argument(0).unwrap().into(), block.argument(1).unwrap().into());
    let args = call(context, &block, "pto::sim::parse_args", &[argc, argv], &[], Some(opaque(context, "pto::sim::Args"))).unwrap();
    let mut buffers = Vec::new();
    let mut pointers = Vec::new();
    for parameter in parameters {
        let shape = format!("{{{}}}", parameter.shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", "));
        let make = match parameter.direction {
            ParamDirection::Out => "output",
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
        let pointer = Type::parse(context, &format!("!emitc.ptr<!emitc.opaque<\"{element}\">>")).expect("a pointer parses");
        pointers.push(call(context, &block, "pto::sim::data", &[buffer], &[], Some(pointer)).unwrap());
        buffers.push((buffer, parameter.direction));
    }
    call(context, &block, kernel, &pointers, &[], None);
    for (buffer, direction) in buffers {
        if matches!(direction, ParamDirection::Out | ParamDirection::InOut) {
            call(context, &block, "pto::sim::finish", &[args, buffer], &[], None);
        }
    }
    let code = call(context, &block, "pto::sim::exit_code", &[args], &[], Some(i32_type)).unwrap();
    block.append_operation(OperationBuilder::new("emitc.return", location).add_operands(&[code]).build().expect("emitc.return builds"));
    let region = Region::new();
    region.append_block(block);
    let function_type = FunctionType::new(context, &[i32_type, argv_type], &[i32_type]);
    body.append_operation(
        OperationBuilder::new("emitc.func", location)
            .add_attributes(&[
                (Identifier::new(context, "sym_name"), StringAttribute::new(context, "main").into()),
                (Identifier::new(context, "function_type"), TypeAttribute::new(function_type.into()).into()),
            ])
            .add_regions([region])
            .build()
            .expect("emitc.func builds"),
    );
    module
}
