//! The EmitC pieces every simulator program is made of: `main`, its
//! `argc`/`argv`, calls of `pto/sim/host.hpp` and the sizes it works in
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Region, Type, Value,
        attribute::{ArrayAttribute, StringAttribute},
        operation::OperationBuilder,
        r#type::{FunctionType, IntegerType},
    },
};

use crate::emitc::build::{call_opaque, opaque_attribute};

/// `#include "file"`.
pub fn include<'c>(context: &'c Context, file: &str) -> melior::ir::Operation<'c> {
    crate::emitc::build::include(context, file, false)
}

/// `text` as it is, at the module's level.
pub fn verbatim<'c>(context: &'c Context, text: &str) -> melior::ir::Operation<'c> {
    crate::emitc::build::verbatim(context, Location::unknown(context), text, &[])
}

/// [`call_opaque`] appended to `block`; its result, if any.
pub fn call<'c, 'b>(
    context: &'c Context,
    block: &'b Block<'c>,
    callee: &str,
    operands: &[Value<'c, '_>],
    literals: &[&str],
    result: Option<Type<'c>>,
) -> Option<Value<'c, 'b>> {
    let literals: Vec<String> = literals.iter().map(|l| l.to_string()).collect();
    let op = block.append_operation(call_opaque(context, callee, operands, &literals, result));
    result.map(|_| op.result(0).expect("a result").into())
}

/// `int32_t main(int32_t argc, char** argv)` with `region` as its body.
pub fn main_function<'c>(context: &'c Context, region: Region<'c>) -> melior::ir::Operation<'c> {
    let function_type = FunctionType::new(
        context,
        &[i32(context), argv_type(context)],
        &[i32(context)],
    );
    crate::emitc::build::func(
        context,
        Location::unknown(context),
        "main",
        function_type,
        &[],
        region,
    )
    .expect("emitc.func builds")
}

/// A block of `main`'s parameters, `argc` and `argv`.
pub fn main_block(context: &Context) -> Block<'_> {
    let location = Location::unknown(context);
    Block::new(&[(i32(context), location), (argv_type(context), location)])
}

/// The parsed arguments (`pto::sim::Args`) of the `main` whose block is
/// `block` (from its argc and argv): the first thing every simulator
/// program does.
pub fn parse_args<'c, 'b>(context: &'c Context, block: &'b Block<'c>) -> Value<'c, 'b> {
    let (argc, argv): (Value, Value) = (
        block.argument(0).unwrap().into(),
        block.argument(1).unwrap().into(),
    );
    call(
        context,
        block,
        "pto::sim::parse_args",
        &[argc, argv],
        &[],
        Some(crate::emitc::build::opaque(context, "pto::sim::Args")),
    )
    .expect("a result")
}

/// `emitc.return code`.
pub fn ret<'c>(context: &'c Context, code: Value<'c, '_>) -> melior::ir::Operation<'c> {
    OperationBuilder::new("emitc.return", Location::unknown(context))
        .add_operands(&[code])
        .build()
        .expect("emitc.return builds")
}

pub fn i32(context: &Context) -> Type<'_> {
    IntegerType::new(context, 32).into()
}

pub fn i64(context: &Context) -> Type<'_> {
    IntegerType::new(context, 64).into()
}

pub fn argv_type(context: &Context) -> Type<'_> {
    Type::parse(context, "!emitc.ptr<!emitc.ptr<!emitc.opaque<\"char\">>>").expect("argv parses")
}

pub fn size_t(context: &Context) -> Type<'_> {
    Type::parse(context, "!emitc.size_t").expect("size_t parses")
}

/// `!emitc.ptr<!emitc.opaque<"pointee">>`.
pub fn pointer<'c>(context: &'c Context, pointee: &str) -> Type<'c> {
    Type::parse(
        context,
        &format!("!emitc.ptr<!emitc.opaque<\"{pointee}\">>"),
    )
    .expect("a pointer parses")
}

/// `pto::sim::CommDomain*`.
pub fn domain_type(context: &Context) -> Type<'_> {
    pointer(context, "pto::sim::CommDomain")
}

/// The product of `factors` (element counts, byte sizes); `None` when it
/// overflows 64 bits.
pub fn checked_product(factors: impl IntoIterator<Item = i64>) -> Option<i64> {
    factors.into_iter().try_fold(1i64, i64::checked_mul)
}

/// `{d0, d1, ...}`: a shape as C++ text.
pub fn shape_text(shape: impl IntoIterator<Item = i64>) -> String {
    let dims: Vec<String> = shape.into_iter().map(|d| d.to_string()).collect();
    format!("{{{}}}", dims.join(", "))
}

pub use crate::emitc::build::operand_index;

/// `callee(args...)`: an `emitc.call_opaque` whose `args` interleave
/// operand positions and C++ text as given.
pub fn call_with_args<'c>(
    context: &'c Context,
    callee: &str,
    args: &[Attribute<'c>],
    operands: &[Value<'c, '_>],
    result: Option<Type<'c>>,
) -> melior::ir::Operation<'c> {
    let mut builder = OperationBuilder::new("emitc.call_opaque", Location::unknown(context))
        .add_attributes(&[
            (
                Identifier::new(context, "callee"),
                StringAttribute::new(context, callee).into(),
            ),
            (
                Identifier::new(context, "args"),
                ArrayAttribute::new(context, args).into(),
            ),
        ])
        .add_operands(operands);
    if let Some(result) = result {
        builder = builder.add_results(&[result]);
    }
    builder.build().expect("emitc.call_opaque builds")
}

/// `callee(operands[0], operands[1], literals..., operands[2..],
/// trailing...)`: a launch on a domain's device of a function the literals
/// name.
pub fn launch_call<'c>(
    context: &'c Context,
    callee: &str,
    literals: &[String],
    operands: &[Value<'c, '_>],
    trailing: &[String],
) -> melior::ir::Operation<'c> {
    let mut args: Vec<Attribute> = vec![operand_index(context, 0), operand_index(context, 1)];
    args.extend(literals.iter().map(|l| opaque_attribute(context, l)));
    args.extend((2..operands.len()).map(|i| operand_index(context, i)));
    args.extend(trailing.iter().map(|l| opaque_attribute(context, l)));
    call_with_args(context, callee, &args, operands, None)
}
