//! `pl-derive-task-dependencies`: the dependencies between the tasks of
//! each manual runtime scope, derived from the tensors they read and
//! write. What it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-derive-task-dependencies.md).

use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
        operation::{OperationLike, OperationMutLike, WalkOrder, WalkResult},
    },
};
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
    enums::{FunctionKind, ParamDirection},
    ir::ValueKey,
    op_table::{Family, OpKind},
    ops::{Checked, op_name, operand_segments},
    types::TensorLike,
};

use crate::{
    emitc::orchestration::kernels::{direction, returned_parameters, signature},
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-derive-task-dependencies",
    class_name: "DeriveTaskDependencies",
    summary: "Give the tasks of manual runtime scopes the dependencies their tensors imply",
    description: r#"In a manual runtime scope (`pl.runtime_scope manual`) the runtime tracks
no tensors: a task waits only for the tasks its `pl.submit` names in
`deps`, and a dependency the program leaves out is a race on the device
(pto-run, which runs tasks in submission order, cannot show it). This
pass, as PyPTO's AutoDeriveTaskDependencies does for manual scopes,
derives them: for each task of the scope (a `pl.submit` or `pl.call` in
the scope's own block), in order, the tensors it reads and writes (a
kernel parameter's `pl.direction`: `in` reads, `out` writes, `inout`
both), each traced to the tensor it is a part of (through slices, views,
the parameters a kernel returns, assembles, writes and loops' carried
tensors; disjoint windows of one tensor count as one tensor); a task that
writes a tensor an earlier task of the scope reads or writes, or reads one
an earlier task writes, gets that task among its dependencies. The
dependencies written are kept and none is repeated; a `pl.call` another
task must wait for becomes a `pl.submit`, whose task id it then has.

A manual scope whose tasks sit in loops or branches of it, or whose
tensors cannot be traced to one tensor (a tensor chosen by a branch, say)
when a task writes them, gets no derived dependencies: the scope becomes
an automatic one, where the runtime tracks its tensors (a warning says
so). Automatic scopes are left alone: the runtime derives theirs.

```mlir
// before
pl.runtime_scope manual {
  %a, %t0 = pl.submit @add(%x, %y, %s) : (!T, !T, !T) -> !T
  %e, %t1 = pl.submit @exp(%a, %o) : (!T, !T) -> !T
  pl.yield
}
// after: @exp reads what @add writes
pl.runtime_scope manual {
  %a, %t0 = pl.submit @add(%x, %y, %s) : (!T, !T, !T) -> !T
  %e, %t1 = pl.submit @exp(%a, %o) deps(%t0) : (!T, !T) -> !T
  pl.yield
}
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: Vec::new,
    run: Run::Op(run),
};

/// What a task does to a tensor: the tensor it is part of (`None`: any
/// tensor, when it cannot be traced), and whether the task writes it (else
/// it only reads it).
#[derive(Clone, Copy, Debug)]
struct Access {
    root: Option<ValueKey>,
    writes: bool,
}

fn run(module: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let context = pto_dialects::ir::context(&module);
    let Some(body) = module.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut functions: HashMap<String, OperationRef> = HashMap::new();
    let mut orchestrations = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(op) != "func.func" {
            continue;
        }
        let name = attrs::text_of(op, "sym_name").unwrap_or_default();
        if matches!(
            op.attribute("pl.kind").ok().and_then(attrs::read),
            Some(attrs::FunctionAttr::Kind(FunctionKind::Orchestration))
        ) {
            orchestrations.push(op);
        }
        functions.insert(name, op);
    }
    let mut derived = false;
    for orchestration in orchestrations {
        let scopes = pto_dialects::ir::collect(orchestration, WalkOrder::PreOrder, |op| {
            OpKind::of(&op) == Some(OpKind::PlRuntimeScope) && op.attribute("manual").is_ok()
        });
        for scope in scopes {
            derived = true;
            derive(context, scope, &functions);
        }
    }
    if !derived {
        crate::registry::left_unchanged();
    }
    Ok(())
}

fn warn(op: OperationRef, message: &str) {
    OpDiagnostic::new(format!("pl-derive-task-dependencies: {message}"))
        .emit(op, Severity::Warning);
}

/// The callee of a `pl.call` / `pl.submit`.
fn callee<'c, 'a>(
    op: OperationRef<'c, 'a>,
    functions: &HashMap<String, OperationRef<'c, 'a>>,
) -> Option<OperationRef<'c, 'a>> {
    attrs::text_of(op, "callee").and_then(|name| functions.get(&name).copied())
}

fn is_task(op: OperationRef) -> bool {
    matches!(OpKind::of(&op), Some(OpKind::PlCall | OpKind::PlSubmit))
}

/// The tasks' arguments (a submit's first operand group, a call's
/// operands).
fn task_arguments<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    if OpKind::of(&op) == Some(OpKind::PlSubmit) {
        let (start, length) = operand_segments(op)[0];
        op.operands().skip(start).take(length).collect()
    } else {
        op.operands().collect()
    }
}

/// The tensor `value` is part of, `None` when it cannot be traced.
fn root_of(value: Value, functions: &HashMap<String, OperationRef>) -> Option<ValueKey> {
    let mut value = value;
    // Each step goes one op up the use-def chain, which has no cycles
    // except through loops' carried values (bounded by the loop nest).
    for _ in 0..4096 {
        if let Some(block) = pto_dialects::ir::argument_owner(value) {
            let owner = block.parent_operation();
            let Some(owner) = owner.filter(|o| op_name(*o) == "scf.for") else {
                return Some(ValueKey::of(value));
            };
            // A carried tensor is its init (updated in place): iteration
            // argument `i` (after the induction variable) is operand
            // `i + 2` (after the bounds and the step).
            let index = pto_dialects::ir::block_argument(value)?.argument_number();
            value = owner.operand_opt(index.checked_sub(1)? + 3)?;
            continue;
        }
        let result = melior::ir::operation::OperationResult::try_from(value).ok()?;
        let producer = result.owner();
        let index = result.result_number();
        value = match OpKind::of(&producer) {
            Some(OpKind::PlTensorCreate | OpKind::PlTensorFull) => {
                return Some(ValueKey::of(value));
            }
            Some(kind) if kind.family() == Family::TensorView => producer.operand_opt(0)?,
            Some(OpKind::PlTensorAssemble) => producer.operand_opt(1)?,
            Some(OpKind::PlTensorWrite) => producer.operand_opt(0)?,
            Some(OpKind::PlCall | OpKind::PlSubmit) => {
                let kernel = callee(producer, functions)?;
                let parameter = returned_parameters(kernel).get(index).copied().flatten()?;
                *task_arguments(producer).get(parameter)?
            }
            None if op_name(producer) == "scf.for" => producer.operand_opt(index + 3)?,
            _ => return None,
        };
    }
    None
}

/// What task `op` does to each tensor it takes.
fn accesses(op: OperationRef, functions: &HashMap<String, OperationRef>) -> Vec<Access> {
    let kernel = callee(op, functions);
    let directions = kernel.map(signature);
    task_arguments(op)
        .into_iter()
        .enumerate()
        .filter(|(_, argument)| TensorLike::try_from(argument.r#type()).is_ok())
        .map(|(index, argument)| {
            // As the translator reads the kernel's parameters; a kernel
            // not in the module may do anything.
            let direction = match (kernel, &directions) {
                (Some(k), Some(known)) => known
                    .get(index)
                    .copied()
                    .flatten()
                    .unwrap_or_else(|| direction(k, index)),
                _ => ParamDirection::InOut,
            };
            Access {
                root: root_of(argument, functions),
                writes: direction != ParamDirection::In,
            }
        })
        .collect()
}

/// Whether a task doing `later` must wait for one doing `earlier`.
fn conflict(earlier: &[Access], later: &[Access]) -> bool {
    earlier.iter().any(|a| {
        later.iter().any(|b| {
            let same = a.root.is_none() || b.root.is_none() || a.root == b.root;
            same && (a.writes || b.writes)
        })
    })
}

/// Derives the dependencies of manual scope `scope`, or makes it an
/// automatic one when they cannot be derived.
fn derive<'c, 'a>(
    context: &'c Context,
    scope: OperationRef<'c, 'a>,
    functions: &HashMap<String, OperationRef<'c, 'a>>,
) {
    let Some(body) = scope.region_opt(0).and_then(|r| r.first_block()) else {
        return;
    };
    let mut tasks = Vec::new();
    let mut nested = false;
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if is_task(op) {
            tasks.push(op);
        } else if op.region_count() > 0 {
            pto_dialects::ir::walk(op, WalkOrder::PreOrder, |inner| {
                nested |= is_task(inner);
                WalkResult::Advance
            });
        }
    }
    if nested {
        pto_dialects::ir::edit(scope)
            .remove_attribute("manual")
            .ok();
        warn(
            scope,
            "the tasks in loops or branches of this manual scope get no derived dependencies; it runs as an automatic scope",
        );
        return;
    }
    let summaries: Vec<Vec<Access>> = tasks.iter().map(|&t| accesses(t, functions)).collect();
    let untraced_write = summaries
        .iter()
        .flatten()
        .any(|a| a.root.is_none() && a.writes);
    if untraced_write {
        pto_dialects::ir::edit(scope)
            .remove_attribute("manual")
            .ok();
        warn(
            scope,
            "a task of this manual scope writes a tensor that cannot be traced to one tensor; it runs as an automatic scope",
        );
        return;
    }
    // Each task's derived producers, by position.
    let needs: Vec<Vec<usize>> = (0..tasks.len())
        .map(|j| {
            (0..j)
                .filter(|&i| conflict(&summaries[i], &summaries[j]))
                .collect()
        })
        .collect();
    // Producers that are calls become submits (their task id is needed).
    let mut produces = vec![false; tasks.len()];
    for &i in needs.iter().flatten() {
        produces[i] = true;
    }
    for i in 0..tasks.len() {
        if produces[i] && OpKind::of(&tasks[i]) == Some(OpKind::PlCall) {
            tasks[i] = rebuild(context, tasks[i], &[]);
        }
    }
    for (j, producers) in needs.iter().enumerate() {
        if producers.is_empty() {
            continue;
        }
        let written: Vec<Value> = if OpKind::of(&tasks[j]) == Some(OpKind::PlSubmit) {
            let (start, length) = operand_segments(tasks[j])[1];
            tasks[j].operands().skip(start).take(length).collect()
        } else {
            Vec::new()
        };
        let mut deps = written.clone();
        for &i in producers {
            let id: Value = tasks[i]
                .result(tasks[i].result_count() - 1)
                .expect("a submit's task id")
                .into();
            if !deps.contains(&id) {
                deps.push(id);
            }
        }
        if deps.len() != written.len() {
            tasks[j] = rebuild(context, tasks[j], &deps);
        }
    }
}

/// `task` as a `pl.submit` waiting for `deps` (a submit's own included),
/// in its place.
fn rebuild<'c, 'a>(
    context: &'c Context,
    task: OperationRef<'c, 'a>,
    deps: &[Value<'c, 'a>],
) -> OperationRef<'c, 'a> {
    let is_submit = OpKind::of(&task) == Some(OpKind::PlSubmit);
    let arguments = task_arguments(task);
    let blocks = if is_submit {
        let (start, length) = operand_segments(task)[2];
        task.operands().skip(start).take(length).next()
    } else {
        None
    };
    // A call's results, or a submit's without its task id.
    let results: Vec<Type> = task
        .results()
        .take(task.result_count() - usize::from(is_submit))
        .map(|r| r.r#type())
        .collect();
    let callee = attrs::text_of(task, "callee").expect("a task has a callee");
    let built = super::submit_op(
        context,
        task.location(),
        &callee,
        &arguments,
        deps,
        blocks,
        task.attribute("sync_start").ok(),
        &results,
    )
    .expect("pl.submit builds");
    let block = task.block().expect("ops sit in blocks");
    let submit = block.insert_operation_before(task, built);
    for index in 0..task.result_count() {
        let old = task.result(index).expect("a result");
        let new = submit.result(index).expect("a result");
        pto_dialects::ir::replace_all_uses(old, new);
    }
    pto_dialects::ir::erase(task);
    submit
}
