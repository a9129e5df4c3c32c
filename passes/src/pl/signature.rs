//! Changing a kernel's signature: parameters appended to its type and
//! argument attributes, and the calls that must pass them.

use melior::{
    Context,
    ir::{
        Attribute, Identifier, Type,
        attribute::{ArrayAttribute, DictionaryAttribute, TypeAttribute},
        operation::{OperationLike, OperationMutLike, OperationRef, WalkOrder},
        r#type::FunctionType,
    },
};
use pto_dialects::{attrs, enums::ParamDirection, op_table::OpKind};
use std::collections::HashMap;

/// Appends `inputs` as parameters to `kernel`'s type and arg attrs, each
/// with `direction` when one is given (the entry block's arguments are the
/// caller's to add).
pub(crate) fn extend_signature<'c>(
    context: &'c Context,
    kernel: OperationRef<'c, '_>,
    inputs: &[Type<'c>],
    direction: Option<ParamDirection>,
) {
    let function_type = pto_dialects::ops::function_type(kernel).expect("a function type");
    let mut params: Vec<Type> = (0..function_type.input_count())
        .filter_map(|i| function_type.input(i).ok())
        .collect();
    let results: Vec<Type> = (0..function_type.result_count())
        .filter_map(|i| function_type.result(i).ok())
        .collect();
    let old_count = params.len();
    params.extend_from_slice(inputs);
    let old_attrs = kernel
        .attribute("arg_attrs")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok());
    let empty: Attribute = DictionaryAttribute::new(context, &[]).into();
    let mut arg_attrs: Vec<Attribute> = (0..old_count)
        .map(|i| old_attrs.and_then(|a| a.element(i).ok()).unwrap_or(empty))
        .collect();
    let added: Attribute = match direction {
        Some(direction) => DictionaryAttribute::new(
            context,
            &[(
                Identifier::new(context, "pl.direction"),
                attrs::direction(context, direction),
            )],
        )
        .into(),
        None => empty,
    };
    arg_attrs.extend(inputs.iter().map(|_| added));
    let mut kernel = pto_dialects::ir::edit(kernel);
    kernel.set_inherent_attribute(
        "function_type",
        TypeAttribute::new(FunctionType::new(context, &params, &results).into()).into(),
    );
    kernel.set_inherent_attribute("arg_attrs", ArrayAttribute::new(context, &arg_attrs).into());
}

/// The `pl.call`s and `pl.submit`s of `name` in `module`. Kernels dispatch
/// nothing (the verifier's rule), so their bodies are not searched; still,
/// each query visits every function of the module: a pass asking for the
/// calls of each of many kernels uses [`CallSites`] instead.
pub(crate) fn calls_of<'c, 'a>(
    module: OperationRef<'c, 'a>,
    name: &str,
) -> Vec<OperationRef<'c, 'a>> {
    let mut calls = Vec::new();
    visit_calls(module, |call, callee| {
        if callee == name {
            calls.push(call);
        }
    });
    calls
}

/// Calls `visit` with every `pl.call` and `pl.submit` of `module` outside
/// kernels, and its callee.
fn visit_calls<'c, 'a>(
    module: OperationRef<'c, 'a>,
    mut visit: impl FnMut(OperationRef<'c, 'a>, &str),
) {
    pto_dialects::ir::walk(module, WalkOrder::PreOrder, |op| {
        if pto_dialects::ops::op_name(op) == "func.func" && super::is_kernel(op) {
            return melior::ir::operation::WalkResult::Skip;
        }
        if matches!(OpKind::of(&op), Some(OpKind::PlCall | OpKind::PlSubmit))
            && let Some(callee) = attrs::text_of(op, "callee")
        {
            visit(op, &callee);
        }
        melior::ir::operation::WalkResult::Advance
    });
}

/// The `pl.call`s and `pl.submit`s of a module by callee, found in one
/// walk: a module pass asking for the calls of each kernel looks them up
/// instead of walking the module once per kernel (quadratic in the number
/// of kernels). It holds while no call is added or erased; editing a call
/// in place ([`pass_arguments`]) keeps it.
pub(crate) struct CallSites<'c, 'a> {
    by_callee: HashMap<String, Vec<OperationRef<'c, 'a>>>,
}

