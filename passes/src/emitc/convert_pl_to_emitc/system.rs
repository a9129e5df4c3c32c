//! System ops in `convert-pl-to-emitc`: pipe events and barriers
//! (`set_flag`, `wait_flag`, `pipe_barrier` on `PIPE_…`/`EVENT_ID…`) and
//! block queries (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{
    Attribute, BlockLike, OperationRef, Type, Value, operation::OperationLike, r#type::IntegerType,
};
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

    /// Block queries (family `BlockQuery`): `get_block_idx()`,
    /// `get_block_num()`, `get_subblockid()` as an index.
    pub(super) fn block_query(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let callee = match kind {
            OpKind::PlTileGetBlockIdx => "get_block_idx",
            OpKind::PlTileGetBlockNum => "get_block_num",
            OpKind::PlTileGetSubblockIdx => "get_subblockid",
            _ => return Err(no_lowering(op, kind)),
        };
        if self.runtime_entry {
            // The runtime does not program the CCE block registers:
            // its SPMD context is in the entry's arguments.
            return Err((
                op,
                "block queries are not translated for the runtime's kernel_entry yet (its SPMD context is get_block_idx(args) of the runtime's intrinsic.h, not the CCE intrinsic); use --entry=kernel".into(),
            ));
        }
        let value = self
            .call(
                op,
                callee,
                &[],
                None,
                Some(IntegerType::new(self.context, 64).into()),
            )
            .expect("a result");
        let location = op.location();
        let index: Value = op
            .block()
            .unwrap()
            .insert_operation_before(
                op,
                melior::dialect::arith::index_cast(value, Type::index(self.context), location),
            )
            .result(0)
            .unwrap()
            .into();
        self.replace(op, index);
        Ok(())
    }
}
