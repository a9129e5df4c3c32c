//! `pld-materialize-dist-tensor-ctx`: pass comm contexts
//! explicitly. What it does and why: [`PASS`]`.description` (also
//! docs/passes/pld-materialize-dist-tensor-ctx.md).

use pto_dialects::op_table::OpKind;
use pto_dialects::ops::Checked;
use std::collections::{HashMap, HashSet};

mod lineage;
use lineage::{Lineage, Unresolved};

use melior::{
    IrRewriter,
    ir::{
        Attribute, BlockLike, RegionLike, Type, Value,
        attribute::{ArrayAttribute, TypeAttribute},
        operation::{
            OperationBuilder, OperationLike, OperationMutLike, OperationRef, OperationRefMut,
            WalkOrder, WalkResult,
        },
        r#type::FunctionType,
    },
};
use pto_dialects::ir::{OpKey, edit, replace_all_uses};
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
    ops::function_type,
    types::{CommCtxType, DistributedTensorType},
};

use super::ir::{enclosing_function, is_host, op_name};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pld-materialize-dist-tensor-ctx",
    class_name: "MaterializeDistTensorCtx",
    summary: "Thread comm contexts through functions and call sites",
    description: r#"Kernels find the comm context of a distributed tensor with
`pld.system.get_comm_ctx`, but only a host orchestrator can query one at run
time. This pass appends one `!pld.comm_ctx` parameter per distributed-tensor
parameter to every function other than host orchestrators (same order),
passes the matching contexts at every `pl.call`, `pl.submit`, `pld.dispatch`
and `func.call`, and replaces each `get_comm_ctx` outside host orchestrators
by the context it resolves to. A context is found through the tensor's
lineage: a parameter's context parameter, the target a store, scalar write
or collective wrote back into, the tensor a `pl.tensor.view` reinterprets,
both branches of an `scf.if`, an `scf.for` or `scf.while` carry (its initial
value and what each iteration yields back), or a call's result (the argument
whose parameter the callee returns). In a host orchestrator an unresolvable
tensor gets a `get_comm_ctx` before the call; elsewhere it is an error, and
so is a branch or loop carry that joins tensors of different contexts: the
context is passed once, so it cannot depend on the branch taken or the
iteration.

Before:

```mlir
func.func @chip(%data: !pld.dtensor<4x256xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @kernel(%data) : (!pld.dtensor<4x256xf32>) -> ()
  return
}
func.func @host(...) attributes {pl.level = #pl.level<host>} {
  %data = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<4x256xf32>
  pld.dispatch @chip(%data) on %r : (!pld.dtensor<4x256xf32>) -> ()
}
```

After:

```mlir
func.func @chip(%data: !pld.dtensor<4x256xf32>, %ctx: !pld.comm_ctx) ... {
  pl.call @kernel(%data, %ctx) : (!pld.dtensor<4x256xf32>, !pld.comm_ctx) -> ()
}
  %data_ctx = pld.system.get_comm_ctx %data : !pld.dtensor<4x256xf32>
  pld.dispatch @chip(%data, %data_ctx) on %r : (!pld.dtensor<4x256xf32>, !pld.comm_ctx) -> ()
```
"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || vec![pto_dialects::pld_handle()],
    run: Run::Op(run),
};

fn symbol_name(op: OperationRef, attribute: &str) -> Option<String> {
    op.attribute(attribute).ok().and_then(attrs::text)
}

fn run(root: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    if materialize(root)? == 0 {
        crate::registry::left_unchanged();
    }
    Ok(())
}

