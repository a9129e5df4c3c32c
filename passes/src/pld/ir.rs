//! Small IR queries the pld passes share.

use melior::ir::{
    Block, BlockLike,
    operation::{OperationLike, OperationRef},
};
pub use pto_dialects::ir::detach;
pub use pto_dialects::ops::{enclosing_function, op_name};
use pto_dialects::{
    attrs::{self, FunctionAttr},
    enums::Level,
};

/// Whether a `func.func` runs on the host (`pl.level = #pl.level<host>`).
pub fn is_host(function: OperationRef) -> bool {
    function.attribute("pl.level").ok().and_then(attrs::read)
        == Some(FunctionAttr::Level(Level::Host))
}

/// Moves every op of `scratch`, in order, before `anchor` (expansions are
/// built in a scratch block, then spliced in place).
pub fn splice_before(scratch: &Block, anchor: OperationRef) {
    let block = anchor.block().expect("the anchor is in a block");
    while let Some(first) = scratch.first_operation() {
        block.insert_operation_before(anchor, detach(first));
    }
}
