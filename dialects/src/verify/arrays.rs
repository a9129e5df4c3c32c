//! Rules of `pl.array` ops (their pages in docs/dialects/pl.md): an element
//! read or written has the array's element type; a constant index lies in
//! the array (under `pl-verify-constants`). Where an array may sit is the
//! function rules' (`functions.rs`): no parameter or result is one, and
//! kernels hold no task ids.

use melior::ir::operation::{OperationLike, OperationRef};

use super::{
    VerifyResult,
    common::{Check, Failure, deciding_constant, fail, operand_type, result_type, run_rule},
};
use crate::{op_table::OpKind, types::ArrayType};

fn rule(kind: OpKind) -> Option<Check> {
    Some(match kind {
        OpKind::PlArrayGetElement | OpKind::PlArrayUpdateElement => verify_access,
        _ => return None,
    })
}

/// Whether the array rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    rule(kind).is_some()
}

/// Runs the rules of an array op.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    run_rule(op, kind, rule(kind), "arrays")
}

/// `get_element` / `update_element`: the element's type, an index inside.
fn verify_access<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let array =
        ArrayType::try_from(operand_type(op, 0)?).map_err(|e| Failure::new(e.to_string()))?;
    let element = if kind == OpKind::PlArrayGetElement {
        result_type(op, 0)?
    } else {
        operand_type(op, 2)?
    };
    if element != array.element() {
        return fail(format!(
            "the element must have the array's element type {}, got {element}",
            array.element()
        ));
    }
    let index = op.operand(1).map_err(|e| Failure::new(e.to_string()))?;
    if let Some(at) = deciding_constant(index)
        && !(0..array.extent()).contains(&at)
    {
        return fail(format!(
            "index {at} is outside the array's {} elements",
            array.extent()
        ));
    }
    Ok(())
}
