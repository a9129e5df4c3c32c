//! `runtime=sim`: each chip orchestration (one a host program dispatches)
//! as a C++ function of this rank's pointers, called by the simulator
//! program of its host (docs/translate.md): tensors and window views become
//! `T*` (host tensors whole, as `pto::sim::Buffer<T>*`), comm contexts
//! `int64_t*`, a window's dynamic extents trailing `size_t` parameters, and
//! its `pl.call`s call the kernels.

use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        BlockLike, BlockRef, Location, OperationRef, RegionLike, Type, Value, ValueLike,
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, TypeLike},
    },
};
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{Checked, op_name};
use pto_dialects::types::{CommCtxType, TensorLike};

use super::calls::Failure;
use super::kernels::symbol;

mod aliases;
mod calls;

/// What a chip's kernel call needs of a kernel parameter.
#[derive(Clone, Debug)]
pub struct Parameter {
    /// The C++ element type (`int64_t` for a comm context).
    pub element: String,
    /// -1 for a dynamic extent.
    pub shape: Vec<i64>,
    /// A window view or comm context: passed as this rank's pointer.
    pub distributed: bool,
}

/// Per kernel parameter: what a call passes it (`None` for a scalar).
pub fn parameters(kernel: OperationRef) -> Vec<Option<Parameter>> {
    let body = kernel.region_opt(0).and_then(|r| r.first_block());
    (0..body.map_or(0, |b| b.argument_count()))
        .map(|i| {
            let argument: Value = body.unwrap().argument(i).unwrap().into();
            parameter(argument.r#type())
        })
        .collect()
}

fn parameter(r#type: Type) -> Option<Parameter> {
    if CommCtxType::try_from(r#type).is_ok() {
        return Some(Parameter {
            element: "int64_t".into(),
            shape: vec![],
            distributed: true,
        });
    }
    let tensor = TensorLike::try_from(r#type).ok()?;
    let element = crate::emitc::cpp_types::element(tensor.element()).ok()?;
    Some(Parameter {
        element: element.to_string(),
        shape: tensor.shape().iter().map(|d| d.unwrap_or(-1)).collect(),
        distributed: tensor.is_distributed(),
    })
}

/// The lowering of one chip orchestration: what its parts share.
struct Chip<'c, 'a, 'k> {
    context: &'c Context,
    chip: OperationRef<'c, 'a>,
    kernels: &'k HashMap<String, Vec<Option<Parameter>>>,
    /// What the orchestration lowering knows of each kernel.
    calls: &'k HashMap<String, super::kernels::KernelCall>,
    /// The parameters that are host tensors (passed whole).
    host_tensors: Vec<ValueKey>,
    /// Each dynamic window extent (window parameter, axis) and its
    /// trailing `size_t` parameter.
    extents: Vec<((ValueKey, usize), Value<'c, 'a>)>,
}

impl<'c, 'a> Chip<'c, 'a, '_> {
    fn fail(&self, message: impl Into<String>) -> Failure<'c, 'a> {
        (self.chip, message.into())
    }
}

fn size_t(context: &Context) -> Type<'_> {
    Type::parse(context, "!emitc.size_t").expect("size_t parses")
}

/// `!emitc.ptr<!emitc.opaque<"pointee">>`.
fn pointer<'c>(context: &'c Context, pointee: &str) -> Type<'c> {
    Type::parse(
        context,
        &format!("!emitc.ptr<!emitc.opaque<\"{pointee}\">>"),
    )
    .expect("a pointer parses")
}

/// Lowers `chip` (in a module whose kernels `kernels` describes by name)
/// in place: it becomes a `static` `emitc.func` of the same name.
pub fn lower<'c, 'a>(
    chip: OperationRef<'c, 'a>,
    kernels: &HashMap<String, Vec<Option<Parameter>>>,
    calls: &HashMap<String, super::kernels::KernelCall>,
) -> Result<(), Failure<'c, 'a>> {
    let context = pto_dialects::ir::context(&chip);
    let entry = chip
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or_else(|| (chip, "an empty chip orchestration".to_string()))?;
    let mut lowering = Chip {
        context,
        chip,
        kernels,
        calls,
        host_tensors: Vec::new(),
        extents: Vec::new(),
    };
    // Tasks run at once, in order: a runtime scope is its body.
    super::scopes::open_runtime_scopes(chip, false)?;
    aliases::forward(chip, calls)?;
    let parameter_types = lowering.parameters(entry)?;
    lowering.lower_block(entry)?;
    let function = function(context, chip, &parameter_types);
    chip.block()
        .expect("the chip is in the module")
        .insert_operation_before(chip, function);
    // The emptied chip is unused.
    pto_dialects::ir::erase(chip);
    Ok(())
}

