//! A chip orchestration's `pl.call`: a call of the kernel with this rank's
//! pointers, a host tensor's data (and its extent when the kernel's leading
//! one is dynamic), and a window's dynamic extents.

use melior::ir::{BlockLike, BlockRef, OperationRef, Value, operation::OperationLike};
use pto_dialects::ir::{ValueKey, has_uses};
use pto_dialects::ops::operand_at;

use super::super::calls::{Failure, callee};
use super::{Chip, Parameter, pointer, size_t};
use crate::emitc::build::call_opaque;

impl<'c, 'a> Chip<'c, 'a, '_> {
    /// The call of `op`'s kernel, its extents after all other arguments.
    pub(super) fn call(
        &self,
        op: OperationRef<'c, 'a>,
    ) -> Result<melior::ir::Operation<'c>, Failure<'c, 'a>> {
        let callee = callee(op);
        let entry = op
            .block()
            .ok_or_else(|| self.fail("a call outside any block"))?;
        let parameters = self
            .kernels
            .get(&callee)
            .ok_or_else(|| self.fail(format!("@{callee} is not a translated kernel")))?;
        if (0..op.result_count()).any(|i| has_uses(op.result(i).unwrap())) {
            return Err(
                self.fail(format!("a result of @{callee} that is not a parameter it returns is used in a chip orchestration; that is not simulated yet"))
            );
        }
        let mut operands: Vec<Value> = Vec::new();
        let mut extents: Vec<Value> = Vec::new();
        for (i, argument) in (0..op.operand_count())
            .filter_map(|i| operand_at(op, i))
            .enumerate()
        {
            let parameter = parameters.get(i).and_then(Option::as_ref);
            if self.host_tensors.contains(&ValueKey::of(argument)) {
                self.pass_host_tensor(entry, op, argument, parameter, &mut operands, &mut extents);
                continue;
            }
            operands.push(argument);
            if parameter.is_some_and(|p| p.distributed) {
                self.window_extents(&callee, argument, parameter.unwrap(), &mut extents)?;
            }
        }
        operands.extend(extents);
        let queries = self
            .calls
            .get(&callee)
            .map(|call| call.queries)
            .unwrap_or_default();
        Ok(crate::emitc::spmd::sim_call(
            self.context,
            &callee,
            queries,
            None,
            false,
            &operands,
        ))
    }

    /// A host tensor passes its data, and its extent when the kernel's
    /// leading one is dynamic.
    fn pass_host_tensor(
        &self,
        entry: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
        argument: Value<'c, 'a>,
        parameter: Option<&Parameter>,
        operands: &mut Vec<Value<'c, 'a>>,
        extents: &mut Vec<Value<'c, 'a>>,
    ) {
        let element = parameter.map_or("float", |p| p.element.as_str());
        let data = call_opaque(
            self.context,
            "pto::sim::data",
            &[argument],
            &[],
            Some(pointer(self.context, element)),
        );
        let data = entry.insert_operation_before(op, data);
        operands.push(data.result(0).unwrap().into());
        let shape = parameter.map_or(&[][..], |p| &p.shape[..]);
        for axis in crate::emitc::program::dynamic_axes(shape) {
            let dim = call_opaque(
                self.context,
                "pto::sim::dim",
                &[argument],
                &[axis.to_string()],
                Some(size_t(self.context)),
            );
            let dim = entry.insert_operation_before(op, dim);
            extents.push(dim.result(0).unwrap().into());
        }
    }

    /// A window's dynamic extents, as the kernel wants them: the chip's
    /// trailing parameters for that window.
    fn window_extents(
        &self,
        callee: &str,
        argument: Value<'c, 'a>,
        parameter: &Parameter,
        extents: &mut Vec<Value<'c, 'a>>,
    ) -> Result<(), Failure<'c, 'a>> {
        for (axis, extent) in parameter.shape.iter().enumerate() {
            if *extent >= 0 {
                continue;
            }
            let value = self
                .extents
                .iter()
                .find(|((window, a), _)| *window == ValueKey::of(argument) && *a == axis)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    self.fail(format!("no extent {axis} for a window passed to @{callee}"))
                })?;
            extents.push(value);
        }
        Ok(())
    }
}
