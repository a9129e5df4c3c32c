//! `pl-materialize-valid-shapes`: a kernel parameter whose valid extents
//! are only known where the kernel is called takes them as parameters.
//! What it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-materialize-valid-shapes.md).

use melior::{
    Context,
    dialect::arith,
    ir::{
        BlockLike, Location, OperationRef, RegionLike, Type, Value, ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationMutLike},
    },
};
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
    enums::ParamDirection,
    op_table::OpKind,
    ops::{Checked, operand_at},
    types::TensorType,
};

use super::signature::{calls_of, extend_signature, pass_arguments, take_argument_types};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-materialize-valid-shapes",
    class_name: "MaterializeValidShapes",
    summary: "Pass a kernel parameter's runtime valid extents as index parameters",
    description: r#"A kernel parameter typed with runtime valid extents
(`!pl.tensor<16x64xf32, valid = 16x?>`) says that only part of the tensor
holds data, but nothing in the kernel says how much: the runtime hands a
kernel its tensors whole, without valid extents. As PyPTO's
MaterializeValidShapeSymbols, this pass gives each such 2-D input
parameter of an InCore, aic or aiv kernel the whole tensor's type and
one `index` parameter per runtime valid extent (appended, in parameter
then axis order), and begins the kernel with the
`pl.tensor.set_validshape` of the parameter to those extents, which its
uses read instead. Every `pl.call` and `pl.submit` of the kernel passes
the tensor the argument is a valid region of, and its extents: the
argument must come from a `pl.tensor.set_validshape` in the caller (a
static valid extent stays a constant), which goes when nothing else
reads it.

```mlir
// before
func.func @masked(%s: !pl.tensor<16x64xf32, valid = 16x?>) -> ... {pl.kind = #pl.kind<incore>}
...
%v = pl.tensor.set_validshape %s, %c16, %n : !S -> !pl.tensor<16x64xf32, valid = 16x?>
%p = pl.call @masked(%v) : (!pl.tensor<16x64xf32, valid = 16x?>) -> !S
// after
func.func @masked(%s: !pl.tensor<16x64xf32>, %cols: index) -> ... {
  %c16 = arith.constant 16 : index
  %v = pl.tensor.set_validshape %s, %c16, %cols : ...
...
%p = pl.call @masked(%s, %n) : (!pl.tensor<16x64xf32>, index) -> !S
```

Parameters written by the kernel (declared `out` or `inout`) are left as
they are, and so are parameters of another rank or with a layout, pad or
strides besides the valid extents: converting their kernel is then an
error. A call whose argument is not a `pl.tensor.set_validshape` of the
whole tensor is an error at the call. `pto-a2a3-pipeline` runs it after
`pl-outline-incore-scopes` and before `pl-convert-tensor-to-tile`, which
converts the `set_validshape` into the loaded tile's."#,
    example_options: "",
    anchor: None,
    options: &[],
    dependent_dialects: || {
        vec![
            melior::dialect::DialectHandle::arith(),
            pto_dialects::pl_handle(),
        ]
    },
    run: Run::Op(run),
};

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

/// A parameter this pass rewrites: its index, its whole tensor type and
/// its valid extents (`None` where known only at run time).
struct Narrowed<'c> {
    index: usize,
    whole: Type<'c>,
    valid: Vec<Option<i64>>,
}

fn run(module: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let context = pto_dialects::ir::context(&module);
    let kernels = pto_dialects::ir::collect_named(module, &["func.func"])
        .into_iter()
        .filter(|f| super::is_kernel(*f));
    let mut failed = false;
    let mut changed = false;
    for kernel in kernels {
        let narrowed = narrowed_parameters(context, kernel);
        if narrowed.is_empty() {
            continue;
        }
        changed = true;
        if let Err((op, message)) = rewrite(context, module, kernel, &narrowed) {
            OpDiagnostic::new(format!("pl-materialize-valid-shapes: {message}"))
                .emit(op, Severity::Error);
            failed = true;
        }
    }
    if !changed {
        crate::registry::left_unchanged();
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// The parameters of `kernel` with runtime valid extents it reads only.
fn narrowed_parameters<'c>(
    context: &'c Context,
    kernel: OperationRef<'c, '_>,
) -> Vec<Narrowed<'c>> {
    let Some(function_type) = pto_dialects::ops::function_type(kernel) else {
        return Vec::new();
    };
    (0..function_type.input_count())
        .filter_map(|index| {
            let tensor = TensorType::try_from(function_type.input(index).ok()?).ok()?;
            let view = tensor.view();
            let valid = view.valid_shape.clone()?;
            let shape = tensor.shape();
            let written = matches!(
                pto_dialects::access::declared_direction(kernel, index),
                Some(ParamDirection::Out | ParamDirection::InOut)
            );
            let plain = view.layout.is_none() && view.pad.is_none() && !view.has_strides;
            (valid.iter().any(Option::is_none)
                && !written
                && plain
                && shape.len() == 2
                && shape.iter().all(Option::is_some))
            .then(|| Narrowed {
                index,
                whole: TensorType::new(
                    context,
                    &shape,
                    melior::ir::r#type::ShapedTypeLike::element(&tensor),
                )
                .into(),
                valid,
            })
        })
        .collect()
}

