//! `pl.array` in `convert-pl-to-emitc`: an array is a C array on the
//! core's stack (`int32_t v[8] = {0};`), read and written in place
//! (`v[i]`); an update writes the one storage, which `array_storage` has
//! made sound (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{
    Attribute, BlockLike, Identifier, OperationRef, Type, TypeLike, Value, ValueLike,
    operation::{OperationBuilder, OperationLike},
};
use pto_dialects::{
    ops::{OpKind, operand_at, result_at},
    types::ArrayType,
};

use super::{Failure, Lowering, emitted, no_lowering};
use crate::emitc::build::opaque_attribute;

/// What a task id stands for where an array of them is lowered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaskIds {
    /// The runtime's `PTO2TaskId` (an orchestration for the runtime).
    Runtime,
    /// Whether it names a task, an `i1` (a simulator program, whose tasks
    /// run when they are submitted).
    Validity,
}

fn is_task_id(element: Type) -> bool {
    element.to_string() == "!pl.task_id"
}

/// The C++ type an array element is held as: an `index` as an `i64`, a
/// task id as `tasks` says.
fn held_element<'c>(context: &'c melior::Context, element: Type<'c>, tasks: TaskIds) -> Type<'c> {
    if element.is_index() {
        melior::ir::r#type::IntegerType::new(context, 64).into()
    } else if is_task_id(element) && tasks == TaskIds::Runtime {
        crate::emitc::build::opaque(context, "PTO2TaskId")
    } else if is_task_id(element) {
        melior::ir::r#type::IntegerType::new(context, 1).into()
    } else {
        element
    }
}

/// The array's EmitC type, `!emitc.array<NxT>` of its held elements.
fn emitc_array<'c>(context: &'c melior::Context, array: ArrayType<'c>, tasks: TaskIds) -> Type<'c> {
    let element = held_element(context, array.element(), tasks);
    Type::parse(
        context,
        &format!("!emitc.array<{}x{element}>", array.extent()),
    )
    .expect("an EmitC array type parses")
}

impl<'c, 'a> Lowering<'c, 'a> {
    /// `pl.array.create` (a zeroed C array), `get_element` (`v[i]`) and
    /// `update_element` (`v[i] = x`, the result the same array).
    pub(super) fn array(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let array =
            (kind != OpKind::PlArrayCreate).then(|| emitted(operand_at(op, 0).expect("an array")));
        let value = lower_array_op(op, kind, array, TaskIds::Runtime)?;
        let value = if kind == OpKind::PlArrayCreate {
            let result = result_at(op, 0).expect("a result");
            self.materialize(op, result.r#type(), &[value])
        } else {
            value
        };
        self.replace(op, value);
        Ok(())
    }
}

/// An array op in C++, before `op`: `pl.array.create` a C array of zeros
/// (`int32_t v[8] = {0};`, task ids each the invalid id), `get_element`
/// `v[i]`, `update_element` `v[i] = x`. `array` is the C array an access
/// reads or writes, `tasks` what its task ids are held as. Returns what
/// stands for the op's result: the C array (the same one an update
/// writes) or the element.
pub(crate) fn lower_array_op<'c, 'a>(
    op: OperationRef<'c, 'a>,
    kind: OpKind,
    array: Option<Value<'c, 'a>>,
    tasks: TaskIds,
) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
    let context = pto_dialects::ir::context(&op);
    let block = op.block().expect("ops sit in blocks");
    let location = op.location();
    let before = |new: melior::ir::Operation<'c>| block.insert_operation_before(op, new);
    let first = |new: OperationRef<'c, 'a>| -> Value<'c, 'a> { new.result(0).unwrap().into() };
    let array_type =
        |value: Value<'c, 'a>| ArrayType::try_from(value.r#type()).map_err(|e| (op, e.to_string()));
    if kind == OpKind::PlArrayCreate {
        let result = result_at(op, 0).expect("a result");
        let r#type = array_type(result)?;
        // Runtime task ids start invalid, which is not a zero.
        let invalidate = is_task_id(r#type.element()) && tasks == TaskIds::Runtime;
        let storage: Attribute = opaque_attribute(context, if invalidate { "" } else { "{0}" });
        let variable = first(before(
            OperationBuilder::new("emitc.variable", location)
                .add_attributes(&[(Identifier::new(context, "value"), storage)])
                .add_results(&[emitc_array(context, r#type, tasks)])
                .build()
                .map_err(|e| (op, e.to_string()))?,
        ));
        if invalidate {
            before(crate::emitc::build::call_opaque(
                context,
                "pto_orch_invalidate",
                &[variable],
                &[],
                None,
            ));
        }
        return Ok(variable);
    }
    let (Some(array), Some(element)) = (
        array,
        match kind {
            OpKind::PlArrayGetElement => result_at(op, 0),
            _ => operand_at(op, 2),
        },
    ) else {
        return Err(no_lowering(op, kind));
    };
    // The array's element type (the verifier's rule), held in C++.
    let element = held_element(context, element.r#type(), tasks);
    // An i64 subscript: convert-arith-to-emitc leaves an `index` one an
    // unresolved cast.
    let i64_type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let index = first(before(melior::dialect::arith::index_cast(
        operand_at(op, 1).expect("an index"),
        i64_type,
        location,
    )));
    let lvalue =
        Type::parse(context, &format!("!emitc.lvalue<{element}>")).expect("an lvalue type parses");
    let cell = first(before(
        OperationBuilder::new("emitc.subscript", location)
            .add_operands(&[array, index])
            .add_results(&[lvalue])
            .build()
            .expect("emitc.subscript builds"),
    ));
    match kind {
        OpKind::PlArrayGetElement => {
            let load = first(before(
                OperationBuilder::new("emitc.load", location)
                    .add_operands(&[cell])
                    .add_results(&[element])
                    .build()
                    .expect("emitc.load builds"),
            ));
            let wanted = result_at(op, 0).expect("a result").r#type();
            Ok(if wanted.is_index() {
                first(before(melior::dialect::arith::index_cast(
                    load, wanted, location,
                )))
            } else {
                load
            })
        }
        OpKind::PlArrayUpdateElement => {
            let mut value = operand_at(op, 2).expect("a value");
            if value.r#type().is_index() {
                value = first(before(melior::dialect::arith::index_cast(
                    value, element, location,
                )));
            }
            before(
                OperationBuilder::new("emitc.assign", location)
                    .add_operands(&[cell, value])
                    .build()
                    .expect("emitc.assign builds"),
            );
            Ok(array)
        }
        _ => Err(no_lowering(op, kind)),
    }
}
