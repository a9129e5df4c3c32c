//! Core groups in orchestrations: a call of a `group` function (an aic and
//! an aiv kernel joined by cross-core pipes, docs/pl-guide.md "Mixed
//! kernels") is its body in place — the slot buffers it makes and the call
//! of each kernel, both marked with [`GROUP`] so that the runtime's lowering
//! submits them as one mixed task.

use std::collections::HashMap;

use melior::ir::{
    BlockLike, OperationRef, RegionLike, Value,
    attribute::StringAttribute,
    operation::{OperationLike, OperationMutLike, WalkOrder},
};
use pto_dialects::enums::FunctionKind;
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{Checked, op_name, operand_at, result_at};

use super::calls::Failure;
use super::kernels::{kind, symbol};

/// The attribute naming the group a kernel call launches with its peer.
pub const GROUP: &str = "pto2.group";

/// Replaces every call of a core group in `orchestration` by the group's
/// body; the groups of `module` are erased.
pub fn inline_groups<'c, 'a>(
    module: OperationRef<'c, 'a>,
    orchestration: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let Some(body) = module.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut groups: HashMap<String, OperationRef> = HashMap::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(op) == "func.func" && kind(op) == Some(FunctionKind::Group) {
            groups.insert(symbol(op), op);
        }
    }
    if groups.is_empty() {
        return Ok(());
    }
    let context = pto_dialects::ir::context(&module);
    let calls = pto_dialects::ir::collect(orchestration, WalkOrder::PreOrder, |op| {
        matches!(OpKind::of(&op), Some(OpKind::PlCall | OpKind::PlSubmit))
            && pto_dialects::attrs::text_of(op, "callee").is_some_and(|c| groups.contains_key(&c))
    });
    for call in calls {
        let name = pto_dialects::attrs::text_of(call, "callee").unwrap_or_default();
        if OpKind::of(&call) == Some(OpKind::PlSubmit) {
            return Err((
                call,
                format!("a submit of core group @{name} is not emitted yet (a call is)"),
            ));
        }
        let group = groups[&name];
        let group_body = group
            .region_opt(0)
            .and_then(|r| r.first_block())
            .ok_or((call, format!("core group @{name} has no body")))?;
        let block = call.block().expect("ops sit in blocks");
        let mut mapped: HashMap<ValueKey, Value> = HashMap::new();
        for i in 0..group_body.argument_count() {
            let parameter: Value = group_body.argument(i).unwrap().into();
            let argument = operand_at(call, i).ok_or((
                call,
                format!("the call passes core group @{name} too few arguments"),
            ))?;
            mapped.insert(ValueKey::of(parameter), argument);
        }
        let mut op = group_body.first_operation();
        while let Some(current) = op {
            op = current.next_in_block();
            if op_name(current) == "func.return" {
                for i in 0..current.operand_count() {
                    let returned = operand_at(current, i).unwrap();
                    let value = mapped.get(&ValueKey::of(returned)).copied().ok_or((
                        call,
                        format!("core group @{name} returns what its kernels do not"),
                    ))?;
                    pto_dialects::ir::replace_all_uses(result_at(call, i).unwrap(), value);
                }
                continue;
            }
            let mut clone = pto_dialects::ir::clone(&current);
            let operands: Vec<Value> = (0..current.operand_count())
                .map(|i| {
                    let operand = operand_at(current, i).unwrap();
                    mapped
                        .get(&ValueKey::of(operand))
                        .copied()
                        .unwrap_or(operand)
                })
                .collect();
            clone.set_operands(&operands);
            if OpKind::of(&current) == Some(OpKind::PlCall) {
                clone.set_attribute(GROUP, StringAttribute::new(context, &name).into());
            }
            let clone = block.insert_operation_before(call, clone);
            for i in 0..current.result_count() {
                mapped.insert(
                    ValueKey::of(result_at(current, i).unwrap()),
                    result_at(clone, i).unwrap(),
                );
            }
        }
        pto_dialects::ir::erase(call);
    }
    for group in groups.into_values() {
        pto_dialects::ir::erase(group);
    }
    Ok(())
}