/// Threads comm contexts under `root`; returns how many parameters it added.
pub fn materialize(root: OperationRef) -> Result<usize, PassFailed> {
    let context = pto_dialects::ir::context(&root);
    let ctx_type: Type = CommCtxType::new(context).into();

    // 1. Context parameters for every non-host function with window params.
    let mut functions: Vec<OperationRef> = Vec::new();
    pto_dialects::ir::walk(root, WalkOrder::PreOrder, |op| {
        if op_name(op) == "func.func" {
            functions.push(op);
        }
        WalkResult::Advance
    });
    let mut ctx_params: HashMap<(OpKey, usize), Value> = HashMap::new();
    let mut callee_windows: HashMap<String, Vec<usize>> = HashMap::new();
    let mut added = 0;
    for &function in &functions {
        if is_host(function) {
            continue;
        }
        let Some(function_type) = function_type(function) else {
            continue;
        };
        let inputs: Vec<Type> = (0..function_type.input_count())
            .filter_map(|i| function_type.input(i).ok())
            .collect();
        let windows: Vec<usize> = (0..inputs.len())
            .filter(|&i| DistributedTensorType::try_from(inputs[i]).is_ok())
            .collect();
        if windows.is_empty() {
            continue;
        }
        let Some(name) = symbol_name(function, "sym_name") else {
            continue;
        };
        let Some(block) = function
            .regions()
            .next()
            .and_then(|region| region.first_block())
        else {
            continue;
        };
        for &index in &windows {
            let ctx = block.add_argument(ctx_type, function.location());
            ctx_params.insert((OpKey::of(&function), index), ctx);
            added += 1;
        }
        let mut new_inputs = inputs.clone();
        new_inputs.extend(std::iter::repeat_n(ctx_type, windows.len()));
        let results: Vec<Type> = (0..function_type.result_count())
            .filter_map(|i| function_type.result(i).ok())
            .collect();
        let mut function_mut = edit(function);
        function_mut.set_attribute(
            "function_type",
            TypeAttribute::new(FunctionType::new(context, &new_inputs, &results).into()).into(),
        );
        if let Some(arg_attrs) = function
            .attribute("arg_attrs")
            .ok()
            .and_then(|a| ArrayAttribute::try_from(a).ok())
        {
            let mut entries: Vec<String> = (0..arg_attrs.len())
                .filter_map(|i| arg_attrs.element(i).ok())
                .map(|a| a.to_string())
                .collect();
            entries.extend(std::iter::repeat_n("{}".to_string(), windows.len()));
            let text = format!("[{}]", entries.join(", "));
            if let Some(attribute) = Attribute::parse(context, &text) {
                function_mut.set_attribute("arg_attrs", attribute);
            }
        }
        callee_windows.insert(name, windows);
    }

    // 2. Context arguments at every call of such a function.
    let by_name: HashMap<String, OperationRef> = functions
        .iter()
        .filter_map(|&function| Some((symbol_name(function, "sym_name")?, function)))
        .collect();
    let lineage = Lineage {
        ctx_params: &ctx_params,
        callee_windows: &callee_windows,
        functions: &by_name,
    };
    let mut reported: HashSet<OpKey> = HashSet::new();
    let mut calls: Vec<OperationRef> = Vec::new();
    let mut queries: Vec<OperationRef> = Vec::new();
    pto_dialects::ir::walk(root, WalkOrder::PreOrder, |op| {
        match OpKind::of(&op) {
            Some(OpKind::PlCall | OpKind::PlSubmit | OpKind::PldDispatch) => calls.push(op),
            Some(OpKind::PldSystemGetCommCtx) => queries.push(op),
            None if op_name(op) == "func.call" => calls.push(op),
            _ => {}
        }
        WalkResult::Advance
    });
    let ir_rewriter = IrRewriter::new(context);
    let rewriter = ir_rewriter.as_rewriter_base();
    let mut failed = false;
    for &call in &calls {
        let Some(callee) = symbol_name(call, "callee") else {
            continue;
        };
        let Some(windows) = callee_windows.get(&callee) else {
            continue;
        };
        let caller = enclosing_function(call);
        let host_caller = caller.is_some_and(is_host);
        let is_submit = OpKind::of(&call) == Some(OpKind::PlSubmit);
        let is_dispatch = OpKind::of(&call) == Some(OpKind::PldDispatch);
        let arg_count = if is_submit {
            pto_call_args(call)
        } else {
            call.operand_count() - usize::from(is_dispatch)
        };
        let args: Vec<Value> = (0..arg_count).filter_map(|i| call.operand_opt(i)).collect();
        let mut ctxs: Vec<Value> = Vec::new();
        for &index in windows {
            let Some(arg) = args.get(index) else { continue };
            match lineage.resolve(*arg) {
                Ok(ctx) => ctxs.push(ctx),
                Err(_) if host_caller => {
                    rewriter.set_insertion_point_before(call);
                    let query = rewriter.insert(
                        OperationBuilder::new(OpKind::PldSystemGetCommCtx.name(), call.location())
                            .add_operands(&[*arg])
                            .add_results(&[ctx_type])
                            .build()
                            .expect("get_comm_ctx builds"),
                    );
                    ctxs.push(query.result(0).expect("one result").into());
                }
                Err(Unresolved::Conflict { op, message }) => {
                    report_conflict(op, &message, &mut reported);
                    failed = true;
                }
                Err(Unresolved::Unknown) => {
                    OpDiagnostic::new(format!(
                        "cannot determine the communication context of the distributed tensor passed as argument #{index} \
                         to '@{callee}'; only a host orchestrator can query a context at run time: pass the tensor \
                         from a parameter"
                    ))
                    .emit(call, Severity::Error);
                    failed = true;
                }
            }
        }
        if failed {
            continue;
        }
        // New operands: the arguments, their contexts, then the rest
        // (submit: deps and blocks; dispatch: the device).
        let mut operands: Vec<Value> = args.clone();
        operands.extend(ctxs.iter().copied());
        operands.extend((arg_count..call.operand_count()).filter_map(|i| call.operand_opt(i)));
        let mut call_mut = edit(call);
        call_mut.set_operands(&operands);
        if is_submit {
            set_first_segment(context, call_mut, (arg_count + ctxs.len()) as i32);
        }
    }
    if failed {
        return Err(PassFailed);
    }

    // 3. get_comm_ctx outside host orchestrators becomes the resolved context.
    for &query in &queries {
        if enclosing_function(query).is_some_and(is_host) {
            continue;
        }
        let Ok(tensor) = query.operand(0) else {
            continue;
        };
        match lineage.resolve(tensor) {
            Ok(ctx) => {
                replace_all_uses(query.result(0).expect("one result"), ctx);
                rewriter.erase_op(query);
            }
            Err(Unresolved::Conflict { op, message }) => {
                report_conflict(op, &message, &mut reported);
                failed = true;
            }
            Err(Unresolved::Unknown) => {
                OpDiagnostic::new(
                    "cannot resolve the communication context here; take the distributed tensor as a parameter",
                )
                .emit(query, Severity::Error);
                failed = true;
            }
        }
    }
    if failed { Err(PassFailed) } else { Ok(added) }
}

