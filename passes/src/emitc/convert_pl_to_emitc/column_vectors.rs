//! Column vectors in `convert-pl-to-emitc`: a row reduction makes an
//! `[N, 1]` col_major tile, and pto-isa's vector instructions want
//! row-major tiles (TMULS, TADDS, ... assert it). A column vector holds its
//! elements in the order a `[1, N]` row-major tile does, so an elementwise
//! op over column vectors runs on row-major `[1, N]` objects at the same
//! planned addresses (docs/passes/convert-pl-to-emitc.md).

use melior::ir::r#type::ShapedTypeLike;
use melior::ir::{OperationRef, Type, Value, ValueLike};
use pto_dialects::enums::TileLayout;
use pto_dialects::ir::ValueKey;
use pto_dialects::ops::{OpKind, result_at};
use pto_dialects::types::{TileType, TileView};

use super::{Failure, Lowering, emitted, instruction};
use crate::emitc::cpp_types;

/// The extent N of a wholly valid `[N, 1]` col_major tile of `type`
/// (N > 1), the form a row reduction gives.
pub(super) fn column_vector(r#type: Type) -> Option<i64> {
    let tile = TileType::try_from(r#type).ok()?;
    let shape = tile.shape();
    let view = tile.effective_view();
    let whole = view
        .valid_shape
        .iter()
        .zip(&shape)
        .all(|(v, s)| *v == Some(*s));
    (shape.len() == 2
        && shape[1] == 1
        && shape[0] > 1
        && view.blayout == TileLayout::ColMajor
        && whole)
        .then_some(shape[0])
}

impl<'c, 'a> Lowering<'c, 'a> {
    /// An elementwise op whose result and tile operands are all column
    /// vectors of one extent: its instruction on row-major aliases. `false`
    /// when the op is not one.
    pub(super) fn column_vector_op(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
        sources: &[Value<'c, 'a>],
    ) -> Result<bool, Failure<'c, 'a>> {
        let result = result_at(op, 0).ok_or((op, "a tile op without a result".to_string()))?;
        let Some(extent) = column_vector(result.r#type()) else {
            return Ok(false);
        };
        let mut tiles = sources
            .iter()
            .filter(|s| TileType::try_from(s.r#type()).is_ok());
        // Every operand a column vector of the extent, with a planned
        // address (a loop-carried tile has none here: emitted as it is).
        if tiles.any(|s| {
            column_vector(s.r#type()) != Some(extent)
                || !self.addresses.contains_key(&ValueKey::of(emitted(*s)))
        }) {
            return Ok(false);
        }
        let callee = instruction(op, kind)?;
        let object = self.declare_tile(op, result, 0, [None, None])?;
        let mut operands = vec![self.row_alias(op, result.r#type(), emitted(object))?];
        for source in sources {
            operands.push(if TileType::try_from(source.r#type()).is_ok() {
                self.row_alias(op, source.r#type(), emitted(*source))?
            } else {
                *source
            });
        }
        self.call(op, callee, &operands, None, None);
        self.replace(op, object);
        Ok(true)
    }

    /// A `[1, N]` row-major `Tile<…>` object at the address of `object`,
    /// the object of a column vector of `type`.
    fn row_alias(
        &mut self,
        op: OperationRef<'c, 'a>,
        r#type: Type<'c>,
        object: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let tile = TileType::try_from(r#type).map_err(|e| (op, e.to_string()))?;
        let extent = tile.shape()[0];
        let address = *self
            .addresses
            .get(&ValueKey::of(object))
            .ok_or((op, "a column vector without a planned address".to_string()))?;
        let row = TileType::with_view(
            self.context,
            &[1, extent],
            tile.element(),
            tile.memory_space(),
            &TileView::default(),
        );
        let cpp = cpp_types::tile(row).map_err(|m| (op, m))?;
        Ok(self.assigned_object(op, &cpp, &[], address))
    }
}
