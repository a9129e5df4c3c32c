//! System ops in `convert-pl-to-emitc`: pipe events and barriers
//! (`set_flag`, `wait_flag`, `pipe_barrier` on `PIPE_…`/`EVENT_ID…`) and
//! block queries (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{Attribute, BlockLike, OperationRef, Type, Value, operation::OperationLike};
use pto_dialects::{
    enums::{EnumAttr, Pipe},
    ops::OpKind,
};

use super::{Failure, Lowering, int_attribute, no_lowering};
use crate::emitc::build::opaque_attribute;

/// `PIPE_MTE2` for `mte2`.
fn pipe_name(pipe: Pipe) -> String {
    format!("PIPE_{}", pipe.to_string().to_uppercase())
}

impl<'c, 'a> Lowering<'c, 'a> {
    /// Pipe events and barriers (family `Sync`): `set_flag(PIPE_…, PIPE_…,
    /// EVENT_ID…)`, `wait_flag(…)`, `pipe_barrier(PIPE_…)`.
    pub(super) fn sync(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let pipe = |attr: &str| op.enum_attr::<Pipe>(attr).ok_or((op, format!("no {attr}")));
        let (callee, args): (&str, Vec<Attribute>) = match kind {
            OpKind::PlSystemPipeBarrier => (
                "pipe_barrier",
                vec![opaque_attribute(self.context, &pipe_name(pipe("pipe")?))],
            ),
            OpKind::PlSystemSyncSrc | OpKind::PlSystemSyncDst => {
                let event = int_attribute(op, "event").unwrap_or(0);
                let args = vec![
                    opaque_attribute(self.context, &pipe_name(pipe("set_pipe")?)),
                    opaque_attribute(self.context, &pipe_name(pipe("wait_pipe")?)),
                    opaque_attribute(self.context, &format!("EVENT_ID{event}")),
                ];
                let callee = if kind == OpKind::PlSystemSyncSrc {
                    "set_flag"
                } else {
                    "wait_flag"
                };
                (callee, args)
            }
            _ => return Err(no_lowering(op, kind)),
        };
        self.call(op, callee, &[], Some(args), None);
        self.replaced.push(op);
        Ok(())
    }

    /// Block queries (family `BlockQuery`): the kernel's SPMD parameter
    /// (docs/translate.md, "SPMD launches"), as an index.
    pub(super) fn block_query(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let query = crate::emitc::spmd::Query::of(kind).ok_or_else(|| no_lowering(op, kind))?;
        let parameter = self.spmd[query as usize].ok_or_else(|| {
            (
                op,
                "a block query of a kernel without its SPMD parameter".to_string(),
            )
        })?;
        let location = op.location();
        let index: Value = op
            .block()
            .unwrap()
            .insert_operation_before(
                op,
                melior::dialect::arith::index_cast(parameter, Type::index(self.context), location),
            )
            .result(0)
            .unwrap()
            .into();
        self.replace(op, index);
        Ok(())
    }
}
