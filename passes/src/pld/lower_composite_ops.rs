//! `pld-lower-composite-ops` (pld.md §3.2): expand the InCore composite
//! collectives into notify/wait, puts and gets. What it does and why:
//! [`PASS`]`.description` (also docs/passes/pld-lower-composite-ops.md).
//!
//! Lowered today: `barrier`, `broadcast`, `allgather`, `all_to_all`,
//! `all_to_all_v`, `reduce_scatter`, mesh `allreduce` (fully valid, static
//! shape). Not yet: ring allreduce and the partial-valid mesh path; ring is
//! left in place unchanged.

use melior::{
    Context,
    dialect::{arith, scf},
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Region, RegionLike, Type, Value, ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike, OperationRef, WalkOrder, WalkResult},
        r#type::{IntegerType, ShapedTypeLike},
    },
    IrRewriter,
};
use mlir_sys::MlirOperation;
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    dtype::Dtype,
    enums::PadValue,
    types::{CommCtxType, DistributedTensorType, MemorySpace, TensorLike, TileType, TileView},
};

use super::ir::{is_host, op_name, splice_before};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pld-lower-composite-ops",
    class_name: "LowerCompositeOps",
    summary: "Expand InCore collectives into notify/wait, puts and gets",
    description: r#"Outside host orchestrators, collectives expand into primitives over the
self-clearing credit barrier: each barrier of a call is generation g = 1, 2,
...; a rank adds 1 to its cell `[me, 0]` on every peer, then waits until every
peer's cell reached g (`ge`: a fast peer may already have added the next
call's credit); after the call's last barrier an epilogue subtracts the N
credits from every peer's cell on itself, so every cell is 0 again and the
next call starts at g = 1. Collectives may therefore sit in loops and
branches, and several may share one `[NR, 1]` signal.

- `barrier(signal)`: one barrier, the epilogue with N = 1;
- `broadcast(target, signal, root)`: a barrier, then every rank pulls the
  root's whole target through a vector stage (`pld.tile.get`), the epilogue;
- `allgather(input, target, signal)`: a push: one `pld.tile.put` of the
  `[1, SIZE]` input into row `me` of every rank's target (itself included),
  a barrier, the epilogue;
- `all_to_all(input, target, signal)`: as allgather, but rank `dest`
  receives row `dest` of the input;
- `reduce_scatter(target, signal) sum`: a ready barrier (g = 1), row `me`
  loaded and summed with every peer's row `me` (`pld.tile.remote_load`), a
  read-complete barrier (g = 2) so no rank overwrites its row before slower
  peers read it, the store, the epilogue with N = 2;
- `all_to_all_v(input, target, signal, send_counts, recv_counts)`: with
  `MAX_RECV = target rows / signal rows`, for every dest (itself included)
  `rows = min(send_counts[dest], MAX_RECV)` is set into dest's
  `recv_counts[me, 0]` (`set` notify) and the whole static
  `[MAX_RECV, SIZE]` block `dest` of the input is put into block `me` of
  dest's target; then a barrier and the epilogue. Counts are not clamped
  at 0.

- `allreduce(target, signal) <op> mesh cores 1` (f32/f16, static shape):
  the target is viewed as `[1, N]` (`pl.tensor.view`); a ready barrier
  (g = 1); then per 16 KiB chunk (`chunk_cols` = 4096 f32 / 8192 f16, or
  `round_up(N, 32 B)` when N is smaller) the own chunk is loaded and
  zero-padded, every peer's chunk remote-loaded (f16: rounded up to 16
  elements with `tail_padding`, then narrowed back), combined with
  `pl.tile.add`/`maximum`/`minimum`/`mul`; chunk k barriers at generation
  k + 2 *before* its store (WAR: a fast rank must not overwrite bytes a
  slower peer has not read); the epilogue refunds `1 + ceil(N/chunk_cols)`.

Ring allreduce and the partial-valid mesh path are not lowered yet; ring
stays as it is with a warning, a dynamic-shape mesh target is an error.

Before:

```mlir
%s2 = pld.tensor.barrier %sig : !pld.dtensor<?x1xi32>
```

After (schematically):

