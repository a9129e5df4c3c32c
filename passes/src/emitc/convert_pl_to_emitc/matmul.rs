//! Cube ops in `convert-pl-to-emitc`: matrix products, with bias and
//! accumulation, and matrix-vector products (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{Block, BlockLike, OperationRef, Region, RegionLike, operation::OperationLike};
use pto_dialects::ops::{OpKind, operand_at, result_at};

use super::{Failure, Lowering};

impl<'c, 'a> Lowering<'c, 'a> {
    /// Matrix products (family `TileMatmul`): `TMATMUL(c, a, b)`,
    /// `TMATMUL_BIAS(c, a, b, bias)`, `TGEMV…`; an accumulation with an
    /// `init` flag is an `if` choosing between `TMATMUL` and
    /// `TMATMUL_ACC(c, c_in, a, b)`.
    pub(super) fn matmul(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let result = result_at(op, 0);
        match kind {
            OpKind::PlTileMatmulAcc => {
                let valid = self.propagated_valid(op);
                let object = self.declare_tile(op, result.expect("a result"), 0, valid)?;
                let (acc, lhs, rhs) = (
                    operand_at(op, 0).unwrap(),
                    operand_at(op, 1).unwrap(),
                    operand_at(op, 2).unwrap(),
                );
                match operand_at(op, 3) {
                    None => {
                        self.call(op, "TMATMUL_ACC", &[object, acc, lhs, rhs], None, None);
                    }
                    Some(first) => {
                        // The first step initialises the accumulator.
                        let (then_block, else_block) = (Block::new(&[]), Block::new(&[]));
                        self.call_in(&then_block, op.location(), "TMATMUL", &[object, lhs, rhs]);
                        self.call_in(
                            &else_block,
                            op.location(),
                            "TMATMUL_ACC",
                            &[object, acc, lhs, rhs],
                        );
                        let (then_region, else_region) = (Region::new(), Region::new());
                        then_block
                            .append_operation(melior::dialect::scf::r#yield(&[], op.location()));
                        else_block
                            .append_operation(melior::dialect::scf::r#yield(&[], op.location()));
                        then_region.append_block(then_block);
                        else_region.append_block(else_block);
                        let branch = melior::dialect::scf::r#if(
                            first,
                            &[],
                            then_region,
                            else_region,
                            op.location(),
                        );
                        op.block().unwrap().insert_operation_before(op, branch);
                    }
                }
                self.replace(op, object);
            }
            _ => return self.one_to_one(op, kind, op.operands().collect(), None),
        }
        Ok(())
    }
}
