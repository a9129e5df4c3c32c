//! Rules of the pl system ops (docs/dialects/pl.md): event ids in range, the
//! two pipes of an intra-core event distinct, no `all` pipe in an event.

use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};

use super::{VerifyResult, common::fail};
use crate::enums::Pipe;

/// Reads integer attribute `name` (ODS guarantees it is there).
pub fn int_attr(op: OperationRef, name: &str) -> Option<i64> {
    let attribute = op.attribute(name).ok()?;
    IntegerAttribute::try_from(attribute)
        .ok()
        .map(|a| a.value())
}

fn pipe_attr(op: OperationRef, name: &str) -> Option<Pipe> {
    int_attr(op, name).and_then(|code| Pipe::from_code(code as i32))
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

/// Runs the rules of `pl.system.<mnemonic>`.
pub fn verify<'c>(op: OperationRef<'c, '_>, mnemonic: &str) -> VerifyResult<'c> {
    match mnemonic {
        "sync_src" | "sync_dst" => {
            let (set, wait) = (pipe_attr(op, "set_pipe"), pipe_attr(op, "wait_pipe"));
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
        "sync_set" | "sync_wait" => {
            require_real_pipe("the", pipe_attr(op, "pipe"))?;
            require_event(op, 13)
        }
        _ => Ok(()),
    }
}