/// Reports a lineage conflict at the op that mixes contexts, once.
fn report_conflict(op: OperationRef, message: &str, reported: &mut HashSet<OpKey>) {
    if reported.insert(OpKey::of(&op)) {
        OpDiagnostic::new(message.to_string()).emit(op, Severity::Error);
    }
}

/// The size of `pl.submit`'s first operand group (its arguments).
fn pto_call_args(call: OperationRef) -> usize {
    use melior::ir::attribute::DenseI32ArrayAttribute;
    call.attribute("operandSegmentSizes")
        .ok()
        .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
        .and_then(|sizes| sizes.element(0).ok())
        .map_or(0, |n| n as usize)
}

/// Sets the size of the first operand group of `pl.submit`.
fn set_first_segment<'c>(
    context: &'c melior::Context,
    mut call: OperationRefMut<'c, '_>,
    size: i32,
) {
    use melior::ir::attribute::DenseI32ArrayAttribute;
    let Some(sizes) = call
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
    else {
        return;
    };
    let mut values: Vec<i32> = (0..sizes.len())
        .filter_map(|i| sizes.element(i).ok())
        .collect();
    if let Some(first) = values.first_mut() {
        *first = size;
    }
    call.set_inherent_attribute(
        "operandSegmentSizes",
        DenseI32ArrayAttribute::new(context, &values).into(),
    );
}