fn rewrite<'c, 'a>(
    context: &'c Context,
    module: OperationRef<'c, 'a>,
    kernel: OperationRef<'c, 'a>,
    narrowed: &[Narrowed<'c>],
) -> Result<(), Failure<'c, 'a>> {
    let name = attrs::text_of(kernel, "sym_name").unwrap_or_default();
    // The callers first: each argument must be a set_validshape whose
    // runtime extents are at hand.
    let calls = calls_of(module, &name);
    let mut passed = Vec::new();
    for &call in &calls {
        let (start, count) = super::signature::argument_range(call);
        let arguments: Vec<Value> = (start..start + count)
            .filter_map(|i| operand_at(call, i))
            .collect();
        let mut replaced = Vec::new();
        let mut extents = Vec::new();
        for parameter in narrowed {
            let argument = *arguments.get(parameter.index).ok_or((
                call,
                format!("this call passes no argument #{}", parameter.index),
            ))?;
            let set = pto_dialects::ir::defining_op(argument)
                .filter(|op| OpKind::of(op) == Some(OpKind::PlTensorSetValidshape))
                .ok_or((
                    call,
                    format!(
                        "argument #{} of @{name} has valid extents known only at run time, but it is no pl.tensor.set_validshape here: the kernel cannot be told them",
                        parameter.index
                    ),
                ))?;
            let source = operand_at(set, 0).expect("set_validshape has a source");
            if source.r#type() != parameter.whole {
                return Err((
                    call,
                    format!(
                        "argument #{} of @{name} is a valid region of {}, not of the whole {}",
                        parameter.index,
                        source.r#type(),
                        parameter.whole
                    ),
                ));
            }
            replaced.push((parameter.index, source));
            for (axis, extent) in parameter.valid.iter().enumerate() {
                if extent.is_none() {
                    extents.push(operand_at(set, 1 + axis).expect("set_validshape has extents"));
                }
            }
        }
        passed.push((call, replaced, extents));
    }
    // The kernel: whole parameters, the extents appended, the valid
    // region set first.
    let body = kernel
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((kernel, "a kernel without a body".to_string()))?;
    let first = body
        .first_operation()
        .ok_or((kernel, "a kernel without a body".to_string()))?;
    let location = Location::unknown(context);
    let index_type = Type::index(context);
    let added = narrowed
        .iter()
        .map(|p| p.valid.iter().filter(|v| v.is_none()).count())
        .sum::<usize>();
    extend_signature(context, kernel, &vec![index_type; added], None);
    for parameter in narrowed {
        let argument: Value = body.argument(parameter.index).unwrap().into();
        let narrow_type = argument.r#type();
        argument.set_type(parameter.whole);
        let mut sizes = Vec::new();
        for extent in &parameter.valid {
            sizes.push(match extent {
                Some(fixed) => body
                    .insert_operation_before(
                        first,
                        arith::constant(
                            context,
                            IntegerAttribute::new(index_type, *fixed).into(),
                            location,
                        ),
                    )
                    .result(0)
                    .unwrap()
                    .into(),
                None => body.add_argument(index_type, location),
            });
        }
        let uses = pto_dialects::ir::uses(argument);
        let set = body.insert_operation_before(
            first,
            OperationBuilder::new(OpKind::PlTensorSetValidshape.name(), location)
                .add_operands(&[&[argument][..], &sizes].concat())
                .add_results(&[narrow_type])
                .build()
                .expect("pl.tensor.set_validshape builds"),
        );
        let narrow: Value = set.result(0).unwrap().into();
        for (user, operand) in uses {
            pto_dialects::ir::edit(user).set_operand(operand, narrow);
        }
    }
    take_argument_types(context, kernel);
    let mut sets = Vec::new();
    for (call, replaced, extents) in passed {
        for &(index, _) in &replaced {
            let set = operand_at(call, index).and_then(pto_dialects::ir::defining_op);
            if let Some(set) = set.filter(|set| !sets.contains(set)) {
                sets.push(set);
            }
        }
        pass_arguments(context, call, &replaced, &extents);
    }
    // A caller's set_validshape nothing reads any more (it is pure) goes.
    for set in sets {
        let unused = set
            .result(0)
            .is_ok_and(|r| pto_dialects::ir::uses(r.into()).is_empty());
        if unused {
            pto_dialects::ir::erase(set);
        }
    }
    Ok(())
}