```mlir
%ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<?x1xi32>
%n = pld.system.nranks %ctx : i32
%me = pld.system.rank %ctx : i32
scf.for %peer = %c0 to %n_idx step %c1 {      // notify every peer: +1 at [me, 0]
  scf.if (peer != me) { pld.system.notify %sig[%me_idx, %c0] to %peer, %c1_i32 atomic_add }
}
scf.for %src = %c0 to %n_idx step %c1 {       // wait for generation 1
  scf.if (src != me) { pld.system.wait %sig[%src, %c0], %c1_i32 ge }
}
scf.for %src = %c0 to %n_idx step %c1 {       // epilogue: -1 on our own copy
  scf.if (src != me) { pld.system.notify %sig[%src, %c0] to %me, %cm1_i32 atomic_add }
}
```"#,
    example_options: "",
    anchor: None,
    options: &[],
    dependent_dialects: || vec![melior::dialect::DialectHandle::arith(), melior::dialect::DialectHandle::scf(), pto_dialects::pl_handle(), pto_dialects::pld_handle()],
    run,
};

/// Ring allreduce is not lowered yet.
fn is_ring(op: OperationRef) -> bool {
    op.attribute("mode").ok().and_then(|a| IntegerAttribute::try_from(a).ok()).is_some_and(|a| a.value() == 1)
}

/// Builds ops into a block: the IR the expansion appends.
struct Emitter<'c> {
    context: &'c Context,
    location: Location<'c>,
}

/// The values the common prologue provides (`EmitCommSetup`).
struct Setup<'c, 'a> {
    nranks_index: Value<'c, 'a>,
    my_rank: Value<'c, 'a>,
    my_rank_index: Value<'c, 'a>,
    zero: Value<'c, 'a>,
    one: Value<'c, 'a>,
}

