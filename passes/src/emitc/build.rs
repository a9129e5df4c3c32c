//! Small builders of EmitC IR shared by the conversion and pto-translate's
//! generated programs: opaque types and attributes, `__gm__` pointers,
//! includes and verbatim text (with format operands for member calls, which
//! EmitC has no op for).

use melior::{
    Context,
    ir::{
        Attribute, Identifier, Location, Region, Type, Value,
        attribute::{ArrayAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        operation::OperationBuilder,
        r#type::FunctionType,
    },
};

/// `emitc.func @name` of `function_type` over `region`, with the C++
/// `specifiers` (none: no attribute).
pub fn func<'c>(
    context: &'c Context,
    location: Location<'c>,
    name: &str,
    function_type: FunctionType<'c>,
    specifiers: &[&str],
    region: Region<'c>,
) -> Result<melior::ir::Operation<'c>, melior::Error> {
    let mut attributes = vec![
        (
            Identifier::new(context, "sym_name"),
            StringAttribute::new(context, name).into(),
        ),
        (
            Identifier::new(context, "function_type"),
            TypeAttribute::new(function_type.into()).into(),
        ),
    ];
    if !specifiers.is_empty() {
        let specifiers: Vec<Attribute> = specifiers
            .iter()
            .map(|s| StringAttribute::new(context, s).into())
            .collect();
        attributes.push((
            Identifier::new(context, "specifiers"),
            ArrayAttribute::new(context, &specifiers).into(),
        ));
    }
    OperationBuilder::new("emitc.func", location)
        .add_attributes(&attributes)
        .add_regions([region])
        .build()
}

/// `!emitc.opaque<"text">`.
pub fn opaque<'c>(context: &'c Context, text: &str) -> Type<'c> {
    pto_dialects::ir::emitc::opaque_type(context, text)
}

/// `#emitc.opaque<"text">`: C++ text as a call argument.
pub fn opaque_attribute<'c>(context: &'c Context, text: &str) -> Attribute<'c> {
    pto_dialects::ir::emitc::opaque_attribute(context, text)
}

/// `__gm__ element*`.
pub fn pointer<'c>(context: &'c Context, element: &str) -> Type<'c> {
    Type::parse(
        context,
        &format!("!emitc.ptr<!emitc.opaque<\"__gm__ {element}\">>"),
    )
    .expect("a pointer type parses")
}

/// `#include "file"` (`<file>` when `standard`).
pub fn include<'c>(context: &'c Context, file: &str, standard: bool) -> melior::ir::Operation<'c> {
    let mut builder = OperationBuilder::new("emitc.include", Location::unknown(context))
        .add_attributes(&[(
            Identifier::new(context, "include"),
            StringAttribute::new(context, file).into(),
        )]);
    if standard {
        builder = builder.add_attributes(&[(
            Identifier::new(context, "is_standard_include"),
            Attribute::unit(context),
        )]);
    }
    builder.build().expect("emitc.include builds")
}

/// `text` as it is, each `{}` replaced by the next of `operands`.
pub fn verbatim<'c>(
    context: &'c Context,
    location: Location<'c>,
    text: &str,
    operands: &[Value<'c, '_>],
) -> melior::ir::Operation<'c> {
    OperationBuilder::new("emitc.verbatim", location)
        .add_attributes(&[(
            Identifier::new(context, "value"),
            StringAttribute::new(context, text).into(),
        )])
        .add_operands(operands)
        .build()
        .expect("emitc.verbatim builds")
}

/// `callee(operands..., literals...)`: an `emitc.call_opaque` whose literal
/// arguments (C++ text) follow the operands.
pub fn call_opaque<'c>(
    context: &'c Context,
    callee: &str,
    operands: &[Value<'c, '_>],
    literals: &[String],
    result: Option<Type<'c>>,
) -> melior::ir::Operation<'c> {
    let mut builder = OperationBuilder::new("emitc.call_opaque", Location::unknown(context))
        .add_attributes(&[(
            Identifier::new(context, "callee"),
            StringAttribute::new(context, callee).into(),
        )])
        .add_operands(operands);
    if !literals.is_empty() {
        let mut args: Vec<Attribute> = (0..operands.len())
            .map(|i| operand_index(context, i))
            .collect();
        args.extend(literals.iter().map(|l| opaque_attribute(context, l)));
        builder = builder.add_attributes(&[(
            Identifier::new(context, "args"),
            ArrayAttribute::new(context, &args).into(),
        )]);
    }
    if let Some(result) = result {
        builder = builder.add_results(&[result]);
    }
    builder.build().expect("emitc.call_opaque builds")
}

/// `builtin.unrealized_conversion_cast` of `value` to `to`, for the EmitC
/// conversions to reconcile.
pub fn cast<'c>(
    context: &'c Context,
    value: Value<'c, '_>,
    to: Type<'c>,
) -> melior::ir::Operation<'c> {
    OperationBuilder::new(
        "builtin.unrealized_conversion_cast",
        Location::unknown(context),
    )
    .add_operands(&[value])
    .add_results(&[to])
    .build()
    .expect("a cast builds")
}

/// The `args` entry of `emitc.call_opaque` that names operand `i`.
pub fn operand_index(context: &Context, i: usize) -> Attribute<'_> {
    IntegerAttribute::new(Type::index(context), i as i64).into()
}
