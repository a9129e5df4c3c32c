//! Scalar accesses to global memory in `convert-pl-to-emitc`:
//! `pl.tensor.read` and `pl.tensor.write` of one element of a kernel's
//! tensor (PyPTO's `pl.read` / `pl.write`), through the guarded helpers
//! `pto_gm_read(pointer, index)` and `pto_gm_write(pointer, index, value)`
//! at the row-major element index. pl-insert-sync has ordered them with
//! the pipes already: they are scalar accesses of the tensor
//! (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{
    BlockLike, OperationRef, Value, ValueLike, operation::OperationLike, r#type::IntegerType,
};
use pto_dialects::ops::{OpKind, operand_at, result_at};

use super::{Failure, Lowering, emitted, no_lowering};

/// The helpers, emitted once in a kernel file that uses them.
pub(super) const GM_ACCESS_HELPERS: &str = "#ifndef PTO_GM_ACCESS_HELPERS
#define PTO_GM_ACCESS_HELPERS
template <typename T>
static AICORE inline T pto_gm_read(__gm__ T* tensor, int64_t index) { return tensor[index]; }
template <typename T, typename V>
static AICORE inline void pto_gm_write(__gm__ T* tensor, int64_t index, V value) { tensor[index] = (T)value; }
#endif";

impl<'c, 'a> Lowering<'c, 'a> {
    /// `pl.tensor.read %t[indices]` and `pl.tensor.write %v, %t[indices]`.
    pub(super) fn scalar_access(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        // The tensor, the indices, and for a write the value last.
        let count = op.operand_count();
        let (indices_end, value) = match kind {
            OpKind::PlTensorRead => (count, None),
            OpKind::PlTensorWrite => (count - 1, operand_at(op, count - 1)),
            _ => return Err(no_lowering(op, kind)),
        };
        let tensor = operand_at(op, 0).ok_or((op, "no tensor".to_string()))?;
        let indices: Vec<Value> = (1..indices_end).filter_map(|i| operand_at(op, i)).collect();
        let index = self.element_index(op, tensor, &indices)?;
        let pointer = emitted(tensor);
        self.accesses_gm = true;
        match value {
            None => {
                let result = result_at(op, 0).ok_or((op, "a read without a result".to_string()))?;
                let read = self
                    .call(
                        op,
                        "pto_gm_read",
                        &[pointer, index],
                        None,
                        Some(result.r#type()),
                    )
                    .expect("a result");
                self.replace(op, read);
            }
            Some(value) => {
                self.call(op, "pto_gm_write", &[pointer, index, value], None, None);
                // The result is the tensor, written in place.
                self.replace(op, tensor);
            }
        }
        Ok(())
    }

    /// The row-major element index of `indices` in kernel tensor `tensor`
    /// (its extents static or the kernel's runtime ones), as an i64.
    fn element_index(
        &self,
        op: OperationRef<'c, 'a>,
        tensor: Value<'c, 'a>,
        indices: &[Value<'c, 'a>],
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let rank = self
            .gm_tensor(tensor)
            .ok_or((
                op,
                "this tensor is not a kernel parameter in global memory".to_string(),
            ))?
            .shape
            .len();
        if indices.len() != rank {
            return Err((
                op,
                format!("{} indices into a tensor of rank {rank}", indices.len()),
            ));
        }
        let location = op.location();
        let block = op.block().expect("the op is in a block");
        let insert = |new: melior::ir::Operation<'c>| -> Value<'c, 'a> {
            block
                .insert_operation_before(op, new)
                .result(0)
                .unwrap()
                .into()
        };
        // Horner's rule over the extents: ((i0 * n1 + i1) * n2 + i2) ...
        let mut flat = indices[0];
        for (axis, index) in indices.iter().enumerate().skip(1) {
            let extent = self.tensor_dim(op, tensor, axis)?;
            let scaled = insert(melior::dialect::arith::muli(flat, extent, location));
            flat = insert(melior::dialect::arith::addi(scaled, *index, location));
        }
        let i64_type = IntegerType::new(self.context, 64).into();
        Ok(insert(melior::dialect::arith::index_cast(
            flat, i64_type, location,
        )))
    }
}
