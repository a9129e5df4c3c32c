//! `pl-outline-incore-scopes`: every `pl.incore_scope` becomes an InCore
//! kernel and a call to it. What it does and why: [`PASS`]`.description`
//! (also docs/passes/pl-outline-incore-scopes.md).

use pto_dialects::ir::{OpKey, ValueKey};
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::Checked;
use std::collections::HashSet;

use melior::{
    Context, IrRewriter,
    dialect::func,
    ir::{
        Attribute, Block, BlockLike, Identifier, OperationRef, Region, RegionLike, Type, Value,
        ValueLike,
        attribute::{
            ArrayAttribute, DictionaryAttribute, FlatSymbolRefAttribute, StringAttribute,
            TypeAttribute,
        },
        operation::{OperationBuilder, OperationLike, OperationMutLike, WalkOrder, WalkResult},
        r#type::FunctionType,
    },
};
use pto_dialects::{
    attrs::{self, FunctionAttr},
    diag::{OpDiagnostic, Severity},
    enums::{CoreSplit, EnumAttr, FunctionKind, ParamDirection},
    ops::op_name,
    types::TileType,
};

use super::linear::{op_key, value_key};
use crate::{
    options::OptionValues,
    pld::ir::detach,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-outline-incore-scopes",
    class_name: "OutlineIncoreScopes",
    summary: "Turn every pl.incore_scope into an InCore kernel and a call, every pl.spmd_scope into one and an SPMD launch",
    description: r#"Every `pl.incore_scope` of an orchestration (or of a function without a
kind, which then becomes an orchestration) becomes a function of kind
`incore` (as PyPTO's OutlineIncoreScopes), and so does every
`pl.spmd_scope` (as PyPTO's OutlineClusterScopes does for SPMD scopes),
launched by a `pl.submit` on the scope's blocks (keeping `sync_start`)
instead of a call: its parameters are the scope's
live-ins — values defined outside and used inside, in order of first use —
its results the scope's, its body the scope's body with `pl.yield` turned
into `return`. The scope is replaced by a `pl.call` of it. The kernel is
named by the scope's `name`, else `<function>_incore_<k>` (an SPMD
scope's `<function>_spmd_<k>`), made unique in the module; a scope's
`split` becomes the kernel's `pl.split` (pl-lower-auto-vector-split). A tensor parameter that the body only writes (the destination
of `pl.tile.store` or `pl.tensor.assemble`) is `out`, one it also reads
`inout`. Tiles cannot cross into a kernel: a scope using a tile defined
outside is an error.

```mlir
// before
func.func @add(%a: !T, %b: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %sum = pl.incore_scope name "add_kernel" -> !T {
    %s = pl.tensor.add %a, %b : !T, !T -> !T
    pl.yield %s : !T
  }
  return %sum : !T
}
// after
func.func @add(%a: !T, %b: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %sum = pl.call @add_kernel(%a, %b) : (!T, !T) -> !T
  return %sum : !T
}
func.func @add_kernel(%a: !T, %b: !T) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.add %a, %b : !T, !T -> !T
  return %s : !T
}
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || vec![pto_dialects::pl_handle()],
    run: Run::Op(run),
};

fn run(module: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let context = pto_dialects::ir::context(&module);
    let Some(body) = module.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut names: HashSet<String> = HashSet::new();
    let mut functions = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(op) == "func.func" {
            names.insert(attrs::text_of(op, "sym_name").unwrap_or_default());
            functions.push(op);
        }
    }
    let mut failed = false;
    let mut changed = false;
    for function in functions {
        let kind = match function.attribute("pl.kind").ok().and_then(attrs::read) {
            Some(FunctionAttr::Kind(kind)) => Some(kind),
            _ => None,
        };
        if !matches!(
            kind,
            None | Some(FunctionKind::Orchestration | FunctionKind::Opaque)
        ) {
            continue;
        }
        let mut scopes = Vec::new();
        pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
            if matches!(
                OpKind::of(&op),
                Some(OpKind::PlIncoreScope | OpKind::PlSpmdScope)
            ) {
                scopes.push(op);
                return WalkResult::Skip;
            }
            WalkResult::Advance
        });
        let parent_name = attrs::text_of(function, "sym_name").unwrap_or_default();
        changed |= !scopes.is_empty();
        for (k, scope) in scopes.into_iter().enumerate() {
            if let Err(message) = outline(context, function, scope, &parent_name, k, &mut names) {
                OpDiagnostic::new(format!("pl-outline-incore-scopes: {message}"))
                    .emit(scope, Severity::Error);
                failed = true;
            }
        }
        if kind.is_none() && !failed && !names.is_empty() {
            // An opaque function that dispatches kernels orchestrates.
            let outlined = {
                let mut any = false;
                pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
                    any |= matches!(OpKind::of(&op), Some(OpKind::PlCall | OpKind::PlSubmit));
                    WalkResult::Advance
                });
                any
            };
            if outlined {
                changed = true;
                let mut function = pto_dialects::ir::edit(function);
                function.set_discardable_attribute(
                    "pl.kind",
                    attrs::function_kind(context, FunctionKind::Orchestration),
                );
            }
        }
    }
    if !changed {
        crate::registry::left_unchanged();
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// Live-ins of `scope`: values used inside it and defined outside, in order
/// of first use.
fn live_ins<'c, 'a>(scope: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let mut inside: HashSet<OpKey> = HashSet::new();
    pto_dialects::ir::walk(scope, WalkOrder::PreOrder, |op| {
        inside.insert(op_key(op));
        WalkResult::Advance
    });
    let defined_inside = |value: Value| -> bool {
        if let Ok(result) = melior::ir::operation::OperationResult::try_from(value) {
            return inside.contains(&op_key(result.owner()))
                && op_key(result.owner()) != op_key(scope);
        }
        // A block argument of a region inside the scope.
        let Some(block) = pto_dialects::ir::argument_owner(value) else {
            return false;
        };
        block
            .parent_operation()
            .is_some_and(|op| inside.contains(&op_key(op)) && op_key(op) != op_key(scope))
            || block
                .parent_operation()
                .is_some_and(|op| op_key(op) == op_key(scope))
    };
    let mut seen: HashSet<ValueKey> = HashSet::new();
    let mut live_in = Vec::new();
    pto_dialects::ir::walk(scope, WalkOrder::PreOrder, |op| {
        if op_key(op) != op_key(scope) {
            for operand in op.operands() {
                if !defined_inside(operand) && seen.insert(value_key(operand)) {
                    live_in.push(operand);
                }
            }
        }
        WalkResult::Advance
    });
    live_in
}

/// The direction of a live-in tensor by how the body uses it (stores,
/// atomic adds, puts, notifies, collectives; uses through a store's result,
/// views and loops count): pto_dialects::access.
fn direction(scope: OperationRef, value: Value) -> ParamDirection {
    pto_dialects::access::access(scope, value).unwrap_or(ParamDirection::In)
}

fn outline<'c>(
    context: &'c Context,
    function: OperationRef<'c, '_>,
    scope: OperationRef<'c, '_>,
    parent: &str,
    index: usize,
    names: &mut HashSet<String>,
) -> Result<(), String> {
    let inputs = live_ins(scope);
    if let Some(tile) = inputs
        .iter()
        .find(|v| TileType::try_from(v.r#type()).is_ok())
    {
        return Err(format!(
            "the scope uses a tile defined outside it ({}); kernels take tensors and scalars",
            tile.r#type()
        ));
    }
    let spmd = OpKind::of(&scope) == Some(OpKind::PlSpmdScope);
    let base = attrs::text_of(scope, "name")
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| {
            let what = if spmd { "spmd" } else { "incore" };
            format!("{parent}_{what}_{index}")
        });
    let mut name = base.clone();
    let mut suffix = 1;
    while names.contains(&name) {
        name = format!("{base}_{suffix}");
        suffix += 1;
    }
    names.insert(name.clone());
    let location = scope.location();
    // Directions read the body before it moves.
    let directions: Vec<ParamDirection> = inputs
        .iter()
        .map(|v| {
            if pto_dialects::types::TensorLike::try_from(v.r#type()).is_ok() {
                direction(scope, *v)
            } else {
                ParamDirection::In
            }
        })
        .collect();
    let input_types: Vec<Type> = inputs.iter().map(|v| v.r#type()).collect();
    let result_types: Vec<Type> = scope.results().map(|r| Value::from(r).r#type()).collect();
    // The body: a block with the live-ins as arguments, the scope's ops.
    let block = Block::new(
        &input_types
            .iter()
            .map(|t| (*t, location))
            .collect::<Vec<_>>(),
    );
    let scope_block = scope
        .region(0)
        .map_err(|e| e.to_string())?
        .first_block()
        .ok_or("an empty scope")?;
    while let Some(first) = scope_block.first_operation() {
        block.append_operation(detach(first));
    }
    // Uses of live-ins become uses of the arguments.
    let arguments: Vec<Value> = (0..inputs.len())
        .map(|i| block.argument(i).unwrap().into())
        .collect();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        pto_dialects::ir::walk(op, WalkOrder::PreOrder, |inner| {
            for i in 0..inner.operand_count() {
                let operand = inner.operand(i).unwrap();
                if let Some(position) = inputs
                    .iter()
                    .position(|v| value_key(*v) == value_key(operand))
                {
                    let mut inner = pto_dialects::ir::edit(inner);
                    inner.set_operand(i, arguments[position]);
                }
            }
            WalkResult::Advance
        });
    }
    // pl.yield -> return.
    let terminator = block.terminator().ok_or("a scope without pl.yield")?;
    let returned: Vec<Value> = terminator.operands().collect();
    block.insert_operation_before(terminator, func::r#return(&returned, location));
    drop(detach(terminator));
    let region = Region::new();
    region.append_block(block);
    let function_type = FunctionType::new(context, &input_types, &result_types);
    let arg_attrs: Vec<Attribute> = directions
        .iter()
        .map(|&direction| {
            let entries: Vec<(Identifier, Attribute)> = if direction == ParamDirection::In {
                Vec::new()
            } else {
                vec![(
                    Identifier::new(context, "pl.direction"),
                    attrs::direction(context, direction),
                )]
            };
            dictionary(context, &entries)
        })
        .collect();
    let mut function_attributes = vec![
        (
            Identifier::new(context, "pl.kind"),
            attrs::function_kind(context, FunctionKind::InCore),
        ),
        (
            Identifier::new(context, "arg_attrs"),
            ArrayAttribute::new(context, &arg_attrs).into(),
        ),
    ];
    // The scope's split asks pl-lower-auto-vector-split to share the
    // kernel's vector work.
    if let Some(split) = scope
        .enum_attr::<CoreSplit>("split")
        .filter(|s| *s != CoreSplit::None)
    {
        function_attributes.push((
            Identifier::new(context, "pl.split"),
            attrs::split(context, split),
        ));
    }
    let kernel = func::func(
        context,
        StringAttribute::new(context, &name),
        TypeAttribute::new(function_type.into()),
        region,
        &function_attributes,
        location,
    );
    let module_block = function.block().ok_or("a function outside a module")?;
    module_block.insert_operation_after(function, kernel);
    // The call replaces the scope: an SPMD scope's a submit on its blocks
    // (its task id unused).
    let call = if spmd {
        let blocks = scope.operand(0).map_err(|e| e.to_string())?;
        super::submit_op(
            context,
            location,
            &name,
            &inputs,
            &[],
            Some(blocks),
            scope.attribute("sync_start").ok(),
            &result_types,
        )?
    } else {
        let callee = (
            Identifier::new(context, "callee"),
            FlatSymbolRefAttribute::new(context, &name).into(),
        );
        OperationBuilder::new(OpKind::PlCall.name(), location)
            .add_attributes(&[callee])
            .add_operands(&inputs)
            .add_results(&result_types)
            .build()
            .map_err(|e| e.to_string())?
    };
    let call = scope
        .block()
        .ok_or("a scope outside a block")?
        .insert_operation_before(scope, call);
    let results: Vec<Value> = call
        .results()
        .take(result_types.len())
        .map(Into::into)
        .collect();
    let rewriter = IrRewriter::new(context);
    rewriter
        .as_rewriter_base()
        .replace_op_with_values(scope, &results);
    Ok(())
}

fn dictionary<'c>(
    context: &'c Context,
    entries: &[(Identifier<'c>, Attribute<'c>)],
) -> Attribute<'c> {
    DictionaryAttribute::new(context, entries).into()
}
