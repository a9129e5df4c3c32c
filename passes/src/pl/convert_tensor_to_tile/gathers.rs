//! `pl.tensor.gather` as tiles. a2a3's TGATHER reads a flat index of its
//! source, which is a row's column only when the source is one row; so a
//! gather on the last axis of a 2-D tensor is a loop over the index's rows,
//! each a `pl.tile.gather` of the input's row by the index's row (a window
//! loaded from a tensor in memory, a slice of a converted one) assembled
//! into the result's tile, as PyPTO converts it for a2a3.

use melior::{
    dialect::arith,
    ir::{
        Block, BlockLike, OperationRef, Region, RegionLike, Type, Value,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike},
    },
};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    op_table::OpKind,
    ops::with_operand_segments,
    types::TileType,
};

use super::{Conversion, Failure, element, result_of, static_shape, value_key};

impl<'c, 'a> Conversion<'c, 'a> {
    /// A gather on the last axis of a 2-D tensor of static shape: one tile
    /// gather per row. Other gathers stay tensor ops, with a warning.
    pub(super) fn gather_axis(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<bool, Failure<'c, 'a>> {
        let (input, index, result) = (
            op.operand(0).map_err(|e| (op, e.to_string()))?,
            op.operand(1).map_err(|e| (op, e.to_string()))?,
            result_of(op),
        );
        let dim = op
            .attribute("dim")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value());
        let (Some(input_shape), Some(shape)) = (static_shape(input), static_shape(result)) else {
            return self.kept(op, "of a dynamic shape");
        };
        if shape.len() != 2 || dim != Some(1) {
            return self.kept(op, "on other than the last axis of a 2-D tensor");
        }
        let (rows, cols, input_cols) = (shape[0], shape[1], input_shape[1]);
        let context = self.context;
        let location = op.location();
        let block = op.block().expect("ops sit in blocks");
        let constant = |value: i64| -> Value<'c, 'a> {
            result_of(block.insert_operation_before(
                op,
                arith::constant(
                    context,
                    IntegerAttribute::new(Type::index(context), value).into(),
                    location,
                ),
            ))
        };
        let (zero, one, end) = (self.zero(), constant(1), constant(rows));
        let tile = |shape: &[i64], element: Type<'c>| -> Type<'c> {
            TileType::new(context, shape, element, None).into()
        };
        let result_tile = tile(&shape, element(result));
        let create = |r#type| {
            OperationBuilder::new(OpKind::PlTileCreate.name(), location)
                .add_results(&[r#type])
                .build()
                .expect("pl.tile.create builds")
        };
        let gathered = result_of(block.insert_operation_before(op, create(result_tile)));
        // Either operand's rows: slices of its tile when it is converted,
        // else loads of its windows.
        let sources = [
            (input, self.tiles.get(&value_key(input)).copied()),
            (index, self.tiles.get(&value_key(index)).copied()),
        ];
        let body = Block::new(&[(Type::index(context), location), (result_tile, location)]);
        let row: Value = body.argument(0).unwrap().into();
        let carried: Value = body.argument(1).unwrap().into();
        let mut rows_of = Vec::new();
        for ((source, converted), extent) in sources.into_iter().zip([input_cols, cols]) {
            let row_type = tile(&[1, extent], element(source));
            let window = match converted {
                Some(source_tile) => OperationBuilder::new(OpKind::PlTileSlice.name(), location)
                    .add_operands(&[source_tile, row, zero]),
                None => OperationBuilder::new(OpKind::PlTileLoad.name(), location)
                    .add_operands(&[source, row, zero]),
            }
            .add_results(&[row_type])
            .build()
            .map_err(|e| (op, e.to_string()))?;
            let window = with_operand_segments(context, window, &[1, 2, 0]);
            rows_of.push(result_of(body.append_operation(window)));
        }
        let tmp = result_of(body.append_operation(create(tile(&[1, cols], element(index)))));
        let one_row = body.append_operation(
            OperationBuilder::new(OpKind::PlTileGather.name(), location)
                .add_operands(&[rows_of[0], rows_of[1], tmp])
                .add_results(&[tile(&[1, cols], element(result))])
                .build()
                .map_err(|e| (op, e.to_string()))?,
        );
        let assembled = body.append_operation(
            OperationBuilder::new(OpKind::PlTileAssemble.name(), location)
                .add_operands(&[result_of(one_row), carried, row, zero])
                .add_results(&[result_tile])
                .build()
                .map_err(|e| (op, e.to_string()))?,
        );
        body.append_operation(
            OperationBuilder::new("scf.yield", location)
                .add_operands(&[result_of(assembled)])
                .build()
                .map_err(|e| (op, e.to_string()))?,
        );
        let region = Region::new();
        region.append_block(body);
        let loop_op = OperationBuilder::new("scf.for", location)
            .add_operands(&[zero, end, one, gathered])
            .add_results(&[result_tile])
            .add_regions([region])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let gathered = result_of(block.insert_operation_before(op, loop_op));
        self.tiles.insert(value_key(result), gathered);
        Ok(true)
    }

    /// Keeps a gather `what` says no tile form covers, with a warning.
    fn kept(&self, op: OperationRef<'c, 'a>, what: &str) -> Result<bool, Failure<'c, 'a>> {
        OpDiagnostic::new(format!(
            "pl-convert-tensor-to-tile: a gather {what} has no tile form yet; the kernel keeps computing on tensors here"
        ))
        .emit(op, Severity::Warning);
        Ok(false)
    }
}
