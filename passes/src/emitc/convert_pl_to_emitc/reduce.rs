//! Reductions in `convert-pl-to-emitc`: row and column reductions, each
//! its pto-isa instruction with the destination first
//! (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{Attribute, OperationRef, Type, Value, ValueLike, attribute::IntegerAttribute};
use pto_dialects::{
    op_table::{Compute, Family},
    ops::OpKind,
};

use super::{Failure, Lowering};
use crate::emitc::build::opaque_attribute;

impl<'c, 'a> Lowering<'c, 'a> {
    /// Row and column reductions (families `TileRowReduce`,
    /// `TileColReduce`): `TROWSUM(dst, src, tmp)`, `TCOLMAX(dst, src)`.
    pub(super) fn reduce(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let mut sources: Vec<Value> = melior::ir::operation::OperationLike::operands(&op).collect();
        let mut args = None;
        if kind.family() == Family::TileColReduce
            && sources
                .first()
                .is_some_and(|s| super::column_vectors::column_vector(s.r#type()).is_some())
        {
            return Err((
                op,
                "a column reduction of a column vector (an [N, 1] col_major tile, what a row reduction makes) is not translated: pto-isa's column reductions take row-major tiles".to_string(),
            ));
        }
        if kind.family() == Family::TileColReduce {
            match kind.info().compute {
                // pto-isa's TCOLMAX, TCOLMIN and TCOLPROD take no
                // scratch.
                Some(Compute::Max | Compute::Min | Compute::Prod) => sources.truncate(1),
                // TCOLSUM's form with a scratch takes `isBinary`: false
                // adds the rows in order (docs/a2a3-lowering.md,
                // "Reduction order").
                Some(Compute::Sum) if sources.len() == 2 => {
                    let index = |i: i64| -> Attribute {
                        IntegerAttribute::new(Type::index(self.context), i).into()
                    };
                    args = Some(vec![
                        index(0),
                        index(1),
                        index(2),
                        opaque_attribute(self.context, "false"),
                    ]);
                }
                _ => {}
            }
        }
        self.one_to_one(op, kind, sources, args)
    }
}
