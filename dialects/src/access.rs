//! How a function's body uses a tensor it is given: read, written, or
//! both. One table of the ops that write their operands, shared by the
//! verifier (`pl.direction` must cover what a kernel does), the outliner
//! and the tensor-to-tile conversion (they infer directions) and the
//! translator (call results are the parameters a kernel writes).

use crate::ops::Checked;
use std::collections::HashSet;

use melior::ir::{
    BlockLike, RegionLike, Value, ValueLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
};

use crate::{
    enums::ParamDirection,
    op_table::{Family, OpKind},
    ops::op_name,
};

/// How an op uses its operand `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Reads it.
    Read,
    /// Overwrites it (a store, a put's destination).
    Write,
    /// Reads and writes it (an atomic add, a notify, a collective's target).
    ReadWrite,
    /// A view or the same tensor under a new name: its uses count
    /// (`pl.tensor.view`, `reshape`, `slice`, a loop's iteration argument).
    Alias,
    /// Neither reads nor writes its elements (a terminator passing it on,
    /// a query of its shape or comm context, a cache invalidation).
    Pass,
}

fn has(op: OperationRef, attribute: &str) -> bool {
    op.attribute(attribute).is_ok()
}

/// A nonzero enum attribute (`atomic` other than none).
fn nonzero(op: OperationRef, attribute: &str) -> bool {
    op.attribute(attribute)
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .is_some_and(|a| a.value() != 0)
}

/// How `op` uses its operand `index` (for the pld ops: docs/pld-guide.md,
/// "Memory effects").
pub fn operand_use(op: OperationRef, index: usize) -> Use {
    use OpKind as K;
    let rmw_if = |atomic: bool| if atomic { Use::ReadWrite } else { Use::Write };
    let Some(kind) = OpKind::of(&op) else {
        // Upstream ops: loops carry, terminators pass on, the rest read.
        return match (op_name(op), index) {
            ("scf.for", i) if i >= 3 => Use::Alias,
            ("scf.yield" | "func.return", _) => Use::Pass,
            _ => Use::Read,
        };
    };
    match (kind, index) {
        (K::PlTileStore, 1) => rmw_if(has(op, "atomic_add")),
        (K::PlTensorAssemble, 1) => rmw_if(has(op, "atomic_add")),
        (K::PlTensorExpandClone, 1) => Use::Write,
        (K::PlTensorWrite, 0) => Use::ReadWrite,
        (K::PldTileRemoteStore | K::PldTensorRemoteStore, 1) => rmw_if(nonzero(op, "atomic")),
        (K::PldTensorPut | K::PldTilePut, 0) => rmw_if(nonzero(op, "atomic")),
        (K::PldTensorGet | K::PldTileGet, 0) => Use::Write,
        (K::PldSystemNotify, 0) => Use::ReadWrite,
        (view, 0) if view.family() == Family::TensorView => Use::Alias,
        (K::PlYield | K::PlTensorDim | K::PldSystemGetCommCtx | K::PlSystemCacheinvalid, _) => {
            Use::Pass
        }
        (collective, i)
            if is_collective(collective)
                && !(is_exchange(collective) && i == 0)
                && distributed(op, i) =>
        {
            Use::ReadWrite
        }
        (K::PlCall | K::PlSubmit | K::PldDispatch, i) => call_use(op, kind, i),
        _ => Use::Read,
    }
}

