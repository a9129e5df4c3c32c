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

/// The extent N of an `[N, 1]` col_major tile of `type` (N > 1), the form
/// a row reduction gives, wholly valid or valid for a dynamic number of
/// rows (a strip's).
pub(super) fn column_vector(r#type: Type) -> Option<i64> {
    let tile = TileType::try_from(r#type).ok()?;
    let shape = tile.shape();
    let view = tile.effective_view();
    let rows_valid = matches!(view.valid_shape.first(), Some(None))
        || view.valid_shape.first() == Some(&shape.first().copied());
    (shape.len() == 2
        && shape[1] == 1
        && shape[0] > 1
        && view.blayout == TileLayout::ColMajor
        && view.valid_shape.get(1) == Some(&Some(1))
        && rows_valid)
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
        let valid = self.propagated_valid(op);
        let object = self.declare_tile(op, result, 0, valid)?;
        let mut operands = vec![self.row_alias(op, object)?];
        for source in sources {
            operands.push(if TileType::try_from(source.r#type()).is_ok() {
                self.row_alias(op, *source)?
            } else {
                *source
            });
        }
        self.call(op, callee, &operands, None, None);
        self.replace(op, object);
        Ok(true)
    }

    /// A `[1, N]` row-major `Tile<…>` object at the address of column
    /// vector `tile` (a converted value), valid for as many columns as the
    /// column has valid rows.
    fn row_alias(
        &mut self,
        op: OperationRef<'c, 'a>,
        tile: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let r#type = TileType::try_from(tile.r#type()).map_err(|e| (op, e.to_string()))?;
        let extent = r#type.shape()[0];
        let object = emitted(tile);
        let address = *self
            .addresses
            .get(&ValueKey::of(object))
            .ok_or((op, "a column vector without a planned address".to_string()))?;
        let rows = r#type.effective_view().valid_shape[0];
        let row = TileType::with_view(
            self.context,
            &[1, extent],
            r#type.element(),
            r#type.memory_space(),
            &TileView {
                valid_shape: Some(vec![Some(1), rows]),
                ..TileView::default()
            },
        );
        let cpp = cpp_types::tile(row).map_err(|m| (op, m))?;
        let arguments: Vec<Value> = match (rows, self.runtime_valid(tile)[0]) {
            (Some(_), _) => Vec::new(),
            (None, Some(valid_rows)) => vec![valid_rows],
            (None, None) => {
                return Err((
                    op,
                    "a column vector's valid rows are not known here".to_string(),
                ));
            }
        };
        Ok(self.assigned_object(op, &cpp, &arguments, address))
    }
}