impl<'c> Emitter<'c> {
    fn index_constant<'a>(&self, block: &'a Block<'c>, value: i64) -> Value<'c, 'a> {
        let op = block.append_operation(arith::constant(
            self.context,
            IntegerAttribute::new(Type::index(self.context), value).into(),
            self.location,
        ));
        op.result(0).unwrap().into()
    }

    fn i32_constant<'a>(&self, block: &'a Block<'c>, value: i64) -> Value<'c, 'a> {
        let op = block.append_operation(arith::constant(
            self.context,
            IntegerAttribute::new(IntegerType::new(self.context, 32).into(), value).into(),
            self.location,
        ));
        op.result(0).unwrap().into()
    }

    fn op<'a>(&self, block: &'a Block<'c>, name: &str, operands: &[Value<'c, '_>], results: &[Type<'c>], attributes: &[(&str, i64)]) -> OperationRef<'c, 'a> {
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let attributes: Vec<(Identifier, melior::ir::Attribute)> = attributes
            .iter()
            .map(|(name, value)| (Identifier::new(self.context, name), IntegerAttribute::new(i32_type, *value).into()))
            .collect();
        block.append_operation(
            OperationBuilder::new(name, self.location)
                .add_operands(operands)
                .add_results(results)
                .add_attributes(&attributes)
                .build()
                .expect("pld ops build"),
        )
    }

    /// An op with `AttrSizedOperandSegments` (`segments`: its operand
    /// groups' sizes in ODS order).
    fn segmented_op<'a>(
        &self,
        block: &'a Block<'c>,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        segments: &[i32],
        attributes: &[(Identifier<'c>, Attribute<'c>)],
    ) -> OperationRef<'c, 'a> {
        let op = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(results)
            .add_attributes(attributes)
            .build()
            .expect("pld/pl ops build");
        block.append_operation(pto_dialects::ops::with_operand_segments(self.context, op, segments))
    }

    /// `EmitCommSetup(target)`.
    fn setup<'a>(&self, block: &'a Block<'c>, target: Value<'c, '_>) -> Setup<'c, 'a> {
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let index = Type::index(self.context);
        let ctx = self.op(block, "pld.system.get_comm_ctx", &[target], &[CommCtxType::new(self.context).into()], &[]);
        let ctx: Value = ctx.result(0).unwrap().into();
        let nranks: Value = self.op(block, "pld.system.nranks", &[ctx], &[i32_type], &[]).result(0).unwrap().into();
        let nranks_index: Value =
            block.append_operation(arith::index_cast(nranks, index, self.location)).result(0).unwrap().into();
        let my_rank: Value = self.op(block, "pld.system.rank", &[ctx], &[i32_type], &[]).result(0).unwrap().into();
        let my_rank_index: Value =
            block.append_operation(arith::index_cast(my_rank, index, self.location)).result(0).unwrap().into();
        Setup {
            nranks_index,
            my_rank,
            my_rank_index,
            zero: self.index_constant(block, 0),
            one: self.index_constant(block, 1),
        }
    }

    /// `for p in 0..nranks: if p != me: body(p_index, p_i32)`.
    fn for_each_peer<'a>(
        &self,
        block: &'a Block<'c>,
        setup: &Setup<'c, '_>,
        body: impl FnOnce(&Block<'c>, Value<'c, '_>, Value<'c, '_>),
    ) {
        self.for_every_rank(block, setup, |loop_body, peer_index, peer| {
            let not_me: Value = loop_body
                .append_operation(arith::cmpi(self.context, arith::CmpiPredicate::Ne, peer, setup.my_rank, self.location))
                .result(0)
                .unwrap()
                .into();
            let then_block = Block::new(&[]);
            body(&then_block, peer_index, peer);
            then_block.append_operation(scf::r#yield(&[], self.location));
            let then_region = Region::new();
            then_region.append_block(then_block);
            loop_body.append_operation(scf::r#if(not_me, &[], then_region, Region::new(), self.location));
        });
    }

    /// `for r in 0..nranks: body(r_index, r_i32)`, the rank itself included.
    fn for_every_rank<'a>(
        &self,
        block: &'a Block<'c>,
        setup: &Setup<'c, '_>,
        body: impl FnOnce(&Block<'c>, Value<'c, '_>, Value<'c, '_>),
    ) {
        let index = Type::index(self.context);
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let loop_body = Block::new(&[(index, self.location)]);
        let rank_index: Value = loop_body.argument(0).unwrap().into();
        let rank: Value = loop_body.append_operation(arith::index_cast(rank_index, i32_type, self.location)).result(0).unwrap().into();
        body(&loop_body, rank_index, rank);
        loop_body.append_operation(scf::r#yield(&[], self.location));
        let region = Region::new();
        region.append_block(loop_body);
        block.append_operation(scf::r#for(setup.zero, setup.nranks_index, setup.one, region, self.location));
    }

    /// `pld.tile.put dst to peer from src stage stage region [..] [..] [..] none`
    /// (`transfer` = dst, peer, src, stage).
    fn put_region(
        &self,
        block: &Block<'c>,
        transfer: [Value<'c, '_>; 4],
        dst_offsets: [Value<'c, '_>; 2],
        src_offsets: [Value<'c, '_>; 2],
        shape: [Value<'c, '_>; 2],
    ) {
        let operands: Vec<Value> = [&transfer[..], &dst_offsets, &src_offsets, &shape].concat();
        let atomic_none = IntegerAttribute::new(IntegerType::new(self.context, 32).into(), 0).into();
        self.segmented_op(
            block,
            "pld.tile.put",
            &operands,
            &[],
            &[1, 1, 1, 1, 0, 2, 2, 2],
            &[(Identifier::new(self.context, "atomic"), atomic_none)],
        );
    }

    /// `EmitBarrier(signal)` with generation `generation`.
    fn barrier(&self, block: &Block<'c>, setup: &Setup<'c, '_>, signal: Value<'c, '_>, generation: i64) {
        let credit = self.i32_constant(block, 1);
        let expected = self.i32_constant(block, generation);
        self.barrier_rounds(block, setup, signal, credit, expected);
    }

    /// A barrier whose generation is a runtime `i32` (mesh allreduce chunks).
    fn barrier_until(&self, block: &Block<'c>, setup: &Setup<'c, '_>, signal: Value<'c, '_>, expected: Value<'c, '_>) {
        let credit = self.i32_constant(block, 1);
        self.barrier_rounds(block, setup, signal, credit, expected);
    }

    /// Notify every peer with `credit`, then wait for `expected` from each.
    fn barrier_rounds(
        &self,
        block: &Block<'c>,
        setup: &Setup<'c, '_>,
        signal: Value<'c, '_>,
        credit: Value<'c, '_>,
        expected: Value<'c, '_>,
    ) {
        self.for_each_peer(block, setup, |body, _, peer| {
            self.op(body, "pld.system.notify", &[signal, setup.my_rank_index, setup.zero, peer, credit], &[], &[("op", 0)]);
        });
        self.for_each_peer(block, setup, |body, src, _| {
            self.op(body, "pld.system.wait", &[signal, src, setup.zero, expected], &[], &[("cmp", 1)]);
        });
    }

    /// `EmitEpilogueReset(signal, N)`.
    fn epilogue(&self, block: &Block<'c>, setup: &Setup<'c, '_>, signal: Value<'c, '_>, barriers: i64) {
        let refund = self.i32_constant(block, -barriers);
        self.for_each_peer(block, setup, |body, src, _| {
            self.op(body, "pld.system.notify", &[signal, src, setup.zero, setup.my_rank, refund], &[], &[("op", 0)]);
        });
    }
    /// allgather / all_to_all: every rank puts one `[1, SIZE]` row into row
    /// `me` of every rank's target (itself included), then one barrier.
    /// `None` when the row size is dynamic.
    fn push_rows(
        &self,
        block: &Block<'c>,
        input: Value<'c, '_>,
        target: Value<'c, '_>,
        signal: Value<'c, '_>,
        source_row: SourceRow,
    ) -> Option<()> {
        let target_type = DistributedTensorType::try_from(target.r#type()).expect("verified");
        let size = target_type.shape()[1]?;
        let setup = self.setup(block, target);
        let stage = self.stage(block, 1, size, target_type.element());
        let size_value = self.index_constant(block, size);
        self.for_every_rank(block, &setup, |body, dest_index, dest| {
            let source_offset = match source_row {
                SourceRow::First => setup.zero,
                SourceRow::Destination => dest_index,
            };
            self.put_region(
                body,
                [target, dest, input, stage],
                [setup.my_rank_index, setup.zero],
                [source_offset, setup.zero],
                [setup.one, size_value],
            );
        });
        self.barrier(block, &setup, signal, 1);
        self.epilogue(block, &setup, signal, 1);
        Some(())
    }

    /// reduce_scatter (Sum): ready barrier, sum row `me` over every peer's
    /// copy, read-complete barrier (a fast rank must not overwrite its row
    /// before slower peers read it), store, refund 2. Returns the stored
    /// target; `None` when the row size is dynamic.
    fn reduce_scatter<'a>(&self, block: &'a Block<'c>, target: Value<'c, 'a>, signal: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
        let target_type = DistributedTensorType::try_from(target.r#type()).expect("verified");
        let size = target_type.shape()[1]?;
        let row_type: Type = TileType::new(self.context, &[1, size], target_type.element(), Some(MemorySpace::Vec)).into();
        let setup = self.setup(block, target);
        self.barrier(block, &setup, signal, 1);
        let own_row: Value = self
            .segmented_op(block, "pl.tile.load", &[target, setup.my_rank_index, setup.zero], &[row_type], &[1, 2, 0], &[])
            .result(0)
            .unwrap()
            .into();
        let reduced = self.fold_over_peers(block, &setup, own_row, row_type, |then_block, peer, accumulator| {
            let peer_row: Value = self
                .segmented_op(
                    then_block,
                    "pld.tile.remote_load",
                    &[target, setup.my_rank_index, setup.zero, peer],
                    &[row_type],
                    &[1, 2, 1, 0],
                    &[],
                )
                .result(0)
                .unwrap()
                .into();
            self.op(then_block, "pl.tile.add", &[accumulator, peer_row], &[row_type], &[]).result(0).unwrap().into()
        });
        self.barrier(block, &setup, signal, 2);
        let stored: Value = block
            .append_operation(
                OperationBuilder::new("pl.tile.store", self.location)
                    .add_operands(&[reduced, target, setup.my_rank_index, setup.zero])
                    .add_results(&[target.r#type()])
                    .build()
                    .expect("pl.tile.store builds"),
            )
            .result(0)
            .unwrap()
            .into();
        self.epilogue(block, &setup, signal, 2);
        Some(stored)
    }

    /// all_to_all_v: each rank sends the whole `[MAX_RECV, SIZE]` block
    /// `dest` of its input to block `me` of rank dest's target (PTOAS needs
    /// static transfer shapes), and tells dest how many rows are real by
    /// setting `recv_counts[me, 0]` there to `min(send_counts[dest], MAX_RECV)`.
    /// `None` unless the target and signal shapes are static.
    fn all_to_all_v(&self, block: &Block<'c>, operands: &[Value<'c, '_>]) -> Option<()> {
        let (input, target, signal, send_counts, recv_counts) = (operands[0], operands[1], operands[2], operands[3], operands[4]);
        let target_type = DistributedTensorType::try_from(target.r#type()).expect("verified");
        let (target_rows, size) = (target_type.shape()[0]?, target_type.shape()[1]?);
        let signal_rows = DistributedTensorType::try_from(signal.r#type()).expect("verified").shape()[0]?;
        let max_recv = target_rows / signal_rows;
        let send_counts_type = TensorLike::try_from(send_counts.r#type()).expect("verified");
        let index = Type::index(self.context);
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let setup = self.setup(block, target);
        let stage = self.stage(block, 1, size, target_type.element());
        let max_recv_value = self.index_constant(block, max_recv);
        let size_value = self.index_constant(block, size);
        let my_block_row: Value =
            block.append_operation(arith::muli(setup.my_rank_index, max_recv_value, self.location)).result(0).unwrap().into();
        self.for_every_rank(block, &setup, |loop_body, dest_index, dest| {
            let count_indices: Vec<Value> =
                if send_counts_type.rank() == 1 { vec![dest_index] } else { vec![dest_index, setup.zero] };
            let count: Value = self
                .op(loop_body, "pl.tensor.read", &[&[send_counts][..], &count_indices].concat(), &[send_counts_type.element()], &[])
                .result(0)
                .unwrap()
                .into();
            let count_index: Value =
                loop_body.append_operation(arith::index_cast(count, index, self.location)).result(0).unwrap().into();
            let rows: Value =
                loop_body.append_operation(arith::minsi(count_index, max_recv_value, self.location)).result(0).unwrap().into();
            let rows_i32: Value =
                loop_body.append_operation(arith::index_cast(rows, i32_type, self.location)).result(0).unwrap().into();
            self.op(loop_body, "pld.system.notify", &[recv_counts, setup.my_rank_index, setup.zero, dest, rows_i32], &[], &[("op", 1)]);
            let dest_block_row: Value =
                loop_body.append_operation(arith::muli(dest_index, max_recv_value, self.location)).result(0).unwrap().into();
            self.put_region(
                loop_body,
                [target, dest, input, stage],
                [my_block_row, setup.zero],
                [dest_block_row, setup.zero],
                [max_recv_value, size_value],
            );
        });
        self.barrier(block, &setup, signal, 1);
        self.epilogue(block, &setup, signal, 1);
        Some(())
    }

    /// `acc = for p in 0..nranks carry init: if p != me: combine(acc, p) else acc`.
    fn fold_over_peers<'a>(
        &self,
        block: &'a Block<'c>,
        setup: &Setup<'c, '_>,
        init: Value<'c, '_>,
        accumulator_type: Type<'c>,
        combine: impl for<'b> FnOnce(&'b Block<'c>, Value<'c, 'b>, Value<'c, 'b>) -> Value<'c, 'b>,
    ) -> Value<'c, 'a> {
        let index = Type::index(self.context);
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let loop_body = Block::new(&[(index, self.location), (accumulator_type, self.location)]);
        let peer_index: Value = loop_body.argument(0).unwrap().into();
        let accumulator: Value = loop_body.argument(1).unwrap().into();
        let peer: Value = loop_body.append_operation(arith::index_cast(peer_index, i32_type, self.location)).result(0).unwrap().into();
        let not_me: Value = loop_body
            .append_operation(arith::cmpi(self.context, arith::CmpiPredicate::Ne, peer, setup.my_rank, self.location))
            .result(0)
            .unwrap()
            .into();
        let then_block = Block::new(&[]);
        let combined = combine(&then_block, peer, accumulator);
        then_block.append_operation(scf::r#yield(&[combined], self.location));
        let else_block = Block::new(&[]);
        else_block.append_operation(scf::r#yield(&[accumulator], self.location));
        let (then_region, else_region) = (Region::new(), Region::new());
        then_region.append_block(then_block);
        else_region.append_block(else_block);
        let next: Value = loop_body
            .append_operation(scf::r#if(not_me, &[accumulator_type], then_region, else_region, self.location))
            .result(0)
            .unwrap()
            .into();
        loop_body.append_operation(scf::r#yield(&[next], self.location));
        let region = Region::new();
        region.append_block(loop_body);
        block
            .append_operation(
                OperationBuilder::new("scf.for", self.location)
                    .add_operands(&[setup.zero, setup.nranks_index, setup.one, init])
                    .add_results(&[accumulator_type])
                    .add_regions([region])
                    .build()
                    .expect("scf.for builds"),
            )
            .result(0)
            .unwrap()
            .into()
    }

    /// Mesh allreduce, fully valid target: viewed as `[1, N]` and reduced in
    /// 16 KiB chunks. Chunk k sums every peer's chunk into a zero-padded
    /// accumulator, then barriers at generation k + 2 *before* storing (a
    /// fast rank must not overwrite bytes a slower peer has not loaded yet);
    /// the epilogue refunds 1 + chunks.
    fn allreduce_mesh(&self, block: &Block<'c>, target: Value<'c, '_>, signal: Value<'c, '_>, reduce: &str) -> Result<(), String> {
        let target_type = DistributedTensorType::try_from(target.r#type()).expect("verified");
        let dims: Option<Vec<i64>> = target_type.shape().into_iter().collect();
        let dims = dims.ok_or("mesh allreduce lowering needs a static target shape")?;
        let element = target_type.element();
        let dtype = Dtype::of(element).ok_or("unsupported element type")?;
        let (half, bytes) = match dtype {
            Dtype::F32 => (false, 4),
            Dtype::F16 => (true, 2),
            other => return Err(format!("mesh allreduce lowers f32 and f16 targets, got {}", other.name())),
        };
        let (chunk_elems, align) = (16384 / bytes, 32 / bytes);
        let total: i64 = dims.iter().product();
        let chunk_cols = if 0 < total && total < chunk_elems { (total + align - 1) / align * align } else { chunk_elems };
        let chunks = (total + chunk_cols - 1) / chunk_cols;
        let index = Type::index(self.context);
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let view_type: Type = DistributedTensorType::new(self.context, &[Some(1), Some(total)], element).into();
        let tile = |valid: bool, pad: bool| -> Type<'c> {
            let view = TileView {
                valid_shape: valid.then(|| vec![Some(1), None]),
                pad: pad.then_some(PadValue::Zero),
                ..TileView::default()
            };
            TileType::with_view(self.context, &[1, chunk_cols], element, Some(MemorySpace::Vec), &view).into()
        };
        let (loaded_type, accumulator_type, stored_type) = (tile(true, false), tile(false, true), tile(true, true));

        let setup = self.setup(block, target);
        let view: Value = self.op(block, "pl.tensor.view", &[target], &[view_type], &[]).result(0).unwrap().into();
        self.barrier(block, &setup, signal, 1);
        let total_value = self.index_constant(block, total);
        let chunk_value = self.index_constant(block, chunk_cols);
        let two = self.index_constant(block, 2);

        let chunk_body = Block::new(&[(index, self.location)]);
        let column: Value = chunk_body.argument(0).unwrap().into();
        let body = &chunk_body;
        let remaining: Value = body.append_operation(arith::subi(total_value, column, self.location)).result(0).unwrap().into();
        let valid_cols: Value = body.append_operation(arith::minsi(chunk_value, remaining, self.location)).result(0).unwrap().into();
        let pad_zero = [("pad", PadValue::Zero as i64)];
        let own: Value = self
            .segmented_op(body, "pl.tile.load", &[view, setup.zero, column, valid_cols], &[loaded_type], &[1, 2, 1], &[])
            .result(0)
            .unwrap()
            .into();
        let own: Value = self.op(body, "pl.tile.fillpad", &[own], &[accumulator_type], &pad_zero).result(0).unwrap().into();
        let reduced = self.fold_over_peers(body, &setup, own, accumulator_type, |then_block, peer, accumulator| {
            // f16 rows move in 32-byte granules: load the rounded-up extent
            // (tail padding allowed), then narrow the valid shape back.
            let load_cols = if half {
                let fifteen = self.index_constant(then_block, 15);
                let sixteen = self.index_constant(then_block, 16);
                let bumped: Value =
                    then_block.append_operation(arith::addi(valid_cols, fifteen, self.location)).result(0).unwrap().into();
                let granules: Value =
                    then_block.append_operation(arith::divui(bumped, sixteen, self.location)).result(0).unwrap().into();
                then_block.append_operation(arith::muli(granules, sixteen, self.location)).result(0).unwrap().into()
            } else {
                valid_cols
            };
            let tail_padding: Vec<(Identifier, Attribute)> = if half {
                vec![(Identifier::new(self.context, "tail_padding"), Attribute::unit(self.context))]
            } else {
                Vec::new()
            };
            let mut remote: Value = self
                .segmented_op(
                    then_block,
                    "pld.tile.remote_load",
                    &[view, setup.zero, column, peer, load_cols],
                    &[loaded_type],
                    &[1, 2, 1, 1],
                    &tail_padding,
                )
                .result(0)
                .unwrap()
                .into();
            if half {
                remote = self
                    .op(then_block, "pl.tile.set_validshape", &[remote, setup.one, valid_cols], &[loaded_type], &[])
                    .result(0)
                    .unwrap()
                    .into();
            }
            let remote: Value =
                self.op(then_block, "pl.tile.fillpad", &[remote], &[accumulator_type], &pad_zero).result(0).unwrap().into();
            self.op(then_block, reduce, &[accumulator, remote], &[accumulator_type], &[]).result(0).unwrap().into()
        });
        // Chunk k = column / chunk_cols waits for generation k + 2.
        let chunk_index: Value = body.append_operation(arith::divui(column, chunk_value, self.location)).result(0).unwrap().into();
        let generation: Value = body.append_operation(arith::addi(chunk_index, two, self.location)).result(0).unwrap().into();
        let generation: Value = body.append_operation(arith::index_cast(generation, i32_type, self.location)).result(0).unwrap().into();
        self.barrier_until(body, &setup, signal, generation);
        let narrowed: Value = self
            .op(body, "pl.tile.set_validshape", &[reduced, setup.one, valid_cols], &[stored_type], &[])
            .result(0)
            .unwrap()
            .into();
        body.append_operation(
            OperationBuilder::new("pl.tile.store", self.location)
                .add_operands(&[narrowed, view, setup.zero, column])
                .add_results(&[view_type])
                .build()
                .expect("pl.tile.store builds"),
        );
        body.append_operation(scf::r#yield(&[], self.location));
        let region = Region::new();
        region.append_block(chunk_body);
        block.append_operation(scf::r#for(setup.zero, total_value, chunk_value, region, self.location));
        self.epilogue(block, &setup, signal, 1 + chunks);
        Ok(())
    }

    /// A `[rows, cols]` vector-memory staging tile.
    fn stage<'a>(&self, block: &'a Block<'c>, rows: i64, cols: i64, element: Type<'c>) -> Value<'c, 'a> {
        let stage_type: Type = TileType::new(self.context, &[rows, cols], element, Some(MemorySpace::Vec)).into();
        self.op(block, "pl.tile.create", &[], &[stage_type], &[]).result(0).unwrap().into()
    }
}

/// Which row of `input` a push sends to rank `dest`.
#[derive(Clone, Copy)]
enum SourceRow {
    /// allgather: the single local row.
    First,
    /// all_to_all: row `dest`.
    Destination,
}

fn run(root: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    lower_composite_ops(root).map(|_| ())
}

/// Expands the supported collectives under `root`; returns how many.
pub fn lower_composite_ops(root: OperationRef) -> Result<usize, PassFailed> {
    let mut targets: Vec<MlirOperation> = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op_name(op) == "func.func" && is_host(op) {
            return WalkResult::Skip;
        }
        if matches!(op_name(op).as_str(), "pld.tensor.barrier"
                | "pld.tensor.broadcast"
                | "pld.tensor.allgather"
                | "pld.tensor.all_to_all"
                | "pld.tensor.all_to_all_v"
                | "pld.tensor.reduce_scatter")
            || (op_name(op) == "pld.tensor.allreduce" && !is_ring(op)) {
            targets.push(op.to_raw());
        } else if op_name(op) == "pld.tensor.allreduce" {
            // Say so rather than leave it silently: later stages cannot
            // lower a composite.
            OpDiagnostic::new("ring allreduce is not lowered yet; it is left in place").emit(op, Severity::Warning);
        }
        WalkResult::Advance
    });
    // SAFETY: the pass runs with exclusive access to `root`'s context.
    let context = unsafe { root.context().to_ref() };
    let ir_rewriter = IrRewriter::new(context);
    let rewriter = ir_rewriter.as_rewriter_base();
    let mut failed = false;
    for raw in &targets {
        // SAFETY: collected above from live ops that nothing has erased.
        let op = unsafe { OperationRef::from_raw(*raw) };
        let emitter = Emitter { context, location: op.location() };
        // Build the expansion in a scratch block, then move it before `op`.
        let block = Block::new(&[]);
        let name = op_name(op);
        let result: Value = match name.as_str() {
            "pld.tensor.barrier" => {
                let signal: Value = op.operand(0).unwrap();
                let setup = emitter.setup(&block, signal);
                emitter.barrier(&block, &setup, signal, 1);
                emitter.epilogue(&block, &setup, signal, 1);
                signal
            }
            "pld.tensor.broadcast" => {
                let (target, signal): (Value, Value) = (op.operand(0).unwrap(), op.operand(1).unwrap());
                let target_type = DistributedTensorType::try_from(target.r#type()).expect("verified");
                let shape = target_type.shape();
                if shape.iter().any(Option::is_none) {
                    OpDiagnostic::new("broadcast lowering needs a static target shape").emit(op, Severity::Error);
                    failed = true;
                    continue;
                }
                let dims: Vec<i64> = shape.iter().map(|d| d.unwrap()).collect();
                let rows: i64 = dims[..dims.len() - 1].iter().product();
                let root_rank = op
                    .attribute("root")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map_or(0, |a| a.value());
                let setup = emitter.setup(&block, target);
                emitter.barrier(&block, &setup, signal, 1);
                let stage = emitter.stage(&block, rows, dims[dims.len() - 1], target_type.element());
                let root_value = emitter.i32_constant(&block, root_rank);
                emitter.segmented_op(&block, "pld.tile.get", &[target, root_value, target, stage], &[], &[1, 1, 1, 1, 0, 0, 0, 0], &[]);
                emitter.epilogue(&block, &setup, signal, 1);
                target
            }
            "pld.tensor.reduce_scatter" => {
                let (target, signal): (Value, Value) = (op.operand(0).unwrap(), op.operand(1).unwrap());
                match emitter.reduce_scatter(&block, target, signal) {
                    Some(result) => result,
                    None => {
                        OpDiagnostic::new("reduce_scatter lowering needs a static row size").emit(op, Severity::Error);
                        failed = true;
                        continue;
                    }
                }
            }
            "pld.tensor.allreduce" => {
                let operands: Vec<Value> = op.operands().collect();
                let attribute = |name: &str| {
                    op.attribute(name).ok().and_then(|a| IntegerAttribute::try_from(a).ok()).map_or(0, |a| a.value())
                };
                let reduce = match attribute("op") {
                    1 => "pl.tile.maximum",
                    2 => "pl.tile.minimum",
                    3 => "pl.tile.mul",
                    _ => "pl.tile.add",
                };
                let outcome = if operands.len() < 2 {
                    Err("allreduce outside host orchestrators needs an explicit signal".to_string())
                } else if attribute("cores") != 1 {
                    Err(format!("allreduce lowering needs cores 1, got {}", attribute("cores")))
                } else {
                    emitter.allreduce_mesh(&block, operands[0], operands[1], reduce)
                };
                if let Err(message) = outcome {
                    OpDiagnostic::new(message).emit(op, Severity::Error);
                    failed = true;
                    continue;
                }
                operands[0]
            }
            "pld.tensor.all_to_all_v" => {
                let operands: Vec<Value> = op.operands().collect();
                if emitter.all_to_all_v(&block, &operands).is_none() {
                    OpDiagnostic::new("all_to_all_v lowering needs static target and signal shapes").emit(op, Severity::Error);
                    failed = true;
                    continue;
                }
                operands[1]
            }
            name => {
                // allgather / all_to_all: one push per rank into row `me`.
                let (input, target, signal): (Value, Value, Value) =
                    (op.operand(0).unwrap(), op.operand(1).unwrap(), op.operand(2).unwrap());
                let source_row = if name == "pld.tensor.all_to_all" { SourceRow::Destination } else { SourceRow::First };
                if emitter.push_rows(&block, input, target, signal, source_row).is_none() {
                    OpDiagnostic::new(format!("{} lowering needs a static row size", &name["pld.tensor.".len()..]))
                        .emit(op, Severity::Error);
                    failed = true;
                    continue;
                }
                target
            }
        };
        // Move the expansion before `op`, then let the result stand for it.
        splice_before(&block, op);
        rewriter.replace_op_with_values(op, &[result]);
    }
    if failed { Err(PassFailed) } else { Ok(targets.len()) }
}
