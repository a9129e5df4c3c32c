//! Builtin collectives: the builtin kernel (translate/builtins/collectives.hpp,
//! included as [`super::super::BUILTINS_FILE`]) launched on every device of
//! the domain, like a dispatch (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{OperationRef, Value, attribute::IntegerAttribute, operation::OperationLike};
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::operand_at;

use super::super::Failure;
use super::super::emit::{checked_product, domain_type, i32, launch_call};
use super::Host;
use super::windows::view_shape;

/// The builtin kernel's name of a builtin collective.
fn collective(kind: OpKind) -> Option<&'static str> {
    Some(match kind {
        OpKind::PldBuiltinAllreduce => "allreduce",
        OpKind::PldBuiltinAllreduceRing => "allreduce_ring",
        OpKind::PldBuiltinBarrier => "barrier",
        OpKind::PldBuiltinBroadcast => "broadcast",
        OpKind::PldBuiltinReduceScatter => "reduce_scatter",
        OpKind::PldBuiltinAllgather => "allgather",
        OpKind::PldBuiltinAllToAll => "all_to_all",
        OpKind::PldBuiltinAllToAllV => "all_to_all_v",
        _ => return None,
    })
}

/// The kernel, the windows it takes first and the values after the
/// CommContext.
type Launch<'c, 'a> = (String, Vec<Value<'c, 'a>>, Vec<Value<'c, 'a>>);

/// One builtin collective op being lowered.
struct Builtin<'c, 'a> {
    op: OperationRef<'c, 'a>,
    /// The collective's name (`allreduce`, ...).
    name: &'static str,
}

impl<'c, 'a> Builtin<'c, 'a> {
    fn fail(&self, message: String) -> Failure<'c, 'a> {
        (self.op, message)
    }

    fn int_attr(&self, name: &str) -> Option<i64> {
        self.op
            .attribute(name)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
    }

    fn dims_of(
        &self,
        host: &Host,
        value: Value,
    ) -> Result<(Vec<Option<i64>>, &'static str), Failure<'c, 'a>> {
        let name = self.name;
        view_shape(host, value).ok_or_else(|| {
            self.fail(format!(
                "a builtin {name} of a value that is not a window view"
            ))
        })
    }

    fn shape_of(
        &self,
        host: &Host,
        value: Value,
    ) -> Result<(Vec<i64>, &'static str), Failure<'c, 'a>> {
        let (shape, element) = self.dims_of(host, value)?;
        let shape: Option<Vec<i64>> = shape.into_iter().collect();
        let name = self.name;
        let shape = shape.ok_or_else(|| {
            self.fail(format!(
                "a builtin {name} of a window of dynamic shape is not simulated yet"
            ))
        })?;
        Ok((shape, element))
    }

    /// The extent of a row (the trailing dimensions, which must be static;
    /// the leading one may be the rank count).
    fn row_of(&self, host: &Host, value: Value) -> Result<(i64, &'static str), Failure<'c, 'a>> {
        let (dims, element) = self.dims_of(host, value)?;
        let row: Option<Vec<i64>> = dims.iter().skip(1).copied().collect();
        let name = self.name;
        let row = row.ok_or_else(|| {
            self.fail(format!(
                "a builtin {name} of rows of dynamic extent is not simulated yet"
            ))
        })?;
        let row = checked_product(row).ok_or_else(|| {
            self.fail(format!(
                "a builtin {name} of rows whose element count overflows 64 bits"
            ))
        })?;
        Ok((row, element))
    }
}

