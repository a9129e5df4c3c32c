//! Small IR queries the pld passes share.

use melior::ir::operation::{OperationLike, OperationRef};
use pto_dialects::{
    attrs::{self, FunctionAttr},
    enums::Level,
};

/// The op's name (`"pld.tensor.barrier"`); empty if it is not UTF-8.
pub fn op_name(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or_default().to_string()
}

/// Whether a `func.func` runs on the host (`pl.level = #pl.level<host>`).
pub fn is_host(function: OperationRef) -> bool {
    function.attribute("pl.level").ok().and_then(attrs::read) == Some(FunctionAttr::Level(Level::Host))
}
