//! Rules of the pl system ops (docs/dialects/pl.md): event ids in range, the
//! two pipes of an intra-core event distinct, no `all` pipe in an event; a
//! prefetched tensor packed row-major (TPREFETCH_ASYNC stages one
//! contiguous range); a cross-block barrier's operands by its mode and its
//! cores by its kernel's; the event base a long enough i64 vector. The
//! other prefetch ops are ODS alone.

use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};

use super::{
    VerifyResult,
    common::{Check, fail, run_rule},
};
use crate::{
    enums::{EnumAttr, FunctionKind, Pipe, SyncAllMode, SyncCoreType},
    op_table::OpKind,
    ops::Checked,
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
        OpKind::PlSystemSyncall => verify_syncall,
        OpKind::PlSystemSetFfts => verify_set_ffts,
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

/// The static element count of `r#type` if it is a packed tensor of
/// `element` elements (`None`: another type, or dynamic).
fn packed_count(r#type: melior::ir::Type, element: &str, rank: Option<usize>) -> Option<i64> {
    let tensor = crate::types::TensorType::try_from(r#type).ok()?;
    let view = tensor.view();
    if view.has_strides || view.layout.is_some() {
        return None;
    }
    if melior::ir::r#type::ShapedTypeLike::element(&tensor).to_string() != element {
        return None;
    }
    let shape = tensor.shape();
    if rank.is_some_and(|r| r != shape.len()) {
        return None;
    }
    shape.iter().try_fold(1i64, |n, d| n.checked_mul((*d)?))
}

/// `syncall`: hard takes no operands, soft a workspace of at least 16
/// i32 (the 64-byte line it counts in) and a used count that is not
/// negative; the cores are the kernel's (a mix barrier needs a mixed
/// kernel).
fn verify_syncall<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let segments = crate::ops::operand_segments(op);
    let present = |i: usize| segments.get(i).is_some_and(|s| s.1 > 0);
    let (workspace, used) = (present(0), present(1));
    match op.enum_attr::<SyncAllMode>("mode") {
        Some(SyncAllMode::Hard) if workspace || used => {
            return fail(
                "a hard syncall waits on the cores' hardware event: it takes no workspace or used count (a soft one polls them)",
            );
        }
        Some(SyncAllMode::Soft) => {
            if !workspace {
                return fail(
                    "a soft syncall polls a counter in global memory: give it a workspace, a zeroed tensor of at least 16 i32",
                );
            }
            let r#type = op.operand_opt(0).map(|v| melior::ir::ValueLike::r#type(&v));
            let count = r#type.and_then(|t| packed_count(t, "i32", None));
            if count.is_none_or(|n| n < 16) {
                return fail(format!(
                    "a soft syncall's workspace is a packed i32 tensor of at least 16 elements (the 64-byte line its counter owns), got {}",
                    r#type.map_or("nothing".to_string(), |t| t.to_string())
                ));
            }
            if used {
                let used_value = op.operand_opt(segments[0].1);
                if let Some(n) = used_value.and_then(super::common::deciding_constant)
                    && n < 0
                {
                    return fail(format!(
                        "the used block count must not be negative (0 is every block of the launch), got {n}"
                    ));
                }
            }
        }
        _ => {}
    }
    let cores = op.enum_attr::<SyncCoreType>("core_type");
    if cores == Some(SyncCoreType::Mix) {
        return fail(
            "a mix barrier waits for the cube and the vector cores of core groups, which are not translated yet: name the kernel's cores (aiv_only or aic_only)",
        );
    }
    let kernel = crate::ops::enclosing_function(op).and_then(super::functions::function_kind);
    let wanted = match kernel {
        Some(FunctionKind::Aiv) => Some(SyncCoreType::AivOnly),
        Some(FunctionKind::Aic) => Some(SyncCoreType::AicOnly),
        _ => None,
    };
    if let (Some(wanted), Some(cores)) = (wanted, cores)
        && wanted != cores
    {
        return fail(format!(
            "a barrier of the {cores} cores in a kernel that runs on the others never completes: use {wanted}"
        ));
    }
    Ok(())
}

/// `set_ffts`: a 1-D i64 tensor of at least 256 elements, the runtime's
/// cross-core event table.
fn verify_set_ffts<'c>(op: OperationRef<'c, '_>, _kind: OpKind) -> VerifyResult<'c> {
    let r#type = super::common::operand_type(op, 0)?;
    if packed_count(r#type, "i64", Some(1)).is_none_or(|n| n < 256) {
        return fail(format!(
            "the cross-core event base is a static 1-D i64 tensor of at least 256 elements, got {type}"
        ));
    }
    Ok(())
}
