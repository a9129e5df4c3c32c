//! System ops in `convert-pl-to-emitc`: pipe events and barriers
//! (`set_flag`, `wait_flag`, `pipe_barrier` on `PIPE_…`/`EVENT_ID…`),
//! cross-block barriers and the cross-core event base, and block queries
//! (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{Attribute, BlockLike, OperationRef, Type, Value, operation::OperationLike};
use pto_dialects::{
    enums::{EnumAttr, Pipe, SyncAllMode, SyncCoreType},
    ops::{OpKind, operand_at},
};

use super::{Failure, Lowering, int_attribute, no_lowering};
use crate::emitc::build::opaque_attribute;

/// The barrier and event-base helpers: pto-isa's `SYNCALL` (hard, or
/// soft over a 16-int32 GlobalTensor of the workspace) and
/// `set_ffts_base_addr` on the device; in a simulator build (its harness,
/// pto/sim/backend.hpp, comes first) the simulator's barrier across the
/// launch's threads (pto/sim/spmd.hpp), and no event base. `Cores` is
/// pto-isa's SyncCoreType code.
pub(super) const BARRIER_HELPERS: &str = "#ifndef PTO_BARRIER_HELPERS
#define PTO_BARRIER_HELPERS
#if defined(PTO_SIM_BACKEND_HPP)
template <int Cores> static inline void pto_syncall() { pto::sim::syncall(); }
template <int Cores> static inline void pto_syncall_soft(__gm__ int32_t*, int32_t used) { pto::sim::syncall(used); }
static inline void pto_set_ffts(__gm__ int64_t*) {}
#else
template <int Cores> static AICORE inline void pto_syncall() { SYNCALL<static_cast<SyncCoreType>(Cores)>(); }
template <int Cores> static AICORE inline void pto_syncall_soft(__gm__ int32_t* workspace, int32_t used) {
  GlobalTensor<int32_t, pto::Shape<1, 1, 1, 1, 16>, pto::Stride<16, 16, 16, 16, 1>> counter(workspace);
  SYNCALL<SyncAllMode::Soft, static_cast<SyncCoreType>(Cores)>(counter, used);
}
static AICORE inline void pto_set_ffts(__gm__ int64_t* base) {
#ifndef __CPU_SIM
  set_ffts_base_addr(reinterpret_cast<uint64_t>(base));
#else
  (void)base;
#endif
}
#endif
#endif";

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
            OpKind::PlSystemSyncall | OpKind::PlSystemSetFfts => return self.barrier(op, kind),
            _ => return Err(no_lowering(op, kind)),
        };
        self.call(op, callee, &[], Some(args), None);
        self.replaced.push(op);
        Ok(())
    }

    /// `pl.system.syncall` and `pl.system.set_ffts` through
    /// [`BARRIER_HELPERS`]: `pto_syncall<cores>()`,
    /// `pto_syncall_soft<cores>(workspace, used)`, `pto_set_ffts(base)`.
    fn barrier(&mut self, op: OperationRef<'c, 'a>, kind: OpKind) -> Result<(), Failure<'c, 'a>> {
        self.barriers = true;
        if kind == OpKind::PlSystemSetFfts {
            let base = operand_at(op, 0).ok_or((op, "no event base".to_string()))?;
            self.call(op, "pto_set_ffts", &[base], None, None);
            self.replaced.push(op);
            return Ok(());
        }
        let cores = match op.enum_attr::<SyncCoreType>("core_type") {
            Some(SyncCoreType::AivOnly) => "0",
            Some(SyncCoreType::AicOnly) => "1",
            _ => return Err((op, "a mix barrier needs a mixed kernel".to_string())),
        };
        let cores = [opaque_attribute(self.context, cores)];
        let segments = pto_dialects::ops::operand_segments(op);
        let operands: Vec<Value> = op.operands().collect();
        if op.enum_attr::<SyncAllMode>("mode") == Some(SyncAllMode::Soft) {
            let workspace = *operands.first().ok_or((op, "no workspace".to_string()))?;
            match segments.get(1).filter(|s| s.1 > 0) {
                Some(&(start, _)) => {
                    self.templated_call(
                        op,
                        "pto_syncall_soft",
                        &cores,
                        &[workspace, operands[start]],
                        None,
                        None,
                    );
                }
                None => {
                    let args = vec![
                        crate::emitc::build::operand_index(self.context, 0),
                        opaque_attribute(self.context, "0"),
                    ];
                    self.templated_call(
                        op,
                        "pto_syncall_soft",
                        &cores,
                        &[workspace],
                        Some(args),
                        None,
                    );
                }
            }
        } else {
            self.templated_call(op, "pto_syncall", &cores, &[], None, None);
        }
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
