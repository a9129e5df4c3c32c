//! Valid regions of tensors as tiles: `pl.tensor.set_validshape` is
//! `pl.tile.set_validshape` of its operand's tile (metadata, no copy), and
//! `pl.tensor.fillpad` / `fillpad_expand` are `pl.tile.fillpad` /
//! `fillpad_expand` of it, whose tile carries the valid region the pad
//! fills around. A tensor whose type has constant valid extents loads as a
//! tile with them (`Conversion::tile_of`).

use melior::ir::{
    BlockLike, Identifier, OperationRef, Type, ValueLike,
    operation::{OperationBuilder, OperationLike},
    r#type::ShapedTypeLike,
};
use pto_dialects::{
    enums::{EnumAttr, PadValue},
    op_table::OpKind,
    types::{TensorType, TileType, TileView},
};

use super::{Conversion, Failure, result_of, static_shape, value_key};

impl<'c, 'a> Conversion<'c, 'a> {
    /// `set_validshape`, `fillpad` or `fillpad_expand` (`kind`) as its tile
    /// form on the operand's tile.
    pub(super) fn valid_region(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<bool, Failure<'c, 'a>> {
        let source = op.operand(0).map_err(|e| (op, e.to_string()))?;
        let result = result_of(op);
        let tile = self.tile_of(op, source)?;
        let source_tile = TileType::try_from(tile.r#type()).map_err(|e| (op, e.to_string()))?;
        let tensor = TensorType::try_from(result.r#type()).map_err(|e| (op, e.to_string()))?;
        let view = if kind == OpKind::PlTensorSetValidshape {
            // The extents the result type gives, `?` where it has none.
            TileView {
                valid_shape: Some(tensor.view().valid_shape.unwrap_or_else(|| tensor.shape())),
                ..TileView::default()
            }
        } else {
            TileView {
                pad: op.enum_attr::<PadValue>("pad"),
                ..TileView::default()
            }
        };
        let shape = if kind == OpKind::PlTensorFillpadExpand {
            static_shape(result).ok_or((op, "a fillpad_expand of a dynamic shape".to_string()))?
        } else {
            source_tile.shape()
        };
        let tile_kind = kind
            .info()
            .tile_form
            .ok_or_else(|| (op, format!("'{kind}' has no tile form")))?;
        let tile_type: Type = TileType::with_view(
            self.context,
            &shape,
            source_tile.element(),
            source_tile.memory_space(),
            &view,
        )
        .into();
        let mut builder = OperationBuilder::new(tile_kind.name(), op.location())
            .add_operands(&[&[tile][..], &op.operands().skip(1).collect::<Vec<_>>()].concat())
            .add_results(&[tile_type]);
        if let Ok(pad) = op.attribute("pad") {
            builder = builder.add_attributes(&[(Identifier::new(self.context, "pad"), pad)]);
        }
        let built = builder.build().map_err(|e| (op, e.to_string()))?;
        let block = op.block().expect("ops sit in blocks");
        let converted = result_of(block.insert_operation_before(op, built));
        self.tiles.insert(value_key(result), converted);
        Ok(true)
    }
}
