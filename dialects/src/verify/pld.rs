//! Rules of the `pld` ops (spec pld.md §2).

use melior::ir::{
    ValueLike,
    operation::{OperationLike, OperationRef},
    r#type::ShapedTypeLike,
};

use super::VerifyResult;
use crate::{diag::OpDiagnostic, types::DistributedTensorType};

/// `pld.system.notify` / `pld.system.wait`: one offset per dimension of the
/// signal ("offsets rank (k) must match target tensor rank (n)").
pub fn verify_signal_offsets<'c>(op: OperationRef<'c, '_>, what: &str) -> VerifyResult<'c> {
    let signal = op.operand(0).map_err(|e| OpDiagnostic::new(e.to_string()))?;
    let signal_type =
        DistributedTensorType::try_from(signal.r#type()).map_err(|e| OpDiagnostic::new(e.to_string()))?;
    // Operands: the signal, the offsets, then two i32 scalars (notify: peer
    // and value) or one (wait: expected).
    let scalars = if op.name().as_string_ref().as_str() == Ok("pld.system.notify") { 2 } else { 1 };
    let offsets = op.operand_count() - 1 - scalars;
    if offsets != signal_type.rank() {
        return Err(OpDiagnostic::new(format!(
            "offsets rank ({offsets}) must match {what} tensor rank ({})",
            signal_type.rank()
        )));
    }
    Ok(())
}
