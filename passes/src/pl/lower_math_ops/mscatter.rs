//! `pl.tile.mscatter` as stores: a2a3's MSCATTER writes elements through
//! the scalar cache, which its DMAs do not see, and pto-isa spells it
//! without its mode (its CPU backend reads that as the other mode), so each
//! row or element becomes a `pl.tile.store` (docs/passes/pl-lower-math-ops.md).

use melior::{
    Context,
    dialect::arith,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Type, Value, ValueLike,
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, OperationRef},
        r#type::{IntegerType, ShapedTypeLike},
    },
};
use pto_dialects::{
    enums::{EnumAttr, GatherMode, ScatterOob},
    op_table::OpKind,
    ops::{Checked, with_operand_segments},
    types::{TensorType, TileType, TileView},
};

use crate::pl::scf_build::{for_carrying, nested_for, yield_op};

/// What one write needs besides its position: the table's extents and the
/// op's out-of-bounds rule and atomic add.
struct Writes<'c, 'v> {
    context: &'c Context,
    location: Location<'c>,
    source: Value<'c, 'v>,
    indices: Value<'c, 'v>,
    table_type: Type<'c>,
    /// The rows or elements an index may name.
    capacity: Value<'c, 'v>,
    /// The table's columns (elements: a flat index's row and column).
    cols: Value<'c, 'v>,
    zero: Value<'c, 'v>,
    one: Value<'c, 'v>,
    /// The last row or element (`clamp`).
    last: Value<'c, 'v>,
    oob: ScatterOob,
    atomic_add: Option<Attribute<'c>>,
    row_mode: bool,
    vector: bool,
    /// The type of the piece one store writes: a row or an element.
    piece_type: Type<'c>,
}

impl<'c, 'v> Writes<'c, 'v> {
    fn build(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
    ) -> Result<melior::ir::Operation<'c>, String> {
        OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(&[result])
            .build()
            .map_err(|e| e.to_string())
    }

    /// Appends to `body` the write of the source's row `row` (or element
    /// `(row, col)`) into `table`, and returns the table written.
    fn append<'b>(
        &self,
        body: &'b Block<'c>,
        row: Value<'c, 'b>,
        col: Option<Value<'c, 'b>>,
        table: Value<'c, 'b>,
    ) -> Result<Value<'c, 'b>, String> {
        let append = |new: melior::ir::Operation<'c>| -> Value<'c, 'b> {
            body.append_operation(new).result(0).unwrap().into()
        };
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let index_at = match col {
            Some(col) => [row, col],
            None => [self.zero, row],
        };
        let raw = append(self.build(
            OpKind::PlTileRead.name(),
            &[self.indices, index_at[0], index_at[1]],
            i32_type,
        )?);
        // Indices are unsigned: a negative i32 is a large index.
        let mut at = append(
            OperationBuilder::new("arith.index_castui", self.location)
                .add_operands(&[raw])
                .add_results(&[Type::index(self.context)])
                .build()
                .map_err(|e| e.to_string())?,
        );
        let mut count = None;
        match self.oob {
            ScatterOob::Undefined => {}
            ScatterOob::Clamp => at = append(arith::minui(at, self.last, self.location)),
            ScatterOob::Wrap => at = append(arith::remui(at, self.capacity, self.location)),
            ScatterOob::Skip => {
                let inside = append(arith::cmpi(
                    self.context,
                    arith::CmpiPredicate::Ult,
                    at,
                    self.capacity,
                    self.location,
                ));
                count = Some(append(arith::select(
                    inside,
                    self.one,
                    self.zero,
                    self.location,
                )));
            }
        }
        let slice = self.build(
            OpKind::PlTileSlice.name(),
            &[self.source, row, col.unwrap_or(self.zero)],
            self.piece_type,
        )?;
        let piece = append(with_operand_segments(self.context, slice, &[1, 2, 0]));
        let coordinates = if self.row_mode {
            vec![at, self.zero]
        } else if self.vector {
            vec![at]
        } else {
            vec![
                append(arith::divui(at, self.cols, self.location)),
                append(arith::remui(at, self.cols, self.location)),
            ]
        };
        let store = |table: Value<'c, '_>| -> Result<melior::ir::Operation<'c>, String> {
            let mut attributes = Vec::new();
            if let Some(atomic) = self.atomic_add {
                attributes.push((Identifier::new(self.context, "atomic_add"), atomic));
            }
            if self.vector {
                attributes.push((
                    Identifier::new(self.context, "partition"),
                    DenseI64ArrayAttribute::new(self.context, &[1]).into(),
                ));
            }
            OperationBuilder::new(OpKind::PlTileStore.name(), self.location)
                .add_operands(&[&[piece, table][..], &coordinates].concat())
                .add_results(&[self.table_type])
                .add_attributes(&attributes)
                .build()
                .map_err(|e| e.to_string())
        };
        let Some(count) = count else {
            return Ok(append(store(table)?));
        };
        // `skip`: the store in a loop that runs once inside the table and
        // never outside it.
        let once = Block::new(&[
            (Type::index(self.context), self.location),
            (self.table_type, self.location),
        ]);
        let stored: Value = once
            .append_operation(store(once.argument(1).unwrap().into())?)
            .result(0)
            .unwrap()
            .into();
        once.append_operation(yield_op(self.location, stored)?);
        Ok(append(for_carrying(
            self.location,
            [self.zero, count, self.one],
            &[table],
            once,
        )?))
    }
}

