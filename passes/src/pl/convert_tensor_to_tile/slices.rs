//! Windows that are not dense in their tensor, passed to a kernel: the
//! kernel takes the whole tensor and the window's offsets instead, and
//! slices it itself, which the conversion makes a `pl.tile.load` at those
//! offsets. A kernel reads each tensor it is given as one dense row-major
//! block, so a column window such as `a[:, k:k+32]` could not be passed
//! as it is (PyPTO's kernels slice their tensors the same way).

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

/// Gives `kernel` (of `module`) the tensors of the non-dense windows its
/// one `pl.call` passes to parameters it only reads, with the windows'
/// offsets as new `index` parameters after the others. Kernels called
/// more than once, or through `pl.submit`, are left as they are.
pub(super) fn take_window_tensors<'c, 'a>(
    context: &'c Context,
    module: OperationRef<'c, 'a>,
    kernel: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let name = attrs::text_of(kernel, "sym_name").unwrap_or_default();
    let calls = super::calls_of(module, &name);
    let [call] = calls[..] else {
        return Ok(());
    };
    if OpKind::of(&call) != Some(OpKind::PlCall) {
        return Ok(());
    }
    let Some(entry) = kernel.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let parameters = entry.argument_count();
    let mut added_offsets = Vec::new();
    for index in 0..parameters.min(call.operand_count()) {
        let Some(argument) = operand_at(call, index) else {
            continue;
        };
        let Some(slice) = pto_dialects::ir::defining_op(argument)
            .filter(|op| OpKind::of(op) == Some(OpKind::PlTensorSlice))
        else {
            continue;
        };
        let segments = operand_segments(slice);
        let (Some(&(_, offset_count)), Some(&(_, size_count))) = (segments.get(1), segments.get(2))
        else {
            continue;
        };
        let Some(source) = operand_at(slice, 0) else {
            continue;
        };
        let (Ok(whole), Ok(window)) = (
            TensorLike::try_from(source.r#type()),
            TensorLike::try_from(argument.r#type()),
        ) else {
            continue;
        };
        let static_shapes =
            whole.shape().iter().all(Option::is_some) && window.shape().iter().all(Option::is_some);
        let dense = crate::emitc::dense::provably_dense(&whole.shape(), &window.shape()).is_ok();
        let parameter = entry.argument(index).map_err(|e| (kernel, e.to_string()))?;
        let read_only = pto_dialects::access::access(kernel, parameter.into())
            .is_none_or(|d| d == ParamDirection::In);
        if dense || !static_shapes || size_count != 0 || !read_only {
            continue;
        }
        if parameter.r#type() != argument.r#type() {
            continue;
        }
        // The kernel's parameter becomes the whole tensor; its uses take
        // the kernel's own slice of it at the new offset parameters.
        let uses = pto_dialects::ir::uses(parameter.into());
        parameter.set_type(source.r#type());
        let location = slice.location();
        let offsets: Vec<Value> = (0..offset_count)
            .map(|_| entry.add_argument(Type::index(context), location))
            .collect();
        let own = OperationBuilder::new(OpKind::PlTensorSlice.name(), location)
            .add_operands(&[&[parameter.into()][..], &offsets].concat())
            .add_results(&[argument.r#type()])
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
        pto_dialects::ir::set_operand(call, index, source);
        added_offsets.extend((0..offset_count).filter_map(|k| operand_at(slice, 1 + k)));
        if !pto_dialects::ir::has_uses(argument) {
            pto_dialects::ir::erase(slice);
        }
    }
    if added_offsets.is_empty() {
        return Ok(());
    }
    let mut operands: Vec<Value> = call.operands().collect();
    operands.extend(added_offsets);
    pto_dialects::ir::edit(call).set_operands(&operands);
    retype(context, kernel, parameters);
    Ok(())
}

/// `kernel`'s function type from its entry block's arguments, the
/// parameters from `old_count` on without attributes.
fn retype<'c>(context: &'c Context, kernel: OperationRef<'c, '_>, old_count: usize) {
    let Some(entry) = kernel.region_opt(0).and_then(|r| r.first_block()) else {
        return;
    };
    let function_type = pto_dialects::ops::function_type(kernel).expect("a function type");
    let results: Vec<Type> = (0..function_type.result_count())
        .filter_map(|i| function_type.result(i).ok())
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