impl<'c, 'a> Host<'c, 'a, '_> {
    pub(super) fn builtin(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let domain = self.domain(op, "a builtin collective")?;
        let Some(name) = collective(kind) else {
            let message = format!("the builtin {} is not simulated yet", kind.info().name);
            return Err((op, message));
        };
        let builtin = Builtin { op, name };
        let windows: Vec<Value> = (0..op.operand_count() - 1)
            .filter_map(|i| operand_at(op, i))
            .collect();
        let device = operand_at(op, op.operand_count() - 1).unwrap();
        // The signal: last, but third of all_to_all_v's five.
        let signal = if kind == OpKind::PldBuiltinAllToAllV {
            windows.get(2)
        } else {
            windows.last()
        };
        let signal =
            *signal.ok_or_else(|| builtin.fail("a builtin collective without a signal".into()))?;
        // Cells of a rank in one signal row are `stride` apart (a
        // [P, cores] signal: one per core; a [rows, P] ring signal: 1).
        let signal_shape = view_shape(self, signal)
            .map(|(shape, _)| shape)
            .unwrap_or_default();
        let stride = match (kind, signal_shape.get(1)) {
            (OpKind::PldBuiltinAllreduce, Some(Some(cores))) => *cores,
            (OpKind::PldBuiltinAllreduce, Some(None)) => return Err(builtin.fail(
                "a builtin allreduce whose signal has a dynamic core count is not simulated yet"
                    .into(),
            )),
            _ => 1,
        };
        let (kernel, data, extra) = self.builtin_launch(&builtin, kind, &windows)?;
        let ctx = self.call_before(
            op,
            "pto::sim::comm_ctx",
            &[signal],
            &[],
            domain_type(self.context),
        );
        let device = self.as_i64(op, device);
        let mut operands = vec![domain, device];
        operands.extend(data);
        operands.push(signal);
        operands.push(ctx);
        operands.extend(extra);
        // The signal row stride goes last.
        let launch = launch_call(
            self.context,
            "pto::sim::launch",
            &[kernel],
            &operands,
            &[stride.to_string()],
        );
        self.emit_before(op, launch);
        self.uses_builtins = true;
        Ok(())
    }

    /// The builtin kernel of `builtin` over `windows`.
    fn builtin_launch(
        &self,
        builtin: &Builtin<'c, 'a>,
        kind: OpKind,
        windows: &[Value<'c, 'a>],
    ) -> Result<Launch<'c, 'a>, Failure<'c, 'a>> {
        let name = builtin.name;
        let reduce = builtin.int_attr("op").unwrap_or(0);
        Ok(match kind {
            OpKind::PldBuiltinAllreduce | OpKind::PldBuiltinAllreduceRing => {
                let element = builtin.dims_of(self, windows[0])?.1;
                let kernel = format!("pto_builtin::{name}<{element}, {reduce}>");
                (
                    kernel,
                    vec![windows[0]],
                    vec![self.count_of(builtin.op, windows[0])],
                )
            }
            OpKind::PldBuiltinBarrier => ("pto_builtin::barrier_only".into(), vec![], vec![]),
            OpKind::PldBuiltinBroadcast => {
                let element = builtin.dims_of(self, windows[0])?.1;
                let root = builtin.int_attr("root").unwrap_or(0);
                let kernel = format!("pto_builtin::broadcast<{element}, {root}>");
                (
                    kernel,
                    vec![windows[0]],
                    vec![self.count_of(builtin.op, windows[0])],
                )
            }
            OpKind::PldBuiltinReduceScatter => {
                let (row, element) = builtin.row_of(self, windows[0])?;
                let kernel = format!("pto_builtin::reduce_scatter<{element}, {row}, {reduce}>");
                (kernel, vec![windows[0]], vec![])
            }
            OpKind::PldBuiltinAllgather | OpKind::PldBuiltinAllToAll => {
                let (row, element) = builtin.row_of(self, windows[1])?;
                let all_to_all = kind == OpKind::PldBuiltinAllToAll;
                let kernel = format!("pto_builtin::exchange<{element}, {row}, {all_to_all}>");
                (kernel, vec![windows[0], windows[1]], vec![])
            }
            OpKind::PldBuiltinAllToAllV => {
                let kernel = self.exchange_v(builtin, windows)?;
                (
                    kernel,
                    vec![windows[0], windows[1], windows[3], windows[4]],
                    vec![],
                )
            }
            _ => unreachable!("collective() names every builtin lowered here"),
        })
    }

    /// The kernel of an all_to_all_v over `windows`.
    fn exchange_v(
        &self,
        builtin: &Builtin<'c, 'a>,
        windows: &[Value<'c, 'a>],
    ) -> Result<String, Failure<'c, 'a>> {
        let name = builtin.name;
        let (shape, element) = builtin.shape_of(self, windows[1])?;
        let rows = shape.first().copied().unwrap_or(1);
        let overflow = || {
            builtin.fail(format!(
                "a builtin {name} whose element counts overflow 64 bits"
            ))
        };
        let row = checked_product(shape.iter().skip(1).copied()).ok_or_else(overflow)?;
        let send = checked_product(builtin.shape_of(self, windows[3])?.0).ok_or_else(overflow)?;
        let recv_shape = builtin.shape_of(self, windows[4])?.0;
        let count_row = checked_product(recv_shape.iter().skip(1).copied()).ok_or_else(overflow)?;
        Ok(format!(
            "pto_builtin::exchange_v<{element}, {row}, {rows}, {send}, {count_row}>"
        ))
    }

    /// The element count of a window, at run time.
    fn count_of(&self, op: OperationRef<'c, 'a>, value: Value<'c, 'a>) -> Value<'c, 'a> {
        self.call_before(op, "pto::sim::elements", &[value], &[], i32(self.context))
    }
}