impl<'c, 'a> Chip<'c, 'a, '_> {
    /// The parameters' pointer types, then one trailing `size_t` per dynamic
    /// window extent (in order); the types of the C++ function.
    fn parameters(&mut self, entry: BlockRef<'c, 'a>) -> Result<Vec<Type<'c>>, Failure<'c, 'a>> {
        let mut types = Vec::new();
        let mut window_extents = Vec::new();
        for i in 0..entry.argument_count() {
            let argument: Value = entry.argument(i).unwrap().into();
            let r#type = argument.r#type();
            let distributed = TensorLike::try_from(r#type).is_ok_and(|t| t.is_distributed());
            let comm = CommCtxType::try_from(r#type).is_ok();
            if let Some(element) = crate::emitc::program::facts::scalar_element(r#type) {
                // A scalar is passed on by value (an index as the kernels'
                // size_t).
                let lowered = if r#type.is_index() {
                    size_t(self.context)
                } else {
                    crate::emitc::build::opaque(self.context, element)
                };
                let computed = pto_dialects::ir::uses(argument)
                    .into_iter()
                    .filter(|(user, _)| OpKind::of(user) != Some(OpKind::PlCall))
                    .collect::<Vec<_>>();
                argument.set_type(lowered);
                types.push(lowered);
                if !computed.is_empty() {
                    self.compute_with(entry, argument, r#type, &computed)
                        .map_err(|m| self.fail(format!("parameter #{i}: {m}")))?;
                }
                continue;
            }
            let lowered = if comm {
                pointer(self.context, "int64_t")
            } else {
                let element =
                    element_of(r#type).map_err(|m| self.fail(format!("parameter #{i}: {m}")))?;
                // Host tensors arrive whole (their extents are needed);
                // window views as this rank's pointer.
                if distributed {
                    pointer(self.context, element)
                } else {
                    pointer(self.context, &format!("pto::sim::Buffer<{element}>"))
                }
            };
            let key = ValueKey::of(argument);
            if !distributed && !comm {
                self.host_tensors.push(key);
            }
            if distributed {
                let tensor = TensorLike::try_from(r#type).unwrap();
                for (axis, extent) in tensor.shape().iter().enumerate() {
                    if extent.is_none() {
                        window_extents.push((key, axis));
                    }
                }
            }
            argument.set_type(lowered);
            types.push(lowered);
        }
        let size_t = size_t(self.context);
        for key in window_extents {
            types.push(size_t);
            let value = entry.add_argument(size_t, Location::unknown(self.context));
            self.extents.push((key, value));
        }
        Ok(types)
    }

    /// An index scalar the chip also computes with: its uses other than
    /// kernel calls take it back as an `index` (the EmitC conversions
    /// reconcile the cast); other scalar types are passed on only.
    fn compute_with(
        &self,
        entry: BlockRef<'c, 'a>,
        argument: Value<'c, 'a>,
        original: Type<'c>,
        uses: &[(OperationRef<'c, 'a>, usize)],
    ) -> Result<(), String> {
        if !original.is_index() {
            return Err(format!(
                "a {original} scalar is only passed on to kernels in a simulated chip orchestration; computing with it is not simulated yet"
            ));
        }
        let cast = crate::emitc::build::cast(self.context, argument, original);
        let cast = match entry.first_operation() {
            Some(first) => entry.insert_operation_before(first, cast),
            None => entry.append_operation(cast),
        };
        let value: Value = cast.result(0).unwrap().into();
        for &(user, index) in uses {
            pto_dialects::ir::set_operand(user, index, value);
        }
        Ok(())
    }

    /// Each op of `block` in its C++ form: kernel calls, the return;
    /// scalar arithmetic, constants and structured control flow stay (the
    /// EmitC conversions take them), their regions lowered in turn.
    fn lower_block(&self, block: BlockRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            let name = op_name(op);
            let replacement = match (OpKind::of(&op), name) {
                (Some(OpKind::PlCall), _) => self.call(op)?,
                (None, "func.return") => {
                    OperationBuilder::new("emitc.return", Location::unknown(self.context))
                        .build()
                        .expect("emitc.return builds")
                }
                (None, "scf.if" | "scf.for" | "scf.yield") => {
                    for region in op.regions() {
                        let mut inner = region.first_block();
                        while let Some(b) = inner {
                            self.lower_block(b)?;
                            inner = b.next_in_region();
                        }
                    }
                    continue;
                }
                (None, other)
                    if other.starts_with("arith.")
                        || other == "builtin.unrealized_conversion_cast" =>
                {
                    continue;
                }
                (_, other) => {
                    return Err(self.fail(format!(
                        "'{other}' in a chip orchestration is not simulated yet"
                    )));
                }
            };
            block.insert_operation_before(op, replacement);
            // The replaced op is (checked) unused.
            pto_dialects::ir::erase(op);
        }
        Ok(())
    }
}

fn element_of(r#type: Type) -> Result<&'static str, String> {
    let tensor = TensorLike::try_from(r#type)
        .map_err(|_| format!("{type} is neither a tensor nor a scalar"))?;
    crate::emitc::cpp_types::element(tensor.element())
}

/// `static void name(parameters...)` over the body of `chip`.
fn function<'c>(
    context: &'c Context,
    chip: OperationRef<'c, '_>,
    parameter_types: &[Type<'c>],
) -> melior::ir::Operation<'c> {
    let region = melior::ir::Region::new();
    pto_dialects::ir::take_body(&region, &chip.region_opt(0).unwrap());
    let function_type = FunctionType::new(context, parameter_types, &[]);
    crate::emitc::build::func(
        context,
        Location::unknown(context),
        &symbol(chip),
        function_type,
        &["static"],
        region,
    )
    .expect("emitc.func builds")
}
