//! Kernel calls as tasks: a `CoreTaskArgs` (tensors by direction, then the
//! scalars' payloads), a submit's dependencies, block count and
//! synchronised start, and `rt_submit_<core>_task(func_id, args)`.

use melior::ir::{
    BlockLike, BlockRef, Identifier, Location, OperationRef, Type, TypeLike, Value, ValueLike,
    attribute::{ArrayAttribute, IntegerAttribute, StringAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
};
use pto_dialects::enums::ParamDirection;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::result_at;

use super::{Lowering, value};
use crate::emitc::build::{self, opaque, opaque_attribute};
use crate::emitc::orchestration::calls::{
    Failure, call_arguments, callee, forward_call_results, segment,
};
use crate::emitc::orchestration::kernels::KernelCall;

/// How a kernel call is submitted.
enum GroupLaunch {
    /// A task of its own.
    Alone,
    /// Held for its core group's other kernel.
    Held,
    /// With the held kernel, as one mixed task of these kernel ids (aic,
    /// aiv0, aiv1).
    Both(Vec<String>),
}

impl<'c, 'a> Lowering<'c, 'a, '_> {
    /// A `pl.call` or `pl.submit` as one task of the kernel's `func_id`.
    pub(super) fn submit(
        &mut self,
        block: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let callee = callee(op);
        let kernel = self
            .kernels
            .get(&callee)
            .ok_or_else(|| (op, format!("@{callee} is not a translated kernel")))?;
        let mixed = match self.group_launch(op, &callee, kernel)? {
            GroupLaunch::Alone => None,
            GroupLaunch::Held => {
                return forward_call_results(op, &call_arguments(op), &kernel.returns);
            }
            GroupLaunch::Both(mixed) => Some(mixed),
        };
        let before = |new: melior::ir::Operation<'c>| block.insert_operation_before(op, new);
        let arguments = call_arguments(op);
        let params = value(before(self.call(
            "CoreTaskArgs",
            &[],
            &[],
            Some(opaque(self.context, "CoreTaskArgs")),
        )));
        self.add_arguments(params, &arguments, kernel, &before);
        if OpKind::of(&op) == Some(OpKind::PlSubmit) {
            self.launch_spec(op, params, &before);
        }
        match mixed {
            Some(kernels) => {
                let kernels = value(before(self.call(
                    "pto_orch_mixed",
                    &[],
                    &kernels,
                    Some(opaque(self.context, "MixedKernels")),
                )));
                before(self.verbatim("rt_submit_task({}, {});", &[kernels, params]));
            }
            None => self.submit_task(op, params, kernel, &before),
        }
        forward_call_results(op, &arguments, &kernel.returns)
    }

    /// Whether `op`, a kernel call, launches with its core group's other
    /// kernel: the first of the two is held (it gives no task of its own),
    /// the second submits both as one mixed task (`MixedKernels`: the aic
    /// kernel, the aiv kernel on vector core 0, and on vector core 1 when a
    /// pipe splits tiles between them). The runtime gives a mixed task one
    /// argument list, so both calls must pass the same arguments.
    fn group_launch(
        &mut self,
        op: OperationRef<'c, 'a>,
        callee: &str,
        kernel: &KernelCall,
    ) -> Result<GroupLaunch, Failure<'c, 'a>> {
        let Some(group) =
            pto_dialects::attrs::text_of(op, crate::emitc::orchestration::groups::GROUP)
        else {
            return Ok(GroupLaunch::Alone);
        };
        let Some((held_group, held_callee)) = self.pending_group.take() else {
            self.pending_group = Some((group, callee.to_string()));
            return Ok(GroupLaunch::Held);
        };
        if held_group != group {
            return Err((
                op,
                format!("core group @{held_group} launches one kernel only"),
            ));
        }
        let other = self
            .kernels
            .get(&held_callee)
            .ok_or_else(|| (op, format!("@{held_callee} is not a translated kernel")))?;
        if other.parameters != kernel.parameters || other.core == kernel.core {
            return Err((
                op,
                format!(
                    "the kernels of core group @{group} take different parameters: the runtime gives a mixed task one argument list"
                ),
            ));
        }
        let (aic, aiv) = if kernel.core == "aic" {
            (kernel, other)
        } else {
            (other, kernel)
        };
        // Vector core 1 runs only when a pipe splits tiles between the
        // vector cores (the verifier refuses halves that disagree).
        let aiv1 = if aic.lanes.max(aiv.lanes) == 2 {
            aiv.func_id.to_string()
        } else {
            "INVALID_KERNEL_ID".into()
        };
        Ok(GroupLaunch::Both(vec![
            aic.func_id.to_string(),
            aiv.func_id.to_string(),
            aiv1,
        ]))
    }

    /// The task's tensors first, by direction; then the scalars.
    fn add_arguments(
        &self,
        params: Value<'c, 'a>,
        arguments: &[Value<'c, 'a>],
        kernel: &KernelCall,
        before: &impl Fn(melior::ir::Operation<'c>) -> OperationRef<'c, 'a>,
    ) {
        for (argument, parameter) in arguments.iter().zip(&kernel.parameters) {
            let method = match parameter {
                Some(ParamDirection::In) => "add_input",
                Some(ParamDirection::Out) => "add_output",
                Some(ParamDirection::InOut) => "add_inout",
                None => continue,
            };
            before(self.verbatim(&format!("{{}}.{method}({{}});"), &[params, *argument]));
        }
        for (argument, parameter) in arguments.iter().zip(&kernel.parameters) {
            if parameter.is_some() {
                continue;
            }
            let scalar = if argument.r#type().is_index() {
                value(before(build::cast(self.context, *argument, self.size_t)))
            } else {
                *argument
            };
            let payload = value(before(self.call(
                "pto_orch_payload",
                &[scalar],
                &[],
                Some(Type::parse(self.context, "ui64").unwrap()),
            )));
            before(self.verbatim("{}.add_scalar({});", &[params, payload]));
        }
    }

    /// A submit's dependencies (the tasks' ids), SPMD block count and
    /// synchronised start, on the task's arguments.
    fn launch_spec(
        &mut self,
        op: OperationRef<'c, 'a>,
        params: Value<'c, 'a>,
        before: &impl Fn(melior::ir::Operation<'c>) -> OperationRef<'c, 'a>,
    ) {
        let deps = segment(op, 1);
        self.set_dependencies(params, &deps, before);
        if let Some(blocks) = segment(op, 2).first() {
            let blocks = value(before(build::cast(self.context, *blocks, self.size_t)));
            before(self.verbatim("{}.launch_spec.set_block_num({});", &[params, blocks]));
        }
        if op.attribute("sync_start").is_ok() {
            before(self.verbatim("{}.launch_spec.set_require_sync_start(true);", &[params]));
        }
    }

    /// `deps` as the task's dependencies (the runtime keeps the array's
    /// address, not a copy: it lives in the submitting scope): the ids
    /// themselves when each is a submit's (valid), else only the valid
    /// ones, counted as they are added. The array's name and the count's
    /// C++ (`None` without dependencies).
    fn set_dependencies(
        &mut self,
        params: Value<'c, 'a>,
        deps: &[Value<'c, 'a>],
        before: &impl Fn(melior::ir::Operation<'c>) -> OperationRef<'c, 'a>,
    ) -> Option<String> {
        if deps.is_empty() {
            return None;
        }
        self.dependency_arrays += 1;
        let array = format!("pto_deps_{}", self.dependency_arrays);
        if deps.iter().all(|id| {
            self.submitted
                .contains(&pto_dialects::ir::ValueKey::of(*id))
        }) {
            let slots = vec!["{}"; deps.len()].join(", ");
            before(self.verbatim(&format!("PTO2TaskId {array}[] = {{{{{slots}}};"), deps));
            before(self.verbatim(
                &format!("{{}}.set_dependencies({array}, {});", deps.len()),
                &[params],
            ));
            return Some(deps.len().to_string());
        }
        // An id may be invalid (`pl.system.task_invalid`, a carried one, a
        // dummy task's): no dependency then.
        let count = format!("{array}_count");
        before(self.verbatim(
            &format!("PTO2TaskId {array}[{}];\nuint32_t {count} = 0;", deps.len()),
            &[],
        ));
        for dep in deps {
            before(self.verbatim(
                &format!("if (pto_orch_task_valid({{}})) {array}[{count}++] = {{}};"),
                &[*dep, *dep],
            ));
        }
        before(self.verbatim(
            &format!("{{}}.set_dependencies({array}, {count});"),
            &[params],
        ));
        Some(count)
    }

    /// Task ids and launch sizes: `pl.system.task_dummy` a task with its
    /// dependencies and no kernel (`rt_submit_dummy_task`; the invalid id
    /// when dependencies are given and none is valid), `task_invalid`
    /// `PTO2TaskId::invalid()`, `task_is_valid` `is_valid()`, the core
    /// counts `rt_available_cluster_count()` / `rt_available_aiv_count()`.
    pub(super) fn task_op(
        &mut self,
        block: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) {
        let before = |new: melior::ir::Operation<'c>| block.insert_operation_before(op, new);
        let task_type = opaque(self.context, "PTO2TaskId");
        let value = match kind {
            OpKind::PlSystemTaskDummy => {
                let params = value(before(self.call(
                    "CoreTaskArgs",
                    &[],
                    &[],
                    Some(opaque(self.context, "CoreTaskArgs")),
                )));
                let deps: Vec<Value> = op.operands().collect();
                let count = self
                    .set_dependencies(params, &deps, &before)
                    .unwrap_or_else(|| "0".into());
                value(before(self.call(
                    "pto_orch_dummy",
                    &[params],
                    &[count, deps.len().to_string()],
                    Some(task_type),
                )))
            }
            OpKind::PlSystemTaskInvalid => value(before(self.call(
                "pto_orch_invalid_task",
                &[],
                &[],
                Some(task_type),
            ))),
            OpKind::PlSystemTaskIsValid => value(before(self.call(
                "pto_orch_task_valid",
                &[op.operand(0).expect("a task")],
                &[],
                Some(IntegerType::new(self.context, 1).into()),
            ))),
            _ => {
                let callee = if kind == OpKind::PlSystemAvailableClusterCount {
                    "rt_available_cluster_count"
                } else {
                    "rt_available_aiv_count"
                };
                value(before(self.call(
                    callee,
                    &[],
                    &[],
                    Some(IntegerType::new(self.context, 32).into()),
                )))
            }
        };
        pto_dialects::ir::replace_all_uses(result_at(op, 0).expect("a result"), value);
    }

    /// `rt_submit_<core>_task(func_id, params)`, its task id kept when a
    /// later task depends on it.
    fn submit_task(
        &mut self,
        op: OperationRef<'c, 'a>,
        params: Value<'c, 'a>,
        kernel: &KernelCall,
        before: &impl Fn(melior::ir::Operation<'c>) -> OperationRef<'c, 'a>,
    ) {
        let context = self.context;
        let location = Location::unknown(context);
        let task = if OpKind::of(&op) == Some(OpKind::PlSubmit) {
            result_at(op, op.result_count() - 1).filter(|t| pto_dialects::ir::has_uses(*t))
        } else {
            None
        };
        let func_id = opaque_attribute(context, &kernel.func_id.to_string());
        let mut submit = OperationBuilder::new("emitc.call_opaque", location)
            .add_attributes(&[
                (
                    Identifier::new(context, "callee"),
                    StringAttribute::new(context, &format!("rt_submit_{}_task", kernel.core))
                        .into(),
                ),
                (
                    Identifier::new(context, "args"),
                    ArrayAttribute::new(
                        context,
                        &[
                            func_id,
                            IntegerAttribute::new(Type::index(context), 0).into(),
                        ],
                    )
                    .into(),
                ),
            ])
            .add_operands(&[params]);
        if task.is_some() {
            submit = submit.add_results(&[opaque(context, "TaskOutputTensors")]);
        }
        let submit = before(submit.build().expect("emitc.call_opaque builds"));
        if let Some(task) = task {
            // The submit returns the task's outputs; its id is theirs.
            let id = before(self.call(
                "pto_orch_task_id",
                &[value(submit)],
                &[],
                Some(opaque(context, "PTO2TaskId")),
            ));
            self.submitted
                .insert(pto_dialects::ir::ValueKey::of(value(id)));
            pto_dialects::ir::replace_all_uses(task, value(id));
        }
    }
}