impl<'c, 'a> CallSites<'c, 'a> {
    /// The calls of `module`.
    pub(crate) fn of(module: OperationRef<'c, 'a>) -> Self {
        let mut by_callee: HashMap<String, Vec<OperationRef<'c, 'a>>> = HashMap::new();
        visit_calls(module, |call, callee| {
            by_callee.entry(callee.to_string()).or_default().push(call)
        });
        CallSites { by_callee }
    }

    /// The calls of `name`, in the module's order.
    pub(crate) fn calls_of(&self, name: &str) -> Vec<OperationRef<'c, 'a>> {
        self.by_callee.get(name).cloned().unwrap_or_default()
    }

    /// Each callee and its calls.
    pub(crate) fn by_callee(&self) -> impl Iterator<Item = (&str, &[OperationRef<'c, 'a>])> {
        self.by_callee
            .iter()
            .map(|(name, calls)| (name.as_str(), calls.as_slice()))
    }
}

/// Gives `kernel`'s type the types of its entry block's arguments (after
/// they were retyped or added).
pub(crate) fn take_argument_types<'c>(context: &'c Context, kernel: OperationRef<'c, '_>) {
    use melior::ir::{BlockLike, RegionLike, ValueLike};
    use pto_dialects::ops::Checked;
    let Some(function_type) = pto_dialects::ops::function_type(kernel) else {
        return;
    };
    let Some(body) = kernel.region_opt(0).and_then(|r| r.first_block()) else {
        return;
    };
    let params: Vec<Type> = (0..body.argument_count())
        .filter_map(|i| body.argument(i).ok().map(|a| a.r#type()))
        .collect();
    let results: Vec<Type> = (0..function_type.result_count())
        .filter_map(|i| function_type.result(i).ok())
        .collect();
    pto_dialects::ir::edit(kernel).set_inherent_attribute(
        "function_type",
        TypeAttribute::new(FunctionType::new(context, &params, &results).into()).into(),
    );
}

/// `call` (a `pl.call` or `pl.submit`) passes `value` as argument `index`
/// for each `(index, value)` of `replaced`, and `appended` after its
/// other arguments (a submit's segment sizes follow).
pub(crate) fn pass_arguments<'c>(
    context: &'c Context,
    call: OperationRef<'c, '_>,
    replaced: &[(usize, melior::ir::Value<'c, '_>)],
    appended: &[melior::ir::Value<'c, '_>],
) {
    let submit = OpKind::of(&call) == Some(OpKind::PlSubmit);
    let segments = pto_dialects::ops::operand_segments(call);
    let (start, count) = argument_range(call);
    let args_end = start + count;
    let mut operands: Vec<melior::ir::Value> = call.operands().collect();
    for &(index, value) in replaced {
        operands[index] = value;
    }
    for (k, value) in appended.iter().enumerate() {
        operands.insert(args_end + k, *value);
    }
    let mut call_mut = pto_dialects::ir::edit(call);
    call_mut.set_operands(&operands);
    if submit {
        let sizes: Vec<i32> = segments
            .iter()
            .enumerate()
            .map(|(i, s)| s.1 as i32 + if i == 0 { appended.len() as i32 } else { 0 })
            .collect();
        call_mut.set_inherent_attribute(
            "operandSegmentSizes",
            melior::ir::attribute::DenseI32ArrayAttribute::new(context, &sizes).into(),
        );
    }
}

/// The (first operand, count) of a `pl.call`'s or `pl.submit`'s arguments
/// (a submit's first operand segment; its dependencies and block count
/// follow).
pub(crate) fn argument_range(call: OperationRef) -> (usize, usize) {
    if OpKind::of(&call) == Some(OpKind::PlSubmit) {
        pto_dialects::ops::operand_segments(call)
            .first()
            .copied()
            .unwrap_or((0, 0))
    } else {
        (0, call.operand_count())
    }
}
