//! Host tensors: `pl.tensor.create` a zeroed temporary buffer
//! (`pto::sim::make`), `pl.tensor.dim` its extent, and a kernel call the
//! kernel run on the simulated core over the buffers' data
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{
    Attribute, BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
    attribute::IntegerAttribute, operation::OperationLike, r#type::TypeLike,
};
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{Checked, operand_at, result_at};
use pto_dialects::types::TensorLike;

use super::super::Failure;
use super::super::emit::{call_with_args, operand_index, pointer, size_t};
use super::Host;
use super::arguments::element_of;
use crate::emitc::build::{opaque, opaque_attribute};
use crate::emitc::orchestration::calls::{
    call_arguments, callee, forward_call_results, replace_with_index,
};

impl<'c, 'a> Host<'c, 'a, '_> {
    /// The tensors loops still carry (rebinding carries: each iteration
    /// yields another tensor) are host tensors: kernels take their data.
    pub(super) fn track_rebinding_carries(
        &mut self,
        function: OperationRef<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        for for_op in pto_dialects::ir::collect_named(function, &["scf.for"]) {
            let Some(body) = for_op.region_opt(0).and_then(|r| r.first_block()) else {
                continue;
            };
            for i in 0..for_op.result_count() {
                let result = result_at(for_op, i).unwrap();
                let Ok(tensor) = TensorLike::try_from(result.r#type()) else {
                    continue;
                };
                let element = element_of(result.r#type()).map_err(|m| (for_op, m))?;
                let carried: Value = body.argument(i + 1).unwrap().into();
                for value in [result, carried] {
                    self.buffers.insert(ValueKey::of(value), element);
                    self.shapes.insert(ValueKey::of(value), tensor.shape());
                }
            }
        }
        Ok(())
    }

    /// `pl.tensor.create`: `pto::sim::make<T>("tmpN", extents...)`;
    /// `pl.tensor.full`: `pto::sim::full<T>("tmpN", value, extents...)`.
    pub(super) fn create(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let context = self.context;
        let result = result_at(op, 0).unwrap();
        let element = element_of(result.r#type()).map_err(|m| (op, m))?;
        let tensor = TensorLike::try_from(result.r#type()).unwrap();
        let mut dynamic = op.operands();
        // A full's value comes first.
        let fill = if kind == OpKind::PlTensorFull {
            dynamic.next()
        } else {
            None
        };
        let mut extents = Vec::new();
        for extent in tensor.shape() {
            let value = match extent {
                Some(fixed) => {
                    let attribute = IntegerAttribute::new(Type::index(context), fixed).into();
                    let location = melior::ir::Location::unknown(context);
                    self.before(
                        op,
                        melior::dialect::arith::constant(context, attribute, location),
                    )
                }
                None => dynamic
                    .next()
                    .ok_or_else(|| (op, "a dynamic extent without its operand".to_string()))?,
            };
            extents.push(self.as_i64(op, value));
        }
        self.temporaries += 1;
        let buffer_type = opaque(context, &format!("pto::sim::Buffer<{element}>"));
        // The name, then the extents: args = ["tmpN", 0, 1, ...].
        let mut args: Vec<Attribute> = vec![opaque_attribute(
            context,
            &format!("\"tmp{}\"", self.temporaries),
        )];
        let mut operands = Vec::new();
        operands.extend(fill);
        operands.extend(extents);
        args.extend((0..operands.len()).map(|i| operand_index(context, i)));
        let make = match fill {
            Some(_) => format!("pto::sim::full<{element}>"),
            None => format!("pto::sim::make<{element}>"),
        };
        let buffer = self.before(
            op,
            call_with_args(context, &make, &args, &operands, Some(buffer_type)),
        );
        self.buffers.insert(ValueKey::of(buffer), element);
        self.shapes.insert(ValueKey::of(buffer), tensor.shape());
        pto_dialects::ir::replace_all_uses(result, buffer);
        Ok(())
    }

    /// `pl.tensor.dim`: `pto::sim::dim(buffer, axis)`.
    pub(super) fn dim(&mut self, op: OperationRef<'c, 'a>) {
        let axis = op
            .attribute("axis")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(0, |a| a.value());
        let tensor = operand_at(op, 0).unwrap();
        let size = self.call_before(
            op,
            "pto::sim::dim",
            &[tensor],
            &[axis.to_string()],
            size_t(self.context),
        );
        replace_with_index(self.context, op, size);
    }

    /// `pl.call` / `pl.submit`: the kernel called with its arguments' data,
    /// then the extents of those whose leading dimension the kernel takes
    /// dynamic; its results are the arguments it returns.
    pub(super) fn call(&mut self, op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let callee = callee(op);
        let facts = self.facts;
        if let Some(group) =
            pto_dialects::attrs::text_of(op, crate::emitc::orchestration::groups::GROUP)
        {
            return self.launch_group(op, &callee, group);
        }
        let kernel = facts
            .kernels
            .get(&callee)
            .ok_or_else(|| (op, format!("@{callee} is not a translated kernel")))?;
        let arguments = call_arguments(op);
        let pointers = self.kernel_operands(op, kernel, &arguments)?;
        // A submit's SPMD launch runs every block.
        let blocks = if OpKind::of(&op) == Some(OpKind::PlSubmit) {
            crate::emitc::orchestration::calls::segment(op, 2)
                .first()
                .copied()
        } else {
            None
        };
        let blocks = blocks.map(|b| self.as_i64(op, b));
        let together = op.attribute("sync_start").is_ok();
        self.emit_before(
            op,
            crate::emitc::spmd::sim_call(
                self.context,
                &callee,
                kernel.queries,
                blocks,
                together,
                &pointers,
            ),
        );
        self.submitted(op);
        forward_call_results(op, &arguments, &kernel.returns)
    }

    /// A kernel call of a core group (the group inlined by
    /// `orchestration::groups::inline_groups`, its slot buffers made by its
    /// `pl.tensor.create`s): the first is held; its peer's launches both
    /// together (`pto::sim::launch_group<lanes, aic_operands[, aic_queries,
    /// aiv_queries]>("name", aic, aiv, aic operands..., aiv operands...)`,
    /// pto/sim/groups.hpp, the query masks when a kernel reads its block or
    /// vector core index). Each call's results are the parameters it
    /// returns.
    fn launch_group(
        &mut self,
        op: OperationRef<'c, 'a>,
        callee: &str,
        group: String,
    ) -> Result<(), Failure<'c, 'a>> {
        let kernel = self
            .facts
            .kernels
            .get(callee)
            .ok_or_else(|| (op, format!("@{callee} is not a translated kernel")))?;
        let arguments = call_arguments(op);
        let operands = self.kernel_operands(op, kernel, &arguments)?;
        self.submitted(op);
        forward_call_results(op, &arguments, &kernel.returns)?;
        let Some((held_group, held, held_operands)) = self.held_group.take() else {
            self.held_group = Some((group, op, operands));
            return Ok(());
        };
        if held_group != group {
            return Err((
                op,
                format!("core group @{held_group} launches one kernel only"),
            ));
        }
        let held_callee = crate::emitc::orchestration::calls::callee(held);
        let other = self
            .facts
            .kernels
            .get(&held_callee)
            .ok_or_else(|| (held, format!("@{held_callee} is not a translated kernel")))?;
        let ((aic, aic_kernel, aic_operands), (aiv, aiv_kernel, aiv_operands)) = if kernel.cube {
            (
                (callee.to_string(), kernel, operands),
                (held_callee, other, held_operands),
            )
        } else {
            (
                (held_callee, other, held_operands),
                (callee.to_string(), kernel, operands),
            )
        };
        // Vector core 1 runs only when a pipe splits tiles between the
        // vector cores (the verifier refuses halves that disagree).
        let lanes = aic_kernel.lanes.max(aiv_kernel.lanes);
        let context = self.context;
        let mut args = vec![
            opaque_attribute(context, &format!("\"{group}\"")),
            opaque_attribute(context, &aic),
            opaque_attribute(context, &aiv),
        ];
        let count = aic_operands.len();
        let all: Vec<Value> = aic_operands.into_iter().chain(aiv_operands).collect();
        args.extend((0..all.len()).map(|i| operand_index(context, i)));
        let masks = [aic_kernel.queries.mask(), aiv_kernel.queries.mask()];
        // The kernels' block queries, when they read any (block 0 of 1,
        // each vector core its own sub-block index).
        let launcher = if masks.iter().any(|mask| *mask != 0) {
            format!(
                "pto::sim::launch_group<{lanes}, {count}, {}, {}>",
                masks[0], masks[1]
            )
        } else {
            format!("pto::sim::launch_group<{lanes}, {count}>")
        };
        let launch = call_with_args(context, &launcher, &args, &all, None);
        self.emit_before(op, launch);
        Ok(())
    }

    /// What a kernel call passes for `arguments`: each host tensor's data
    /// and each scalar by value, then the extents of those whose leading
    /// dimension the kernel takes dynamic.
    fn kernel_operands(
        &self,
        op: OperationRef<'c, 'a>,
        kernel: &crate::emitc::program::facts::Kernel,
        arguments: &[Value<'c, 'a>],
    ) -> Result<Vec<Value<'c, 'a>>, Failure<'c, 'a>> {
        let mut pointers: Vec<Value> = Vec::new();
        let mut dims: Vec<Value> = Vec::new();
        for (argument, parameter) in arguments.iter().zip(&kernel.parameters) {
            if parameter.scalar {
                // By value; an index as an int64 (the kernel's size_t).
                let value = if argument.r#type().is_index() {
                    self.as_i64(op, *argument)
                } else {
                    *argument
                };
                pointers.push(value);
                continue;
            }
            let element = self
                .buffers
                .get(&ValueKey::of(*argument))
                .copied()
                .ok_or_else(|| {
                    (
                        op,
                        "a kernel argument that is not a host tensor".to_string(),
                    )
                })?;
            let data = pointer(self.context, element);
            pointers.push(self.call_before(op, "pto::sim::data", &[*argument], &[], data));
            for axis in crate::emitc::program::dynamic_axes(&parameter.shape) {
                let size = size_t(self.context);
                let axis = axis.to_string();
                dims.push(self.call_before(op, "pto::sim::dim", &[*argument], &[axis], size));
            }
        }
        pointers.extend(dims);
        Ok(pointers)
    }
}
