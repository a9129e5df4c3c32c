//! A host program or entry orchestration as the simulator program that
//! runs it (docs/passes/convert-pl-program-to-emitc.md): a `main` that
//! reads the entry's tensor parameters (by their names in the IR, else
//! `arg<i>`), runs its body with every kernel call made on the simulated
//! core and every dispatch on a device's thread, and writes and compares
//! its results as `result<i>`.

use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        BlockLike, BlockRef, Location, OperationRef, Region, RegionLike, Type, Value,
        operation::{OperationLike, WalkOrder, WalkResult},
        r#type::IntegerType,
    },
};
use pto_dialects::ir::{OpKey, ValueKey};
use pto_dialects::op_table::{Family, OpKind};
use pto_dialects::ops::{Checked, op_name};

use super::Failure;
use super::emit::{argv_type, i32, main_function};
use super::facts::Facts;
use crate::emitc::build::{call_opaque, opaque};

mod access;
mod arguments;
mod builtins;
mod dispatch;
mod domains;
mod loops;
mod results;
mod tasks;
mod tensors;
mod views;
mod windows;

/// The lowering of one entry: what its parts share.
pub struct Host<'c, 'a, 'f> {
    context: &'c Context,
    facts: &'f Facts,
    /// Whether chips are entered through their PTO2 C++ (`runtime=pto2`).
    pto2: bool,
    /// The parsed command line (`pto::sim::Args`).
    args: Value<'c, 'a>,
    /// The element type of each host tensor's buffer.
    buffers: HashMap<ValueKey, &'static str>,
    /// The pl shape of each host tensor's buffer.
    shapes: HashMap<ValueKey, Vec<Option<i64>>>,
    /// The buffers of the entry's tensor parameters, with their names.
    parameters: Vec<(Value<'c, 'a>, String)>,
    /// The windows given from outside, with their names.
    external_windows: Vec<(Value<'c, 'a>, String)>,
    /// The domain object of every op inside a comm domain.
    domain_of: HashMap<OpKey, Value<'c, 'a>>,
    /// The dispatches outside every comm domain, each joined where it is.
    joined_alone: std::collections::HashSet<OpKey>,
    /// The pl shape and element type of each window view.
    window_shapes: HashMap<ValueKey, (Vec<Option<i64>>, &'static str)>,
    /// The dynamic axes of each window view.
    window_axes: HashMap<ValueKey, Vec<usize>>,
    /// How many temporaries `pl.tensor.create` has made.
    temporaries: usize,
    /// The first kernel call of a core group (marked
    /// `orchestration::groups::GROUP` when the group was inlined), held
    /// until its peer's call launches both: the group's name, the call and
    /// the operands it passes.
    held_group: Option<(String, OperationRef<'c, 'a>, Vec<Value<'c, 'a>>)>,
    /// Whether a builtin collective kernel is launched.
    uses_builtins: bool,
    /// The ops rewritten, erased at the end.
    retired: Vec<OperationRef<'c, 'a>>,
}

/// The simulator program's `main` (made of `function`'s body, which it
/// takes) and whether it launches builtin collectives.
pub fn build<'c, 'a>(
    function: OperationRef<'c, 'a>,
    facts: &Facts,
    pto2: bool,
) -> Result<(melior::ir::Operation<'c>, bool), Failure<'c, 'a>> {
    let context = pto_dialects::ir::context(&function);
    let fail = |message: &str| -> Failure { (function, message.to_string()) };
    let entry = function
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or_else(|| fail("an empty orchestration"))?;
    // Arrays get their storage while loops still carry them.
    crate::emitc::convert_pl_to_emitc::give_arrays_storage(function)?;
    // Tensors that loops update in place are one buffer.
    loops::drop_carried_tensors(function, facts)?;
    // An array is one C array its updates write in place.
    crate::emitc::convert_pl_to_emitc::drop_carried_arrays(function)?;
    // Task ids are whether they are valid.
    crate::emitc::carried::retype_carried_tasks(function, IntegerType::new(context, 1).into());
    let location = Location::unknown(context);
    // argc, argv and the parsed arguments first.
    let parameter_count = entry.argument_count();
    let argc = entry.insert_argument(0, i32(context), location);
    let argv = entry.insert_argument(1, argv_type(context), location);
    let first = entry
        .first_operation()
        .ok_or_else(|| fail("an orchestration without a return"))?;
    let parse = call_opaque(
        context,
        "pto::sim::parse_args",
        &[argc, argv],
        &[],
        Some(opaque(context, "pto::sim::Args")),
    );
    let args = entry
        .insert_operation_before(first, parse)
        .result(0)
        .unwrap()
        .into();
    let mut host = Host {
        context,
        facts,
        pto2,
        args,
        buffers: HashMap::new(),
        shapes: HashMap::new(),
        parameters: Vec::new(),
        external_windows: Vec::new(),
        domain_of: HashMap::new(),
        joined_alone: std::collections::HashSet::new(),
        window_shapes: HashMap::new(),
        window_axes: HashMap::new(),
        temporaries: 0,
        held_group: None,
        uses_builtins: false,
        retired: Vec::new(),
    };
    if pto2 {
        host.register_kernels(entry, first);
    }
    host.parameters_of(function, entry, first, parameter_count)?;
    // Tasks run at once, in order: a runtime scope is its body.
    crate::emitc::orchestration::scopes::open_runtime_scopes(function, false)?;
    host.inline_domains(function)?;
    host.lone_dispatches(function, first);
    host.track_rebinding_carries(function)?;
    host.lower_body(function)?;
    // A loop rebinding a tensor (`x = layer(x)`) points at the tensor of
    // its iteration (host.hpp, `pto::sim::carry_at`, `carry_kept`).
    crate::emitc::carried::hold_rebinding_carries(
        function,
        &|r#type| {
            let element = arguments::element_of(r#type).unwrap_or("float");
            super::emit::pointer(context, &format!("pto::sim::Buffer<{element}>"))
        },
        &|made_here| {
            if made_here {
                "pto::sim::carry_kept"
            } else {
                "pto::sim::carry_at"
            }
        },
    );
    for op in std::mem::take(&mut host.retired).into_iter().rev() {
        // The op is unused now.
        pto_dialects::ir::erase(op);
    }
    // The function becomes `int main(int argc, char** argv)`.
    let region = Region::new();
    pto_dialects::ir::take_body(&region, &function.region(0).unwrap());
    Ok((main_function(context, region), host.uses_builtins))
}

