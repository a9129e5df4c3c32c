//! Static kernels too large for the vector buffer, in blocks: a rank-2
//! kernel of static shapes whose whole-tensor tiles would not fit a2a3's
//! vector buffer at once, and whose blocks are independent (elementwise,
//! scalar, unary and cast ops, row and column broadcasts, reductions along
//! an axis that is not blocked), runs as loops over blocks of rows (and of
//! columns, when even a few rows are too large). The loops are written at
//! the tensor level, as a user would write them: each parameter's block is
//! a `pl.tensor.slice` window, each result's block a `pl.tensor.assemble`
//! into a new out parameter the loops carry; the conversion then treats
//! them as it treats a user's tiled loop
//! (docs/passes/pl-convert-tensor-to-tile.md, "Programs larger than the
//! vector buffer").
//!
//! [`plan`] estimates the kernel's peak of live tiles and chooses the
//! block; [`wrap`] writes the loops.

use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        Block, BlockLike, Identifier, OperationRef, RegionLike, Type, Value, ValueLike,
        attribute::DenseI32ArrayAttribute,
        operation::{OperationBuilder, OperationLike, OperationMutLike},
        r#type::ShapedTypeLike,
    },
};
use pto_dialects::{
    dtype::ScalarKind,
    ir::ValueKey,
    op_table::{Family, OpKind},
    ops::{Checked, op_name},
    types::{MemorySpace, TensorType},
};

use super::{
    Failure, result_of,
    strips::{assemble, index_constant, kernel_body},
};
use crate::pld::ir::detach;

/// The peak of live tiles a block may reach: half the vector buffer,
/// which leaves room for alignment and what the estimate leaves out.
const BLOCK_PEAK_BYTES: i64 = 92 * 1024;

/// How a static kernel runs in blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Blocking {
    /// The kernel's extent on each axis (every tensor's is it or 1).
    pub full: [i64; 2],
    /// The block's extent on each axis: a divisor of `full`.
    pub block: [i64; 2],
    /// The estimated peak of live tile bytes of the whole kernel.
    pub peak: i64,
}

/// A tensor value of the kernel and when its tile is live: from the op
/// defining it (0 for a parameter, loaded at the entry) to its last use.
struct Live {
    dims: [i64; 2],
    element_bytes: i64,
    start: usize,
    end: usize,
}

/// The bytes a tile of `dims` takes: rows of whole 32-byte blocks, a
/// column vector packed in blocks.
fn tile_bytes(dims: [i64; 2], element_bytes: i64) -> i64 {
    let round = |bytes: i64| (bytes + 31) / 32 * 32;
    if dims[1] == 1 {
        round(dims[0] * element_bytes)
    } else {
        dims[0] * round(dims[1] * element_bytes)
    }
}

/// The extents `dims` take in a block of `block` of a kernel of `full`.
fn in_block(dims: [i64; 2], full: [i64; 2], block: [i64; 2]) -> [i64; 2] {
    [0, 1].map(|d| {
        if dims[d] == full[d] {
            block[d]
        } else {
            dims[d]
        }
    })
}

/// The most bytes of tiles live at once, when each tile has its extents
/// in a block of `block`; `scratch` are the ops that need a scratch tile
/// of their operand's size (row reductions), at their position.
fn peak(lives: &[Live], scratch: &[(usize, usize)], full: [i64; 2], block: [i64; 2]) -> i64 {
    let end = lives.iter().map(|l| l.end).max().unwrap_or(0);
    let mut per_op = vec![0i64; end + 1];
    for live in lives {
        let bytes = tile_bytes(in_block(live.dims, full, block), live.element_bytes);
        for slot in &mut per_op[live.start..=live.end] {
            *slot += bytes;
        }
    }
    for &(position, operand) in scratch {
        let live = &lives[operand];
        per_op[position] += tile_bytes(in_block(live.dims, full, block), live.element_bytes);
    }
    per_op.into_iter().max().unwrap_or(0)
}

