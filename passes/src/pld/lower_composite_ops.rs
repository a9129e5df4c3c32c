//! `pld-lower-composite-ops`: expand the InCore composite
//! collectives into notify/wait, puts and gets. What it does and why:
//! [`PASS`]`.description` (also docs/passes/pld-lower-composite-ops.md).
//!
//! Lowered: `barrier`, `broadcast`, `allgather`, `all_to_all`,
//! `all_to_all_v`, `reduce_scatter`, mesh and ring `allreduce` (static
//! target shape). The spec's partial-valid mesh path has no input here: a
//! `!pld.dtensor` carries no valid shape.

use melior::{
    Context, IrRewriter,
    dialect::{arith, scf},
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Region, RegionLike, Type, Value,
        ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike, OperationRef, WalkOrder, WalkResult},
        r#type::{IntegerType, ShapedTypeLike},
    },
};
use pto_dialects::op_table::{Family, OpKind};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    dtype::Dtype,
    enums::{EnumAttr, PadValue, ReduceOp},
    types::{CommCtxType, DistributedTensorType, MemorySpace, TensorLike, TileType, TileView},
};

use super::ir::{is_host, op_name, splice_before};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
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

- `allreduce(target, signal) <op> ring cores 1` (f32/f16, static shape,
  signal `[2(NR-1), NR]`): the `[1, N]` view is cut into NR segments
  (f32 `b(i) = i·N/NR`; f16 rounded up to 16 elements, so each segment
  starts 32-byte aligned; empty segments are fine). P-1 reduce-scatter
  steps (step k on signal row k) pull segment `(me-k-2) mod P` from the
  left neighbour `(me-1) mod P` and reduce it into our copy, after which
  segment `me` is complete; P-1 allgather steps (row P-1+k) copy segment
  `(me-k-1) mod P` from the left. Each step walks the longest segment in
  sub-chunks (16 KiB, or the segment rounded up to 32 bytes when smaller);
  sub-chunk c barriers over all peers on its row at 2c+1 (ready) and 2c+2
  (read complete, before the store), and a sub-chunk past the end of a
  shorter segment only joins the barriers. The epilogue refunds
  2·sub-chunks on every row. A `?x?` signal takes NR from the run-time
  rank count (segment bounds, rows and refund computed at run time).

A dynamic target shape is an error (no chunk plan); so is an allreduce
without a signal or with `cores` other than 1.

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
    dependent_dialects: || {
        vec![
            melior::dialect::DialectHandle::arith(),
            melior::dialect::DialectHandle::scf(),
            pto_dialects::pl_handle(),
            pto_dialects::pld_handle(),
        ]
    },
    run: Run::Op(run),
};

