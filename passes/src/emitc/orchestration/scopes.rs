//! The runtime scopes of an orchestration (`pl.runtime_scope`). For the
//! runtime each becomes a `PTO2_SCOPE() { ... }` block,
//! `PTO2_SCOPE(PTO2ScopeMode::MANUAL)` for a manual one (the runtime then
//! tracks no dependencies inside it and a task waits only for the ids its
//! submit passes), the body's ops in place between the two markers. Where
//! tasks run at once in submission order (the host simulator's programs),
//! a scope is its body.

use melior::ir::{
    BlockLike, Location, OperationRef, RegionLike,
    operation::{OperationLike, OperationMutLike, WalkOrder, WalkResult},
};
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::Checked;

use super::calls::Failure;
use crate::emitc::build::verbatim;

/// Opens each runtime scope of `function` into its body; with `blocks`,
/// between the `PTO2_SCOPE` markers, and a scope with results is refused
/// (what its body defines would be used past the block's closing brace);
/// without, the scope's results are the values its body yields.
pub(crate) fn open_runtime_scopes<'c, 'a>(
    function: OperationRef<'c, 'a>,
    blocks: bool,
) -> Result<(), Failure<'c, 'a>> {
    let context = pto_dialects::ir::context(&function);
    let mut scopes = Vec::new();
    pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
        if OpKind::of(&op) == Some(OpKind::PlRuntimeScope) {
            scopes.push(op);
        }
        WalkResult::Advance
    });
    let marker = |text: &str| verbatim(context, Location::unknown(context), text, &[]);
    // Outer scopes first: an inner one moves out with its parent's body.
    for scope in scopes {
        if blocks && scope.result_count() > 0 {
            return Err((
                scope,
                "a runtime scope with results is not emitted for the runtime yet: make the tensors its tasks fill before it (then it yields nothing)".to_string(),
            ));
        }
        let parent = scope.block().expect("ops sit in blocks");
        let body = scope
            .region_opt(0)
            .and_then(|r| r.first_block())
            .ok_or_else(|| (scope, "a runtime scope without a body".to_string()))?;
        if blocks {
            let mode = if scope.attribute("manual").is_ok() {
                "PTO2_SCOPE(PTO2ScopeMode::MANUAL) {"
            } else {
                "PTO2_SCOPE() {"
            };
            parent.insert_operation_before(scope, marker(mode));
        }
        let mut ops = Vec::new();
        let mut next = body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            ops.push(op);
        }
        for op in ops {
            if OpKind::of(&op) == Some(OpKind::PlYield) {
                for index in 0..scope.result_count() {
                    let yielded = op.operand(index).map_err(|e| (scope, e.to_string()))?;
                    let result = scope.result(index).map_err(|e| (scope, e.to_string()))?;
                    pto_dialects::ir::replace_all_uses(result, yielded);
                }
                continue;
            }
            pto_dialects::ir::edit(op).move_before(scope);
        }
        if blocks {
            parent.insert_operation_before(scope, marker("}"));
        }
        pto_dialects::ir::erase(scope);
    }
    Ok(())
}