impl<'c, 'a> Host<'c, 'a, '_> {
    /// Every kernel registered under its func_id, before `first`.
    fn register_kernels(&self, entry: BlockRef<'c, 'a>, first: OperationRef<'c, 'a>) {
        for (func_id, _) in &self.facts.kernel_files {
            let literals = [func_id.to_string(), format!("pto_kernel_entry_{func_id}")];
            let register = "pto::sim::runtime::register_kernel";
            entry.insert_operation_before(
                first,
                call_opaque(self.context, register, &[], &literals, None),
            );
        }
    }

    /// The body, op by op.
    fn lower_body(&mut self, function: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let mut ops = Vec::new();
        pto_dialects::ir::walk(function, WalkOrder::PreOrder, |op| {
            ops.push(op);
            WalkResult::Advance
        });
        for op in ops {
            if op.block().is_none() {
                continue;
            }
            self.lower_op(op)?;
        }
        Ok(())
    }

    fn lower_op(&mut self, op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let Some(kind) = OpKind::of(&op) else {
            if op_name(op) == "func.return" {
                self.results(op);
                self.retired.push(op);
            }
            return Ok(());
        };
        match kind {
            OpKind::PlTensorCreate | OpKind::PlTensorFull => self.create(op, kind)?,
            OpKind::PlTensorAssemble => self.assemble(op)?,
            OpKind::PlTensorDim => self.dim(op),
            OpKind::PlTensorRead | OpKind::PlTensorWrite => self.access(op, kind)?,
            OpKind::PlTensorSlice | OpKind::PlTensorView | OpKind::PlTensorReshape => {
                self.view(op, kind)?
            }
            OpKind::PlCall | OpKind::PlSubmit => self.call(op)?,
            OpKind::PldSystemWorldSize => self.world_size(op),
            OpKind::PldTensorAllocWindowBuffer => self.window_buffer(op)?,
            OpKind::PldTensorWindow => self.window(op)?,
            OpKind::PldSystemGetCommCtx => self.comm_ctx(op),
            OpKind::PldDispatch => self.dispatch(op)?,
            OpKind::PlSystemTaskDummy
            | OpKind::PlSystemTaskInvalid
            | OpKind::PlSystemTaskIsValid => self.task_op(op, kind),
            OpKind::PlArrayCreate | OpKind::PlArrayGetElement | OpKind::PlArrayUpdateElement => {
                self.array(op, kind)?
            }
            OpKind::PlSystemAvailableClusterCount | OpKind::PlSystemAvailableAivCount => {
                self.core_count(op, kind)
            }
            kind if kind.info().family == Family::BuiltinCollective => self.builtin(op, kind)?,
            kind => {
                let name = kind.info().name;
                return Err((op, format!("'{name}' is not simulated on the host yet")));
            }
        }
        self.retired.push(op);
        Ok(())
    }

    /// `op`'s domain object (`what` names the op when it has none).
    fn domain(
        &self,
        op: OperationRef<'c, 'a>,
        what: &str,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        self.domain_of
            .get(&OpKey::of(&op))
            .copied()
            .ok_or_else(|| (op, format!("{what} outside a comm domain")))
    }

    /// `new` inserted before `op`; its result.
    fn before(&self, op: OperationRef<'c, 'a>, new: melior::ir::Operation<'c>) -> Value<'c, 'a> {
        let block = op.block().expect("the op is in a block");
        block
            .insert_operation_before(op, new)
            .result(0)
            .unwrap()
            .into()
    }

    /// `new` (without results) inserted before `op`.
    fn emit_before(&self, op: OperationRef<'c, 'a>, new: melior::ir::Operation<'c>) {
        let block = op.block().expect("the op is in a block");
        block.insert_operation_before(op, new);
    }

    /// `callee(operands..., literals...)` before `op`, of type `result`.
    fn call_before(
        &self,
        op: OperationRef<'c, 'a>,
        callee: &str,
        operands: &[Value<'c, '_>],
        literals: &[String],
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        self.before(
            op,
            call_opaque(self.context, callee, operands, literals, Some(result)),
        )
    }

    /// `value` (an index) as an i64, cast before `op`.
    fn as_i64(&self, op: OperationRef<'c, 'a>, value: Value<'c, '_>) -> Value<'c, 'a> {
        let i64_type = IntegerType::new(self.context, 64).into();
        let location = Location::unknown(self.context);
        self.before(
            op,
            melior::dialect::arith::index_cast(value, i64_type, location),
        )
    }
}