/// `mode = ring`.
fn is_ring(op: OperationRef) -> bool {
    op.attribute("mode")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .is_some_and(|a| a.value() == 1)
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

    fn op<'a>(
        &self,
        block: &'a Block<'c>,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&str, i64)],
    ) -> OperationRef<'c, 'a> {
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let attributes: Vec<(Identifier, melior::ir::Attribute)> = attributes
            .iter()
            .map(|(name, value)| {
                (
                    Identifier::new(self.context, name),
                    IntegerAttribute::new(i32_type, *value).into(),
                )
            })
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
        block.append_operation(pto_dialects::ops::with_operand_segments(
            self.context,
            op,
            segments,
        ))
    }

    /// `EmitCommSetup(target)`.
    fn setup<'a>(&self, block: &'a Block<'c>, target: Value<'c, '_>) -> Setup<'c, 'a> {
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let index = Type::index(self.context);
        let ctx = self.op(
            block,
            OpKind::PldSystemGetCommCtx.name(),
            &[target],
            &[CommCtxType::new(self.context).into()],
            &[],
        );
        let ctx: Value = ctx.result(0).unwrap().into();
        let nranks: Value = self
            .op(
                block,
                OpKind::PldSystemNranks.name(),
                &[ctx],
                &[i32_type],
                &[],
            )
            .result(0)
            .unwrap()
            .into();
        let nranks_index: Value = block
            .append_operation(arith::index_cast(nranks, index, self.location))
            .result(0)
            .unwrap()
            .into();
        let my_rank: Value = self
            .op(
                block,
                OpKind::PldSystemRank.name(),
                &[ctx],
                &[i32_type],
                &[],
            )
            .result(0)
            .unwrap()
            .into();
        let my_rank_index: Value = block
            .append_operation(arith::index_cast(my_rank, index, self.location))
            .result(0)
            .unwrap()
            .into();
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
                .append_operation(arith::cmpi(
                    self.context,
                    arith::CmpiPredicate::Ne,
                    peer,
                    setup.my_rank,
                    self.location,
                ))
                .result(0)
                .unwrap()
                .into();
            let then_block = Block::new(&[]);
            body(&then_block, peer_index, peer);
            then_block.append_operation(scf::r#yield(&[], self.location));
            let then_region = Region::new();
            then_region.append_block(then_block);
            loop_body.append_operation(scf::r#if(
                not_me,
                &[],
                then_region,
                Region::new(),
                self.location,
            ));
        });
    }

    /// `for r in 0..nranks: body(r_index, r_i32)`, the rank itself included.
    fn for_every_rank<'a>(
        &self,
        block: &'a Block<'c>,
        setup: &Setup<'c, '_>,
        body: impl FnOnce(&Block<'c>, Value<'c, '_>, Value<'c, '_>),
    ) {
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        self.for_range(block, setup, setup.nranks_index, |loop_body, rank_index| {
            let rank = self.value(
                loop_body,
                arith::index_cast(rank_index, i32_type, self.location),
            );
            body(loop_body, rank_index, rank);
        });
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
        let atomic_none =
            IntegerAttribute::new(IntegerType::new(self.context, 32).into(), 0).into();
        self.segmented_op(
            block,
            OpKind::PldTilePut.name(),
            &operands,
            &[],
            &[1, 1, 1, 1, 0, 2, 2, 2],
            &[(Identifier::new(self.context, "atomic"), atomic_none)],
        );
    }

    /// `EmitBarrier(signal)` with generation `generation`.
    fn barrier(
        &self,
        block: &Block<'c>,
        setup: &Setup<'c, '_>,
        signal: Value<'c, '_>,
        generation: i64,
    ) {
        let credit = self.i32_constant(block, 1);
        let expected = self.i32_constant(block, generation);
        self.barrier_rounds(block, setup, signal, credit, expected);
    }

    /// A barrier whose generation is a runtime `i32` (mesh allreduce chunks).
    fn barrier_until(
        &self,
        block: &Block<'c>,
        setup: &Setup<'c, '_>,
        signal: Value<'c, '_>,
        expected: Value<'c, '_>,
    ) {
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
            self.op(
                body,
                OpKind::PldSystemNotify.name(),
                &[signal, setup.my_rank_index, setup.zero, peer, credit],
                &[],
                &[("op", 0)],
            );
        });
        self.for_each_peer(block, setup, |body, src, _| {
            self.op(
                body,
                OpKind::PldSystemWait.name(),
                &[signal, src, setup.zero, expected],
                &[],
                &[("cmp", 1)],
            );
        });
    }

    /// `EmitEpilogueReset(signal, N)`.
    fn epilogue(
        &self,
        block: &Block<'c>,
        setup: &Setup<'c, '_>,
        signal: Value<'c, '_>,
        barriers: i64,
    ) {
        let refund = self.i32_constant(block, -barriers);
        self.for_each_peer(block, setup, |body, src, _| {
            self.op(
                body,
                OpKind::PldSystemNotify.name(),
                &[signal, src, setup.zero, setup.my_rank, refund],
                &[],
                &[("op", 0)],
            );
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
    fn reduce_scatter<'a>(
        &self,
        block: &'a Block<'c>,
        target: Value<'c, 'a>,
        signal: Value<'c, 'a>,
    ) -> Option<Value<'c, 'a>> {
        let target_type = DistributedTensorType::try_from(target.r#type()).expect("verified");
        let size = target_type.shape()[1]?;
        let row_type: Type = TileType::new(
            self.context,
            &[1, size],
            target_type.element(),
            Some(MemorySpace::Vec),
        )
        .into();
        let setup = self.setup(block, target);
        self.barrier(block, &setup, signal, 1);
        let own_row: Value = self
            .segmented_op(
                block,
                OpKind::PlTileLoad.name(),
                &[target, setup.my_rank_index, setup.zero],
                &[row_type],
                &[1, 2, 0],
                &[],
            )
            .result(0)
            .unwrap()
            .into();
        let reduced = self.fold_over_peers(
            block,
            &setup,
            own_row,
            row_type,
            |then_block, peer, accumulator| {
                let peer_row: Value = self
                    .segmented_op(
                        then_block,
                        OpKind::PldTileRemoteLoad.name(),
                        &[target, setup.my_rank_index, setup.zero, peer],
                        &[row_type],
                        &[1, 2, 1, 0],
                        &[],
                    )
                    .result(0)
                    .unwrap()
                    .into();
                self.op(
                    then_block,
                    OpKind::PlTileAdd.name(),
                    &[accumulator, peer_row],
                    &[row_type],
                    &[],
                )
                .result(0)
                .unwrap()
                .into()
            },
        );
        self.barrier(block, &setup, signal, 2);
        let stored: Value = block
            .append_operation(
                OperationBuilder::new(OpKind::PlTileStore.name(), self.location)
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
        let (input, target, signal, send_counts, recv_counts) = (
            operands[0],
            operands[1],
            operands[2],
            operands[3],
            operands[4],
        );
        let target_type = DistributedTensorType::try_from(target.r#type()).expect("verified");
        let (target_rows, size) = (target_type.shape()[0]?, target_type.shape()[1]?);
        let signal_rows = DistributedTensorType::try_from(signal.r#type())
            .expect("verified")
            .shape()[0]?;
        let max_recv = target_rows / signal_rows;
        let send_counts_type = TensorLike::try_from(send_counts.r#type()).expect("verified");
        let index = Type::index(self.context);
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let setup = self.setup(block, target);
        let stage = self.stage(block, 1, size, target_type.element());
        let max_recv_value = self.index_constant(block, max_recv);
        let size_value = self.index_constant(block, size);
        let my_block_row: Value = block
            .append_operation(arith::muli(
                setup.my_rank_index,
                max_recv_value,
                self.location,
            ))
            .result(0)
            .unwrap()
            .into();
        self.for_every_rank(block, &setup, |loop_body, dest_index, dest| {
            let count_indices: Vec<Value> = if send_counts_type.rank() == 1 {
                vec![dest_index]
            } else {
                vec![dest_index, setup.zero]
            };
            let count: Value = self
                .op(
                    loop_body,
                    OpKind::PlTensorRead.name(),
                    &[&[send_counts][..], &count_indices].concat(),
                    &[send_counts_type.element()],
                    &[],
                )
                .result(0)
                .unwrap()
                .into();
            let count_index: Value = loop_body
                .append_operation(arith::index_cast(count, index, self.location))
                .result(0)
                .unwrap()
                .into();
            let rows: Value = loop_body
                .append_operation(arith::minsi(count_index, max_recv_value, self.location))
                .result(0)
                .unwrap()
                .into();
            let rows_i32: Value = loop_body
                .append_operation(arith::index_cast(rows, i32_type, self.location))
                .result(0)
                .unwrap()
                .into();
            self.op(
                loop_body,
                OpKind::PldSystemNotify.name(),
                &[recv_counts, setup.my_rank_index, setup.zero, dest, rows_i32],
                &[],
                &[("op", 1)],
            );
            let dest_block_row: Value = loop_body
                .append_operation(arith::muli(dest_index, max_recv_value, self.location))
                .result(0)
                .unwrap()
                .into();
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
        let peer: Value = loop_body
            .append_operation(arith::index_cast(peer_index, i32_type, self.location))
            .result(0)
            .unwrap()
            .into();
        let not_me: Value = loop_body
            .append_operation(arith::cmpi(
                self.context,
                arith::CmpiPredicate::Ne,
                peer,
                setup.my_rank,
                self.location,
            ))
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
            .append_operation(scf::r#if(
                not_me,
                &[accumulator_type],
                then_region,
                else_region,
                self.location,
            ))
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

    /// The linear `[1, N]` view of an allreduce target and the chunk tiles
    /// both algorithms move it through. `max_chunk`: the most columns one
    /// chunk must hold (N for mesh, the largest segment for ring).
    fn chunk_plan(
        &self,
        target: Value<'c, '_>,
        max_chunk: impl FnOnce(i64, bool) -> i64,
    ) -> Result<ChunkPlan<'c>, String> {
        let target_type = DistributedTensorType::try_from(target.r#type()).expect("verified");
        let dims: Option<Vec<i64>> = target_type.shape().into_iter().collect();
        let dims = dims.ok_or("allreduce lowering needs a static target shape")?;
        let element = target_type.element();
        let dtype = Dtype::of(element).ok_or("unsupported element type")?;
        let (half, bytes) = match dtype {
            Dtype::F32 => (false, 4),
            Dtype::F16 => (true, 2),
            other => {
                return Err(format!(
                    "allreduce lowers f32 and f16 targets, got {}",
                    other.name()
                ));
            }
        };
        let (chunk_elems, align) = (16384 / bytes, 32 / bytes);
        let total = dims
            .iter()
            .try_fold(1i64, |total, &d| total.checked_mul(d))
            .ok_or("the target has more elements than 64 bits count")?;
        let widest = max_chunk(total, half);
        let chunk_cols = if 0 < widest && widest < chunk_elems {
            (widest + align - 1) / align * align
        } else {
            chunk_elems
        };
        let tile = |valid: bool, pad: bool| -> Type<'c> {
            let view = TileView {
                valid_shape: valid.then(|| vec![Some(1), None]),
                pad: pad.then_some(PadValue::Zero),
                ..TileView::default()
            };
            TileType::with_view(
                self.context,
                &[1, chunk_cols],
                element,
                Some(MemorySpace::Vec),
                &view,
            )
            .into()
        };
        Ok(ChunkPlan {
            half,
            total,
            chunk_cols,
            view_type: DistributedTensorType::new(self.context, &[Some(1), Some(total)], element)
                .into(),
            loaded: tile(true, false),
            accumulator: tile(false, true),
            stored: tile(true, true),
        })
    }

    /// Appends `op` and returns its single result.
    fn value<'a>(&self, block: &'a Block<'c>, op: melior::ir::Operation<'c>) -> Value<'c, 'a> {
        block.append_operation(op).result(0).unwrap().into()
    }

    /// The own chunk `[0, column]` with `valid_cols` valid columns, zero-padded.
    fn own_chunk<'a>(
        &self,
        block: &'a Block<'c>,
        plan: &ChunkPlan<'c>,
        view: Value<'c, '_>,
        zero: Value<'c, '_>,
        at: ChunkAt<'c, '_>,
    ) -> Value<'c, 'a> {
        let ChunkAt { column, valid_cols } = at;
        let own: Value = self
            .segmented_op(
                block,
                OpKind::PlTileLoad.name(),
                &[view, zero, column, valid_cols],
                &[plan.loaded],
                &[1, 2, 1],
                &[],
            )
            .result(0)
            .unwrap()
            .into();
        self.op(
            block,
            OpKind::PlTileFillpad.name(),
            &[own],
            &[plan.accumulator],
            &[("pad", PadValue::Zero as i64)],
        )
        .result(0)
        .unwrap()
        .into()
    }

    /// `peer`'s chunk `[0, column]`, zero-padded. f16 rows move in 32-byte
    /// granules: the extent is rounded up to 16 elements (tail padding
    /// allowed), then the valid shape is narrowed back.
    fn remote_chunk<'a>(
        &self,
        block: &'a Block<'c>,
        plan: &ChunkPlan<'c>,
        view: Value<'c, '_>,
        setup: &Setup<'c, '_>,
        at: ChunkAt<'c, '_>,
        peer: Value<'c, '_>,
    ) -> Value<'c, 'a> {
        let ChunkAt { column, valid_cols } = at;
        let load_cols = if plan.half {
            let fifteen = self.index_constant(block, 15);
            let sixteen = self.index_constant(block, 16);
            let bumped = self.value(block, arith::addi(valid_cols, fifteen, self.location));
            let granules = self.value(block, arith::divui(bumped, sixteen, self.location));
            self.value(block, arith::muli(granules, sixteen, self.location))
        } else {
            valid_cols
        };
        let tail_padding: Vec<(Identifier, Attribute)> = if plan.half {
            vec![(
                Identifier::new(self.context, "tail_padding"),
                Attribute::unit(self.context),
            )]
        } else {
            Vec::new()
        };
        let mut remote: Value = self
            .segmented_op(
                block,
                OpKind::PldTileRemoteLoad.name(),
                &[view, setup.zero, column, peer, load_cols],
                &[plan.loaded],
                &[1, 2, 1, 1],
                &tail_padding,
            )
            .result(0)
            .unwrap()
            .into();
        if plan.half {
            remote = self
                .op(
                    block,
                    OpKind::PlTileSetValidshape.name(),
                    &[remote, setup.one, valid_cols],
                    &[plan.loaded],
                    &[],
                )
                .result(0)
                .unwrap()
                .into();
        }
        self.op(
            block,
            OpKind::PlTileFillpad.name(),
            &[remote],
            &[plan.accumulator],
            &[("pad", PadValue::Zero as i64)],
        )
        .result(0)
        .unwrap()
        .into()
    }

    /// Stores the first `valid_cols` columns of `chunk` at `[0, column]`.
    fn store_chunk(
        &self,
        block: &Block<'c>,
        plan: &ChunkPlan<'c>,
        view: Value<'c, '_>,
        setup: &Setup<'c, '_>,
        chunk: Value<'c, '_>,
        at: ChunkAt<'c, '_>,
    ) {
        let ChunkAt { column, valid_cols } = at;
        let narrowed: Value = self
            .op(
                block,
                OpKind::PlTileSetValidshape.name(),
                &[chunk, setup.one, valid_cols],
                &[plan.stored],
                &[],
            )
            .result(0)
            .unwrap()
            .into();
        block.append_operation(
            OperationBuilder::new(OpKind::PlTileStore.name(), self.location)
                .add_operands(&[narrowed, view, setup.zero, column])
                .add_results(&[plan.view_type])
                .build()
                .expect("pl.tile.store builds"),
        );
    }

    /// Mesh allreduce, fully valid target: viewed as `[1, N]` and reduced in
    /// 16 KiB chunks. Chunk k sums every peer's chunk into a zero-padded
    /// accumulator, then barriers at generation k + 2 *before* storing (a
    /// fast rank must not overwrite bytes a slower peer has not loaded yet);
    /// the epilogue refunds 1 + chunks.
    fn allreduce_mesh(
        &self,
        block: &Block<'c>,
        target: Value<'c, '_>,
        signal: Value<'c, '_>,
        reduce: &str,
    ) -> Result<(), String> {
        let plan = self.chunk_plan(target, |total, _| total)?;
        let (total, chunk_cols) = (plan.total, plan.chunk_cols);
        let chunks = (total + chunk_cols - 1) / chunk_cols;
        let index = Type::index(self.context);
        let i32_type: Type = IntegerType::new(self.context, 32).into();

        let setup = self.setup(block, target);
        let view: Value = self
            .op(
                block,
                OpKind::PlTensorView.name(),
                &[target],
                &[plan.view_type],
                &[],
            )
            .result(0)
            .unwrap()
            .into();
        self.barrier(block, &setup, signal, 1);
        let total_value = self.index_constant(block, total);
        let chunk_value = self.index_constant(block, chunk_cols);
        let two = self.index_constant(block, 2);

        let chunk_body = Block::new(&[(index, self.location)]);
        let column: Value = chunk_body.argument(0).unwrap().into();
        let body = &chunk_body;
        let remaining = self.value(body, arith::subi(total_value, column, self.location));
        let valid_cols = self.value(body, arith::minsi(chunk_value, remaining, self.location));
        let at = ChunkAt { column, valid_cols };
        let own = self.own_chunk(body, &plan, view, setup.zero, at);
        let reduced = self.fold_over_peers(
            body,
            &setup,
            own,
            plan.accumulator,
            |then_block, peer, accumulator| {
                let remote = self.remote_chunk(then_block, &plan, view, &setup, at, peer);
                self.op(
                    then_block,
                    reduce,
                    &[accumulator, remote],
                    &[plan.accumulator],
                    &[],
                )
                .result(0)
                .unwrap()
                .into()
            },
        );
        // Chunk k = column / chunk_cols waits for generation k + 2.
        let chunk_index = self.value(body, arith::divui(column, chunk_value, self.location));
        let generation = self.value(body, arith::addi(chunk_index, two, self.location));
        let generation = self.value(body, arith::index_cast(generation, i32_type, self.location));
        self.barrier_until(body, &setup, signal, generation);
        self.store_chunk(body, &plan, view, &setup, reduced, at);
        body.append_operation(scf::r#yield(&[], self.location));
        let region = Region::new();
        region.append_block(chunk_body);
        block.append_operation(scf::r#for(
            setup.zero,
            total_value,
            chunk_value,
            region,
            self.location,
        ));
        self.epilogue(block, &setup, signal, 1 + chunks);
        Ok(())
    }

    /// Ring allreduce (signal `[2*(NR-1), NR]`): the `[1, N]` view is cut
    /// into NR segments (f32: `b(i) = i*N/NR`; f16: boundaries rounded up to
    /// 16 elements so every segment starts 32-byte aligned). NR-1
    /// reduce-scatter steps (step k on signal row k) pull the left
    /// neighbour's partial segment `(me-k-2) mod P` and reduce it into ours;
    /// then segment `me` is complete here. NR-1 allgather steps (row
    /// NR-1+k) pull segment `(me-k-1) mod P` from the left. Every step walks
    /// the largest segment in `chunk_cols` sub-chunks so all ranks run the
    /// same barriers (a shorter segment's extra sub-chunks are inactive);
    /// sub-chunk c barriers at generations 2c+1 (ready) and 2c+2 (read
    /// complete, before the store) on its row, over all peers. Each row
    /// ends holding 2·sub-chunks credits per peer, which the epilogue
    /// refunds.
    fn allreduce_ring(
        &self,
        block: &Block<'c>,
        target: Value<'c, '_>,
        signal: Value<'c, '_>,
        reduce: &str,
    ) -> Result<(), String> {
        let signal_type = DistributedTensorType::try_from(signal.r#type()).expect("verified");
        // NR from the signal when static (the spec's segment math); else the
        // run-time rank count, and chunks sized for the whole target.
        let ring_size = signal_type.shape()[1];
        let max_segment = |total: i64, half: bool| {
            let Some(ring_size) = ring_size else {
                return total;
            };
            let widest = (total + ring_size - 1) / ring_size;
            if half {
                (widest + 15).min(total)
            } else {
                widest
            }
        };
        let plan = self.chunk_plan(target, max_segment)?;
        let i32_type: Type = IntegerType::new(self.context, 32).into();

        let setup = self.setup(block, target);
        let view: Value = self
            .op(
                block,
                OpKind::PlTensorView.name(),
                &[target],
                &[plan.view_type],
                &[],
            )
            .result(0)
            .unwrap()
            .into();
        let last_step = self.value(
            block,
            arith::subi(setup.nranks_index, setup.one, self.location),
        );
        let to_left = self.value(
            block,
            arith::addi(setup.my_rank_index, last_step, self.location),
        );
        let left_index = self.value(
            block,
            arith::remui(to_left, setup.nranks_index, self.location),
        );
        let left = self.value(
            block,
            arith::index_cast(left_index, i32_type, self.location),
        );
        let total = self.index_constant(block, plan.total);
        let chunk_cols = self.index_constant(block, plan.chunk_cols);
        let two = self.index_constant(block, 2);
        let (segment_divisor, half_rounding, max_seg) = match ring_size {
            Some(ring_size) => (
                self.index_constant(block, if plan.half { 16 * ring_size } else { ring_size }),
                plan.half.then(|| {
                    (
                        self.index_constant(block, 16 * ring_size - 1),
                        self.index_constant(block, 16),
                    )
                }),
                self.index_constant(block, max_segment(plan.total, plan.half)),
            ),
            None => {
                // max_seg = ceil(N / P) (f16: + 15, at most N).
                let widest = self.value(block, arith::addi(total, last_step, self.location));
                let widest = self.value(
                    block,
                    arith::divui(widest, setup.nranks_index, self.location),
                );
                if plan.half {
                    let sixteen = self.index_constant(block, 16);
                    let divisor = self.value(
                        block,
                        arith::muli(setup.nranks_index, sixteen, self.location),
                    );
                    let bump = self.value(block, arith::subi(divisor, setup.one, self.location));
                    let fifteen = self.index_constant(block, 15);
                    let widest = self.value(block, arith::addi(widest, fifteen, self.location));
                    (
                        divisor,
                        Some((bump, sixteen)),
                        self.value(block, arith::minsi(widest, total, self.location)),
                    )
                } else {
                    (setup.nranks_index, None, widest)
                }
            }
        };
        let ring = Ring {
            plan: &plan,
            view,
            signal,
            left,
            reduce,
            last_step,
            total,
            segment_divisor,
            half_rounding,
            max_seg,
            chunk_cols,
            two,
            credit: self.i32_constant(block, 1),
        };
        // Reduce-scatter: step k reduces segment (me - k - 2) mod P on row k.
        self.ring_phase(block, &setup, &ring, RingPhase::ReduceScatter);
        // Allgather: step k copies segment (me - k - 1) mod P on row P-1+k.
        self.ring_phase(block, &setup, &ring, RingPhase::Allgather);
        // Every row took 2 credits per sub-chunk from each peer.
        let (refund, rows) = match (ring_size, signal_type.shape()[0]) {
            (Some(_), Some(rows)) => {
                let sub_chunks =
                    (max_segment(plan.total, plan.half) + plan.chunk_cols - 1) / plan.chunk_cols;
                (
                    self.i32_constant(block, -2 * sub_chunks),
                    self.index_constant(block, rows),
                )
            }
            _ => {
                let chunk_last = self.index_constant(block, plan.chunk_cols - 1);
                let sub_chunks = self.value(block, arith::addi(max_seg, chunk_last, self.location));
                let sub_chunks =
                    self.value(block, arith::divui(sub_chunks, chunk_cols, self.location));
                let credits = self.value(block, arith::addi(sub_chunks, sub_chunks, self.location));
                let credits =
                    self.value(block, arith::index_cast(credits, i32_type, self.location));
                let zero = self.i32_constant(block, 0);
                let refund = self.value(block, arith::subi(zero, credits, self.location));
                (
                    refund,
                    self.value(block, arith::addi(last_step, last_step, self.location)),
                )
            }
        };
        self.for_range(block, &setup, rows, |row_body, row| {
            self.for_each_peer(row_body, &setup, |body, src, _| {
                self.op(
                    body,
                    OpKind::PldSystemNotify.name(),
                    &[signal, row, src, setup.my_rank, refund],
                    &[],
                    &[("op", 0)],
                );
            });
        });
        Ok(())
    }

    /// One phase of the ring: `for k in 0..P-1`, each step over the segment
    /// the phase assigns it, in sub-chunks.
    fn ring_phase(
        &self,
        block: &Block<'c>,
        setup: &Setup<'c, '_>,
        ring: &Ring<'c, '_, '_>,
        phase: RingPhase,
    ) {
        let back = match phase {
            RingPhase::ReduceScatter => ring.two,
            RingPhase::Allgather => setup.one,
        };
        self.for_range(block, setup, ring.last_step, |body, step| {
            // (me + P - k - back) mod P, never negative since k <= P - 2.
            let ahead = self.value(
                body,
                arith::addi(setup.my_rank_index, setup.nranks_index, self.location),
            );
            let ahead = self.value(body, arith::subi(ahead, step, self.location));
            let ahead = self.value(body, arith::subi(ahead, back, self.location));
            let segment = self.value(body, arith::remui(ahead, setup.nranks_index, self.location));
            let row = match phase {
                RingPhase::ReduceScatter => step,
                RingPhase::Allgather => {
                    self.value(body, arith::addi(step, ring.last_step, self.location))
                }
            };
            let start = self.segment_boundary(body, ring, segment);
            let next = self.value(body, arith::addi(segment, setup.one, self.location));
            let end = self.segment_boundary(body, ring, next);
            let length = self.value(body, arith::subi(end, start, self.location));
            self.for_range_step(
                body,
                setup.zero,
                ring.max_seg,
                ring.chunk_cols,
                |sub_body, sub| {
                    self.ring_sub_chunk(sub_body, setup, ring, phase, row, start, length, sub);
                },
            );
        });
    }

    /// One sub-chunk of a ring step: ready barrier, the (conditional) loads
    /// and reduction, read-complete barrier, the (conditional) store.
    #[allow(clippy::too_many_arguments)]
    fn ring_sub_chunk(
        &self,
        body: &Block<'c>,
        setup: &Setup<'c, '_>,
        ring: &Ring<'c, '_, '_>,
        phase: RingPhase,
        row: Value<'c, '_>,
        start: Value<'c, '_>,
        length: Value<'c, '_>,
        sub: Value<'c, '_>,
    ) {
        let plan = ring.plan;
        let i32_type: Type = IntegerType::new(self.context, 32).into();
        let remaining = self.value(body, arith::subi(length, sub, self.location));
        let valid_cols = self.value(
            body,
            arith::minsi(ring.chunk_cols, remaining, self.location),
        );
        let active = self.value(
            body,
            arith::cmpi(
                self.context,
                arith::CmpiPredicate::Slt,
                sub,
                length,
                self.location,
            ),
        );
        let column = self.value(body, arith::addi(start, sub, self.location));
        let at = ChunkAt { column, valid_cols };
        // Sub-chunk c waits for generations 2c+1 and 2c+2 on its row.
        let c = self.value(body, arith::divui(sub, ring.chunk_cols, self.location));
        let twice = self.value(body, arith::addi(c, c, self.location));
        let ready = self.value(body, arith::addi(twice, setup.one, self.location));
        let ready = self.value(body, arith::index_cast(ready, i32_type, self.location));
        let read = self.value(body, arith::addi(twice, ring.two, self.location));
        let read = self.value(body, arith::index_cast(read, i32_type, self.location));
        self.barrier_on_row(body, setup, ring, row, ready);

        let then_block = Block::new(&[]);
        let chunk = match phase {
            RingPhase::ReduceScatter => {
                let own = self.own_chunk(&then_block, plan, ring.view, setup.zero, at);
                let remote = self.remote_chunk(&then_block, plan, ring.view, setup, at, ring.left);
                self.op(
                    &then_block,
                    ring.reduce,
                    &[own, remote],
                    &[plan.accumulator],
                    &[],
                )
                .result(0)
                .unwrap()
                .into()
            }
            RingPhase::Allgather => {
                self.remote_chunk(&then_block, plan, ring.view, setup, at, ring.left)
            }
        };
        then_block.append_operation(scf::r#yield(&[chunk], self.location));
        // An inactive sub-chunk (a segment shorter than the longest) moves
        // nothing; it only joins the barriers. Its placeholder is never read.
        let else_block = Block::new(&[]);
        let placeholder: Value = self
            .op(
                &else_block,
                OpKind::PlTileCreate.name(),
                &[],
                &[plan.accumulator],
                &[],
            )
            .result(0)
            .unwrap()
            .into();
        else_block.append_operation(scf::r#yield(&[placeholder], self.location));
        let (then_region, else_region) = (Region::new(), Region::new());
        then_region.append_block(then_block);
        else_region.append_block(else_block);
        let chunk = self.value(
            body,
            scf::r#if(
                active,
                &[plan.accumulator],
                then_region,
                else_region,
                self.location,
            ),
        );

        self.barrier_on_row(body, setup, ring, row, read);
        let store_block = Block::new(&[]);
        self.store_chunk(&store_block, plan, ring.view, setup, chunk, at);
        store_block.append_operation(scf::r#yield(&[], self.location));
        let store_region = Region::new();
        store_region.append_block(store_block);
        body.append_operation(scf::r#if(
            active,
            &[],
            store_region,
            Region::new(),
            self.location,
        ));
    }

    /// Segment boundary `b(i)`: f32 `i*N/NR`; f16 `min(N, ceil(i*N/(16*NR))*16)`.
    fn segment_boundary<'a>(
        &self,
        block: &'a Block<'c>,
        ring: &Ring<'c, '_, '_>,
        i: Value<'c, '_>,
    ) -> Value<'c, 'a> {
        let scaled = self.value(block, arith::muli(i, ring.total, self.location));
        let Some((bump, sixteen)) = ring.half_rounding else {
            return self.value(
                block,
                arith::divui(scaled, ring.segment_divisor, self.location),
            );
        };
        let bumped = self.value(block, arith::addi(scaled, bump, self.location));
        let granules = self.value(
            block,
            arith::divui(bumped, ring.segment_divisor, self.location),
        );
        let rounded = self.value(block, arith::muli(granules, sixteen, self.location));
        self.value(block, arith::minsi(ring.total, rounded, self.location))
    }

    /// A full barrier on signal row `row`: +1 at `[row, me]` on every peer,
    /// then wait until every peer's `[row, src]` reached `expected`.
    fn barrier_on_row(
        &self,
        block: &Block<'c>,
        setup: &Setup<'c, '_>,
        ring: &Ring<'c, '_, '_>,
        row: Value<'c, '_>,
        expected: Value<'c, '_>,
    ) {
        self.for_each_peer(block, setup, |body, _, peer| {
            self.op(
                body,
                OpKind::PldSystemNotify.name(),
                &[ring.signal, row, setup.my_rank_index, peer, ring.credit],
                &[],
                &[("op", 0)],
            );
        });
        self.for_each_peer(block, setup, |body, src, _| {
            self.op(
                body,
                OpKind::PldSystemWait.name(),
                &[ring.signal, row, src, expected],
                &[],
                &[("cmp", 1)],
            );
        });
    }

    /// `for i in 0..upper: body(i)`.
    fn for_range(
        &self,
        block: &Block<'c>,
        setup: &Setup<'c, '_>,
        upper: Value<'c, '_>,
        body: impl FnOnce(&Block<'c>, Value<'c, '_>),
    ) {
        self.for_range_step(block, setup.zero, upper, setup.one, body);
    }

    /// `for i in lower..upper step step: body(i)`.
    fn for_range_step(
        &self,
        block: &Block<'c>,
        lower: Value<'c, '_>,
        upper: Value<'c, '_>,
        step: Value<'c, '_>,
        body: impl FnOnce(&Block<'c>, Value<'c, '_>),
    ) {
        let loop_body = Block::new(&[(Type::index(self.context), self.location)]);
        body(&loop_body, loop_body.argument(0).unwrap().into());
        loop_body.append_operation(scf::r#yield(&[], self.location));
        let region = Region::new();
        region.append_block(loop_body);
        block.append_operation(scf::r#for(lower, upper, step, region, self.location));
    }

    /// A `[rows, cols]` vector-memory staging tile.
    fn stage<'a>(
        &self,
        block: &'a Block<'c>,
        rows: i64,
        cols: i64,
        element: Type<'c>,
    ) -> Value<'c, 'a> {
        let stage_type: Type =
            TileType::new(self.context, &[rows, cols], element, Some(MemorySpace::Vec)).into();
        self.op(block, OpKind::PlTileCreate.name(), &[], &[stage_type], &[])
            .result(0)
            .unwrap()
            .into()
    }
}

/// The linear view of an allreduce target and its chunk tile types.
struct ChunkPlan<'c> {
    half: bool,
    /// N, the target's element count.
    total: i64,
    chunk_cols: i64,
    /// `!pld.dtensor<1xN>`.
    view_type: Type<'c>,
    /// `[1, chunk_cols]` with dynamic valid columns (loads).
    loaded: Type<'c>,
    /// `[1, chunk_cols]` zero-padded (carried accumulators).
    accumulator: Type<'c>,
    /// Zero-padded with dynamic valid columns (stores).
    stored: Type<'c>,
}

/// Where a chunk sits in the `[1, N]` view: its first column and how many
/// columns are real.
#[derive(Clone, Copy)]
struct ChunkAt<'c, 'a> {
    column: Value<'c, 'a>,
    valid_cols: Value<'c, 'a>,
}

/// What every step of a ring allreduce shares.
struct Ring<'c, 'p, 'a> {
    plan: &'p ChunkPlan<'c>,
    view: Value<'c, 'a>,
    signal: Value<'c, 'a>,
    /// The left neighbour `(me - 1) mod P`, i32.
    left: Value<'c, 'a>,
    /// The tile op combining two chunks.
    reduce: &'p str,
    /// P - 1 (index): the steps per phase.
    last_step: Value<'c, 'a>,
    /// N (index).
    total: Value<'c, 'a>,
    /// NR (f32) or 16·NR (f16) (index): segment boundaries divide by it.
    segment_divisor: Value<'c, 'a>,
    /// f16 only: 16·NR - 1 and 16 (boundaries round up to 16 elements).
    half_rounding: Option<(Value<'c, 'a>, Value<'c, 'a>)>,
    /// Columns of the longest segment (index).
    max_seg: Value<'c, 'a>,
    /// Columns per sub-chunk (index).
    chunk_cols: Value<'c, 'a>,
    /// 2 (index).
    two: Value<'c, 'a>,
    /// 1 (i32), a barrier credit.
    credit: Value<'c, 'a>,
}

#[derive(Clone, Copy)]
enum RingPhase {
    ReduceScatter,
    Allgather,
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
    if lower_composite_ops(root)? == 0 {
        crate::registry::left_unchanged();
    }
    Ok(())
}

/// Expands the supported collectives under `root`; returns how many.
pub fn lower_composite_ops(root: OperationRef) -> Result<usize, PassFailed> {
    let mut targets: Vec<OperationRef> = Vec::new();
    pto_dialects::ir::walk(root, WalkOrder::PreOrder, |op| {
        if op_name(op) == "func.func" && is_host(op) {
            return WalkResult::Skip;
        }
        if OpKind::of(&op).is_some_and(|kind| kind.family() == Family::Collective) {
            targets.push(op);
        }
        WalkResult::Advance
    });
    let context = pto_dialects::ir::context(&root);
    let ir_rewriter = IrRewriter::new(context);
    let rewriter = ir_rewriter.as_rewriter_base();
    let mut failed = false;
    for raw in &targets {
        let op = *raw;
        let emitter = Emitter {
            context,
            location: op.location(),
        };
        // Build the expansion in a scratch block, then move it before `op`.
        let block = Block::new(&[]);
        let Some(kind) = OpKind::of(&op) else {
            continue;
        };
        let result: Value = match kind {
            OpKind::PldTensorBarrier => {
                let signal: Value = op.operand(0).unwrap();
                let setup = emitter.setup(&block, signal);
                emitter.barrier(&block, &setup, signal, 1);
                emitter.epilogue(&block, &setup, signal, 1);
                signal
            }
            OpKind::PldTensorBroadcast => {
                let (target, signal): (Value, Value) =
                    (op.operand(0).unwrap(), op.operand(1).unwrap());
                let target_type =
                    DistributedTensorType::try_from(target.r#type()).expect("verified");
                let shape = target_type.shape();
                if shape.iter().any(Option::is_none) {
                    OpDiagnostic::new("broadcast lowering needs a static target shape")
                        .emit(op, Severity::Error);
                    failed = true;
                    continue;
                }
                let dims: Vec<i64> = shape.iter().map(|d| d.unwrap()).collect();
                let Some(rows) = dims[..dims.len() - 1]
                    .iter()
                    .try_fold(1i64, |rows, &d| rows.checked_mul(d))
                else {
                    OpDiagnostic::new("the broadcast target has more rows than 64 bits count")
                        .emit(op, Severity::Error);
                    failed = true;
                    continue;
                };
                let root_rank = op
                    .attribute("root")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map_or(0, |a| a.value());
                let setup = emitter.setup(&block, target);
                emitter.barrier(&block, &setup, signal, 1);
                let stage =
                    emitter.stage(&block, rows, dims[dims.len() - 1], target_type.element());
                let root_value = emitter.i32_constant(&block, root_rank);
                emitter.segmented_op(
                    &block,
                    OpKind::PldTileGet.name(),
                    &[target, root_value, target, stage],
                    &[],
                    &[1, 1, 1, 1, 0, 0, 0, 0],
                    &[],
                );
                emitter.epilogue(&block, &setup, signal, 1);
                target
            }
            OpKind::PldTensorReduceScatter => {
                let (target, signal): (Value, Value) =
                    (op.operand(0).unwrap(), op.operand(1).unwrap());
                match emitter.reduce_scatter(&block, target, signal) {
                    Some(result) => result,
                    None => {
                        OpDiagnostic::new("reduce_scatter lowering needs a static row size")
                            .emit(op, Severity::Error);
                        failed = true;
                        continue;
                    }
                }
            }
            OpKind::PldTensorAllreduce => {
                let operands: Vec<Value> = op.operands().collect();
                let attribute = |name: &str| {
                    op.attribute(name)
                        .ok()
                        .and_then(|a| IntegerAttribute::try_from(a).ok())
                        .map_or(0, |a| a.value())
                };
                // The tile op that combines two partial results (a sum
                // without `op`).
                let reduce = match op.enum_attr::<ReduceOp>("op") {
                    Some(ReduceOp::Max) => OpKind::PlTileMaximum,
                    Some(ReduceOp::Min) => OpKind::PlTileMinimum,
                    Some(ReduceOp::Prod) => OpKind::PlTileMul,
                    Some(ReduceOp::Sum) | None => OpKind::PlTileAdd,
                }
                .name();
                let outcome = if operands.len() < 2 {
                    Err("allreduce outside host orchestrators needs an explicit signal".to_string())
                } else if attribute("cores") != 1 {
                    Err(format!(
                        "allreduce lowering needs cores 1, got {}",
                        attribute("cores")
                    ))
                } else if is_ring(op) {
                    emitter.allreduce_ring(&block, operands[0], operands[1], reduce)
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
            OpKind::PldTensorAllToAllV => {
                let operands: Vec<Value> = op.operands().collect();
                if emitter.all_to_all_v(&block, &operands).is_none() {
                    OpDiagnostic::new(
                        "all_to_all_v lowering needs static target and signal shapes",
                    )
                    .emit(op, Severity::Error);
                    failed = true;
                    continue;
                }
                operands[1]
            }
            kind => {
                // allgather / all_to_all: one push per rank into row `me`.
                let (input, target, signal): (Value, Value, Value) = (
                    op.operand(0).unwrap(),
                    op.operand(1).unwrap(),
                    op.operand(2).unwrap(),
                );
                let source_row = if kind == OpKind::PldTensorAllToAll {
                    SourceRow::Destination
                } else {
                    SourceRow::First
                };
                if emitter
                    .push_rows(&block, input, target, signal, source_row)
                    .is_none()
                {
                    OpDiagnostic::new(format!(
                        "{} lowering needs a static row size",
                        &kind.name()["pld.tensor.".len()..]
                    ))
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
    if failed {
        Err(PassFailed)
    } else {
        Ok(targets.len())
    }
}
