//! Rules of the pl system ops (docs/dialects/pl.md): event ids in range, the
//! two pipes of an intra-core event distinct, no `all` pipe in an event; a
//! prefetched tensor packed row-major (TPREFETCH_ASYNC stages one
//! contiguous range). The other prefetch ops are ODS alone.

use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};

use super::{
    VerifyResult,
    common::{Check, fail, run_rule},
};
use crate::{
    enums::{EnumAttr, Pipe},
    op_table::OpKind,
};

/// Reads integer attribute `name` (ODS guarantees it is there).
pub fn int_attr(op: OperationRef, name: &str) -> Option<i64> {
    let attribute = op.attribute(name).ok()?;
    IntegerAttribute::try_from(attribute)
        .ok()
        .map(|a| a.value())
}

fn require_event<'c>(op: OperationRef<'c, '_>, max: i64) -> VerifyResult<'c> {
    let event = int_attr(op, "event").unwrap_or(-1);
    if !(0..=max).contains(&event) {
        return fail(format!("event id must be in [0, {max}], got {event}"));
    }
    Ok(())
}

fn require_real_pipe<'c>(what: &str, pipe: Option<Pipe>) -> VerifyResult<'c> {
    if pipe == Some(Pipe::All) {
        return fail(format!("{what} pipe must be one pipe, not 'all'"));
    }
    Ok(())
}

fn rule(kind: OpKind) -> Option<Check> {
    Some(match kind {
        OpKind::PlSystemSyncSrc | OpKind::PlSystemSyncDst => verify_intra_core_event,
        OpKind::PlSystemSyncSet | OpKind::PlSystemSyncWait => verify_cross_core_event,
        OpKind::PlPrefetchAsyncPrefetch => verify_prefetch,
        _ => return None,
    })
}

/// Whether the system-op rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    rule(kind).is_some()
}

/// Runs the rules of a `pl.system` op.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    run_rule(op, kind, rule(kind), "system")
}

/// `sync_src` / `sync_dst`: an event between two distinct pipes of one core.
fn verify_intra_core_event<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let (set, wait) = (
        op.enum_attr::<Pipe>("set_pipe"),
        op.enum_attr::<Pipe>("wait_pipe"),
    );
    require_real_pipe("set", set)?;
    require_real_pipe("wait", wait)?;
    if set == wait {
        return fail(format!(
            "an event synchronises two different pipes, got '{}' twice",
            set.map_or("?".into(), |p| p.to_string())
        ));
    }
    require_event(op, 7)
}

/// `sync_set` / `sync_wait`: a cross-core event on one pipe.
fn verify_cross_core_event<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    require_real_pipe("the", op.enum_attr::<Pipe>("pipe"))?;
    require_event(op, 13)
}

/// `async_prefetch`: the whole of a packed row-major tensor, which
/// TPREFETCH_ASYNC stages as one contiguous range (it skips any other).
fn verify_prefetch<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let source = super::common::operand_type(op, 0)?;
    let tensor = crate::types::TensorType::try_from(source)
        .map_err(|e| super::common::Failure::new(e.to_string()))?;
    let view = tensor.view();
    if view.has_strides || view.layout.is_some() {
        return fail(format!(
            "a prefetch stages one contiguous range: the source must be packed row-major, got {source}"
        ));
    }
    Ok(())
}