/// The static extents (a rank-1 `[N]` as one row `[1, N]`) and element
/// bytes of a plain tensor `value` of rank 1 or 2; `None` for another
/// type.
fn plain_rank2(value: Value) -> Option<([i64; 2], i64)> {
    let tensor = TensorType::try_from(value.r#type()).ok()?;
    let dims = tensor.shape();
    let view = tensor.view();
    if view.layout.is_some() || view.has_strides || view.has_valid_shape {
        return None;
    }
    let bytes = i64::from(ScalarKind::of(tensor.element())?.bits().div_ceil(8));
    match dims[..] {
        [Some(n)] => Some(([1, n], bytes)),
        [Some(m), Some(n)] => Some(([m, n], bytes)),
        _ => None,
    }
}

/// `dims` (a row for a rank-1 tensor) in a tensor of `rank`: a type's
/// shape or a window's offsets.
fn of_rank<T: Copy>(dims: [T; 2], rank: usize) -> Vec<T> {
    dims[2 - rank.clamp(1, 2)..].to_vec()
}

/// The rank of a tensor `value` (1 or 2 for the planned kernel's).
fn rank_of(value: Value) -> usize {
    TensorType::try_from(value.r#type()).map_or(2, |t| t.shape().len())
}

/// A static tensor of another rank or view as the rows its tile has (the
/// product of the leading extents by the last), for the estimate.
fn as_rows(value: Value) -> Option<([i64; 2], i64)> {
    let tensor = pto_dialects::types::TensorLike::try_from(value.r#type()).ok()?;
    let dims: Vec<i64> = tensor.shape().into_iter().collect::<Option<_>>()?;
    let (&last, leading) = dims.split_last()?;
    let bytes = ScalarKind::of(tensor.element())?.bits().div_ceil(8);
    Some(([leading.iter().product(), last], i64::from(bytes)))
}

fn is_tensor(value: Value) -> bool {
    pto_dialects::types::TensorLike::try_from(value.r#type()).is_ok()
}

/// Divisors of `n` (n > 0), descending.
fn divisors(n: i64) -> Vec<i64> {
    let mut small = Vec::new();
    let mut large = Vec::new();
    let mut k = 1;
    while k * k <= n {
        if n % k == 0 {
            small.push(k);
            if k * k != n {
                large.push(n / k);
            }
        }
        k += 1;
    }
    large.into_iter().chain(small.into_iter().rev()).collect()
}

/// Whether `kernel` needs blocks and how it runs in them: `Ok(None)` when
/// its tiles fit the vector buffer (or it has loops or branches, whose
/// tiles memory planning judges), the blocking when they do not and the
/// kernel can run so, and why it cannot otherwise (at the op that stops
/// it).
pub(super) fn plan<'c, 'a>(
    kernel: OperationRef<'c, 'a>,
) -> Result<Option<Blocking>, Failure<'c, 'a>> {
    // A declaration, or a body without a return, has no tiles to judge.
    let Ok((_, terminator, ops)) = kernel_body(kernel) else {
        return Ok(None);
    };
    if ops.iter().any(|op| op.region_count() > 0) {
        return Ok(None);
    }
    // The tensor values whose tiles the conversion makes, and their lives.
    let mut lives: Vec<Live> = Vec::new();
    let mut index_of: HashMap<ValueKey, usize> = HashMap::new();
    let mut scratch = Vec::new();
    let mut unplain = None;
    for (position, op) in ops.iter().enumerate() {
        let computes = OpKind::of(op).is_some_and(|k| k.info().tile_form.is_some());
        if !computes {
            continue;
        }
        let values = op.operands().chain(op.results().map(Into::into));
        for value in values {
            if !is_tensor(value) {
                continue;
            }
            let (dims, element_bytes) = match plain_rank2(value) {
                Some(plain) => plain,
                None => {
                    unplain.get_or_insert((*op, value.r#type().to_string()));
                    match as_rows(value) {
                        Some(rows) => rows,
                        None => continue,
                    }
                }
            };
            let key = ValueKey::of(value);
            let is_result = melior::ir::operation::OperationResult::try_from(value)
                .is_ok_and(|r| r.owner() == *op);
            let index = *index_of.entry(key).or_insert_with(|| {
                lives.push(Live {
                    dims,
                    element_bytes,
                    start: if is_result { position } else { 0 },
                    end: position,
                });
                lives.len() - 1
            });
            lives[index].end = lives[index].end.max(position);
        }
        if OpKind::of(op).is_some_and(|k| k.family() == Family::TensorRowReduce)
            && let Some(&operand) = op
                .operand_opt(0)
                .and_then(|v| index_of.get(&ValueKey::of(v)))
        {
            scratch.push((position, operand));
        }
    }
    for value in terminator.operands() {
        if let Some(&index) = index_of.get(&ValueKey::of(value)) {
            lives[index].end = ops.len();
        }
    }
    let full = [0, 1].map(|d| lives.iter().map(|l| l.dims[d]).max().unwrap_or(1));
    let whole = peak(&lives, &scratch, full, full);
    let (capacity, _) =
        crate::target::a2a3::space_limits(MemorySpace::Vec, false).expect("the vector buffer");
    if whole <= capacity as i64 {
        return Ok(None);
    }
    let refuse = |op: OperationRef<'c, 'a>, why: String| {
        Err((
            op,
            format!(
                "the kernel's tiles need about {whole} B of the vector buffer's {capacity} B at once, and it does not run in blocks automatically: {why}"
            ),
        ))
    };
    if let Some((op, r#type)) = unplain {
        return refuse(
            op,
            format!("{type} is not a plain tensor of rank 1 or 2 and static shape"),
        );
    }
    // Which axes may be blocked: a reduction along an axis needs all of it.
    let mut blockable = [true, true];
    for op in &ops {
        let touches = op
            .operands()
            .chain(op.results().map(Into::into))
            .any(is_tensor);
        if !touches {
            continue;
        }
        let kind = OpKind::of(op);
        match kind.map(|k| k.family()) {
            Some(
                Family::TensorBinary
                | Family::TensorCast
                | Family::TensorScalar
                | Family::TensorUnary
                | Family::TensorRowExpand
                | Family::TensorColExpand,
            ) => {}
            Some(Family::TensorRowReduce) => blockable[1] = false,
            Some(Family::TensorColReduce) => blockable[0] = false,
            _ => {
                return refuse(
                    *op,
                    format!(
                        "'{}' is not computed block by block (only elementwise, scalar, unary and cast ops, broadcasts and reductions are)",
                        op_name(*op)
                    ),
                );
            }
        }
        for value in op.operands().chain(op.results().map(Into::into)) {
            if let Some((dims, _)) = plain_rank2(value)
                && (0..2).any(|d| dims[d] != full[d] && dims[d] != 1)
            {
                return refuse(
                    *op,
                    format!(
                        "{} is neither the kernel's {}x{} nor a broadcast of it",
                        value.r#type(),
                        full[0],
                        full[1]
                    ),
                );
            }
        }
    }
    for (index, value) in terminator.operands().enumerate() {
        let computed = melior::ir::operation::OperationResult::try_from(value)
            .is_ok_and(|r| OpKind::of(&r.owner()).is_some_and(|k| k.info().tile_form.is_some()));
        if !computed || plain_rank2(value).is_none() {
            return refuse(
                terminator,
                format!("result #{index} is not a tensor the kernel computes"),
            );
        }
    }
    if blockable == [false, false] {
        return refuse(
            kernel,
            "it reduces both rows and columns, so no axis can be blocked".to_string(),
        );
    }
    // Blocks whose column vectors and rows fill whole 32-byte blocks.
    let narrowest = lives.iter().map(|l| l.element_bytes).min().unwrap_or(4);
    let quantum = 32 / narrowest.clamp(1, 32);
    let candidates = |d: usize| -> Vec<i64> {
        if !blockable[d] {
            return vec![full[d]];
        }
        divisors(full[d])
            .into_iter()
            .filter(|&e| e == full[d] || e % quantum == 0)
            .collect()
    };
    let mut pairs: Vec<[i64; 2]> = candidates(0)
        .into_iter()
        .flat_map(|r| candidates(1).into_iter().map(move |c| [r, c]))
        .filter(|&b| b != full)
        .collect();
    // The largest block first; of equal ones, the one with whole rows.
    pairs.sort_by_key(|b| (std::cmp::Reverse(b[0] * b[1]), std::cmp::Reverse(b[1])));
    match pairs
        .into_iter()
        .find(|&b| peak(&lives, &scratch, full, b) <= BLOCK_PEAK_BYTES)
    {
        Some(block) => Ok(Some(Blocking {
            full,
            block,
            peak: whole,
        })),
        None => refuse(
            kernel,
            format!(
                "no block of its {}x{} extents (rows and columns multiples of {quantum}) keeps them within {BLOCK_PEAK_BYTES} B",
                full[0], full[1]
            ),
        ),
    }
}

/// The offsets of the block of a tensor of `dims`: the loop's induction
/// variable on a blocked axis it spans, zero otherwise.
fn offsets_of<'c, 'a>(
    dims: [i64; 2],
    blocking: &Blocking,
    ivs: [Value<'c, 'a>; 2],
    zero: Value<'c, 'a>,
) -> [Value<'c, 'a>; 2] {
    [0, 1].map(|d| {
        if blocking.block[d] < blocking.full[d] && dims[d] == blocking.full[d] {
            ivs[d]
        } else {
            zero
        }
    })
}

/// Puts the body of planned `kernel` in its loops over blocks: parameters
/// are read as windows of a block, results assembled into new out
/// parameters (their types returned, for the signature and the callers).
pub(super) fn wrap<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
    blocking: &Blocking,
) -> Result<Vec<Type<'c>>, Failure<'c, 'a>> {
    let (entry, terminator, ops) = kernel_body(kernel)?;
    let location = kernel.location();
    let fail = |e: String| (kernel, e);
    let first = entry.first_operation().expect("a return");
    let constant = |value| {
        result_of(entry.insert_operation_before(first, index_constant(context, value, location)))
    };
    let zero = constant(0);
    let out_types: Vec<Type> = terminator.operands().map(|v| v.r#type()).collect();
    let mut carried: Vec<Value> = out_types
        .iter()
        .map(|t| entry.add_argument(*t, location))
        .collect();
    // The loops, outermost first, each in the body of the one before.
    let index = Type::index(context);
    let mut ivs = [zero, zero];
    let mut loops: Vec<OperationRef> = Vec::new();
    let mut body = entry;
    for (iv, (&full, &block)) in ivs
        .iter_mut()
        .zip(blocking.full.iter().zip(&blocking.block))
    {
        if block == full {
            continue;
        }
        let bounds = [zero, constant(full), constant(block)];
        let mut arguments = vec![(index, location)];
        arguments.extend(out_types.iter().map(|t| (*t, location)));
        let for_op =
            crate::pl::scf_build::for_carrying(location, bounds, &carried, Block::new(&arguments))
                .map_err(fail)?;
        let placed = if loops.is_empty() {
            body.insert_operation_before(terminator, for_op)
        } else {
            body.append_operation(for_op)
        };
        body = placed
            .region_opt(0)
            .and_then(|r| r.first_block())
            .expect("the loop's body");
        *iv = body.argument(0).unwrap().into();
        carried = (0..out_types.len())
            .map(|k| body.argument(k + 1).unwrap().into())
            .collect();
        loops.push(placed);
    }
    // The body, in the innermost loop: a parameter's block is a window of
    // it, read where it is first used; results take their block's type.
    let mut windows: HashMap<ValueKey, Value> = HashMap::new();
    for op in ops {
        let moved = body.append_operation(detach(op));
        for position in 0..moved.operand_count() {
            let operand = moved.operand(position).unwrap();
            let Some((dims, _)) = plain_rank2(operand) else {
                continue;
            };
            if pto_dialects::ir::argument_owner(operand) != Some(entry) {
                continue;
            }
            let window = match windows.get(&ValueKey::of(operand)) {
                Some(window) => *window,
                None => {
                    let rank = rank_of(operand);
                    let shape = of_rank(in_block(dims, blocking.full, blocking.block), rank);
                    let element = TensorType::try_from(operand.r#type()).unwrap().element();
                    let shape: Vec<Option<i64>> = shape.into_iter().map(Some).collect();
                    let r#type = TensorType::new(context, &shape, element);
                    let offsets = of_rank(offsets_of(dims, blocking, ivs, zero), rank);
                    // At its user's location: what later passes say of
                    // the window points at the op the user wrote.
                    let slice =
                        OperationBuilder::new(OpKind::PlTensorSlice.name(), moved.location())
                            .add_operands(&[&[operand][..], &offsets].concat())
                            .add_results(&[r#type.into()])
                            .add_attributes(&[(
                                Identifier::new(context, "operandSegmentSizes"),
                                DenseI32ArrayAttribute::new(context, &[1, rank as i32, 0]).into(),
                            )])
                            .build()
                            .map_err(|e| fail(e.to_string()))?;
                    let window = result_of(body.insert_operation_before(moved, slice));
                    windows.insert(ValueKey::of(operand), window);
                    window
                }
            };
            pto_dialects::ir::set_operand(moved, position, window);
        }
        for result in moved.results() {
            let value: Value = result.into();
            if let Some((dims, _)) = plain_rank2(value) {
                let element = TensorType::try_from(value.r#type()).unwrap().element();
                let shape: Vec<Option<i64>> = of_rank(
                    in_block(dims, blocking.full, blocking.block),
                    rank_of(value),
                )
                .into_iter()
                .map(Some)
                .collect();
                value.set_type(TensorType::new(context, &shape, element).into());
            }
        }
    }
    // Each result's block assembled into its out parameter at its offsets.
    let mut yielded = Vec::new();
    for (k, out_type) in out_types.iter().enumerate() {
        let source = terminator.operand(k).unwrap();
        let (dims, rank) = static_extents(*out_type);
        let offsets = of_rank(offsets_of(dims, blocking, ivs, zero), rank);
        let at = pto_dialects::ir::defining_op(source).map_or(location, |op| op.location());
        yielded.push(assemble(body, None, at, source, carried[k], &offsets).map_err(fail)?);
    }
    // Each loop yields what the loop inside it computes.
    for placed in loops.iter().rev() {
        let body = placed.region_opt(0).and_then(|r| r.first_block()).unwrap();
        body.append_operation(melior::dialect::scf::r#yield(&yielded, location));
        yielded = (0..out_types.len())
            .map(|k| placed.result(k).unwrap().into())
            .collect();
    }
    let mut edit = pto_dialects::ir::edit(terminator);
    for (k, value) in yielded.into_iter().enumerate() {
        edit.set_operand(k, value);
    }
    Ok(out_types)
}

/// The extents (a row for rank 1) and rank of a static tensor type of
/// rank 1 or 2 (a planned kernel's results are).
fn static_extents(r#type: Type) -> ([i64; 2], usize) {
    let dims: Vec<i64> = TensorType::try_from(r#type)
        .map(|t| t.shape().into_iter().map(|d| d.unwrap_or(1)).collect())
        .unwrap_or_default();
    match dims[..] {
        [n] => ([1, n], 1),
        [m, n] => ([m, n], 2),
        _ => ([1, 1], 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisors_descend() {
        assert_eq!(divisors(12), vec![12, 6, 4, 3, 2, 1]);
        assert_eq!(divisors(1), vec![1]);
        assert_eq!(divisors(49), vec![49, 7, 1]);
    }

    #[test]
    fn tiles_take_whole_blocks() {
        assert_eq!(tile_bytes([256, 256], 4), 262_144);
        assert_eq!(tile_bytes([256, 1], 4), 1024);
        assert_eq!(tile_bytes([3, 1], 4), 32);
        assert_eq!(tile_bytes([2, 3], 2), 64);
    }

    #[test]
    fn a_row_is_rank_one() {
        assert_eq!(of_rank([1, 64], 1), vec![64]);
        assert_eq!(of_rank([8, 64], 2), vec![8, 64]);
    }

    #[test]
    fn broadcasts_keep_their_extent_in_a_block() {
        assert_eq!(in_block([256, 1], [256, 512], [32, 512]), [32, 1]);
        assert_eq!(in_block([1, 512], [256, 512], [32, 128]), [1, 128]);
    }

    #[test]
    fn the_peak_counts_live_tiles_and_scratch() {
        let lives = [
            Live {
                dims: [64, 64],
                element_bytes: 4,
                start: 0,
                end: 1,
            },
            Live {
                dims: [64, 64],
                element_bytes: 4,
                start: 0,
                end: 0,
            },
            Live {
                dims: [64, 1],
                element_bytes: 4,
                start: 1,
                end: 2,
            },
        ];
        // At op 0: both parameters; at op 1 the first, the reduction and
        // its scratch of the first's size.
        assert_eq!(peak(&lives, &[], [64, 64], [64, 64]), 32_768);
        assert_eq!(
            peak(&lives, &[(1, 0)], [64, 64], [64, 64]),
            16_384 * 2 + 256
        );
        assert_eq!(peak(&lives, &[], [64, 64], [16, 64]), 8192);
    }
}
