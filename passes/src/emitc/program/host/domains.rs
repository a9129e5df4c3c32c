//! Comm domain scopes: a domain object, the body inline, then every
//! dispatch joined and every window slot written and compared
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{
    BlockLike, OperationRef, RegionLike, Value,
    attribute::DenseI64ArrayAttribute,
    operation::{OperationLike, OperationMutLike, OperationResult, WalkOrder, WalkResult},
};
use pto_dialects::ir::OpKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{Checked, operand_at, result_at};

use super::super::Failure;
use super::super::emit::domain_type;
use super::Host;
use crate::emitc::build::call_opaque;

/// What a simulator program does with a window slot once every device has
/// finished: a slot the program names is an output (written and compared
/// like pto-run's); one the compiler synthesized (`__…`, e.g. the signals of
/// pld-synthesize-allreduce-signals) has no counterpart in the unlowered
/// program, so its cells are checked to be released (zero) instead.
pub(super) fn window_epilogue(slot: &str) -> &'static str {
    if slot.starts_with("__") {
        "pto::sim::expect_released"
    } else {
        "pto::sim::finish_window"
    }
}

fn text(op: OperationRef, name: &str) -> Option<String> {
    op.attribute(name).ok().and_then(pto_dialects::attrs::text)
}

impl<'c, 'a> Host<'c, 'a, '_> {
    /// The dispatches of `function` outside every comm domain run in a
    /// domain of their own over every device, without windows (they have
    /// none to share), made at the top of the function: each is joined
    /// where it is, so it has finished before the host goes on.
    pub(super) fn lone_dispatches(
        &mut self,
        function: OperationRef<'c, 'a>,
        first: OperationRef<'c, 'a>,
    ) {
        let lone: Vec<OperationRef> =
            pto_dialects::ir::collect_kinds(function, &[OpKind::PldDispatch])
                .into_iter()
                .filter(|op| !self.domain_of.contains_key(&OpKey::of(op)))
                .collect();
        if lone.is_empty() {
            return;
        }
        let make = call_opaque(
            self.context,
            "pto::sim::lone_domain",
            &[self.args],
            &[],
            Some(domain_type(self.context)),
        );
        let block = first.block().expect("the entry");
        let domain: Value = block
            .insert_operation_before(first, make)
            .result(0)
            .unwrap()
            .into();
        for op in lone {
            self.domain_of.insert(OpKey::of(&op), domain);
            self.joined_alone.insert(OpKey::of(&op));
        }
    }

    /// Every comm domain of `function` inlined.
    pub(super) fn inline_domains(
        &mut self,
        function: OperationRef<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let scopes = pto_dialects::ir::collect_kinds(function, &[OpKind::PldCommDomain]);
        for scope in scopes {
            self.inline_domain(scope)?;
        }
        Ok(())
    }

    fn inline_domain(&mut self, scope: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let block = scope
            .block()
            .ok_or_else(|| (scope, "a comm domain outside a block".to_string()))?;
        let name = text(scope, "sym_name").unwrap_or_default();
        // A fixed device list: its members are the domain's ranks, in list
        // order (an empty list: every device, rank = device).
        let devices: Vec<i64> = scope
            .attribute("devices")
            .ok()
            .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
            .map(|d| (0..d.len()).filter_map(|i| d.element(i).ok()).collect())
            .unwrap_or_default();
        let mut literals = vec![format!("\"{name}\"")];
        literals.extend(devices.iter().map(|d| format!("int64_t({d})")));
        let make = call_opaque(
            self.context,
            "pto::sim::domain",
            &[self.args],
            &literals,
            Some(domain_type(self.context)),
        );
        let domain: Value = block
            .insert_operation_before(scope, make)
            .result(0)
            .unwrap()
            .into();
        let body = scope
            .region_opt(0)
            .and_then(|r| r.first_block())
            .ok_or_else(|| (scope, "an empty comm domain".to_string()))?;
        let windows = self.windows_of(scope, domain);
        // The body's ops move before the scope (its yield, if any, stays).
        while let Some(first) = body.first_operation() {
            let is_yield = OpKind::of(&first) == Some(OpKind::PldYield);
            if first.next_in_block().is_none() && is_yield {
                break;
            }
            pto_dialects::ir::edit(first).move_before(scope);
        }
        let join = call_opaque(self.context, "pto::sim::join", &[domain], &[], None);
        block.insert_operation_before(scope, join);
        for (slot, view) in windows {
            let literals = [format!("\"{slot}\"")];
            let epilogue = call_opaque(
                self.context,
                window_epilogue(&slot),
                &[self.args, view],
                &literals,
                None,
            );
            block.insert_operation_before(scope, epilogue);
        }
        // The scope is empty now and unused.
        pto_dialects::ir::erase(scope);
        Ok(())
    }

    /// Every op of `scope` gets `domain`; the first view of each slot
    /// names its output.
    fn windows_of(
        &mut self,
        scope: OperationRef<'c, 'a>,
        domain: Value<'c, 'a>,
    ) -> Vec<(String, Value<'c, 'a>)> {
        let mut windows: Vec<(String, Value)> = Vec::new();
        pto_dialects::ir::walk(scope, WalkOrder::PreOrder, |op| {
            self.domain_of.insert(OpKey::of(&op), domain);
            if OpKind::of(&op) == Some(OpKind::PldTensorWindow)
                && let (Some(slot), Some(view)) = (operand_at(op, 0), result_at(op, 0))
                && let Ok(alloc) = OperationResult::try_from(slot).map(|r| r.owner())
                && let Some(slot_name) = text(alloc, "name")
                && !windows.iter().any(|w| w.0 == slot_name)
            {
                windows.push((slot_name, view));
            }
            WalkResult::Advance
        });
        windows
    }
}
