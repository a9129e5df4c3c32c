//! Loops and branches yielding host tensors updated in place stand for one
//! buffer (crate::emitc::buffers): the carried and yielded values are
//! dropped and their uses take the tensor's buffer
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::OperationRef;

use super::super::Failure;
use super::super::facts::Facts;

/// Checks that every tensor an `scf.for` or `scf.if` of `function` yields
/// is updated in place, then drops them.
pub(super) fn drop_carried_tensors<'c, 'a>(
    function: OperationRef<'c, 'a>,
    facts: &Facts,
) -> Result<(), Failure<'c, 'a>> {
    let returned = |kernel: &str, k: usize| {
        facts
            .kernels
            .get(kernel)
            .and_then(|kernel| kernel.returns.get(k).copied().flatten())
    };
    let shares = |kernel: &str| {
        facts
            .kernels
            .get(kernel)
            .map_or(Vec::new(), |kernel| kernel.shares.clone())
    };
    crate::emitc::buffers::one_buffer_per_tensor(
        function,
        &returned,
        &shares,
        "simulated on the host",
        true,
    )
}
