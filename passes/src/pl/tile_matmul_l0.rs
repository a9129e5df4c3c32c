//! `pl-tile-matmul-l0`: a matmul whose operands or product exceed L0
//! becomes a loop of L0-sized steps over operands resident in L1. What it
//! does and why: [`PASS`]`.description` (also
//! docs/passes/pl-tile-matmul-l0.md).

use melior::{
    Context,
    dialect::{arith, scf},
    ir::{
        Block, BlockLike, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike, OperationMutLike},
    },
};
use pto_dialects::op_table::OpKind;
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    enums::TensorLayout,
    ops::{operand_at, result_at},
    types::{MemorySpace, TensorLike, TileType},
};

use super::{
    linear::value_key,
    plan_memory::{space_limits, tile_bytes},
};
use crate::{
    options::OptionValues,
    pld::ir::{detach, splice_before},
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-tile-matmul-l0",
    class_name: "TileMatmulL0",
    summary: "Split matmuls too large for L0 into a K loop over L1-resident operands",
    description: r#"In InCore kernels, a `pl.tile.matmul` whose left operand exceeds L0A, right
operand L0B, or product L0C (a2a3: 64 KiB, 64 KiB, 128 KiB) is rewritten
(as PyPTO's AutoTileMatmulL0): both operands are loaded whole into L1
(`mat`), and for each block of the product that fits L0C (splitting N, then
M, in halves) a loop over K steps extracts an `[m, k]` block of the left
operand into `left` and a `[k, n]` block of the right one into `right` and
accumulates with `pl.tile.matmul_acc` (the first step initialises the
accumulator); the block is stored where the product was.

The step `k` is the largest halving of K whose blocks fit L0A and L0B and
stays a multiple of 32 bytes of elements, halved once more when the
halves fit half of L0A and L0B: then two steps' blocks fit at once, and
`pl-double-buffer` gives consecutive steps their own L0 buffers, so one
step's extracts (MTE1) run while the other multiplies (M). The rewrite applies when both
operands come straight from `pl.tile.load`s used by nothing else but
matmuls this pass splits too (of row-major tensors; such a shared load,
a batched matmul's broadcast operand, is made once in L1 and each step
extracts from it; a load may move one matrix of a higher-rank tensor, with a
`partition`), or through a `pl.tile.transpose_view` of one (a transposed
operand: the blocks are extracted from the `zn` view) and the product's only user is one `pl.tile.store` of 2-D
tiles, into a 2-D tensor or one matrix of a higher-rank one (a partition
of 1s and the product's extents, as a batched matmul's products are
stored; each block is stored there with its block's partition): the
shapes `pl-convert-tensor-to-tile` produces. Other oversized
matmuls, and dimensions that do not halve evenly into blocks that fit, are
errors.

Before:

```mlir
%a = pl.tile.load %x[%c0, %c0] : !pl.tensor<128x512xf16> -> !pl.tile<128x512xf16>
%b = pl.tile.load %y[%c0, %c0] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16>
%p = pl.tile.matmul %a, %b : !pl.tile<128x512xf16>, !pl.tile<512x256xf16> -> !pl.tile<128x256xf32, acc>
%o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<128x256xf32, acc>, !pl.tensor<128x256xf32>
```

After:

```mlir
%a = pl.tile.load %x[%c0, %c0] : !pl.tensor<128x512xf16> -> !pl.tile<128x512xf16, mat>
%b = pl.tile.load %y[%c0, %c0] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16, mat>
%init = pl.tile.create : !pl.tile<128x256xf32, acc>
%acc = scf.for %k = %c0_0 to %c512 step %c128 iter_args(%p = %init) -> (!pl.tile<128x256xf32, acc>) {
  %l = pl.tile.extract %a[%c0_0, %k] : !pl.tile<128x512xf16, mat> -> !pl.tile<128x128xf16, left>
  %r = pl.tile.extract %b[%k, %c0_0] : !pl.tile<512x256xf16, mat> -> !pl.tile<128x256xf16, right>
  %first = arith.cmpi eq, %k, %c0_0 : index
  %next = pl.tile.matmul_acc %p, %l, %r init %first : !pl.tile<128x256xf32, acc>, !pl.tile<128x128xf16, left>, !pl.tile<128x256xf16, right>
  scf.yield %next : !pl.tile<128x256xf32, acc>
}
%o = pl.tile.store %acc, %out[%c0, %c0] : !pl.tile<128x256xf32, acc>, !pl.tensor<128x256xf32>
```"#,
    example_options: "",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || {
        vec![
            melior::dialect::DialectHandle::arith(),
            melior::dialect::DialectHandle::scf(),
            pto_dialects::pl_handle(),
        ]
    },
    run: Run::Op(run),
};

fn run(function: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    tile_matmul_l0(function)
}

/// How one oversized matmul is split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MatmulBlocks {
    /// `[M, K] x [K, N]`.
    m: i64,
    k: i64,
    n: i64,
    /// The product block `[tm, tn]` and the K step.
    tm: i64,
    tn: i64,
    tk: i64,
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

fn kib(bytes: u64) -> String {
    format!("{} KiB", bytes.div_ceil(1024))
}

/// The blocks a `[m, k] x [k, n]` matmul of `element` needs, or `None`
/// when it fits L0 as it is.
fn choose_blocks(
    context: &Context,
    element: Type,
    accumulator: Type,
    (m, k, n): (i64, i64, i64),
) -> Result<Option<MatmulBlocks>, String> {
    let bytes = |shape: [i64; 2], element: Type, space| {
        tile_bytes(TileType::new(context, &shape, element, Some(space)))
    };
    let limit = |space| space_limits(space, false).map_or(0, |l| l.0);
    let fits = |tm, tk, tn| {
        bytes([tm, tk], element, MemorySpace::Left) <= limit(MemorySpace::Left)
            && bytes([tk, tn], element, MemorySpace::Right) <= limit(MemorySpace::Right)
    };
    let product_fits =
        |tm, tn| bytes([tm, tn], accumulator, MemorySpace::Acc) <= limit(MemorySpace::Acc);
    if product_fits(m, n) && fits(m, k, n) {
        return Ok(None);
    }
    let operands =
        bytes([m, k], element, MemorySpace::Mat) + bytes([k, n], element, MemorySpace::Mat);
    if operands > limit(MemorySpace::Mat) {
        return Err(format!(
            "the operands of this matmul ({}) exceed L1 ({}); split the kernel's matmul by hand",
            kib(operands),
            kib(limit(MemorySpace::Mat))
        ));
    }
    // Fractal granularity: 16 rows/columns, and K in 32-byte groups.
    let k_unit = (256 / i64::from(tile_bits(element)).max(1)).max(16);
    let (mut tm, mut tn) = (m, n);
    while !product_fits(tm, tn) {
        if tn >= tm && tn % 2 == 0 && (tn / 2) % 16 == 0 {
            tn /= 2;
        } else if tm % 2 == 0 && (tm / 2) % 16 == 0 {
            tm /= 2;
        } else {
            return Err(format!(
                "the {m}x{n} product does not halve into blocks that fit L0C ({})",
                kib(limit(MemorySpace::Acc))
            ));
        }
    }
    let halves = |tk: i64| tk % 2 == 0 && (tk / 2) % k_unit == 0;
    let mut tk = k;
    while !fits(tm, tk, tn) {
        if halves(tk) {
            tk /= 2;
        } else {
            return Err(format!(
                "K = {k} does not halve into steps k (multiples of {k_unit}) whose {tm}xk left and kx{tn} right blocks fit L0A/L0B ({})",
                kib(limit(MemorySpace::Left))
            ));
        }
    }
    // Two steps' blocks at once, for double buffering, when they halve.
    let fits_twice = |tk| {
        2 * bytes([tm, tk], element, MemorySpace::Left) <= limit(MemorySpace::Left)
            && 2 * bytes([tk, tn], element, MemorySpace::Right) <= limit(MemorySpace::Right)
    };
    if !fits_twice(tk) && halves(tk) && fits_twice(tk / 2) {
        tk /= 2;
    }
    Ok(Some(MatmulBlocks {
        m,
        k,
        n,
        tm,
        tn,
        tk,
    }))
}

fn tile_bits(element: Type) -> u32 {
    pto_dialects::dtype::ScalarKind::of(element).map_or(32, |d| d.bits().max(1))
}

/// Splits `function`'s oversized matmuls.
pub fn tile_matmul_l0(function: OperationRef) -> Result<(), PassFailed> {
    if !super::is_kernel(function) {
        return Ok(());
    }
    let context = pto_dialects::ir::context(&function);
    let mut matmuls = Vec::new();
    pto_dialects::ir::walk(function, melior::ir::operation::WalkOrder::PreOrder, |op| {
        if OpKind::of(&op) == Some(OpKind::PlTileMatmul) {
            matmuls.push(op);
        }
        melior::ir::operation::WalkResult::Advance
    });
    if matmuls.is_empty() {
        crate::registry::left_unchanged();
    }
    let mut failed = false;
    for matmul in matmuls {
        if let Err((op, message)) = split(context, matmul) {
            OpDiagnostic::new(format!("pl-tile-matmul-l0: {message}")).emit(op, Severity::Error);
            failed = true;
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// Whether `store` writes one matrix of a tensor of rank 3 or more: a
/// `partition` of 1s but for its last two extents.
fn one_matrix_partition(store: OperationRef) -> bool {
    let Some(partition) = store
        .attribute("partition")
        .ok()
        .and_then(|a| melior::ir::attribute::DenseI64ArrayAttribute::try_from(a).ok())
    else {
        return false;
    };
    let extents: Vec<i64> = (0..partition.len())
        .filter_map(|i| partition.element(i).ok())
        .collect();
    extents.len() >= 3
        && extents.len() + 2 == store.operand_count()
        && extents[..extents.len() - 2].iter().all(|&e| e == 1)
}

/// The `pl.tile.load` that makes `value` for `user`, if it does: directly,
/// for `user` alone or shared with other matmuls this pass splits (the
/// steps of each extract from the one tile in L1, as a batched matmul's
/// broadcast operand is loaded once), or read through a
/// `pl.tile.transpose_view` of it that `user` alone uses (a transposed
/// operand), which is returned too.
fn sole_load<'c, 'a>(
    context: &'c Context,
    value: Value<'c, 'a>,
    user: OperationRef<'c, 'a>,
) -> Option<(OperationRef<'c, 'a>, Option<OperationRef<'c, 'a>>)> {
    let owner = melior::ir::operation::OperationResult::try_from(value)
        .ok()?
        .owner();
    let only_user = |value: Value<'c, 'a>, user: OperationRef<'c, 'a>| {
        let users = uses(user, value);
        users.len() == 1 && users[0] == user
    };
    if OpKind::of(&owner) == Some(OpKind::PlTileTransposeView) {
        let (load, None) = sole_load(context, operand_at(owner, 0)?, owner)? else {
            return None;
        };
        return only_user(value, user).then_some((load, Some(owner)));
    }
    if OpKind::of(&owner) != Some(OpKind::PlTileLoad) || owner.attribute("clamp").is_ok() {
        return None;
    }
    // Shared: by matmuls split here (the ones before `user` are steps
    // extracting from it by now).
    let split_here = |other: &OperationRef<'c, 'a>| match OpKind::of(other) {
        Some(OpKind::PlTileMatmul) => matches!(blocks_of(context, *other), Ok(Some(_))),
        Some(OpKind::PlTileExtract) => {
            operand_at(*other, 0).is_some_and(|v| value_key(v) == value_key(value))
        }
        _ => false,
    };
    let users = uses(user, value);
    let shared = OpKind::of(&user) == Some(OpKind::PlTileMatmul) && users.iter().all(split_here);
    (users.contains(&user) && (users.len() == 1 || shared)).then_some((owner, None))
}

/// The blocks `matmul` is split into, `None` when it fits L0 (or is not
/// a product of 2-D tiles, which the pass leaves alone).
fn blocks_of(context: &Context, matmul: OperationRef) -> Result<Option<MatmulBlocks>, String> {
    let tiles = [
        operand_at(matmul, 0),
        operand_at(matmul, 1),
        result_at(matmul, 0),
    ]
    .map(|v| v.and_then(|v| TileType::try_from(v.r#type()).ok()));
    let [Some(lhs), Some(rhs), Some(product)] = tiles else {
        return Ok(None);
    };
    let (ls, rs) = (lhs.shape(), rhs.shape());
    if ls.len() != 2 || rs.len() != 2 {
        return Ok(None);
    }
    let element = melior::ir::ShapedTypeLike::element(&lhs);
    let accumulator = melior::ir::ShapedTypeLike::element(&product);
    choose_blocks(context, element, accumulator, (ls[0], ls[1], rs[1]))
}

/// The ops of `scope`'s parent function that use `value`.
fn uses<'c, 'a>(scope: OperationRef<'c, 'a>, value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let function = pto_dialects::ops::enclosing_function(scope).unwrap_or(scope);
    let mut users = Vec::new();
    pto_dialects::ir::walk(function, melior::ir::operation::WalkOrder::PreOrder, |op| {
        if op.operands().any(|o| value_key(o) == value_key(value)) {
            users.push(op);
        }
        melior::ir::operation::WalkResult::Advance
    });
    users
}

fn split<'c, 'a>(
    context: &'c Context,
    matmul: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let fail = |message: String| Err((matmul, message));
    let (Some(lhs), Some(rhs), Some(product)) = (
        operand_at(matmul, 0),
        operand_at(matmul, 1),
        result_at(matmul, 0),
    ) else {
        return fail("a matmul needs two operands and a result".into());
    };
    let tiles = [lhs, rhs, product].map(|v| TileType::try_from(v.r#type()).ok());
    let [Some(lhs_tile), Some(rhs_tile), Some(product_tile)] = tiles else {
        return fail("matmul operands must be tiles".into());
    };
    let (ls, rs) = (lhs_tile.shape(), rhs_tile.shape());
    // Batch forms are a different op; a rank-3 matmul is flattened first.
    let Some(blocks) = blocks_of(context, matmul).map_err(|message| (matmul, message))? else {
        return Ok(());
    };
    // The shape pl-convert-tensor-to-tile produces: whole operands loaded
    // for this matmul (or for products split alike), the product stored
    // once.
    let whole = |tile: TileType| {
        tile.effective_view()
            .valid_shape
            .iter()
            .zip(tile.shape())
            .all(|(v, s)| *v == Some(s))
    };
    let (Some((lhs_load, lhs_view)), Some((rhs_load, rhs_view))) = (
        sole_load(context, lhs, matmul),
        sole_load(context, rhs, matmul),
    ) else {
        return fail(format!(
            "this matmul exceeds L0 ({}x{} by {}x{}) and its operands are not loads used by it alone (or by matmuls split alike); it cannot be split into L0 steps",
            ls[0], ls[1], rs[0], rs[1]
        ));
    };
    if !whole(lhs_tile) || !whole(rhs_tile) || !whole(product_tile) {
        return fail(
            "this matmul exceeds L0 and has partly valid tiles; it cannot be split into L0 steps"
                .into(),
        );
    }
    for load in [lhs_load, rhs_load] {
        let source = operand_at(load, 0).and_then(|v| TensorLike::try_from(v.r#type()).ok());
        if source.is_none_or(|s| s.layout() == Some(TensorLayout::Dn)) {
            return fail("an operand of this oversized matmul is loaded from a dn tensor; it cannot be split into L0 steps".into());
        }
    }
    let stores = uses(matmul, product);
    let [store] = stores[..] else {
        return fail(format!(
            "the product of this oversized matmul must have one user, a pl.tile.store; it has {}",
            stores.len()
        ));
    };
    if OpKind::of(&store) != Some(OpKind::PlTileStore)
        || operand_at(store, 0).is_none_or(|v| value_key(v) != value_key(product))
        || store.block() != matmul.block()
        || !(store.operand_count() == 4 || one_matrix_partition(store))
    {
        return fail("the product of this oversized matmul must be stored whole by a pl.tile.store in the same block, into a 2-D tensor or one matrix of a higher-rank one".into());
    }
    // Operands resident in L1 (a transposed view of one read as `zn`).
    for (load, view) in [(lhs_load, lhs_view), (rhs_load, rhs_view)] {
        let loaded = result_at(load, 0).expect("a load makes a tile");
        let tile = TileType::try_from(loaded.r#type()).expect("checked above");
        let in_l1 = TileType::new(
            context,
            &tile.shape(),
            melior::ir::ShapedTypeLike::element(&tile),
            Some(MemorySpace::Mat),
        );
        loaded.set_type(in_l1.into());
        if let Some(viewed) = view.and_then(|view| result_at(view, 0)) {
            let transposed = in_l1.transposed_view(context).expect("a 2-D tile");
            viewed.set_type(transposed.into());
        }
    }
    let scratch = Block::new(&[]);
    build_nest(context, &scratch, blocks, (lhs, rhs), store, product_tile);
    splice_before(&scratch, store);
    // The nest's last op, now before the store, makes the stored tensor.
    let result: Value = pto_dialects::ir::previous_in_block(store)
        .and_then(|nest| result_at(nest, 0))
        .expect("the nest ends in the op that makes the stored tensor");
    let stored = result_at(store, 0).expect("stores return the tensor");
    for user in uses(store, stored) {
        let positions: Vec<usize> = (0..user.operand_count())
            .filter(|&i| operand_at(user, i).is_some_and(|v| value_key(v) == value_key(stored)))
            .collect();
        let mut user = pto_dialects::ir::edit(user);
        for index in positions {
            user.set_operand(index, result);
        }
    }
    drop(detach(store));
    drop(detach(matmul));
    Ok(())
}

/// The first result of the last op of `block`: what a body built by
/// `for_loop`'s callers computes (their last op makes the carried value).
fn last_result<'c, 'b>(block: &'b Block<'c>) -> Value<'c, 'b> {
    let mut last = block.first_operation().expect("the body is not empty");
    while let Some(next) = last.next_in_block() {
        last = next;
    }
    last.result(0)
        .expect("the last op makes the carried value")
        .into()
}

/// Appends to `outer` an `scf.for` from `lower` (zero) to `upper` by `step` carrying
/// `init`; `body` fills an iteration from its induction variable and
/// carried value, its last op making what the iteration yields. Returns the
/// loop's result.
fn for_loop<'c, 'b>(
    context: &'c Context,
    location: Location<'c>,
    outer: &'b Block<'c>,
    lower: Value<'c, '_>,
    (upper, step): (i64, i64),
    init: Value<'c, '_>,
    body: impl FnOnce(&Block<'c>, Value<'c, '_>, Value<'c, '_>),
) -> Value<'c, 'b> {
    let index = Type::index(context);
    let constant = |value: i64| -> Value<'c, 'b> {
        outer
            .append_operation(arith::constant(
                context,
                IntegerAttribute::new(index, value).into(),
                location,
            ))
            .result(0)
            .unwrap()
            .into()
    };
    let (upper, step) = (constant(upper), constant(step));
    let r#type = init.r#type();
    let block = Block::new(&[(index, location), (r#type, location)]);
    body(
        &block,
        block.argument(0).unwrap().into(),
        block.argument(1).unwrap().into(),
    );
    let yielded = last_result(&block);
    block.append_operation(scf::r#yield(&[yielded], location));
    let region = Region::new();
    region.append_block(block);
    outer
        .append_operation(
            OperationBuilder::new("scf.for", location)
                .add_operands(&[lower, upper, step, init])
                .add_results(&[r#type])
                .add_regions([region])
                .build()
                .expect("scf.for builds"),
        )
        .result(0)
        .unwrap()
        .into()
}

/// Appends to `outer` the loops that compute and store every product
/// block; the last op appended makes the destination with all blocks
/// stored.
fn build_nest<'c, 'b>(
    context: &'c Context,
    outer: &'b Block<'c>,
    blocks: MatmulBlocks,
    (lhs, rhs): (Value<'c, '_>, Value<'c, '_>),
    store: OperationRef<'c, '_>,
    product: TileType<'c>,
) {
    let location = store.location();
    let index = Type::index(context);
    let element = |tile: Value<'c, '_>| -> Type<'c> {
        melior::ir::ShapedTypeLike::element(&TileType::try_from(tile.r#type()).unwrap())
    };
    let acc_type: Type = TileType::new(
        context,
        &[blocks.tm, blocks.tn],
        melior::ir::ShapedTypeLike::element(&product),
        Some(MemorySpace::Acc),
    )
    .into();
    let left_type: Type = TileType::new(
        context,
        &[blocks.tm, blocks.tk],
        element(lhs),
        Some(MemorySpace::Left),
    )
    .into();
    let right_type: Type = TileType::new(
        context,
        &[blocks.tk, blocks.tn],
        element(rhs),
        Some(MemorySpace::Right),
    )
    .into();
    let destination = operand_at(store, 1).unwrap();
    let destination_type = destination.r#type();
    // A store into one matrix of a higher-rank tensor keeps its leading
    // offsets and moves blocks of that matrix (a partition of 1s, then the
    // block's extents).
    let rank = store.operand_count() - 2;
    let leading: Vec<Value> = (2..rank).filter_map(|i| operand_at(store, i)).collect();
    let (row0, col0) = (
        operand_at(store, rank).unwrap(),
        operand_at(store, rank + 1).unwrap(),
    );
    let block_partition = (rank > 2).then(|| {
        let mut window = vec![1; rank - 2];
        window.extend([blocks.tm, blocks.tn]);
        (
            melior::ir::Identifier::new(context, "partition"),
            melior::ir::Attribute::from(melior::ir::attribute::DenseI64ArrayAttribute::new(
                context, &window,
            )),
        )
    });
    let atomic = store.attribute("atomic_add").ok();
    let zero: Value = outer
        .append_operation(arith::constant(
            context,
            IntegerAttribute::new(index, 0).into(),
            location,
        ))
        .result(0)
        .unwrap()
        .into();

    let split_rows = blocks.tm < blocks.m;
    let split_cols = blocks.tn < blocks.n;
    // One product block at (m0, n0): accumulate over K, then store; the
    // store (the block's last op) makes the destination as stored.
    let product_block = |block: &Block<'c>,
                         m0: Value<'c, '_>,
                         n0: Value<'c, '_>,
                         target: Value<'c, '_>| {
        let init: Value = block
            .append_operation(
                OperationBuilder::new(OpKind::PlTileCreate.name(), location)
                    .add_results(&[acc_type])
                    .build()
                    .expect("pl.tile.create builds"),
            )
            .result(0)
            .unwrap()
            .into();
        let accumulated = for_loop(
            context,
            location,
            block,
            zero,
            (blocks.k, blocks.tk),
            init,
            |body, k, partial| {
                let extract = |source: Value<'c, '_>,
                               row: Value<'c, '_>,
                               col: Value<'c, '_>,
                               r#type: Type<'c>| {
                    OperationBuilder::new(OpKind::PlTileExtract.name(), location)
                        .add_operands(&[source, row, col])
                        .add_results(&[r#type])
                        .build()
                        .expect("pl.tile.extract builds")
                };
                let left: Value = body
                    .append_operation(extract(lhs, m0, k, left_type))
                    .result(0)
                    .unwrap()
                    .into();
                let right: Value = body
                    .append_operation(extract(rhs, k, n0, right_type))
                    .result(0)
                    .unwrap()
                    .into();
                // The first step overwrites the accumulator, the others add to it.
                let first: Value = body
                    .append_operation(arith::cmpi(
                        context,
                        arith::CmpiPredicate::Eq,
                        k,
                        zero,
                        location,
                    ))
                    .result(0)
                    .unwrap()
                    .into();
                let next = OperationBuilder::new(OpKind::PlTileMatmulAcc.name(), location)
                    .add_operands(&[partial, left, right, first])
                    .add_results(&[acc_type])
                    .build()
                    .expect("pl.tile.matmul_acc builds");
                body.append_operation(next);
            },
        );
        let row: Value = if split_rows {
            block
                .append_operation(arith::addi(row0, m0, location))
                .result(0)
                .unwrap()
                .into()
        } else {
            row0
        };
        let col: Value = if split_cols {
            block
                .append_operation(arith::addi(col0, n0, location))
                .result(0)
                .unwrap()
                .into()
        } else {
            col0
        };
        let mut builder = OperationBuilder::new(OpKind::PlTileStore.name(), location)
            .add_operands(&[&[accumulated, target][..], &leading, &[row, col]].concat())
            .add_results(&[destination_type]);
        if let Some(partition) = block_partition {
            builder = builder.add_attributes(&[partition]);
        }
        if let Some(atomic) = atomic {
            builder = builder
                .add_attributes(&[(melior::ir::Identifier::new(context, "atomic_add"), atomic)]);
        }
        block.append_operation(builder.build().expect("pl.tile.store builds"));
    };
    match (split_rows, split_cols) {
        (false, false) => product_block(outer, zero, zero, destination),
        (true, false) => {
            for_loop(
                context,
                location,
                outer,
                zero,
                (blocks.m, blocks.tm),
                destination,
                |body, m0, target| product_block(body, m0, zero, target),
            );
        }
        (false, true) => {
            for_loop(
                context,
                location,
                outer,
                zero,
                (blocks.n, blocks.tn),
                destination,
                |body, n0, target| product_block(body, zero, n0, target),
            );
        }
        (true, true) => {
            for_loop(
                context,
                location,
                outer,
                zero,
                (blocks.m, blocks.tm),
                destination,
                |body, m0, target| {
                    for_loop(
                        context,
                        location,
                        body,
                        zero,
                        (blocks.n, blocks.tn),
                        target,
                        |body, n0, target| product_block(body, m0, n0, target),
                    );
                },
            );
        }
    }
}
