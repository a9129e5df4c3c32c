//! Moving and viewing data in `convert-pl-to-emitc`: loads and stores
//! between global memory and tiles, tile views, fills, element access,
//! creation, assembly and moves, and the tensor views and shape queries of
//! kernels (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{
    BlockLike, Identifier, OperationRef, Type, Value, ValueLike,
    operation::{OperationBuilder, OperationLike},
    r#type::ShapedTypeLike,
};
use pto_dialects::{
    ops::{OpKind, operand_at, operand_segments, result_at},
    types::{TensorLike, TileLayout, TileType},
};

use super::{Failure, Lowering, emitted, int_attribute, no_lowering};
use crate::emitc::build::{self, opaque_attribute};
use crate::target::a2a3;

impl<'c, 'a> Lowering<'c, 'a> {
    /// The shape a converted tile is stored with (its rows padded to 32
    /// bytes): element indices count in it.
    fn storage_shape(
        &self,
        op: OperationRef<'c, 'a>,
        tile: Value<'c, 'a>,
    ) -> Result<Vec<i64>, Failure<'c, 'a>> {
        match TileType::try_from(tile.r#type()) {
            Ok(r#type) if super::materialization(tile).is_some() => Ok(a2a3::storage_shape(r#type)),
            _ => Err((op, "the accessed tile was not declared".to_string())),
        }
    }

    /// `pl.tensor.view` (family `TensorView`): metadata only, the same
    /// pointer with the result's shape.
    pub(super) fn tensor_views(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        if kind != OpKind::PlTensorView {
            return Err(no_lowering(op, kind));
        }
        let (source, result) = (operand_at(op, 0).unwrap(), result_at(op, 0).unwrap());
        let tensor = TensorLike::try_from(result.r#type()).map_err(|e| (op, e.to_string()))?;
        if tensor
            .layout()
            .is_some_and(|l| l != pto_dialects::enums::TensorLayout::Nd)
        {
            return Err((
                op,
                "views with a non-row-major layout are not translated yet".into(),
            ));
        }
        let info = self.gm_tensor(source).ok_or((
            op,
            "a view of a tensor that is not a kernel parameter".to_string(),
        ))?;
        let source = emitted(source);
        let dims = tensor.shape();
        if dims.iter().skip(1).any(Option::is_none) {
            return Err((
                op,
                "views with a dynamic inner extent are not translated yet".into(),
            ));
        }
        let cast = OperationBuilder::new("emitc.cast", op.location())
            .add_operands(&[source])
            .add_results(&[source.r#type()])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let view: Value = op
            .block()
            .unwrap()
            .insert_operation_before(op, cast)
            .result(0)
            .unwrap()
            .into();
        // The view's pointer, and its source's CommContext; the extents of
        // its dynamic dimensions are not known.
        let mut parts = vec![view];
        parts.extend(info.context);
        let view = self.materialize(op, result.r#type(), &parts);
        self.replace(op, view);
        Ok(())
    }

    /// `pl.tensor.dim` (family `TensorAccess`): the kernel's extent.
    pub(super) fn tensor_access(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        if kind != OpKind::PlTensorDim {
            return self.scalar_access(op, kind);
        }
        let axis = int_attribute(op, "axis")
            .or_else(|| int_attribute(op, "index"))
            .unwrap_or(0) as usize;
        let dim = self.tensor_dim(op, operand_at(op, 0).unwrap(), axis)?;
        self.replace(op, dim);
        Ok(())
    }

    /// Loads and stores (family `TileTransfer`): `TLOAD(tile, gm)` and
    /// `TSTORE(gm, tile)` on a `GlobalTensor` over the window.
    pub(super) fn transfer(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let result = result_at(op, 0);
        match kind {
            OpKind::PlTileLoad => {
                let result = result.expect("loads have a result");
                let tile = TileType::try_from(result.r#type()).map_err(|e| (op, e.to_string()))?;
                two_dimensional(op, tile)?;
                let segments = operand_segments(op);
                let (start, count) = segments.get(1).copied().unwrap_or((1, 0));
                let offsets: Vec<Value> = (start..start + count)
                    .filter_map(|i| operand_at(op, i))
                    .collect();
                let (valid_start, valid_count) =
                    segments.get(2).copied().unwrap_or((start + count, 0));
                let mut dynamic =
                    (valid_start..valid_start + valid_count).filter_map(|i| operand_at(op, i));
                let extents = tile.effective_view().valid_shape;
                let mut valid: [Option<Value>; 2] = [0, 1].map(|d| {
                    if extents[d].is_none() {
                        dynamic.next()
                    } else {
                        None
                    }
                });
                let source = operand_at(op, 0).unwrap();
                if op.attribute("clamp").is_ok() {
                    // The window narrowed to the tensor's edge.
                    if offsets.len() != 2
                        || extents.iter().any(Option::is_some) && valid.iter().all(Option::is_none)
                    {
                        return Err((
                            op,
                            "clamp is translated for 2-D loads with dynamic valid extents".into(),
                        ));
                    }
                    for d in 0..2 {
                        let Some(extent) = valid[d] else { continue };
                        let edge = self.tensor_dim(op, source, d)?;
                        let location = op.location();
                        let block = op.block().unwrap();
                        let left: Value = block
                            .insert_operation_before(
                                op,
                                melior::dialect::arith::subi(edge, offsets[d], location),
                            )
                            .result(0)
                            .unwrap()
                            .into();
                        let narrowed = OperationBuilder::new("arith.minsi", location)
                            .add_operands(&[extent, left])
                            .add_results(&[Type::index(self.context)])
                            .build()
                            .expect("arith.minsi builds");
                        valid[d] = Some(
                            block
                                .insert_operation_before(op, narrowed)
                                .result(0)
                                .unwrap()
                                .into(),
                        );
                    }
                }
                let (window, runtime) = self.tile_window(op, tile, valid)?;
                let object = self.declare_tile(op, result, 0, valid)?;
                let global = self.global_window(op, source, source, &offsets, &window, &runtime)?;
                self.call(op, "TLOAD", &[object, global], None, None);
                self.replace(op, object);
            }
            OpKind::PlTileStore => {
                let tile = operand_at(op, 0).unwrap();
                let destination = operand_at(op, 1).unwrap();
                let offsets: Vec<Value> = (2..op.operand_count())
                    .filter_map(|i| operand_at(op, i))
                    .collect();
                let (window, runtime) = self.stored_window(op, tile)?;
                let global =
                    self.global_window(op, destination, destination, &offsets, &window, &runtime)?;
                // An atomic store adds into global memory.
                if op.attribute("atomic_add").is_ok() {
                    self.atomic_store(op, global, tile)?;
                } else {
                    self.call(op, "TSTORE", &[global, tile], None, None);
                }
                self.replace(op, destination);
            }
            _ => return Err(no_lowering(op, kind)),
        }
        Ok(())
    }

    /// Tile views (family `TileView`): another object at the source's
    /// address; a slice is a copy into its own buffer (`TEXTRACT`).
    pub(super) fn tile_views(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let result = result_at(op, 0);
        match kind {
            OpKind::PlTileSetValidshape => {
                // A view: another object at the source's address with the
                // given valid extents.
                let valid = [operand_at(op, 1), operand_at(op, 2)];
                let object = self.declare_tile(op, result.expect("a result"), 0, valid)?;
                self.replace(op, object);
            }
            OpKind::PlTileReshape => {
                // A view: another object at the source's address (row-major
                // data reinterpreted).
                let valid = self.propagated_valid(op);
                let object = self.declare_tile(op, result.expect("a result"), 0, valid)?;
                self.replace(op, object);
            }
            OpKind::PlTileReinterpretView => {
                // A view: another object of the result's element type at
                // the source's address. A runtime valid column count
                // counts the source's elements.
                let result = result.expect("a result");
                let valid = self.propagated_valid(op);
                let bits = |v: Value| {
                    TileType::try_from(v.r#type()).map_or(0, |t| {
                        a2a3::element_bits(pto_dialects::dtype::Dtype::of(t.element()))
                    })
                };
                if valid[1].is_some() && bits(operand_at(op, 0).unwrap()) != bits(result) {
                    return Err((
                        op,
                        "a reinterpret_view between element widths of a tile with a runtime valid column count is not translated".into(),
                    ));
                }
                let object = self.declare_tile(op, result, 0, valid)?;
                self.replace(op, object);
            }
            OpKind::PlTileTransposeView => {
                // A view: an object of the other fractal layout at the
                // source's address (pto-isa's boxed layouts make NZ read
                // as ZN the transpose; TRESHAPE is the same assignment).
                // A row-major vec tile read column-major feeds no a2a3
                // vector instruction, so only boxed tiles are viewed.
                let result = result.expect("a result");
                let boxed = TileType::try_from(result.r#type())
                    .is_ok_and(|t| t.effective_view().slayout != TileLayout::NoneBox);
                if !boxed {
                    return Err((
                        op,
                        "a transpose_view of a tile without boxes (nd as dn) feeds no a2a3 instruction; use pl.tile.transpose".into(),
                    ));
                }
                let [rows, cols] = self.propagated_valid(op);
                let object = self.declare_tile(op, result, 0, [cols, rows])?;
                self.replace(op, object);
            }
            _ => return self.one_to_one(op, kind, op.operands().collect(), None),
        }
        Ok(())
    }

    /// Fills (family `TileFillpad`): `TFILLPAD(dst, src)`,
    /// `TFILLPAD_INPLACE(dst, src)` (the destination the source's buffer)
    /// and `TFILLPAD_EXPAND(dst, src)`.
    pub(super) fn fillpad(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let callee = match kind {
            OpKind::PlTileFillpad => "TFILLPAD",
            OpKind::PlTileFillpadInplace | OpKind::PlTileFillpadExpand => {
                super::instruction(op, kind)?
            }
            _ => return Err(no_lowering(op, kind)),
        };
        // The destination is wholly valid; its type carries the pad.
        let object = self.declare_tile(op, result_at(op, 0).expect("a result"), 0, [None, None])?;
        self.call(
            op,
            callee,
            &[object, operand_at(op, 0).unwrap()],
            None,
            None,
        );
        self.replace(op, object);
        Ok(())
    }

    /// Element access (family `TileAccess`): `SetValue` and `GetValue` on
    /// the tile object at the row-major index.
    pub(super) fn tile_access(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let result = result_at(op, 0);
        match kind {
            OpKind::PlTileWrite => {
                // In place: `tile.SetValue(row * cols + col, value)` on the
                // source object, which the result stands for.
                let tile = operand_at(op, 0).unwrap();
                let shape = self.storage_shape(op, tile)?;
                let n = op.operand_count();
                let indices: Vec<Value> = (1..n - 1).filter_map(|i| operand_at(op, i)).collect();
                let value = operand_at(op, n - 1).unwrap();
                let location = op.location();
                let block = op.block().unwrap();
                let flat = self.flat_index(op, &shape, &indices)?;
                block.insert_operation_before(
                    op,
                    build::verbatim(
                        self.context,
                        location,
                        "{}.SetValue({}, {});",
                        &[emitted(tile), flat, value],
                    ),
                );
                self.replace(op, tile);
            }
            OpKind::PlTileRead => {
                // `tile.GetValue(row * cols + col)` into a variable (a member
                // call with a value: verbatim into an lvalue).
                let tile = operand_at(op, 0).unwrap();
                let shape = self.storage_shape(op, tile)?;
                let indices: Vec<Value> = (1..op.operand_count())
                    .filter_map(|i| operand_at(op, i))
                    .collect();
                let flat = self.flat_index(op, &shape, &indices)?;
                let result = result.expect("a read has a result");
                let location = op.location();
                let block = op.block().unwrap();
                let lvalue =
                    Type::parse(self.context, &format!("!emitc.lvalue<{}>", result.r#type()))
                        .ok_or((op, "an lvalue type".to_string()))?;
                let variable = OperationBuilder::new("emitc.variable", location)
                    .add_attributes(&[(
                        Identifier::new(self.context, "value"),
                        opaque_attribute(self.context, ""),
                    )])
                    .add_results(&[lvalue])
                    .build()
                    .map_err(|e| (op, e.to_string()))?;
                let variable: Value = block
                    .insert_operation_before(op, variable)
                    .result(0)
                    .unwrap()
                    .into();
                block.insert_operation_before(
                    op,
                    build::verbatim(
                        self.context,
                        location,
                        "{} = {}.GetValue({});",
                        &[variable, emitted(tile), flat],
                    ),
                );
                let load = OperationBuilder::new("emitc.load", location)
                    .add_operands(&[variable])
                    .add_results(&[result.r#type()])
                    .build()
                    .map_err(|e| (op, e.to_string()))?;
                let value: Value = block
                    .insert_operation_before(op, load)
                    .result(0)
                    .unwrap()
                    .into();
                self.replace(op, value);
            }
            _ => return Err(no_lowering(op, kind)),
        }
        Ok(())
    }

    /// Creation (family `TileCreate`): an object at the planned address; a
    /// fill is its instruction (`TEXPANDS(dst, value)`).
    pub(super) fn tile_create(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        if kind != OpKind::PlTileCreate {
            return self.one_to_one(op, kind, op.operands().collect(), None);
        }
        let object = self.declare_tile(op, result_at(op, 0).expect("a result"), 0, [None, None])?;
        self.replace(op, object);
        Ok(())
    }

    /// `pl.tile.assemble` (family `TileAssemble`): in place, the result is
    /// the target's buffer (planning gives it the target's address), the
    /// source written in (`TINSERT(dst, src, row, col)`).
    pub(super) fn assemble(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        if kind != OpKind::PlTileAssemble {
            return Err(no_lowering(op, kind));
        }
        let valid = self.propagated_valid(op);
        let object = self.declare_tile(op, result_at(op, 0).expect("a result"), 0, valid)?;
        let mut operands = vec![object, operand_at(op, 0).unwrap()];
        let offsets: Vec<Value> = (2..op.operand_count())
            .filter_map(|i| operand_at(op, i))
            .collect();
        if offsets.len() == 1 {
            operands.push(self.index_constant(op, 0));
        }
        operands.extend(offsets);
        self.call(op, "TINSERT", &operands, None, None);
        self.replace(op, object);
        Ok(())
    }

    /// Moves and transposes (families `TileMove`, `TileTranspose`): the
    /// instruction on the operands (`TMOV`, `TEXTRACT(dst, src, row, col)`,
    /// `TTRANS(dst, src, tmp)`).
    pub(super) fn moves(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        if kind == OpKind::PlTileTranspose {
            self.require_scratch(op, kind)?;
        }
        self.one_to_one(op, kind, op.operands().collect(), None)
    }
}

/// pto-isa's tiles are 2-D: a tile of another rank moving to or from
/// memory is refused at the op (pl-flatten-tile-nd-to-2d folds ranks above
/// 2; a rank-1 tile is not folded yet).
pub(super) fn two_dimensional<'c, 'a>(
    op: OperationRef<'c, 'a>,
    tile: TileType<'c>,
) -> Result<(), Failure<'c, 'a>> {
    if tile.shape().len() == 2 {
        return Ok(());
    }
    Err((
        op,
        format!(
            "pto-isa's tiles are 2-D and {} is not: give the tensor a leading extent of 1 (a row [1, N]) to translate it",
            melior::ir::Type::from(tile)
        ),
    ))
}
