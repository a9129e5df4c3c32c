//! Rows gathered from global memory as tiles: `pl.tensor.gather_row` is
//! `pl.tile.gather_row` into the target's tile (its source stays in
//! memory), and `pl.tensor.paged_gather` a loop over the indices, as PyPTO
//! converts it: each reads the logical position and its page
//! (`pl.tensor.read`), and gathers the physical row into a row of the
//! result's tile (`pl.tile.create`, carried by the loop).

use melior::{
    dialect::arith,
    ir::{
        Block, BlockLike, Identifier, OperationRef, Type, Value, ValueLike,
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike},
    },
};
use pto_dialects::{op_table::OpKind, ops::with_operand_segments, types::TileType};

use super::{
    Conversion, Failure, element, gathers::index_constant, result_of, static_shape, value_key,
};
use crate::pl::scf_build::{for_op, yield_op};

impl<'c, 'a> Conversion<'c, 'a> {
    /// `pl.tensor.gather_row`: the tile form into the target's tile.
    pub(super) fn gather_row(&mut self, op: OperationRef<'c, 'a>) -> Result<bool, Failure<'c, 'a>> {
        let (source, target) = (
            op.operand(0).map_err(|e| (op, e.to_string()))?,
            op.operand(1).map_err(|e| (op, e.to_string()))?,
        );
        // A loop may carry the target as its tile already.
        let carried_tile = TileType::try_from(target.r#type()).is_ok();
        if !carried_tile && static_shape(target).is_none() {
            return self.kept(op, "a gather_row", "into a target of a dynamic shape");
        }
        let target_tile = self.tile_of(op, target)?;
        let mut operands = vec![source, target_tile];
        operands.extend(op.operands().skip(2));
        let segments: Vec<i32> = pto_dialects::ops::operand_segments(op)
            .iter()
            .map(|s| s.1 as i32)
            .collect();
        let mut built = OperationBuilder::new(OpKind::PlTileGatherRow.name(), op.location())
            .add_operands(&operands)
            .add_results(&[target_tile.r#type()]);
        if let Ok(shape) = op.attribute("shape") {
            built = built.add_attributes(&[(Identifier::new(self.context, "shape"), shape)]);
        }
        let built = built.build().map_err(|e| (op, e.to_string()))?;
        let built = with_operand_segments(self.context, built, &segments);
        let block = op.block().expect("ops sit in blocks");
        let tile = result_of(block.insert_operation_before(op, built));
        self.tiles.insert(value_key(result_of(op)), tile);
        Ok(true)
    }

    /// `pl.tensor.paged_gather` of a static result: a loop over the
    /// indices gathering each physical row into the result's tile.
    pub(super) fn paged_gather(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<bool, Failure<'c, 'a>> {
        let operand = |i: usize| op.operand(i).map_err(|e| (op, e.to_string()));
        let (source, indices, table) = (operand(0)?, operand(1)?, operand(2)?);
        let result = result_of(op);
        let Some(shape) = static_shape(result) else {
            return self.kept(op, "a paged_gather", "of a dynamic shape");
        };
        let int = |name: &str| {
            op.attribute(name)
                .ok()
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .map(|a| a.value())
        };
        let block_size = int("block_size").ok_or((op, "no block_size".to_string()))?;
        let col_off = int("col_off").unwrap_or(0);
        let context = self.context;
        let location = op.location();
        let block = op.block().expect("ops sit in blocks");
        let index = Type::index(context);
        let zero = self.zero();
        let (one, size, col) = (
            index_constant(op, 1),
            index_constant(op, block_size),
            index_constant(op, col_off),
        );
        // The number of indices: the last extent of `indices`.
        let rank = pto_dialects::types::TensorLike::try_from(indices.r#type())
            .map(|t| t.rank())
            .map_err(|e| (op, e.to_string()))?;
        let count = match static_shape(indices).and_then(|s| s.last().copied()) {
            Some(n) => index_constant(op, n),
            None => {
                let dim = OperationBuilder::new(OpKind::PlTensorDim.name(), location)
                    .add_operands(&[indices])
                    .add_attributes(&[(
                        Identifier::new(context, "axis"),
                        IntegerAttribute::new(
                            Type::parse(context, "i64").unwrap(),
                            rank as i64 - 1,
                        )
                        .into(),
                    )])
                    .add_results(&[index])
                    .build()
                    .map_err(|e| (op, e.to_string()))?;
                result_of(block.insert_operation_before(op, dim))
            }
        };
        let result_tile: Type = TileType::new(context, &shape, element(result), None).into();
        let create = OperationBuilder::new(OpKind::PlTileCreate.name(), location)
            .add_results(&[result_tile])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let rows = result_of(block.insert_operation_before(op, create));
        let body = Block::new(&[(index, location), (result_tile, location)]);
        let i: Value = body.argument(0).unwrap().into();
        let carried: Value = body.argument(1).unwrap().into();
        let failed = |e: String| (op, e);
        let append = |new: melior::ir::Operation<'c>| result_of(body.append_operation(new));
        // One element of a one-row tensor, as an index.
        let read = |tensor: Value<'c, 'a>, at: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
            let rank = pto_dialects::types::TensorLike::try_from(tensor.r#type())
                .map_err(|e| e.to_string())?
                .rank();
            let subscripts: Vec<Value> = if rank == 1 { vec![at] } else { vec![zero, at] };
            let value = append(
                OperationBuilder::new(OpKind::PlTensorRead.name(), location)
                    .add_operands(&[&[tensor][..], &subscripts].concat())
                    .add_results(&[Type::parse(context, "i32").unwrap()])
                    .build()
                    .map_err(|e| e.to_string())?,
            );
            Ok(append(arith::index_cast(value, index, location)))
        };
        let logical = read(indices, i).map_err(failed)?;
        let page = append(arith::divui(logical, size, location));
        let within = append(arith::remui(logical, size, location));
        let physical_page = read(table, page).map_err(failed)?;
        let first = append(arith::muli(physical_page, size, location));
        let physical = append(arith::addi(first, within, location));
        let gathered = OperationBuilder::new(OpKind::PlTileGatherRow.name(), location)
            .add_operands(&[source, carried, physical, col, i, zero])
            .add_attributes(&[(
                Identifier::new(context, "shape"),
                DenseI64ArrayAttribute::new(context, &[1, shape[1]]).into(),
            )])
            .add_results(&[result_tile])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let gathered = append(with_operand_segments(context, gathered, &[1, 1, 2, 2, 0]));
        body.append_operation(yield_op(location, gathered).map_err(failed)?);
        let loop_op = for_op(location, [zero, count, one], rows, body).map_err(failed)?;
        let gathered = result_of(block.insert_operation_before(op, loop_op));
        self.tiles.insert(value_key(result), gathered);
        Ok(true)
    }
}
