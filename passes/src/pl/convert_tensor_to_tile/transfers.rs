//! Tensor-level puts and gets of a kernel as their tile forms: pto-isa's
//! TPUT/TGET move global memory through a vector staging tile, which the
//! tile form names and memory planning places (docs/passes/
//! pl-convert-tensor-to-tile.md).

use melior::{
    Context,
    ir::{
        BlockLike, OperationRef, Type, Value, ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike},
    },
};
use pto_dialects::op_table::OpKind;
use pto_dialects::{
    ops::{constant_int, operand_segments, with_operand_segments},
    types::{MemorySpace, TensorLike, TileType},
};

use super::Failure;
use crate::pld::ir::detach;

/// Rewrites every `pld.tensor.put`/`get` of `kernel` as `pld.tile.put`/
/// `get` through a `pl.tile.create` staging tile (two with `pipeline`).
///
/// The stage is `[R, C]` of the destination's element type: with the
/// transfer's shape `T` (the region's, else the destination's), `C` is
/// `T`'s last extent, or `min(that, chunk_cols)` when `chunk_cols` > 0
/// (the chunk alone when the extent is dynamic); `R` is the product of the
/// other extents, narrowed by `chunk_rows` alike. TPUT/TGET slide the
/// transfer through a smaller stage.
pub(super) fn stage_transfers<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    for op in pto_dialects::ir::collect_kinds(kernel, &[OpKind::PldTensorPut, OpKind::PldTensorGet])
    {
        stage_one(context, op)?;
    }
    Ok(())
}

fn stage_one<'c, 'a>(
    context: &'c Context,
    op: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let put = OpKind::of(&op) == Some(OpKind::PldTensorPut);
    let operands: Vec<Value> = op.operands().collect();
    let segments = operand_segments(op);
    let group = |i: usize| -> Vec<Value<'c, 'a>> {
        segments.get(i).map_or(Vec::new(), |&(start, count)| {
            operands[start..start + count].to_vec()
        })
    };
    let (dst, peer, src) = (operands[0], operands[1], operands[2]);
    let (dst_offsets, src_offsets, extents) = (group(3), group(4), group(5));
    let dst_type = TensorLike::try_from(dst.r#type())
        .map_err(|_| (op, "the destination is not a tensor".to_string()))?;
    let shape: Vec<Option<i64>> = if extents.is_empty() {
        dst_type.shape()
    } else {
        extents.iter().map(|&v| constant_int(v)).collect()
    };
    let chunk = |attribute: &str| {
        op.attribute(attribute)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(0, |a| a.value())
    };
    let narrowed = |extent: Option<i64>, chunk: i64, what: &str| -> Result<i64, Failure<'c, 'a>> {
        match (extent, chunk > 0) {
            (Some(extent), true) => Ok(extent.min(chunk)),
            (Some(extent), false) => Ok(extent),
            (None, true) => Ok(chunk),
            (None, false) => Err((
                op,
                format!(
                    "a transfer with a dynamic {what} extent needs chunk {what} (the staging tile is static)"
                ),
            )),
        }
    };
    let (last, leading) = shape
        .split_last()
        .ok_or((op, "a transfer of a rank-0 tensor".to_string()))?;
    let rows = leading
        .iter()
        .try_fold(1i64, |product, extent| extent.map(|e| product * e));
    let stage_rows = narrowed(rows, chunk("chunk_rows"), "rows")?;
    let stage_cols = narrowed(*last, chunk("chunk_cols"), "cols")?;
    if stage_rows <= 0 || stage_cols <= 0 {
        return Err((op, "an empty transfer has no staging tile".to_string()));
    }
    let pipeline = op.attribute("pipeline").is_ok();
    let location = op.location();
    let block = op.block().expect("ops sit in blocks");
    let stage_type: Type = TileType::new(
        context,
        &[stage_rows, stage_cols],
        dst_type.element(),
        Some(MemorySpace::Vec),
    )
    .into();
    let mut stages = Vec::new();
    for _ in 0..if pipeline { 2 } else { 1 } {
        let create = OperationBuilder::new(OpKind::PlTileCreate.name(), location)
            .add_results(&[stage_type])
            .build()
            .map_err(|e| (op, e.to_string()))?;
        let stage: Value = block
            .insert_operation_before(op, create)
            .result(0)
            .unwrap()
            .into();
        stages.push(stage);
    }
    let tile_name = if put {
        OpKind::PldTilePut.name()
    } else {
        OpKind::PldTileGet.name()
    };
    let mut all: Vec<Value> = vec![dst, peer, src];
    all.extend(&stages);
    all.extend(&dst_offsets);
    all.extend(&src_offsets);
    all.extend(&extents);
    let mut builder = OperationBuilder::new(tile_name, location).add_operands(&all);
    if put && let Ok(atomic) = op.attribute("atomic") {
        builder =
            builder.add_attributes(&[(melior::ir::Identifier::new(context, "atomic"), atomic)]);
    }
    let tile_op = builder.build().map_err(|e| (op, e.to_string()))?;
    let sizes = [
        1,
        1,
        1,
        1,
        i32::from(pipeline),
        dst_offsets.len() as i32,
        src_offsets.len() as i32,
        extents.len() as i32,
    ];
    block.insert_operation_before(op, with_operand_segments(context, tile_op, &sizes));
    drop(detach(op));
    Ok(())
}
