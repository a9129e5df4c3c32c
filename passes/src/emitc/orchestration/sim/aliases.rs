//! A simulated chip orchestration passes pointers: a tensor that is another
//! tensor's buffer is that tensor's pointer. Before the kernel calls are
//! lowered, every value that only names another tensor's buffer takes the
//! tensor it names: branch results and loop carries updated in place (one
//! buffer per tensor, as for the host and the runtime), a kernel's result
//! that is a parameter it returns, and a view of a window of static shape
//! (the same elements, row-major).

use std::collections::HashMap;

use melior::ir::{Value, ValueLike, operation::OperationLike, operation::OperationRef};
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::operand_at;
use pto_dialects::types::TensorLike;

use super::super::calls::{Failure, call_arguments, callee};
use super::super::kernels::KernelCall;

/// Replaces, in `chip`, each value naming another tensor's buffer by that
/// tensor (see the module's comment).
pub(super) fn forward<'c, 'a>(
    chip: OperationRef<'c, 'a>,
    kernels: &HashMap<String, KernelCall>,
) -> Result<(), Failure<'c, 'a>> {
    let returned = |kernel: &str, k: usize| {
        kernels
            .get(kernel)
            .and_then(|call| call.returns.get(k).copied().flatten())
    };
    let shares = |kernel: &str| {
        kernels
            .get(kernel)
            .map_or(Vec::new(), |call| call.shares.clone())
    };
    crate::emitc::buffers::one_buffer_per_tensor(chip, &returned, &shares, "simulated", false)?;
    for call in pto_dialects::ir::collect_kinds(chip, &[OpKind::PlCall]) {
        let arguments = call_arguments(call);
        for k in 0..call.result_count() {
            let result: Value = call.result(k).unwrap().into();
            let Some(argument) = returned(&callee(call), k).and_then(|p| arguments.get(p)) else {
                continue;
            };
            if argument.r#type() == result.r#type() {
                pto_dialects::ir::replace_all_uses(result, *argument);
            }
        }
    }
    for view in pto_dialects::ir::collect_kinds(chip, &[OpKind::PlTensorView]) {
        let Some(source) = operand_at(view, 0) else {
            continue;
        };
        let result: Value = view.result(0).unwrap().into();
        if static_window(source) && static_window(result) {
            pto_dialects::ir::replace_all_uses(result, source);
            pto_dialects::ir::erase(view);
        }
    }
    Ok(())
}

/// Whether `value` is a window view of static shape.
fn static_window(value: Value) -> bool {
    TensorLike::try_from(value.r#type())
        .is_ok_and(|t| t.is_distributed() && t.shape().iter().all(Option::is_some))
}
