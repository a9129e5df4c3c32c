//! Loops carrying host tensors updated in place carry one buffer
//! (crate::emitc::carried): the carried value is dropped and the body and
//! the code after the loop use the init's buffer
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::OperationRef;

use super::super::Failure;
use super::super::facts::Facts;

/// Checks that every tensor an `scf.for` of `function` carries is updated
/// in place, then drops them.
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
    crate::emitc::carried::check_updates_in_place(function, &returned, "simulated on the host")?;
    crate::emitc::convert_pl_to_emitc::drop_carried_buffers(function)
}
