//! `pl.tensor.gather` as tiles. a2a3's TGATHER reads a flat index of its
//! source, which is a row's column only when the source is one row; so a
//! gather on the last axis of a 2-D tensor is a loop over the index's rows,
//! each a `pl.tile.gather` of the input's row by the index's row (a window
//! loaded from a tensor in memory, a slice of a converted one) assembled
//! into the result's tile, as PyPTO converts it for a2a3.

use melior::{
    dialect::arith,
    ir::{
        Block, BlockLike, Identifier, OperationRef, Type, Value, ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike},
        r#type::ShapedTypeLike,
    },
};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    enums::{EnumAttr, MaskPattern},
    op_table::OpKind,
    ops::with_operand_segments,
    types::{TileType, TileView},
};

use super::{Conversion, Failure, element, result_of, static_shape, value_key};
use crate::pl::scf_build::{for_op, nested_for, yield_op};

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
        let dim = dim_of(op);
        let (Some(input_shape), Some(shape)) = (static_shape(input), static_shape(result)) else {
            return self.kept(op, "a gather", "of a dynamic shape");
        };
        if shape.len() != 2 || dim != Some(1) {
            return self.kept(
                op,
                "a gather",
                "on other than the last axis of a 2-D tensor",
            );
        }
        let (rows, cols, input_cols) = (shape[0], shape[1], input_shape[1]);
        let context = self.context;
        let location = op.location();
        let block = op.block().expect("ops sit in blocks");
        let constant = |value: i64| index_constant(op, value);
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
        let failed = |e: String| (op, e);
        body.append_operation(yield_op(location, result_of(assembled)).map_err(failed)?);
        let loop_op = for_op(location, [zero, end, one], gathered, body).map_err(failed)?;
        let gathered = result_of(block.insert_operation_before(op, loop_op));
        self.tiles.insert(value_key(result), gathered);
        Ok(true)
    }

    /// Keeps `op` (`what`: "a gather") that `why` says no tile form
    /// covers, with a warning.
    pub(super) fn kept(
        &self,
        op: OperationRef<'c, 'a>,
        what: &str,
        why: &str,
    ) -> Result<bool, Failure<'c, 'a>> {
        OpDiagnostic::new(format!(
            "pl-convert-tensor-to-tile: {what} {why} has no tile form yet; the kernel keeps computing on tensors here"
        ))
        .emit(op, Severity::Warning);
        Ok(false)
    }
}

/// The column an element is written to.
#[derive(Clone, Copy)]
enum Column<'c, 'a> {
    /// The index tile's element at the element's position.
    Indexed(Value<'c, 'a>),
    /// `k * stride + offset` for the element's column `k` (`index`
    /// constants).
    Strided {
        stride: Value<'c, 'a>,
        offset: Value<'c, 'a>,
    },
}

