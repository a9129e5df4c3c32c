//! The `scf` loops the lowerings build around tile ops: an `scf.for`
//! carrying one value and its `scf.yield`.

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
    let region = Region::new();
    region.append_block(body);
    OperationBuilder::new("scf.for", location)
        .add_operands(&[&bounds[..], &[init]].concat())
        .add_results(&[init.r#type()])
        .add_regions([region])
        .build()
        .map_err(|e| e.to_string())
}