/// How a call uses argument `index`: as the callee declares it (a call in
/// a function without its callee in reach reads).
fn call_use(op: OperationRef, kind: OpKind, index: usize) -> Use {
    let arguments = match kind {
        OpKind::PlSubmit => crate::ops::operand_segments(op)
            .first()
            .copied()
            .unwrap_or((0, 0)),
        OpKind::PldDispatch => (0, op.operand_count().saturating_sub(1)),
        _ => (0, op.operand_count()),
    };
    if !(arguments.0..arguments.0 + arguments.1).contains(&index) {
        return Use::Read;
    }
    let Some(callee) = crate::attrs::text_of(op, "callee") else {
        return Use::Read;
    };
    let mut top = op;
    while let Some(parent) = top.parent_operation() {
        top = parent;
    }
    let mut direction = None;
    top.walk(WalkOrder::PreOrder, |function| {
        if op_name(function) == "func.func"
            && crate::attrs::text_of(function, "sym_name").as_deref() == Some(callee.as_str())
        {
            direction = declared_direction(function, index - arguments.0);
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    match direction {
        Some(ParamDirection::Out) => Use::Write,
        Some(ParamDirection::InOut) => Use::ReadWrite,
        _ => Use::Read,
    }
}

/// The `pl.direction` parameter `index` of `function` declares, if any.
pub fn declared_direction(function: OperationRef, index: usize) -> Option<ParamDirection> {
    use melior::ir::attribute::{ArrayAttribute, DictionaryAttribute};
    let arg_attrs = ArrayAttribute::try_from(function.attribute("arg_attrs").ok()?).ok()?;
    let dictionary = DictionaryAttribute::try_from(arg_attrs.element(index).ok()?).ok()?;
    match crate::attrs::read(dictionary.element_by_name("pl.direction")?)? {
        crate::attrs::FunctionAttr::Direction(direction) => Some(direction),
        _ => None,
    }
}

fn is_collective(kind: OpKind) -> bool {
    matches!(
        kind.family(),
        Family::Collective | Family::BuiltinCollective
    )
}

/// The collectives whose operand 0 is the local input of an exchange (read,
/// not written).
fn is_exchange(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::PldTensorAllgather
            | OpKind::PldTensorAllToAll
            | OpKind::PldTensorAllToAllV
            | OpKind::PldBuiltinAllgather
            | OpKind::PldBuiltinAllToAll
            | OpKind::PldBuiltinAllToAllV
    )
}

fn distributed(op: OperationRef, index: usize) -> bool {
    op.operand(index)
        .is_ok_and(|v| v.r#type().to_string().starts_with("!pld.dtensor"))
}

/// The values that stand for the same tensor as operand `index` of `op`
/// after it: a writing op's results of the operand's type (a store returns
/// the tensor it wrote), a view's results, a loop's iteration argument and
/// result.
fn aliases_after<'c, 'a>(
    op: OperationRef<'c, 'a>,
    index: usize,
    operand: Value<'c, 'a>,
) -> Vec<Value<'c, 'a>> {
    let mut out = Vec::new();
    if op_name(op) == "scf.for" {
        if let Ok(result) = op.result(index - 3) {
            out.push(result.into());
        }
        if let Some(argument) = op
            .region_opt(0)
            .and_then(|r| r.first_block())
            .and_then(|b| {
                (index - 2 < b.argument_count()).then(|| b.argument(index - 2).expect("in range"))
            })
        {
            out.push(argument.into());
        }
        return out;
    }
    let view = operand_use(op, index) == Use::Alias;
    for result in op.results() {
        let result: Value = result.into();
        if view || result.r#type() == operand.r#type() {
            out.push(result);
        }
    }
    out
}

/// The values in `scope` that stand for `value` (itself, and what stores,
/// views and loops make of it), with every use of them in `scope` (`scope`
/// itself included). Follows use lists, so the cost is the number of uses,
/// not the size of `scope`.
fn aliases(scope: OperationRef, value: Value) -> (HashSet<usize>, Vec<Use>) {
    let key = |v: Value| v.to_raw().ptr as usize;
    let scope_key = crate::ir::OpKey::of(&scope);
    let within = |op: OperationRef| {
        let mut current = Some(op);
        while let Some(op) = current {
            if crate::ir::OpKey::of(&op) == scope_key {
                return true;
            }
            current = op.parent_operation();
        }
        false
    };
    let mut aliases: HashSet<usize> = HashSet::from([key(value)]);
    let mut work = vec![value];
    let mut uses = Vec::new();
    while let Some(alias) = work.pop() {
        for (op, index) in crate::ir::uses(alias) {
            if !within(op) {
                continue;
            }
            let how = operand_use(op, index);
            uses.push(how);
            if how != Use::Read && how != Use::Pass {
                for after in aliases_after(op, index, alias) {
                    if aliases.insert(key(after)) {
                        work.push(after);
                    }
                }
            }
        }
    }
    (aliases, uses)
}

/// How `scope`'s ops use `value` (and the values that stand for it): `In`
/// when they only read it, `Out` when they only write it, `InOut` when they
/// do both or read-modify-write it. `None` when nothing uses it.
pub fn access(scope: OperationRef, value: Value) -> Option<ParamDirection> {
    let (_, uses) = aliases(scope, value);
    let read = uses.iter().any(|u| matches!(u, Use::Read | Use::ReadWrite));
    let written = uses
        .iter()
        .any(|u| matches!(u, Use::Write | Use::ReadWrite));
    match (written, read) {
        (true, true) => Some(ParamDirection::InOut),
        (true, false) => Some(ParamDirection::Out),
        (false, true) => Some(ParamDirection::In),
        (false, false) => None,
    }
}

/// The parameter of `function` that `value` stands for (through stores,
/// views and loops), if any: what a kernel returns is one of the tensors it
/// was given.
pub fn parameter_of(function: OperationRef, value: Value) -> Option<usize> {
    let body = function.region_opt(0)?.first_block()?;
    let key = value.to_raw().ptr as usize;
    (0..body.argument_count()).find(|&i| {
        aliases(function, body.argument(i).unwrap().into())
            .0
            .contains(&key)
    })
}
