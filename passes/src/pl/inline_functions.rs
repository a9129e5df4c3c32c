//! `pl-inline-functions`: splice every function of kind `inline` into its
//! callers. What it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-inline-functions.md).

use std::collections::{HashMap, HashSet};

use melior::ir::{
    BlockLike, RegionLike,
    operation::{OperationLike, OperationRef, WalkOrder},
};
use pto_dialects::{
    attrs::{self, FunctionAttr},
    diag::{OpDiagnostic, Severity},
    enums::FunctionKind,
    ops::{Checked, op_name},
};

use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-inline-functions",
    class_name: "InlineFunctions",
    summary: "Splice every inline function into its callers and erase it",
    description: r#"A function of kind `inline` (`pl.kind = #pl.kind<inline>`) is a helper
whose body belongs to its callers: every `func.call` of it, in any function
(kernels included), is replaced by a copy of its body with the arguments
substituted and the returned values used in place of the call's results;
calls the copied body makes to other inline functions are spliced in turn.
Then the inline functions are erased: none remain, as after PyPTO's
InlineFunctions. The splicing is upstream `inlineCall`, so the dialects'
inliner interface decides where pl and pld ops may go: the rules of the
caller's kind (an orchestration computes no tiles outside its scopes, an
aiv kernel holds no cube-side tiles, ...). Upstream `inline` uses the same
interface, but inlines every call it can, not only those of inline
functions.

Errors: an inline function that calls itself, directly or through other
inline functions; an inline function whose body has more than one block;
a call whose callee's ops the caller may not hold (the reason is given at
the call).

```mlir
// before
func.func private @scale(%t: !pl.tensor<64xf32>, %s: f32) -> !pl.tensor<64xf32>
    attributes {pl.kind = #pl.kind<inline>} {
  %r = pl.tensor.muls %t, %s : !pl.tensor<64xf32>, f32 -> !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}
func.func @main(%x: !pl.tensor<64xf32>, %s: f32) -> !pl.tensor<64xf32>
    attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.incore_scope -> !pl.tensor<64xf32> {
    %v = func.call @scale(%x, %s) : (!pl.tensor<64xf32>, f32) -> !pl.tensor<64xf32>
    pl.yield %v : !pl.tensor<64xf32>
  }
  return %y : !pl.tensor<64xf32>
}

// after: @scale is gone
func.func @main(%x: !pl.tensor<64xf32>, %s: f32) -> !pl.tensor<64xf32>
    attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.incore_scope -> !pl.tensor<64xf32> {
    %r = pl.tensor.muls %x, %s : !pl.tensor<64xf32>, f32 -> !pl.tensor<64xf32>
    pl.yield %r : !pl.tensor<64xf32>
  }
  return %y : !pl.tensor<64xf32>
}
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: Vec::new,
    run: Run::Op(run),
};

fn run(module: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let Some(body) = module.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut inline: HashMap<String, OperationRef> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let is_inline = op_name(op) == "func.func"
            && matches!(
                op.attribute("pl.kind").ok().and_then(attrs::read),
                Some(FunctionAttr::Kind(FunctionKind::Inline))
            );
        if is_inline {
            let name = attrs::text_of(op, "sym_name").unwrap_or_default();
            order.push(name.clone());
            inline.insert(name, op);
        }
    }
    if inline.is_empty() {
        crate::registry::left_unchanged();
        return Ok(());
    }
    let mut failed = false;
    for name in &order {
        let function = inline[name];
        if function.region_opt(0).is_some_and(|r| {
            r.first_block()
                .is_some_and(|b| b.next_in_region().is_some())
        }) {
            error(
                function,
                format!(
                    "'@{name}' has more than one block: an inline function's body is one block of structured code"
                ),
            );
            failed = true;
        } else if let Some(cycle) = cycle_from(name, &inline) {
            error(
                function,
                format!(
                    "'@{name}' calls itself ({}): a recursive function cannot be inlined",
                    cycle.join(" -> ")
                ),
            );
            failed = true;
        }
    }
    if failed {
        return Err(PassFailed);
    }
    // Splice calls outside inline functions until none remain: the callees
    // are acyclic, so each round goes one call deeper and the rounds end.
    loop {
        let calls = pto_dialects::ir::collect(module, WalkOrder::PreOrder, |op| {
            callee_of(op).is_some_and(|callee| inline.contains_key(&callee))
                && !inside_any(op, &inline)
        });
        if calls.is_empty() {
            break;
        }
        for call in calls {
            let callee = callee_of(call).unwrap_or_default();
            let function = inline[&callee];
            if let Some(reason) = refusal(call, function) {
                error(call, format!("cannot inline '@{callee}' here: {reason}"));
                failed = true;
            } else if !pto_dialects::ir::inline_call(call) {
                error(call, format!("cannot inline '@{callee}' here"));
                failed = true;
            }
        }
        if failed {
            return Err(PassFailed);
        }
    }
    for name in &order {
        pto_dialects::ir::erase(inline[name]);
    }
    Ok(())
}

fn error(op: OperationRef, message: String) {
    OpDiagnostic::new(format!("pl-inline-functions: {message}")).emit(op, Severity::Error);
}

/// The callee of a `func.call`.
fn callee_of(op: OperationRef) -> Option<String> {
    (op_name(op) == "func.call")
        .then(|| attrs::text_of(op, "callee"))
        .flatten()
}

/// Whether `op` sits in one of the inline functions.
fn inside_any(op: OperationRef, inline: &HashMap<String, OperationRef>) -> bool {
    let mut around = op.parent_operation();
    while let Some(parent) = around {
        if op_name(parent) == "func.func" {
            return attrs::text_of(parent, "sym_name").is_some_and(|n| inline.contains_key(&n));
        }
        around = parent.parent_operation();
    }
    false
}

/// Why the body of `function` may not replace `call`, if it may not: the
/// first of its ops the dialects' inliner interface refuses there.
fn refusal(call: OperationRef, function: OperationRef) -> Option<String> {
    let parent = call.parent_operation()?;
    let block = function.region_opt(0)?.first_block()?;
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if let Some(reason) = pto_dialects::verify::inline_refusal(op, parent) {
            return Some(reason);
        }
    }
    None
}

/// A cycle of inline calls through `start`, as the names along it.
fn cycle_from(start: &str, inline: &HashMap<String, OperationRef>) -> Option<Vec<String>> {
    fn callees(function: OperationRef, inline: &HashMap<String, OperationRef>) -> Vec<String> {
        let mut names: Vec<String> =
            pto_dialects::ir::collect(function, WalkOrder::PreOrder, |op| {
                callee_of(op).is_some_and(|c| inline.contains_key(&c))
            })
            .into_iter()
            .filter_map(callee_of)
            .collect();
        names.dedup();
        names
    }
    fn search(
        at: &str,
        start: &str,
        inline: &HashMap<String, OperationRef>,
        path: &mut Vec<String>,
        seen: &mut HashSet<String>,
    ) -> bool {
        for callee in callees(inline[at], inline) {
            if callee == start {
                path.push(callee);
                return true;
            }
            if seen.insert(callee.clone()) {
                path.push(callee.clone());
                if search(&callee, start, inline, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    let mut seen = HashSet::new();
    search(start, start, inline, &mut path, &mut seen).then_some(path)
}
