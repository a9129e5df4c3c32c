//! Element access in a PTO2 orchestration: `pl.tensor.read` and
//! `pl.tensor.write` read and write the tensor's element through its
//! descriptor on the AICPU, and `pl.tensor.full` of a result fills the
//! output the runtime hands in (docs/passes/convert-pl-orchestration-to-
//! emitc.md). The orchestration submits tasks and does not wait for them,
//! so an access is emitted only for a tensor no task of the orchestration
//! takes (through any view): it could race with a task otherwise. A fill
//! runs before any task that writes into the tensor is submitted, so it
//! only has to be made once (outside loops and branches).

use std::collections::{HashMap, HashSet};

use melior::ir::{
    BlockLike, BlockRef, OperationRef, Value, ValueLike,
    operation::{OperationLike, OperationResult, WalkOrder, WalkResult},
};
use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::{operand_at, result_at};
use pto_dialects::types::TensorLike;

use super::{Lowering, value};
use crate::emitc::build;
use crate::emitc::orchestration::calls::{Failure, call_arguments, is_call, root};
use crate::emitc::orchestration::kernels::KernelCall;

/// The tensor whose memory `value` is: through call results (their out
/// arguments), slices, views and reshapes.
fn storage<'c: 'a, 'a>(
    value: Value<'c, 'a>,
    kernels: &HashMap<String, KernelCall>,
) -> Value<'c, 'a> {
    let mut value = root(value, kernels);
    while let Ok(result) = OperationResult::try_from(value) {
        let owner = result.owner();
        match OpKind::of(&owner) {
            Some(OpKind::PlTensorSlice | OpKind::PlTensorView | OpKind::PlTensorReshape) => {
                value = root(operand_at(owner, 0).expect("a source"), kernels);
            }
            _ => break,
        }
    }
    value
}

/// Refuses each `pl.tensor.read`/`write` of `orchestration` whose tensor a
/// task also takes, and each `pl.tensor.full` that is not made once at the
/// orchestration's top level.
pub(super) fn check_accesses<'c, 'a>(
    orchestration: OperationRef<'c, 'a>,
    kernels: &HashMap<String, KernelCall>,
) -> Result<(), Failure<'c, 'a>> {
    let mut tasks: HashSet<ValueKey> = HashSet::new();
    let mut accesses = Vec::new();
    pto_dialects::ir::walk(orchestration, WalkOrder::PreOrder, |op| {
        if is_call(op) {
            for argument in call_arguments(op) {
                if TensorLike::try_from(argument.r#type()).is_ok() {
                    tasks.insert(ValueKey::of(storage(argument, kernels)));
                }
            }
        }
        if matches!(
            OpKind::of(&op),
            Some(OpKind::PlTensorRead | OpKind::PlTensorWrite | OpKind::PlTensorFull)
        ) {
            accesses.push(op);
        }
        WalkResult::Advance
    });
    for op in accesses {
        if OpKind::of(&op) == Some(OpKind::PlTensorFull) {
            if op.parent_operation() != Some(orchestration) {
                return Err((
                    op,
                    "a pl.tensor.full in a loop or a branch is not emitted for the runtime: the orchestration fills a tensor once, before the tasks that write into it".to_string(),
                ));
            }
            continue;
        }
        let tensor = operand_at(op, 0).expect("a tensor");
        if tasks.contains(&ValueKey::of(storage(tensor, kernels))) {
            return Err((
                op,
                "this access is not emitted for the runtime: a task of the orchestration also takes this tensor, and the orchestration does not wait for its tasks (the access would race with them)".to_string(),
            ));
        }
    }
    Ok(())
}

impl<'c, 'a> Lowering<'c, 'a, '_> {
    /// The element `op` accesses, of type `element_type`, as
    /// `pto_orch_element<T>(tensor, indices...)`: the callee and its
    /// operands (the tensor, then each index as a `size_t`).
    fn element_operands(
        &self,
        block: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
        indices: std::ops::Range<usize>,
        element_type: melior::ir::Type<'c>,
    ) -> Result<(String, Vec<Value<'c, 'a>>), Failure<'c, 'a>> {
        let tensor = operand_at(op, 0).expect("a tensor");
        let element = crate::emitc::cpp_types::element(element_type).map_err(|m| (op, m))?;
        let mut operands = vec![tensor];
        for i in indices {
            let index = operand_at(op, i).expect("an index");
            operands.push(value(block.insert_operation_before(
                op,
                build::cast(self.context, index, self.size_t),
            )));
        }
        Ok((format!("pto_orch_element<{element}>"), operands))
    }

    /// `pl.tensor.read %t[%i...]`: the element's value.
    pub(super) fn tensor_read(
        &self,
        block: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let result = result_at(op, 0).expect("a result");
        let (callee, operands) =
            self.element_operands(block, op, 1..op.operand_count(), result.r#type())?;
        let read = value(block.insert_operation_before(
            op,
            self.call(&callee, &operands, &[], Some(result.r#type())),
        ));
        pto_dialects::ir::replace_all_uses(result, read);
        Ok(())
    }

    /// `pl.tensor.write %t[%i...], %v`: the element assigned; the result
    /// is the tensor.
    pub(super) fn tensor_write(
        &self,
        block: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let count = op.operand_count();
        let written = operand_at(op, count - 1).expect("a value");
        let (callee, mut operands) =
            self.element_operands(block, op, 1..count - 1, written.r#type())?;
        operands.push(written);
        let places = vec!["{}"; operands.len() - 2].join(", ");
        let text = format!("{callee}({{}}, {places}) = {{}};");
        block.insert_operation_before(op, self.verbatim(&text, &operands));
        let result = result_at(op, 0).expect("a result");
        pto_dialects::ir::replace_all_uses(result, operand_at(op, 0).expect("a tensor"));
        Ok(())
    }

    /// `pl.tensor.full %v`: a result's output, handed in, with every
    /// element set to `%v`; any other filled tensor is refused.
    pub(super) fn tensor_full(
        &self,
        block: BlockRef<'c, 'a>,
        op: OperationRef<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let result = result_at(op, 0).expect("a result");
        let Some(&index) = self.outputs.get(&ValueKey::of(result)) else {
            return Err((
                op,
                "a pl.tensor.full that the orchestration does not return is not emitted for the runtime: it fills only the outputs the runtime hands in".to_string(),
            ));
        };
        let tensor = value(block.insert_operation_before(
            op,
            self.call(
                "pto_orch_tensor",
                &[self.orch_args],
                &[index.to_string()],
                Some(self.tensor_type),
            ),
        ));
        let fill = operand_at(op, 0).expect("a fill value");
        let element = crate::emitc::cpp_types::element(fill.r#type()).map_err(|m| (op, m))?;
        block.insert_operation_before(
            op,
            self.verbatim(
                &format!("pto_orch_fill<{element}>({{}}, {{}});"),
                &[tensor, fill],
            ),
        );
        pto_dialects::ir::replace_all_uses(result, tensor);
        Ok(())
    }
}