/// Replaces `pl.tile.mscatter` by a loop over the source's valid rows
/// (`row`: a `pl.tile.slice` of the row stored at the indexed row) or two
/// over its valid elements (`elem`: a one-element slice stored at the
/// indexed flat position's row and column), carrying the table, each
/// index read (`pl.tile.read`, of `ui32` indices' `i32` bits) as unsigned
/// and clamped, wrapped or (`skip`) guarded by a loop of zero or one trips
/// as `oob` says.
pub(super) fn lower<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), String> {
    let operand = |i: usize| op.operand_opt(i).ok_or("expected three operands");
    let (source, indices, table) = (operand(0)?, operand(1)?, operand(2)?);
    let result = op.result_opt(0).ok_or("expected a result")?;
    let source_type = TileType::try_from(source.r#type()).map_err(|_| "expected a tile")?;
    let index_type = TileType::try_from(indices.r#type()).map_err(|_| "expected a tile")?;
    let tensor = TensorType::try_from(table.r#type()).map_err(|_| "expected a tensor")?;
    let (valid_rows, valid_cols) = super::static_valid(source, "an mscatter")?;
    let row_mode = op.enum_attr::<GatherMode>("mode") == Some(GatherMode::Row);
    let location = op.location();
    let insert = super::Before::new(context, op)?;
    let index = Type::index(context);
    let before = |new: melior::ir::Operation<'c>| insert.value(new);
    let (zero, one) = (insert.index(0), insert.index(1));
    let i32_type: Type = IntegerType::new(context, 32).into();
    // `ui32` indices are read as their `i32` bits.
    let indices = if index_type.element() == i32_type {
        indices
    } else {
        let view: Type = index_type.with_element(i32_type).into();
        before(
            OperationBuilder::new(OpKind::PlTileReinterpretView.name(), location)
                .add_operands(&[indices])
                .add_results(&[view])
                .build()
                .map_err(|e| e.to_string())?,
        )
    };
    let shape = tensor.shape();
    let extent = |d: usize| -> Result<Value<'c, '_>, String> {
        Ok(match shape[d] {
            Some(extent) => insert.index(extent),
            None => before(
                OperationBuilder::new(OpKind::PlTensorDim.name(), location)
                    .add_operands(&[table])
                    .add_attributes(&[(
                        Identifier::new(context, "axis"),
                        IntegerAttribute::new(IntegerType::new(context, 64).into(), d as i64)
                            .into(),
                    )])
                    .add_results(&[index])
                    .build()
                    .map_err(|e| e.to_string())?,
            ),
        })
    };
    let vector = shape.len() == 1;
    // A row scatter's table is 2-D and its columns are not read.
    let (rows, cols) = if vector {
        (one, extent(0)?)
    } else if row_mode {
        (extent(0)?, zero)
    } else {
        (extent(0)?, extent(1)?)
    };
    let capacity = if row_mode {
        rows
    } else {
        before(arith::muli(rows, cols, location))
    };
    let oob = op
        .enum_attr::<ScatterOob>("oob")
        .unwrap_or(ScatterOob::Undefined);
    let last = if oob == ScatterOob::Clamp {
        before(arith::subi(capacity, one, location))
    } else {
        capacity
    };
    let piece_type: Type = if row_mode {
        let cols = source_type.shape()[1];
        let view = TileView {
            valid_shape: Some(vec![Some(1), Some(valid_cols)]),
            ..TileView::default()
        };
        TileType::with_view(
            context,
            &[1, cols],
            source_type.element(),
            source_type.memory_space(),
            &view,
        )
        .into()
    } else {
        TileType::new(
            context,
            &[1, 1],
            source_type.element(),
            source_type.memory_space(),
        )
        .into()
    };
    let writes = Writes {
        context,
        location,
        source,
        indices,
        table_type: table.r#type(),
        capacity,
        cols,
        zero,
        one,
        last,
        oob,
        atomic_add: op.attribute("atomic_add").ok(),
        row_mode,
        vector,
        piece_type,
    };
    let row_count = insert.index(valid_rows);
    let loops = if row_mode {
        let body = Block::new(&[(index, location), (table.r#type(), location)]);
        let written = writes.append(
            &body,
            body.argument(0).unwrap().into(),
            None,
            body.argument(1).unwrap().into(),
        )?;
        body.append_operation(yield_op(location, written)?);
        for_carrying(location, [zero, row_count, one], &[table], body)?
    } else {
        let col_count = insert.index(valid_cols);
        nested_for(
            context,
            location,
            [zero, one, row_count, col_count],
            table,
            |inner, row, col, carried| writes.append(inner, row, Some(col), carried),
        )?
    };
    let written = before(loops);
    pto_dialects::ir::replace_all_uses(result, written);
    pto_dialects::ir::erase(op);
    Ok(())
}
