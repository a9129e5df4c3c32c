//! Asynchronous L2 prefetches in `convert-pl-to-emitc`: pto-isa's
//! `PrefetchAsyncContext`, `TPREFETCH_ASYNC` on a `GlobalTensor` of the
//! whole tensor, and two helpers for the context's session and the wait
//! (a field and a method, which EmitC does not call).

use melior::ir::{OperationRef, Type};
use pto_dialects::ops::{OpKind, operand_at};

use super::{Failure, Lowering, no_lowering};
use crate::emitc::build::opaque;

/// The session of a context (a pointer to its field: the session is built
/// at the context's first prefetch) and the wait for an event in it.
pub(super) const PREFETCH_HELPERS: &str = "#ifndef PTO_PREFETCH_HELPERS
#define PTO_PREFETCH_HELPERS
static AICORE inline comm::AsyncSession* pto_prefetch_session(PrefetchAsyncContext& context) { return &context.session; }
static AICORE inline bool pto_prefetch_wait(const comm::AsyncEvent& event, comm::AsyncSession* session) { return event.Wait(*session); }
#endif";

impl<'c, 'a> Lowering<'c, 'a> {
    /// The prefetch family: a context (`PrefetchAsyncContext()`, no SDMA
    /// workspace: pto-isa then issues no prefetch), `TPREFETCH_ASYNC(gm,
    /// context)`, the session and the wait through [`PREFETCH_HELPERS`].
    pub(super) fn prefetch(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let operand = |i: usize| operand_at(op, i).ok_or((op, format!("no operand #{i}")));
        let value = match kind {
            OpKind::PlPrefetchMakeContext => self.call(
                op,
                "PrefetchAsyncContext",
                &[],
                None,
                Some(opaque(self.context, "PrefetchAsyncContext")),
            ),
            OpKind::PlPrefetchAsyncPrefetch => {
                let global = self.whole_tensor(op, operand(0)?)?;
                self.call(
                    op,
                    "TPREFETCH_ASYNC",
                    &[global, operand(1)?],
                    None,
                    Some(opaque(self.context, "comm::AsyncEvent")),
                )
            }
            OpKind::PlPrefetchSession => self.call(
                op,
                "pto_prefetch_session",
                &[operand(0)?],
                None,
                Some(
                    Type::parse(
                        self.context,
                        "!emitc.ptr<!emitc.opaque<\"comm::AsyncSession\">>",
                    )
                    .expect("the session pointer type parses"),
                ),
            ),
            OpKind::PlPrefetchWait => self.call(
                op,
                "pto_prefetch_wait",
                &[operand(0)?, operand(1)?],
                None,
                Some(Type::parse(self.context, "i1").expect("i1 parses")),
            ),
            _ => return Err(no_lowering(op, kind)),
        };
        self.prefetches = true;
        let value = value.ok_or((op, "the call has no result".to_string()))?;
        self.replace(op, value);
        Ok(())
    }
}
