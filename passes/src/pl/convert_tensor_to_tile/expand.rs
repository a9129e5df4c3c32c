//! `pl.tensor.expand_clone` as tiles: the source's tile broadcast to the
//! target's shape, computed on the 2-D forms of the rank-3 tiles (their
//! leading axes folded, as `pl-flatten-tile-nd-to-2d` folds them): a
//! broadcast last axis is a `pl.tile.row_expand`; a broadcast middle axis
//! puts each source row, `pl.tile.col_expand`ed to a block of rows, at its
//! place in the result (`pl.tile.slice`, `pl.tile.assemble`); a broadcast
//! first axis puts the whole source at each batch's rows. The target's old
//! elements are not read: the result overwrites them all, stored into the
//! target (or standing for it, when the target is a converted value).

use melior::ir::{
    BlockLike, OperationRef, Type, Value, ValueLike,
    operation::{OperationBuilder, OperationLike},
    r#type::ShapedTypeLike,
};
use pto_dialects::{op_table::OpKind, ops::with_operand_segments, types::TileType};

use super::{Conversion, Failure, gathers::index_constant, result_of, static_shape, value_key};

/// The most batches whose copies are written one by one.
const MAX_BATCHES: i64 = 64;

impl<'c, 'a> Conversion<'c, 'a> {
    /// `pl.tensor.expand_clone` of static shapes.
    pub(super) fn expand_clone(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<bool, Failure<'c, 'a>> {
        let source = op.operand(0).map_err(|e| (op, e.to_string()))?;
        let result = result_of(op);
        let (Some(from), Some(to)) = (static_shape(source), static_shape(result)) else {
            return self.kept(op, "an expand_clone", "of a dynamic shape");
        };
        let axis = (0..3).find(|&d| from[d] != to[d]);
        if axis.is_some_and(|d| d < 2) && to[0] > MAX_BATCHES {
            return self.kept(op, "an expand_clone", "of more than 64 batches");
        }
        let tile = self.tile_of(op, source)?;
        let element = TileType::try_from(tile.r#type())
            .map_err(|e| (op, e.to_string()))?
            .element();
        let (batches, rows, cols) = (to[0], to[1], to[2]);
        // The result's 2-D form, made before the op: its rows are written
        // whole.
        let result_rows = |this: &Self| {
            this.tile_op(
                op,
                OpKind::PlTileCreate,
                &[],
                &[batches * rows, cols],
                element,
            )
        };
        let expanded = match axis {
            None => tile,
            Some(2) => {
                let column = self.tile_op(
                    op,
                    OpKind::PlTileReshape,
                    &[tile],
                    &[batches * rows, 1],
                    element,
                )?;
                let full = result_rows(self)?;
                let expanded = self.tile_op(
                    op,
                    OpKind::PlTileRowExpand,
                    &[full, column],
                    &[batches * rows, cols],
                    element,
                )?;
                self.tile_op(op, OpKind::PlTileReshape, &[expanded], &to, element)?
            }
            Some(axis) => {
                // The source's 2-D form, and the result's rows filled one
                // batch at a time.
                let source_rows = from[0] * from[1];
                let flat = self.tile_op(
                    op,
                    OpKind::PlTileReshape,
                    &[tile],
                    &[source_rows, cols],
                    element,
                )?;
                let mut acc = result_rows(self)?;
                let zero = index_constant(op, 0);
                for batch in 0..batches {
                    let block = if axis == 1 {
                        let row = index_constant(op, batch);
                        let one = self.tile_slice(op, flat, &[row, zero], &[1, cols], element)?;
                        let full =
                            self.tile_op(op, OpKind::PlTileCreate, &[], &[rows, cols], element)?;
                        self.tile_op(
                            op,
                            OpKind::PlTileColExpand,
                            &[full, one],
                            &[rows, cols],
                            element,
                        )?
                    } else {
                        flat
                    };
                    let at = index_constant(op, batch * rows);
                    acc = self.tile_op(
                        op,
                        OpKind::PlTileAssemble,
                        &[block, acc, at, zero],
                        &[batches * rows, cols],
                        element,
                    )?;
                }
                self.tile_op(op, OpKind::PlTileReshape, &[acc], &to, element)?
            }
        };
        let target = op.operand(1).map_err(|e| (op, e.to_string()))?;
        if self.tiles.contains_key(&value_key(target)) {
            // Into a converted value: the broadcast tile is the result.
            self.tiles.insert(value_key(result), expanded);
            return Ok(true);
        }
        // Into a tensor in memory: a store of the broadcast tile (the
        // target is written, as the op writes it).
        let zero = index_constant(op, 0);
        let store = OperationBuilder::new(OpKind::PlTileStore.name(), op.location())
            .add_operands(&[expanded, target, zero, zero, zero])
            .add_results(&[target.r#type()])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let block = op.block().expect("ops sit in blocks");
        let stored = result_of(block.insert_operation_before(op, store));
        pto_dialects::ir::replace_all_uses(result, stored);
        Ok(true)
    }

    /// A tile op `kind` of `operands` before `op`, making a tile of
    /// `shape` (no memory space yet).
    fn tile_op(
        &self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
        operands: &[Value<'c, 'a>],
        shape: &[i64],
        element: Type<'c>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let tile_type: Type = TileType::new(self.context, shape, element, None).into();
        let built = OperationBuilder::new(kind.name(), op.location())
            .add_operands(operands)
            .add_results(&[tile_type])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let block = op.block().expect("ops sit in blocks");
        Ok(result_of(block.insert_operation_before(op, built)))
    }

    /// `pl.tile.slice` of `source` at `offsets`, of `shape`, before `op`.
    fn tile_slice(
        &self,
        op: OperationRef<'c, 'a>,
        source: Value<'c, 'a>,
        offsets: &[Value<'c, 'a>],
        shape: &[i64],
        element: Type<'c>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let tile_type: Type = TileType::new(self.context, shape, element, None).into();
        let built = OperationBuilder::new(OpKind::PlTileSlice.name(), op.location())
            .add_operands(&[&[source][..], offsets].concat())
            .add_results(&[tile_type])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let built = with_operand_segments(self.context, built, &[1, offsets.len() as i32, 0]);
        let block = op.block().expect("ops sit in blocks");
        Ok(result_of(block.insert_operation_before(op, built)))
    }
}
