//! Elementwise ops in `convert-pl-to-emitc`: unary, binary, tile-scalar,
//! expanding, selecting, comparing and converting ops, each its pto-isa
//! instruction with the destination first (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{
    Attribute, OperationRef, Type, Value, attribute::IntegerAttribute, operation::OperationLike,
};
use pto_dialects::{
    enums::{CmpMode, EnumAttr, RoundMode},
    op_table::{Compute, Family},
    ops::{OpKind, operand_at, result_at},
};

use super::{Failure, Lowering, instruction, no_lowering};
use crate::emitc::build::opaque_attribute;

impl<'c, 'a> Lowering<'c, 'a> {
    /// Unary, binary, tile-scalar, expanding and selecting ops (families
    /// `TileUnary`, `TileBinary`, `TileScalar`, `TileRowExpand`,
    /// `TileColExpand`, `TileSelect`): `INSTRUCTION(dst, operands...)`.
    pub(super) fn elementwise(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        // TPRELU writes a scratch tile the pl op may leave out.
        if kind == OpKind::PlTilePrelu {
            self.require_scratch(op, kind)?;
        }
        // A plain broadcast's tile operand gives only the shape:
        // pto-isa's TROWEXPAND / TCOLEXPAND take (dst, src) and
        // TEXPANDS (dst, scalar).
        let broadcast = kind.info().compute == Some(Compute::Broadcast);
        let mut sources: Vec<Value> = op.operands().skip(usize::from(broadcast)).collect();
        // TSELS(dst, mask, src, tmp, scalar): the scratch comes before the
        // scalar.
        if kind == OpKind::PlTileSels {
            sources.swap(2, 3);
        }
        let pure = matches!(
            kind.family(),
            Family::TileUnary | Family::TileBinary | Family::TileScalar
        );
        if pure && self.column_vector_op(op, kind, &sources)? {
            return Ok(());
        }
        self.one_to_one(op, kind, sources, None)
    }

    /// Compares (family `TileCompare`): `TCMP(mask, a, b, CmpMode::…)`, the
    /// packed predicate mask, one bit per column (docs/dialects/pl.md,
    /// `pl.tile.cmp`).
    pub(super) fn compare(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let callee = instruction(op, kind)?;
        let valid = self.propagated_valid(op);
        let object = self.declare_tile(op, result_at(op, 0).expect("a result"), 0, valid)?;
        let mode = op.enum_attr::<CmpMode>("cmp").unwrap_or(CmpMode::Eq);
        let mode = opaque_attribute(
            self.context,
            &format!("CmpMode::{}", mode.keyword().to_uppercase()),
        );
        let index_attr =
            |i: i64| -> Attribute { IntegerAttribute::new(Type::index(self.context), i).into() };
        self.call(
            op,
            callee,
            &[
                object,
                operand_at(op, 0).unwrap(),
                operand_at(op, 1).unwrap(),
            ],
            Some(vec![index_attr(0), index_attr(1), index_attr(2), mode]),
            None,
        );
        self.replace(op, object);
        Ok(())
    }

    /// `pl.tile.cast` (family `TileCast`): `TCVT(dst, src, RoundMode::…)`,
    /// rounding as the op says (its required `mode`; a cast without one is
    /// refused, as pto-run refuses it).
    pub(super) fn cast(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        if kind != OpKind::PlTileCast {
            return Err(no_lowering(op, kind));
        }
        let valid = self.propagated_valid(op);
        let object = self.declare_tile(op, result_at(op, 0).expect("a result"), 0, valid)?;
        let mode = op.enum_attr::<RoundMode>("mode").ok_or_else(|| {
            (
                op,
                "a cast without a valid rounding mode (`mode`)".to_string(),
            )
        })?;
        let mode = opaque_attribute(
            self.context,
            &format!("RoundMode::CAST_{}", mode.to_string().to_uppercase()),
        );
        let index_attr =
            |i: i64| -> Attribute { IntegerAttribute::new(Type::index(self.context), i).into() };
        self.call(
            op,
            "TCVT",
            &[object, operand_at(op, 0).unwrap()],
            Some(vec![index_attr(0), index_attr(1), mode]),
            None,
        );
        self.replace(op, object);
        Ok(())
    }
}