impl<'c, 'a> Conversion<'c, 'a> {
    /// A scatter on the last axis of a 2-D tensor of static shape: element
    /// by element (`pl.tile.read` of the index and the source, `pl.tile.write`
    /// into the result) over a copy of the input's tile, which keeps the
    /// elements no index points at (a2a3's TSCATTER would zero them).
    /// Other scatters stay tensor ops, with a warning.
    pub(super) fn scatter_axis(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<bool, Failure<'c, 'a>> {
        let (input, index, source) = (
            op.operand(0).map_err(|e| (op, e.to_string()))?,
            op.operand(1).map_err(|e| (op, e.to_string()))?,
            op.operand(2).map_err(|e| (op, e.to_string()))?,
        );
        let dim = dim_of(op);
        let (Some(shape), Some(index_shape)) = (static_shape(input), static_shape(index)) else {
            return self.kept(op, "a scatter", "of a dynamic shape");
        };
        if shape.len() != 2 || dim != Some(1) {
            return self.kept(
                op,
                "a scatter",
                "on other than the last axis of a 2-D tensor",
            );
        }
        let index_tile = self.tile_of(op, index)?;
        self.write_elements(op, input, source, index_shape, Column::Indexed(index_tile))
    }

    /// Writes `source`'s elements (a `[rows, cols]` tensor) into a copy of
    /// `target`'s tile (a whole `pl.tile.slice` of a converted one, a
    /// `pl.tile.load` of its own of a tensor in memory), element by element:
    /// two `scf.for` loops carrying the copy, `pl.tile.read` of the source,
    /// `pl.tile.write` at the same row and the column `column` gives. The
    /// elements written to nothing keep the target's values, which a2a3's
    /// scatters would zero.
    fn write_elements(
        &mut self,
        op: OperationRef<'c, 'a>,
        target: Value<'c, 'a>,
        source: Value<'c, 'a>,
        source_shape: Vec<i64>,
        column: Column<'c, 'a>,
    ) -> Result<bool, Failure<'c, 'a>> {
        let result = result_of(op);
        let Some(shape) = static_shape(target) else {
            return self.kept(op, "a scatter", "of a dynamic shape");
        };
        let context = self.context;
        let location = op.location();
        let block = op.block().expect("ops sit in blocks");
        let constant = |value: i64| index_constant(op, value);
        let zero = self.zero();
        let (one, rows, cols) = (
            constant(1),
            constant(source_shape[0]),
            constant(source_shape[1]),
        );
        let tile_type: Type = TileType::new(context, &shape, element(target), None).into();
        let copy = match self.tiles.get(&value_key(target)).copied() {
            Some(tile) => OperationBuilder::new(OpKind::PlTileSlice.name(), location)
                .add_operands(&[tile, zero, zero]),
            None => OperationBuilder::new(OpKind::PlTileLoad.name(), location)
                .add_operands(&[target, zero, zero]),
        }
        .add_results(&[tile_type])
        .build()
        .map_err(|e| (op, e.to_string()))?;
        let copy = with_operand_segments(context, copy, &[1, 2, 0]);
        let copy = result_of(block.insert_operation_before(op, copy));
        let source_tile = self.tile_of(op, source)?;
        let loops = nested_for(
            context,
            location,
            [zero, one, rows, cols],
            copy,
            |inner, row, k, carried| {
                let append = |new: melior::ir::Operation<'c>| -> Value<'c, '_> {
                    inner.append_operation(new).result(0).unwrap().into()
                };
                let read = |tile: Value<'c, 'a>| {
                    OperationBuilder::new(OpKind::PlTileRead.name(), location)
                        .add_operands(&[tile, row, k])
                        .add_results(&[TileType::try_from(tile.r#type())
                            .expect("a converted tile")
                            .element()])
                        .build()
                        .expect("pl.tile.read builds")
                };
                let at = match column {
                    Column::Indexed(index) => {
                        let at = append(read(index));
                        append(arith::index_cast(at, Type::index(context), location))
                    }
                    Column::Strided { stride, offset } => {
                        let scaled = append(arith::muli(k, stride, location));
                        append(arith::addi(scaled, offset, location))
                    }
                };
                let value = append(read(source_tile));
                Ok(append(
                    OperationBuilder::new(OpKind::PlTileWrite.name(), location)
                        .add_operands(&[carried, row, at, value])
                        .add_results(&[tile_type])
                        .build()
                        .map_err(|e| e.to_string())?,
                ))
            },
        )
        .map_err(|e| (op, e))?;
        let scattered = block.insert_operation_before(op, loops);
        self.tiles.insert(value_key(result), result_of(scattered));
        Ok(true)
    }

    /// `pl.tensor.scatter_mask` of static 2-D shapes: each source element
    /// `[r, k]` written to column `k * stride + offset` of a copy of the
    /// target (the pattern's stride and first kept column).
    pub(super) fn scatter_mask(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<bool, Failure<'c, 'a>> {
        let (source, target) = (
            op.operand(0).map_err(|e| (op, e.to_string()))?,
            op.operand(1).map_err(|e| (op, e.to_string()))?,
        );
        let pattern = op
            .enum_attr::<MaskPattern>("pattern")
            .ok_or((op, "a masked scatter without a pattern".to_string()))?;
        let Some(source_shape) = static_shape(source) else {
            return self.kept(op, "a scatter", "of a dynamic shape");
        };
        let stride = pattern.stride();
        let offset = (0..stride)
            .find(|&c| pattern.keeps(c as usize))
            .unwrap_or(0);
        let column = Column::Strided {
            stride: index_constant(op, stride),
            offset: index_constant(op, offset),
        };
        self.write_elements(op, target, source, source_shape, column)
    }
}

impl<'c, 'a> Conversion<'c, 'a> {
    /// A `gather_compare` of static results: its tile form on the source's
    /// tile, the results valid along the source tile's valid rows.
    pub(super) fn gather_compare(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<bool, Failure<'c, 'a>> {
        let operand = |i: usize| op.operand(i).map_err(|e| (op, e.to_string()));
        let (source, key) = (operand(0)?, operand(1)?);
        let result = |i: usize| -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
            op.result(i)
                .map(Into::into)
                .map_err(|e| (op, e.to_string()))
        };
        let (columns, counts) = (result(0)?, result(1)?);
        let (Some(columns_shape), Some(counts_shape)) =
            (static_shape(columns), static_shape(counts))
        else {
            return self.kept(op, "a gather_compare", "of a dynamic shape");
        };
        let tile = self.tile_of(op, source)?;
        let valid_rows = TileType::try_from(tile.r#type())
            .map_err(|e| (op, e.to_string()))?
            .effective_view()
            .valid_shape[0];
        let tile_type =
            |shape: &[i64], value: Value<'c, 'a>, valid: Vec<Option<i64>>| -> Type<'c> {
                let view = TileView {
                    valid_shape: Some(valid),
                    ..TileView::default()
                };
                TileType::with_view(self.context, shape, element(value), None, &view).into()
            };
        let types = [
            tile_type(
                &columns_shape,
                columns,
                vec![valid_rows, Some(columns_shape[1])],
            ),
            tile_type(&counts_shape, counts, vec![Some(1), valid_rows]),
        ];
        let attributes: Vec<_> = ["cmp", "offset"]
            .into_iter()
            .filter_map(|name| {
                op.attribute(name)
                    .ok()
                    .map(|a| (Identifier::new(self.context, name), a))
            })
            .collect();
        let gather = OperationBuilder::new(OpKind::PlTileGatherCompare.name(), op.location())
            .add_operands(&[tile, key])
            .add_results(&types)
            .add_attributes(&attributes)
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let block = op.block().expect("ops sit in blocks");
        let gather = block.insert_operation_before(op, gather);
        for (i, value) in [columns, counts].into_iter().enumerate() {
            let tile: Value = gather.result(i).expect("two results").into();
            self.tiles.insert(value_key(value), tile);
        }
        Ok(true)
    }
}

/// The `dim` attribute of a gather or scatter.
fn dim_of(op: OperationRef) -> Option<i64> {
    op.attribute("dim")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|a| a.value())
}

/// An `index` constant, inserted before `op`.
pub(super) fn index_constant<'c, 'a>(op: OperationRef<'c, 'a>, value: i64) -> Value<'c, 'a> {
    let context = pto_dialects::ir::context(&op);
    let block = op.block().expect("ops sit in blocks");
    result_of(block.insert_operation_before(
        op,
        arith::constant(
            context,
            IntegerAttribute::new(Type::index(context), value).into(),
            op.location(),
        ),
    ))
}
