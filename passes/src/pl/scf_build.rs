//! The `scf` loops the lowerings build around tile ops: an `scf.for`
//! carrying values and its `scf.yield`.

use melior::ir::{
    Block, Location, Region, RegionLike, Value, ValueLike, operation::OperationBuilder,
};

/// `scf.yield value`.
pub(crate) fn yield_op<'c>(
    location: Location<'c>,
    value: Value<'c, '_>,
) -> Result<melior::ir::Operation<'c>, String> {
    OperationBuilder::new("scf.yield", location)
        .add_operands(&[value])
        .build()
        .map_err(|e| e.to_string())
}

/// An `scf.for` over `bounds` (lower, upper, step) carrying `init` through
/// `body` (whose arguments are the induction variable and the carried
/// value, and which ends in its yield).
pub(crate) fn for_op<'c>(
    location: Location<'c>,
    bounds: [Value<'c, '_>; 3],
    init: Value<'c, '_>,
    body: Block<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    for_carrying(location, bounds, &[init], body)
}

/// An `scf.for` over `bounds` (lower, upper, step) carrying `inits`
/// through `body` (whose arguments are the induction variable and the
/// carried values).
pub(crate) fn for_carrying<'c>(
    location: Location<'c>,
    bounds: [Value<'c, '_>; 3],
    inits: &[Value<'c, '_>],
    body: Block<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    let region = Region::new();
    region.append_block(body);
    let types: Vec<melior::ir::Type> = inits.iter().map(|v| v.r#type()).collect();
    OperationBuilder::new("scf.for", location)
        .add_operands(&[&bounds[..], inits].concat())
        .add_results(&types)
        .add_regions([region])
        .build()
        .map_err(|e| e.to_string())
}

/// Two `scf.for` loops from `zero` by `one`, to `rows` outside and `cols`
/// inside, carrying `init`: `body` fills the inner body (given it, the
/// outer and inner induction variables and the carried value) and returns
/// the value the inner loop yields; the outer loop yields the inner's
/// result.
pub(crate) fn nested_for<'c>(
    context: &'c melior::Context,
    location: Location<'c>,
    [zero, one, rows, cols]: [Value<'c, '_>; 4],
    init: Value<'c, '_>,
    body: impl for<'b> FnOnce(
        &'b Block<'c>,
        Value<'c, 'b>,
        Value<'c, 'b>,
        Value<'c, 'b>,
    ) -> Result<Value<'c, 'b>, String>,
) -> Result<melior::ir::Operation<'c>, String> {
    use melior::ir::{BlockLike, Type};
    let carried_type = init.r#type();
    let index = Type::index(context);
    let inner = Block::new(&[(index, location), (carried_type, location)]);
    let outer = Block::new(&[(index, location), (carried_type, location)]);
    let yielded = body(
        &inner,
        outer.argument(0).unwrap().into(),
        inner.argument(0).unwrap().into(),
        inner.argument(1).unwrap().into(),
    )?;
    inner.append_operation(yield_op(location, yielded)?);
    let inner_loop = outer.append_operation(for_op(
        location,
        [zero, cols, one],
        outer.argument(1).unwrap().into(),
        inner,
    )?);
    outer.append_operation(yield_op(location, inner_loop.result(0).unwrap().into())?);
    for_op(location, [zero, rows, one], init, outer)
}
