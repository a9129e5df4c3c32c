//! Tensors as buffers in orchestrations and host programs: a tensor is one
//! buffer, so the values of loops and branches that stand for a tensor
//! updated in place are replaced by it before lowering
//! (docs/translate.md, "One buffer per tensor").

use melior::ir::OperationRef;

use crate::emitc::orchestration::calls::Failure;
use crate::emitc::{branches, carried, convert_pl_to_emitc};

/// Drops the tensor results of `function`'s branches and loops: branch
/// results assembled after the branch are assembled in it, kernels'
/// fresh outputs take the buffer of a loop's accumulator where they may,
/// and what remains must update one tensor in place (else refused: `what`
/// says how, "simulated on the host") or, where `rebinding` allows it, is
/// a rebinding carry the loop keeps (crate::emitc::carried::is_rebinding).
/// `returned(kernel, k)` is the parameter kernel `kernel` returns as its
/// result `k`; `shares(kernel)` its (input, output) parameters that may
/// share a buffer.
pub fn one_buffer_per_tensor<'c, 'a>(
    function: OperationRef<'c, 'a>,
    returned: &dyn Fn(&str, usize) -> Option<usize>,
    shares: &dyn Fn(&str) -> Vec<(usize, usize)>,
    what: &str,
    rebinding: bool,
) -> Result<(), Failure<'c, 'a>> {
    branches::sink_assembles(function)?;
    branches::drop_branch_tensors(function, returned, what)?;
    carried::share_carried_outputs(function, returned, shares);
    carried::check_updates_in_place(function, returned, what, rebinding)?;
    convert_pl_to_emitc::drop_carried_buffers_but(function, &|for_op, i| {
        carried::is_rebinding(for_op, i, returned).unwrap_or(false)
    })
}
