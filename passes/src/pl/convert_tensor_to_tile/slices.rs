//! Windows that are not dense in their tensor, passed to a kernel: the
//! kernel takes the whole tensor and the window's offsets instead, and
//! slices it itself, which the conversion makes a `pl.tile.load` at those
//! offsets. A kernel reads each tensor it is given as one dense row-major
//! block, so a column window such as `a[:, k:k+32]` could not be passed
//! as it is (PyPTO's kernels slice their tensors the same way). Results
//! go the same way: a result every call assembles into such a window is
//! assembled by the kernel itself, into the tensor it is then given.

use melior::{
    Context,
    ir::{
        Attribute, BlockLike, Identifier, OperationRef, RegionLike, Type, Value, ValueLike,
        attribute::{ArrayAttribute, DenseI32ArrayAttribute, DictionaryAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike, OperationMutLike},
        r#type::FunctionType,
    },
};
use pto_dialects::{
    attrs,
    enums::ParamDirection,
    op_table::OpKind,
    ops::{Checked, operand_at, operand_segments},
    types::TensorLike,
};

use super::Failure;
use crate::pl::signature::CallSites;

/// Gives `kernel` (of the module of `calls`) the tensors of the non-dense windows its
/// `pl.call`s pass to a parameter it only reads, with the windows' offsets
/// as new `index` parameters after the others, when every call passes such
/// a window of one tensor type there. Kernels called through `pl.submit`
/// are left as they are.
pub(super) fn take_window_tensors<'c, 'a>(
    context: &'c Context,
    calls: &CallSites<'c, 'a>,
    kernel: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let Some((calls, entry)) = plain_calls(calls, kernel) else {
        return Ok(());
    };
    let parameters = entry.argument_count();
    // The offsets each call passes after its arguments.
    let mut added: Vec<Vec<Value>> = vec![Vec::new(); calls.len()];
    for index in 0..parameters {
        let parameter = entry.argument(index).map_err(|e| (kernel, e.to_string()))?;
        let windows: Option<Vec<Window>> = calls
            .iter()
            .map(|&call| window_at(call, index).filter(|w| w.r#type == parameter.r#type()))
            .collect();
        let Some(windows) = windows else {
            continue;
        };
        let whole = windows[0].source.r#type();
        let offset_count = windows[0].offsets.len();
        let read_only = pto_dialects::access::access(kernel, parameter.into())
            .is_none_or(|d| d == ParamDirection::In);
        if !read_only || windows.iter().any(|w| w.source.r#type() != whole) {
            continue;
        }
        // The kernel's parameter becomes the whole tensor; its uses take
        // the kernel's own slice of it at the new offset parameters.
        let uses = pto_dialects::ir::uses(parameter.into());
        parameter.set_type(whole);
        let location = windows[0].slice.location();
        let offsets: Vec<Value> = (0..offset_count)
            .map(|_| entry.add_argument(Type::index(context), location))
            .collect();
        let own = OperationBuilder::new(OpKind::PlTensorSlice.name(), location)
            .add_operands(&[&[parameter.into()][..], &offsets].concat())
            .add_results(&[windows[0].r#type])
            .add_attributes(&[(
                Identifier::new(context, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(context, &[1, offset_count as i32, 0]).into(),
            )])
            .build()
            .map_err(|e| (kernel, e.to_string()))?;
        let own = match entry.first_operation() {
            Some(first) => entry.insert_operation_before(first, own),
            None => entry.append_operation(own),
        };
        let sliced: Value = own.result(0).unwrap().into();
        for (user, operand) in uses {
            pto_dialects::ir::set_operand(user, operand, sliced);
        }
        for ((call, window), offsets) in calls.iter().zip(&windows).zip(&mut added) {
            pto_dialects::ir::set_operand(*call, index, window.source);
            offsets.extend(window.offsets.iter().copied());
            if !pto_dialects::ir::has_uses(window.slice.result(0).unwrap()) {
                pto_dialects::ir::erase(window.slice);
            }
        }
    }
    if added.iter().all(Vec::is_empty) {
        return Ok(());
    }
    for (call, offsets) in calls.iter().zip(added) {
        let mut operands: Vec<Value> = call.operands().collect();
        operands.extend(offsets);
        pto_dialects::ir::edit(*call).set_operands(&operands);
    }
    retype(context, kernel, parameters, &[]);
    Ok(())
}

/// Gives `kernel` (of the module of `calls`) the tensor each of its results is
/// assembled into, when every `pl.call` of it assembles that result (its
/// only use) into a window that is not dense in a tensor of one static
/// type: the kernel takes the tensor and the window's offsets (new
/// parameters after the others), assembles the result into it itself and
/// returns the tensor; each call passes its target and offsets, and its
/// result replaces the assemble. Only results the kernel computes (not
/// parameters it returns) are rewritten.
pub(super) fn write_window_tensors<'c, 'a>(
    context: &'c Context,
    calls: &CallSites<'c, 'a>,
    kernel: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let Some((calls, entry)) = plain_calls(calls, kernel) else {
        return Ok(());
    };
    let Some(terminator) = entry.terminator() else {
        return Ok(());
    };
    let parameters = entry.argument_count();
    let mut added: Vec<Vec<Value>> = vec![Vec::new(); calls.len()];
    let mut assembles: Vec<Vec<OperationRef>> = vec![Vec::new(); calls.len()];
    let mut retyped: Vec<(usize, Type)> = Vec::new();
    for j in 0..terminator.operand_count() {
        let returned = operand_at(terminator, j).ok_or((terminator, "a missing operand".into()))?;
        let computed = pto_dialects::ir::defining_op(returned)
            .and_then(|op| OpKind::of(&op))
            .is_some_and(|k| k.info().tile_form.is_some());
        if !computed {
            continue;
        }
        let targets: Option<Vec<Target>> = calls.iter().map(|&call| target_of(call, j)).collect();
        let Some(targets) = targets else {
            continue;
        };
        let whole = targets[0].target.r#type();
        if targets.iter().any(|t| t.target.r#type() != whole) {
            continue;
        }
        let location = terminator.location();
        let target = entry.add_argument(whole, location);
        let offsets: Vec<Value> = (0..targets[0].offsets.len())
            .map(|_| entry.add_argument(Type::index(context), location))
            .collect();
        let assemble = OperationBuilder::new(OpKind::PlTensorAssemble.name(), location)
            .add_operands(&[&[returned, target][..], &offsets].concat())
            .add_results(&[whole])
            .build()
            .map_err(|e| (kernel, e.to_string()))?;
        let written = entry.insert_operation_before(terminator, assemble);
        pto_dialects::ir::edit(terminator).set_operand(j, written.result(0).unwrap().into());
        retyped.push((j, whole));
        for (k, t) in targets.into_iter().enumerate() {
            added[k].push(t.target);
            added[k].extend(t.offsets);
            assembles[k].push(t.assemble);
        }
    }
    if retyped.is_empty() {
        return Ok(());
    }
    for ((call, offsets), written) in calls.iter().zip(added).zip(assembles) {
        let mut operands: Vec<Value> = call.operands().collect();
        operands.extend(offsets);
        pto_dialects::ir::edit(*call).set_operands(&operands);
        for (&(j, whole), assemble) in retyped.iter().zip(written) {
            let result: Value = call.result(j).unwrap().into();
            result.set_type(whole);
            pto_dialects::ir::replace_all_uses(assemble.result(0).unwrap(), result);
            pto_dialects::ir::erase(assemble);
        }
    }
    retype(context, kernel, parameters, &retyped);
    Ok(())
}

/// The `pl.call`s of `kernel` (of the module of `calls`) and its entry block, when it
/// has calls and all are `pl.call`s (a `pl.submit`'s kernel is left as it
/// is).
fn plain_calls<'c, 'a>(
    calls: &CallSites<'c, 'a>,
    kernel: OperationRef<'c, 'a>,
) -> Option<(Vec<OperationRef<'c, 'a>>, melior::ir::BlockRef<'c, 'a>)> {
    let name = attrs::text_of(kernel, "sym_name").unwrap_or_default();
    let calls = calls.calls_of(&name);
    if calls.is_empty() || calls.iter().any(|c| OpKind::of(c) != Some(OpKind::PlCall)) {
        return None;
    }
    let entry = kernel.region_opt(0).and_then(|r| r.first_block())?;
    Some((calls, entry))
}

/// Where a call's result is assembled: the assemble, its target and
/// offsets.
struct Target<'c, 'a> {
    assemble: OperationRef<'c, 'a>,
    target: Value<'c, 'a>,
    offsets: Vec<Value<'c, 'a>>,
}

/// The assemble that is the only use of `call`'s result `index`, when it
/// writes a static window that is not dense in its static target, without
/// `atomic_add`, and its target and offsets are defined before the call
/// (they become its operands).
fn target_of<'c, 'a>(call: OperationRef<'c, 'a>, index: usize) -> Option<Target<'c, 'a>> {
    let result: Value = call.result_opt(index)?.into();
    let uses = pto_dialects::ir::uses(result);
    let [(assemble, 0)] = uses[..] else {
        return None;
    };
    if OpKind::of(&assemble) != Some(OpKind::PlTensorAssemble)
        || assemble.attribute("atomic_add").is_ok()
    {
        return None;
    }
    let target = operand_at(assemble, 1)?;
    let whole = TensorLike::try_from(target.r#type()).ok()?.shape();
    let window = TensorLike::try_from(result.r#type()).ok()?.shape();
    let static_shapes = whole.iter().all(Option::is_some) && window.iter().all(Option::is_some);
    let dense = crate::emitc::dense::provably_dense(&whole, &window).is_ok();
    if dense || !static_shapes || assemble.operand_count() != 2 + whole.len() {
        return None;
    }
    let offsets: Vec<Value> = (2..assemble.operand_count())
        .map(|k| operand_at(assemble, k))
        .collect::<Option<Vec<_>>>()?;
    if !std::iter::once(target)
        .chain(offsets.iter().copied())
        .all(|v| defined_before(v, call))
    {
        return None;
    }
    Some(Target {
        assemble,
        target,
        offsets,
    })
}

/// Whether `value` is available at `op`: an argument of a block `op` is
/// in, or the result of an op before `op` (or before an op holding it) in
/// its block.
fn defined_before<'c, 'a>(value: Value<'c, 'a>, op: OperationRef<'c, 'a>) -> bool {
    let owner_block = pto_dialects::ir::argument_owner(value);
    let definer = pto_dialects::ir::defining_op(value);
    let mut cursor = Some(op);
    while let Some(at) = cursor {
        let block = at.block();
        if owner_block.is_some() && block == owner_block {
            return true;
        }
        if let (Some(definer), Some(_)) = (definer, block)
            && definer.block() == block
        {
            let mut previous = pto_dialects::ir::previous_in_block(at);
            while let Some(p) = previous {
                if p == definer {
                    return true;
                }
                previous = pto_dialects::ir::previous_in_block(p);
            }
            return false;
        }
        cursor = at.parent_operation();
    }
    false
}

/// A window a call passes: the slice, its tensor, offsets and type.
struct Window<'c, 'a> {
    slice: OperationRef<'c, 'a>,
    source: Value<'c, 'a>,
    offsets: Vec<Value<'c, 'a>>,
    r#type: Type<'c>,
}

/// The window `call` passes as argument `index`, when it is a static
/// `pl.tensor.slice` that is not dense in its static tensor.
fn window_at<'c, 'a>(call: OperationRef<'c, 'a>, index: usize) -> Option<Window<'c, 'a>> {
    let argument = operand_at(call, index)?;
    let slice = pto_dialects::ir::defining_op(argument)
        .filter(|op| OpKind::of(op) == Some(OpKind::PlTensorSlice))?;
    let segments = operand_segments(slice);
    let (&(_, offset_count), &(_, size_count)) = (segments.get(1)?, segments.get(2)?);
    let source = operand_at(slice, 0)?;
    let whole = TensorLike::try_from(source.r#type()).ok()?;
    let window = TensorLike::try_from(argument.r#type()).ok()?;
    let static_shapes =
        whole.shape().iter().all(Option::is_some) && window.shape().iter().all(Option::is_some);
    let dense = crate::emitc::dense::provably_dense(&whole.shape(), &window.shape()).is_ok();
    if dense || !static_shapes || size_count != 0 {
        return None;
    }
    let offsets = (0..offset_count)
        .map(|k| operand_at(slice, 1 + k))
        .collect::<Option<Vec<_>>>()?;
    Some(Window {
        slice,
        source,
        offsets,
        r#type: argument.r#type(),
    })
}

/// `kernel`'s function type from its entry block's arguments, the
/// parameters from `old_count` on without attributes.
fn retype<'c>(
    context: &'c Context,
    kernel: OperationRef<'c, '_>,
    old_count: usize,
    retyped: &[(usize, Type<'c>)],
) {
    let Some(entry) = kernel.region_opt(0).and_then(|r| r.first_block()) else {
        return;
    };
    let function_type = pto_dialects::ops::function_type(kernel).expect("a function type");
    let results: Vec<Type> = (0..function_type.result_count())
        .filter_map(|i| {
            retyped
                .iter()
                .find(|(j, _)| *j == i)
                .map(|&(_, t)| t)
                .or_else(|| function_type.result(i).ok())
        })
        .collect();
    let params: Vec<Type> = (0..entry.argument_count())
        .filter_map(|i| entry.argument(i).ok().map(|a| a.r#type()))
        .collect();
    let old_attrs = kernel
        .attribute("arg_attrs")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok());
    let empty: Attribute = DictionaryAttribute::new(context, &[]).into();
    let arg_attrs: Vec<Attribute> = (0..params.len())
        .map(|i| {
            old_attrs
                .filter(|_| i < old_count)
                .and_then(|a| a.element(i).ok())
                .unwrap_or(empty)
        })
        .collect();
    let mut kernel = pto_dialects::ir::edit(kernel);
    kernel.set_inherent_attribute(
        "function_type",
        TypeAttribute::new(FunctionType::new(context, &params, &results).into()).into(),
    );
    kernel.set_inherent_attribute("arg_attrs", ArrayAttribute::new(context, &arg_attrs).into());
}
