//! Batched products in kernels: a tile product is 2-D, so a matmul of
//! rank-3 operands becomes one product per batch, each operand's batch
//! loaded as a 2-D tile (`pl.tile.load` with a `partition` of one batch)
//! and each product stored into its batch of the result (a `pl.tile.store`
//! with the same partition). A batch extent of 1, or a rank-2 operand,
//! broadcasts: that operand's one batch is loaded once, before the first
//! product, and every product reads it (pl-tile-matmul-l0 splits products
//! that exceed L0 sharing it: their steps extract from it in L1).

use melior::ir::{
    BlockLike, OperationRef, Type, Value, ValueLike,
    attribute::DenseI64ArrayAttribute,
    operation::{OperationBuilder, OperationLike},
};
use pto_dialects::{
    op_table::OpKind,
    ops::{Checked, with_operand_segments},
    types::{MemorySpace, TensorLike, TileType},
};

use super::{Conversion, Failure, accumulator_of, element, result_of, static_shape};

impl<'c, 'a> Conversion<'c, 'a> {
    /// Converts the rank-3 matmul `op` (see the module's comment). The
    /// operands must be parameters of the kernel and the product returned
    /// (its only use): it is stored into a new out parameter.
    pub(super) fn batch_matmul(&mut self, op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let refuse = |why: &str| Err((op, format!("a batched matmul {why} has no tile form yet")));
        if op.attribute("a_trans").is_ok() || op.attribute("b_trans").is_ok() {
            return refuse("with a transposed operand");
        }
        let (Some(lhs), Some(rhs)) = (op.operand_opt(0), op.operand_opt(1)) else {
            return refuse("without two operands");
        };
        let result = result_of(op);
        let (Some(ls), Some(rs), Some(shape)) =
            (static_shape(lhs), static_shape(rhs), static_shape(result))
        else {
            return refuse("of dynamic shape");
        };
        if shape.len() != 3 || ls.len() > 3 || rs.len() > 3 {
            return refuse("of rank other than 3");
        }
        let parameter = |v: Value<'c, 'a>| pto_dialects::ir::argument_owner(v) == Some(self.entry);
        if !parameter(lhs) || !parameter(rhs) {
            return refuse("of operands that are not the kernel's parameters");
        }
        let terminator = self
            .entry
            .terminator()
            .ok_or((op, "no return".to_string()))?;
        let uses = pto_dialects::ir::uses(result);
        let [(user, returned_at)] = uses[..] else {
            return refuse("whose product is used other than once");
        };
        if user != terminator || op.block() != Some(self.entry) {
            return refuse("whose product is not returned (its only use)");
        }
        let batches = shape[0];
        let [m, n] = [shape[1], shape[2]];
        let location = op.location();
        let out = self.entry.add_argument(result.r#type(), location);
        self.early_outputs.push(result.r#type());
        let accumulator = accumulator_of(self.context, element(lhs));
        let product_type: Type =
            TileType::new(self.context, &[m, n], accumulator, Some(MemorySpace::Acc)).into();
        let zero = self.zero();
        let mut written: Value = out;
        // The broadcast operands' one batch, loaded for the first product.
        let mut broadcast_tiles: [Option<Value<'c, 'a>>; 2] = [None; 2];
        for batch in 0..batches {
            let index = if batch == 0 {
                zero
            } else {
                self.index_constant(op, batch)
            };
            let mut tiles = [zero; 2];
            for (side, (operand, extents)) in [(lhs, &ls), (rhs, &rs)].into_iter().enumerate() {
                let broadcast = extents.len() == 2 || extents[0] == 1;
                let window = [extents[extents.len() - 2], extents[extents.len() - 1]];
                tiles[side] = match broadcast_tiles[side] {
                    Some(tile) => tile,
                    None if broadcast => {
                        let tile = self.load_batch(op, operand, zero, window)?;
                        broadcast_tiles[side] = Some(tile);
                        tile
                    }
                    None => self.load_batch(op, operand, index, window)?,
                };
            }
            let product = OperationBuilder::new(OpKind::PlTileMatmul.name(), location)
                .add_operands(&tiles)
                .add_results(&[product_type])
                .build()
                .map_err(|e| (op, e.to_string()))?;
            let product = result_of(self.entry.insert_operation_before(op, product));
            let store = OperationBuilder::new(OpKind::PlTileStore.name(), location)
                .add_operands(&[product, written, index, zero, zero])
                .add_attributes(&[partition(self.context, &[1, m, n])])
                .add_results(&[result.r#type()])
                .build()
                .map_err(|e| (op, e.to_string()))?;
            written = result_of(self.entry.insert_operation_before(op, store));
        }
        pto_dialects::ir::set_operand(terminator, returned_at, written);
        Ok(())
    }

    /// The 2-D tile of one batch of `operand` (rank 3: the batch at
    /// `index`; rank 2: all of it), loaded just before `op`.
    fn load_batch(
        &mut self,
        op: OperationRef<'c, 'a>,
        operand: Value<'c, 'a>,
        index: Value<'c, 'a>,
        [rows, cols]: [i64; 2],
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let rank = TensorLike::try_from(operand.r#type()).map_or(0, |t| t.rank());
        let zero = self.zero();
        let tile_type: Type =
            TileType::new(self.context, &[rows, cols], element(operand), None).into();
        let offsets = if rank == 3 {
            vec![index, zero, zero]
        } else {
            vec![zero, zero]
        };
        let mut builder = OperationBuilder::new(OpKind::PlTileLoad.name(), op.location())
            .add_operands(&[&[operand][..], &offsets].concat())
            .add_results(&[tile_type]);
        if rank == 3 {
            builder = builder.add_attributes(&[partition(self.context, &[1, rows, cols])]);
        }
        let load = builder.build().map_err(|e| (op, e.to_string()))?;
        let load = with_operand_segments(self.context, load, &[1, rank as i32, 0]);
        Ok(result_of(self.entry.insert_operation_before(op, load)))
    }

    /// An `index` constant `value`, just before `op`.
    fn index_constant(&mut self, op: OperationRef<'c, 'a>, value: i64) -> Value<'c, 'a> {
        let constant = super::strips::index_constant(self.context, value, op.location());
        result_of(self.entry.insert_operation_before(op, constant))
    }
}

/// The `partition` attribute of a load or store moving `window`.
fn partition<'c>(
    context: &'c melior::Context,
    window: &[i64],
) -> (melior::ir::Identifier<'c>, melior::ir::Attribute<'c>) {
    (
        melior::ir::Identifier::new(context, "partition"),
        DenseI64ArrayAttribute::new(context, window).into(),
    )
}
