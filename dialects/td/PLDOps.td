//===- PLDOps.td - pld operations --------------------------*- tablegen -*-===//

#ifndef PTO_PLD_OPS_TD
#define PTO_PLD_OPS_TD

include "PLDTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "PLTraits.td"

//===----------------------------------------------------------------------===//
// pld.system.*: ranks and signals
//===----------------------------------------------------------------------===//

def PLD_GetCommCtxOp : PLD_Op<"system.get_comm_ctx", [Pure]> {
  let ptoFamily = "rank_query";
  let summary = "The comm context of a distributed tensor's domain";
  let description = [{
    Returns the handle of the comm context of the domain that `tensor` is
    bound to, on the executing device. Example:

    ```mlir
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$tensor);
  let results = (outs PLD_CommCtxType:$ctx);
  let assemblyFormat = "$tensor attr-dict `:` qualified(type($tensor))";
}

def PLD_RankOp : PLD_Op<"system.rank", [Pure]> {
  let ptoFamily = "rank_query";
  let summary = "The domain-local rank id of the executing device";
  let description = [{
    Returns this device's rank inside the comm domain of `ctx`, in
    `[0, nranks)`. Example:

    ```mlir
    %me = pld.system.rank %ctx : i32
    ```
  }];
  let arguments = (ins PLD_CommCtxType:$ctx);
  let results = (outs I32:$rank);
  let assemblyFormat = "$ctx attr-dict `:` type($rank)";
}

def PLD_NRanksOp : PLD_Op<"system.nranks", [Pure]> {
  let ptoFamily = "rank_query";
  let summary = "The number of ranks in a comm domain";
  let description = [{
    Returns the size of the comm domain of `ctx`. The rank count is dynamic
    unless the program is specialised for a fixed count
    (`pld-specialize-nranks`). Example:

    ```mlir
    %n = pld.system.nranks %ctx : i32
    ```
  }];
  let arguments = (ins PLD_CommCtxType:$ctx);
  let results = (outs I32:$nranks);
  let assemblyFormat = "$ctx attr-dict `:` type($nranks)";
}

def PLD_NotifyOp : PLD_Op<"system.notify"> {
  let ptoFamily = "signal";
  let ptoPipe = "s";
  let summary = "Update one signal cell in a peer's copy";
  let description = [{
    Writes (`set`) or atomically adds (`atomic_add`) `value` into the cell
    `target[offsets]` of rank `peer`'s copy of `target`. `peer` may be the
    executing rank (a local atomic). One offset per dimension of `target`.
    Example:

    ```mlir
    pld.system.notify %sig[%me, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$target,
                       Variadic<Index>:$offsets,
                       I32:$peer,
                       I32:$value,
                       PLD_NotifyKind:$op);
  let assemblyFormat = [{
    $target `[` $offsets `]` `to` $peer `,` $value $op attr-dict `:` qualified(type($target))
  }];
}

def PLD_WorldSizeOp : PLD_Op<"system.world_size", [Pure]> {
  let ptoFamily = "rank_query";
  let summary = "The number of devices of the program";
  let description = [{
    Returns the number of devices (workers) the host orchestrator drives.
    Host orchestrators only. Example:

    ```mlir
    %w = pld.system.world_size : i64
    ```
  }];
  let results = (outs I64:$size);
  let assemblyFormat = "attr-dict `:` type($size)";
}

def PLD_DeferWaitOp : PLD_Op<"system.defer_wait"> {
  let ptoFamily = "signal";
  let ptoPipe = "s";
  let summary = "Make a signal condition a completion condition of the task";
  let description = [{
    Registers `signal[offsets] >= expected` (unsigned) as a condition the
    current task completes on, without blocking: dependent tasks run once
    it holds. The signal is i32; `cmp` is `ge`; a constant `expected` is in
    [0, 2^31). Example:

    ```mlir
    pld.system.defer_wait %sig[%src, %c0], %gen ge : !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$signal,
                       Variadic<Index>:$offsets,
                       I32:$expected,
                       PLD_WaitCmp:$cmp);
  let assemblyFormat = [{
    $signal `[` $offsets `]` `,` $expected $cmp attr-dict `:` qualified(type($signal))
  }];
}

def PLD_WaitOp : PLD_Op<"system.wait"> {
  let ptoFamily = "signal";
  let ptoPipe = "s";
  let summary = "Block until a local signal cell reaches a value";
  let description = [{
    Spins on the local cell `signal[offsets]` until it equals (`eq`) or is
    at least (`ge`) `expected`. One offset per dimension of `signal`.
    Example:

    ```mlir
    pld.system.wait %sig[%src, %c0], %gen ge : !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$signal,
                       Variadic<Index>:$offsets,
                       I32:$expected,
                       PLD_WaitCmp:$cmp);
  let assemblyFormat = [{
    $signal `[` $offsets `]` `,` $expected $cmp attr-dict `:` qualified(type($signal))
  }];
}

//===----------------------------------------------------------------------===//
// Window buffers
//===----------------------------------------------------------------------===//

def PLD_AllocWindowBufferOp : PLD_Op<"tensor.alloc_window_buffer", [MemoryEffects<[MemAlloc]>]> {
  let ptoFamily = "window";
  let summary = "Allocate a symmetric window buffer";
  let description = [{
    Allocates `size` bytes at the same offset in the window of every rank of
    a comm domain (zero-initialised), named `name` (unique in the program).
    Host orchestrators only. Example:

    ```mlir
    %buf = pld.tensor.alloc_window_buffer %bytes name "signal" : !pl.ptr
    ```
  }];
  let arguments = (ins AnySignlessIntegerOrIndex:$size, StrAttr:$name);
  let results = (outs PLD_PlPtr:$buffer);
  let assemblyFormat = "$size `name` $name attr-dict `:` type($size) `->` qualified(type($buffer))";
}

def PLD_WindowOp : PLD_Op<"tensor.window", [Pure, PL_View]> {
  let ptoFamily = "window";
  let summary = "View a window buffer as a distributed tensor";
  let description = [{
    Returns a distributed tensor of the result's shape and element type over
    window buffer `buffer`. Several views may share one buffer. `sizes(...)`
    gives the dynamic dimensions, in order; without it, at most one
    dimension may be dynamic, and it is whatever the buffer's size leaves
    for it. Example:

    ```mlir
    %sig = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<?x1xi32>
    %ring = pld.tensor.window %rbuf sizes(%rows, %n) : !pl.ptr -> !pld.dtensor<?x?xi32>
    ```
  }];
  let arguments = (ins PLD_PlPtr:$buffer, Variadic<Index>:$sizes);
  let results = (outs PLD_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $buffer (`sizes` `(` $sizes^ `)`)? attr-dict `:` qualified(type($buffer)) `->` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Remote tile access
//===----------------------------------------------------------------------===//

def PLD_RemoteLoadOp : PLD_Op<"tile.remote_load",
    [AttrSizedOperandSegments, PL_TileMemory<3>]> {
  let ptoFamily = "remote_access";
  let ptoPipe = "mte2";
  let summary = "Load a window of a peer's copy into a tile";
  let description = [{
    Reads the window of rank `peer`'s copy of `target` at `offsets` (one
    per dimension) with the result tile's shape. `valid(...)` gives the
    dynamic valid extents. A window provably past the tensor's edge is an
    error (the read does not clamp). `tail_padding` (made by lowering only)
    lets an f16 read of a rank-2 target, with its valid extents given,
    round up to 32 bytes past the row end: the window's 32-byte slot
    rounding leaves that room. Example:

    ```mlir
    %t = pld.tile.remote_load %data[%row, %c0] from %peer : !pld.dtensor<?x256xf32> -> !pl.tile<1x256xf32, vec>
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$target, Variadic<Index>:$offsets,
                       I32:$peer, Variadic<Index>:$valid_sizes, UnitAttr:$tail_padding);
  let results = (outs PLD_PlTile:$result);
  let assemblyFormat = [{
    $target `[` $offsets `]` `from` $peer (`valid` `(` $valid_sizes^ `)`)? (`tail_padding` $tail_padding^)? attr-dict
    `:` qualified(type($target)) `->` qualified(type($result))
  }];
}

class PLD_RemoteStoreOp<string mnemonic, Type source, string form>
    : PLD_Op<mnemonic, [PL_TileMemory<3>]> {
  let ptoFamily = "remote_access";
  let summary = "Write a " # form # " into a peer's copy";
  let description = "Writes `source` (" # form # ", 2-D after leading unit "
      # "dimensions) into the last two dimensions of rank `peer`'s copy of "
      # "`target` at `offsets` (one per target dimension; the leading ones "
      # "select the slab); `add` accumulates atomically. The push fits the "
      # "target and the element types agree." # [{

Example:

```mlir
}] # !if(!eq(form, "tile"),
  "pld.tile.remote_store %t, %data[%row, %c0] to %peer none : !pl.tile<1x256xf32, vec>, !pld.dtensor<?x256xf32>",
  "pld.tensor.remote_store %t, %data[%row, %c0] to %peer add : !pl.tensor<1x256xf32>, !pld.dtensor<?x256xf32>") # [{
```
}];
  let arguments = (ins source:$source, PLD_AnyDistributedTensor:$target,
                       Variadic<Index>:$offsets, I32:$peer, PLD_AtomicType:$atomic);
  let assemblyFormat = [{
    $source `,` $target `[` $offsets `]` `to` $peer $atomic attr-dict
    `:` qualified(type($source)) `,` qualified(type($target))
  }];
}

def PLD_TileRemoteStoreOp : PLD_RemoteStoreOp<"tile.remote_store", PLD_PlTile, "tile"> {
  let ptoPipe = "source:mte3";
}
def PLD_TensorRemoteStoreOp : PLD_RemoteStoreOp<"tensor.remote_store", PLD_PlTensor, "tensor"> {
  let ptoPipe = "staged";
}

//===----------------------------------------------------------------------===//
// Bulk put / get
//===----------------------------------------------------------------------===//

class PLD_TransferOp<string mnemonic, Type dstType, Type srcType, string direction,
                     dag extraArgs, string extraFormat>
    : PLD_Op<"tensor." # mnemonic, [AttrSizedOperandSegments, MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "remote_transfer";
  let ptoPipe = "staged";
  let summary = "Copy a region " # direction;
  let description = "Copies `src` into `dst` " # direction # ", through a "
      # "vector staging tile. Without `region`, the whole tensors (one shape) "
      # "move; `region [dst offsets] [src offsets] [shape]` moves a window "
      # "(offsets >= 0, the window inside both tensors). `chunk rows, cols` "
      # "(0: whole extent) splits the transfer and is required for a dynamic "
      # "extent; `pipeline` double-buffers and needs both chunks. No signal "
      # "is implied." # [{

Example:

```mlir
}] # !if(!eq(mnemonic, "put"),
  "pld.tensor.put %dst to %peer from %src none chunk 0, 0 : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>\n"
  # "pld.tensor.put %dst to %peer from %src region [%r, %c0] [%c0, %c0] [%c1, %c256] add chunk 1, 128 pipeline : !pld.dtensor<4x256xf32>, !pl.tensor<1x256xf32>",
  "pld.tensor.get %dst to %peer from %src chunk 0, 0 : !pl.tensor<4x256xf32>, !pld.dtensor<4x256xf32>") # [{
```
}];
  let arguments = !con((ins dstType:$dst, I32:$peer, srcType:$src,
                            Variadic<Index>:$dst_offsets, Variadic<Index>:$src_offsets,
                            Variadic<Index>:$shape),
                       extraArgs,
                       (ins I64Attr:$chunk_rows, I64Attr:$chunk_cols, UnitAttr:$pipeline));
  let assemblyFormat = "$dst `to` $peer `from` $src "
      # "(`region` ` ` `[` $dst_offsets^ `]` `[` $src_offsets `]` `[` $shape `]`)? "
      # extraFormat # " `chunk` $chunk_rows `,` $chunk_cols (`pipeline` $pipeline^)? attr-dict "
      # "`:` qualified(type($dst)) `,` qualified(type($src))";
}

def PLD_PutOp : PLD_TransferOp<"put", PLD_AnyDistributedTensor, PLD_TensorLike,
    "from local memory into a peer's window", (ins PLD_AtomicType:$atomic), "$atomic">;
def PLD_GetOp : PLD_TransferOp<"get", PLD_TensorLike, PLD_AnyDistributedTensor,
    "from a peer's window into local memory", (ins), "">;

class PLD_TileTransferOp<string mnemonic, Type dstType, Type srcType, string direction,
                         dag extraArgs, string extraFormat>
    : PLD_Op<"tile." # mnemonic, [AttrSizedOperandSegments, PL_TileMemory<3>]> {
  let ptoFamily = "remote_transfer";
  let ptoPipe = "staged";
  let summary = "Copy a region " # direction # " through staging tiles";
  let description = "The tile-level form `pl-convert-tensor-to-tile` makes "
      # "of `pld.tensor." # mnemonic # "`: the transfer bounces through the "
      # "2-D `stage` tile (a second one double-buffers), whose element type is "
      # "the destination's and whose extents do not exceed the (flattened) "
      # "transfer; the stage may be smaller (the transfer is chunked)." # [{

Example:

```mlir
}] # !if(!eq(mnemonic, "put"),
  "pld.tile.put %dst to %peer from %src stage %s1, %s2 none : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>, !pl.tile<1x128xf32, vec>, !pl.tile<1x128xf32, vec>",
  "pld.tile.get %dst to %peer from %src stage %s1 : !pl.tensor<4x256xf32>, !pld.dtensor<4x256xf32>, !pl.tile<1x128xf32, vec>") # [{
```
}];
  let arguments = !con((ins dstType:$dst, I32:$peer, srcType:$src, PLD_PlTile:$stage,
                            Optional<PLD_PlTile>:$stage2,
                            Variadic<Index>:$dst_offsets, Variadic<Index>:$src_offsets,
                            Variadic<Index>:$shape),
                       extraArgs);
  let assemblyFormat = "$dst `to` $peer `from` $src `stage` $stage (`,` $stage2^)? "
      # "(`region` ` ` `[` $dst_offsets^ `]` `[` $src_offsets `]` `[` $shape `]`)? "
      # extraFormat # " attr-dict "
      # "`:` qualified(type($dst)) `,` qualified(type($src)) `,` qualified(type($stage)) "
      # "(`,` qualified(type($stage2))^)?";
}

def PLD_TilePutOp : PLD_TileTransferOp<"put", PLD_AnyDistributedTensor, PLD_TensorLike,
    "from local memory into a peer's window", (ins PLD_AtomicType:$atomic), "$atomic">;
def PLD_TileGetOp : PLD_TileTransferOp<"get", PLD_TensorLike, PLD_AnyDistributedTensor,
    "from a peer's window into local memory", (ins), "">;

//===----------------------------------------------------------------------===//
// Collectives. Each returns the target, rebound.
//===----------------------------------------------------------------------===//

class PLD_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : PLD_Op<"tensor." # mnemonic, !listconcat(traits, [MemoryEffects<[MemRead, MemWrite]>])> {
  let ptoFamily = "collective";
}

def PLD_AllreduceOp : PLD_CollectiveOp<"allreduce", [AllTypesMatch<["target", "result"]>]> {
  let ptoTiedOperand = 0;
  let summary = "Reduce a window across all ranks, in place";
  let description = [{
    Leaves `op` of every rank's `target` (f16 or f32) in every rank's copy.
    `mode` is `mesh` (every rank reads every peer) or `ring` (two phases,
    2(P-1)/P of the traffic). `signal` (i32) is required outside host
    orchestrators: `[NR, 1]` for mesh, `[2*(NR-1), NR]` for ring.
    `cores` > 0, and 1 outside host orchestrators. Example:

    ```mlir
    %r = pld.tensor.allreduce %x, %sig sum mesh cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$target, Optional<PLD_AnyDistributedTensor>:$signal,
                       PLD_ReduceOp:$op, PLD_AllreduceMode:$mode, I64Attr:$cores);
  let results = (outs PLD_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $target (`,` $signal^)? $op $mode `cores` $cores attr-dict `:` qualified(type($target))
    (`,` qualified(type($signal))^)?
  }];
}

def PLD_BarrierOp : PLD_CollectiveOp<"barrier", [AllTypesMatch<["signal", "result"]>]> {
  let ptoTiedOperand = 0;
  let summary = "Wait until every rank arrived";
  let description = [{
    A self-clearing credit barrier over the i32 `signal` (`[NR, 1]` in
    kernels, `[W]` in host orchestrators). Example:

    ```mlir
    %s2 = pld.tensor.barrier %sig : !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$signal);
  let results = (outs PLD_AnyDistributedTensor:$result);
  let assemblyFormat = "$signal attr-dict `:` qualified(type($signal))";
}

def PLD_BroadcastOp : PLD_CollectiveOp<"broadcast", [AllTypesMatch<["target", "result"]>]> {
  let ptoTiedOperand = 0;
  let summary = "Copy rank root's window to every rank";
  let description = [{
    Every rank's `target` becomes rank `root`'s (`root` >= 0). Example:

    ```mlir
    %r = pld.tensor.broadcast %x, %sig root 0 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$target, PLD_AnyDistributedTensor:$signal, I64Attr:$root);
  let results = (outs PLD_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $target `,` $signal `root` $root attr-dict `:` qualified(type($target)) `,` qualified(type($signal))
  }];
}

def PLD_AllgatherOp : PLD_CollectiveOp<"allgather", [AllTypesMatch<["target", "result"]>]> {
  let ptoTiedOperand = 1;
  let summary = "Gather one row per rank into every rank's window";
  let description = [{
    Row `r` of every rank's `target` (`[NR, SIZE]`) becomes rank `r`'s
    `input` (`[1, SIZE]`, a different buffer of the same element type).
    Example:

    ```mlir
    %r = pld.tensor.allgather %row, %all, %sig : !pl.tensor<1x256xf32>, !pld.dtensor<?x256xf32>, !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_TensorLike:$input, PLD_AnyDistributedTensor:$target,
                       PLD_AnyDistributedTensor:$signal);
  let results = (outs PLD_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $input `,` $target `,` $signal attr-dict `:` qualified(type($input)) `,`
    qualified(type($target)) `,` qualified(type($signal))
  }];
}

def PLD_ReduceScatterOp : PLD_CollectiveOp<"reduce_scatter", [AllTypesMatch<["target", "result"]>]> {
  let ptoTiedOperand = 0;
  let summary = "Sum chunk r across ranks into rank r";
  let description = [{
    Row `r` of rank `r`'s `target` (`[NR, SIZE]`) becomes the sum of row
    `r` over all ranks. Only `sum` is supported. Example:

    ```mlir
    %r = pld.tensor.reduce_scatter %x, %sig sum : !pld.dtensor<?x256xf32>, !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$target, PLD_AnyDistributedTensor:$signal, PLD_ReduceOp:$op);
  let results = (outs PLD_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $target `,` $signal $op attr-dict `:` qualified(type($target)) `,` qualified(type($signal))
  }];
}

def PLD_AllToAllOp : PLD_CollectiveOp<"all_to_all", [AllTypesMatch<["target", "result"]>]> {
  let ptoTiedOperand = 1;
  let summary = "Exchange one row per pair of ranks";
  let description = [{
    Row `d` of rank `s`'s `input` lands in row `s` of rank `d`'s `target`
    (both `[NR, SIZE]`, different buffers, one element type). Example:

    ```mlir
    %r = pld.tensor.all_to_all %in, %out, %sig : !pl.tensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<?x1xi32>
    ```
  }];
  let arguments = (ins PLD_TensorLike:$input, PLD_AnyDistributedTensor:$target,
                       PLD_AnyDistributedTensor:$signal);
  let results = (outs PLD_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $input `,` $target `,` $signal attr-dict `:` qualified(type($input)) `,`
    qualified(type($target)) `,` qualified(type($signal))
  }];
}

def PLD_AllToAllVOp : PLD_CollectiveOp<"all_to_all_v", [AllTypesMatch<["target", "result"]>]> {
  let ptoTiedOperand = 1;
  let summary = "Exchange variable-length row blocks between ranks";
  let description = [{
    Rank `s` pushes its block `input[d*MAX : (d+1)*MAX]` into rank `d`'s
    `target[s*MAX : (s+1)*MAX]` and publishes `min(send_counts[d], MAX)`
    into `d`'s `recv_counts[s, 0]`; rows past the count are garbage.
    `target` is `[NR*MAX, SIZE]` with a constant row count, `signal` and
    `recv_counts` are i32 `[NR, 1]` with constant NR dividing it,
    `send_counts` i32 `[NR]` or `[NR, 1]`. Example:

    ```mlir
    %r = pld.tensor.all_to_all_v %in, %out, %sig, %send, %recv : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pl.tensor<4xi32>, !pld.dtensor<4x1xi32>
    ```
  }];
  let arguments = (ins PLD_TensorLike:$input, PLD_AnyDistributedTensor:$target,
                       PLD_AnyDistributedTensor:$signal, PLD_TensorLike:$send_counts,
                       PLD_AnyDistributedTensor:$recv_counts);
  let results = (outs PLD_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $input `,` $target `,` $signal `,` $send_counts `,` $recv_counts attr-dict `:`
    qualified(type($input)) `,` qualified(type($target)) `,` qualified(type($signal)) `,`
    qualified(type($send_counts)) `,` qualified(type($recv_counts))
  }];
}

//===----------------------------------------------------------------------===//
// Host builtin collectives: what pld-lower-host-collectives
// turns host-orchestrator collectives into. Each runs a hand-written
// collective kernel on device `device`; `directions` are the runtime
// argument directions, one per tensor operand.
//===----------------------------------------------------------------------===//

def PLD_BuiltinAllreduceOp : PLD_Op<"builtin.allreduce", [MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "builtin_collective";
  let summary = "Host builtin mesh allreduce";
  let description = [{
    Runs the mesh allreduce kernel on `device` over `src` (f16/f32, the
    `dtype` attribute matching) with an i32 `signal` of rank 1 (`cores` 1)
    or `[W, lanes]` with constant lanes >= `cores`. Example:

    ```mlir
    pld.builtin.allreduce %src, %sig sum f32 cores 1 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$src, PLD_AnyDistributedTensor:$signal,
                       PLD_ReduceOp:$op, TypeAttr:$dtype, I64Attr:$cores, Index:$device,
                       ArrayAttr:$directions);
  let assemblyFormat = [{
    $src `,` $signal $op $dtype `cores` $cores `on` $device `directions` $directions attr-dict
    `:` type(operands)
  }];
}

def PLD_BuiltinAllreduceRingOp : PLD_Op<"builtin.allreduce_ring", [MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "builtin_collective";
  let summary = "Host builtin ring allreduce";
  let description = [{
    Runs the ring allreduce kernel (sum, f32) on `device`; `signal` is i32
    `[2*(NR-1)+1, NR]` (an extra row for the return barrier) with constant
    NR <= 16 dividing the element count of `src`. Example:

    ```mlir
    pld.builtin.allreduce_ring %src, %sig sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<7x4xi32>, index
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$src, PLD_AnyDistributedTensor:$signal,
                       PLD_ReduceOp:$op, TypeAttr:$dtype, Index:$device, ArrayAttr:$directions);
  let assemblyFormat = [{
    $src `,` $signal $op $dtype `on` $device `directions` $directions attr-dict `:` type(operands)
  }];
}

def PLD_BuiltinBarrierOp : PLD_Op<"builtin.barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "builtin_collective";
  let summary = "Host builtin barrier";
  let description = [{
    Runs the barrier kernel on `device` over an i32 rank-1 `signal`.
    Example:

    ```mlir
    pld.builtin.barrier %sig on %dev directions [#pl.direction<inout>] : !pld.dtensor<8xi32>, index
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$signal, Index:$device, ArrayAttr:$directions);
  let assemblyFormat = "$signal `on` $device `directions` $directions attr-dict `:` type(operands)";
}

def PLD_BuiltinBroadcastOp : PLD_Op<"builtin.broadcast", [MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "builtin_collective";
  let summary = "Host builtin broadcast";
  let description = [{
    Runs the broadcast kernel (f32) on `device`: `target` from rank `root`
    (>= 0), over an i32 rank-1 `signal`. Example:

    ```mlir
    pld.builtin.broadcast %t, %sig root 0 f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$target, PLD_AnyDistributedTensor:$signal,
                       I64Attr:$root, TypeAttr:$dtype, Index:$device, ArrayAttr:$directions);
  let assemblyFormat = [{
    $target `,` $signal `root` $root $dtype `on` $device `directions` $directions attr-dict `:` type(operands)
  }];
}

def PLD_BuiltinReduceScatterOp : PLD_Op<"builtin.reduce_scatter", [MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "builtin_collective";
  let summary = "Host builtin reduce_scatter";
  let description = [{
    Runs the reduce_scatter kernel (sum, f32) on `device` over a
    `[NR, SIZE]` `target` and an i32 rank-1 `signal`. Example:

    ```mlir
    pld.builtin.reduce_scatter %t, %sig sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$target, PLD_AnyDistributedTensor:$signal,
                       PLD_ReduceOp:$op, TypeAttr:$dtype, Index:$device, ArrayAttr:$directions);
  let assemblyFormat = [{
    $target `,` $signal $op $dtype `on` $device `directions` $directions attr-dict `:` type(operands)
  }];
}

class PLD_BuiltinExchangeOp<string mnemonic, string summaryText, string rule>
    : PLD_Op<"builtin." # mnemonic, [MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "builtin_collective";
  let summary = summaryText;
  let description = "Runs the " # mnemonic # " kernel (f32) on `device`. "
      # rule # " `signal` is i32 `[W]` or `[W, 1]`." # [{

Example:

```mlir
pld.builtin.}] # mnemonic # [{ %in, %out, %sig f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<}] # !if(!eq(mnemonic, "allgather"), "1", "4") # [{x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<4xi32>, index
```
}];
  let arguments = (ins PLD_AnyDistributedTensor:$input, PLD_AnyDistributedTensor:$target,
                       PLD_AnyDistributedTensor:$signal, TypeAttr:$dtype, Index:$device,
                       ArrayAttr:$directions);
  let assemblyFormat = [{
    $input `,` $target `,` $signal $dtype `on` $device `directions` $directions attr-dict `:` type(operands)
  }];
}

def PLD_BuiltinAllgatherOp : PLD_BuiltinExchangeOp<"allgather", "Host builtin allgather",
    "`input` is a window-bound `[1, SIZE]` row, `target` `[NR, SIZE]`.">;
def PLD_BuiltinAllToAllOp : PLD_BuiltinExchangeOp<"all_to_all", "Host builtin all_to_all",
    "`input` and `target` are distinct window-bound `[NR, SIZE]` tensors.">;

def PLD_BuiltinAllToAllVOp : PLD_Op<"builtin.all_to_all_v", [MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "builtin_collective";
  let summary = "Host builtin all_to_all_v";
  let description = [{
    Runs the all_to_all_v kernel (f32) on `device`. As
    `pld.tensor.all_to_all_v`, with `input` and `send_counts` window-bound
    and the five windows pairwise distinct. Example:

    ```mlir
    pld.builtin.all_to_all_v %in, %out, %sig, %send, %recv f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>, #pl.direction<in>, #pl.direction<inout>] : !pld.dtensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4x1xi32>, index
    ```
  }];
  let arguments = (ins PLD_AnyDistributedTensor:$input, PLD_AnyDistributedTensor:$target,
                       PLD_AnyDistributedTensor:$signal, PLD_AnyDistributedTensor:$send_counts,
                       PLD_AnyDistributedTensor:$recv_counts, TypeAttr:$dtype, Index:$device,
                       ArrayAttr:$directions);
  let assemblyFormat = [{
    $input `,` $target `,` $signal `,` $send_counts `,` $recv_counts $dtype `on` $device
    `directions` $directions attr-dict `:` type(operands)
  }];
}

//===----------------------------------------------------------------------===//
// Host dispatch
//===----------------------------------------------------------------------===//

def PLD_DispatchOp : PLD_Op<"dispatch", [DeclareOpInterfaceMethods<SymbolUserOpInterface>,
                                         MemoryEffects<[MemRead, MemWrite]>, PL_TaskCall]> {
  let ptoFamily = "call";
  let summary = "Run a chip orchestration on one device";
  let description = [{
    From a host orchestrator, runs chip orchestration `callee` on worker
    `device` (an index into the program's device list). Operand and result
    types match the callee. Example:

    ```mlir
    pld.dispatch @chip(%data, %sig) on %r : (!pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>) -> ()
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args, Index:$device);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$callee `(` $args `)` `on` $device attr-dict `:` functional-type($args, $results)";
}

//===----------------------------------------------------------------------===//
// Comm domains (docs/passes/pld-materialize-comm-domains.md)
//===----------------------------------------------------------------------===//

def PLD_YieldOp : PLD_Op<"yield", [Pure, Terminator, ReturnLike, ParentOneOf<["CommDomainOp"]>]> {
  let ptoFamily = "terminator";
  let summary = "Ends a comm-domain body";
  let description = [{
    Ends the body of `pld.comm_domain`. Example:

    ```mlir
    pld.yield
    ```
  }];
  let builders = [OpBuilder<(ins), [{ /* no operands */ }]>];
  let assemblyFormat = "attr-dict";
}

def PLD_CommDomainOp : PLD_Op<"comm_domain", [SingleBlockImplicitTerminator<"YieldOp">,
                                              RecursiveMemoryEffects, PL_Scope]> {
  let ptoFamily = "scope";
  let summary = "A set of devices sharing window buffers";
  let description = [{
    Its body's window buffers (`slots`, in allocation order) live in the
    windows of the devices in `devices` (sorted worker indices; empty: all
    devices), which share one communicator. Ranks inside are domain-local.
    Host orchestrators only; materialised by `pld-materialize-comm-domains`.
    Example:

    ```mlir
    pld.comm_domain "comm_d0" devices [0, 1] slots ["signal", "data"] {
      pld.yield
    }
    ```
  }];
  let arguments = (ins StrAttr:$sym_name, DenseI64ArrayAttr:$devices, StrArrayAttr:$slots);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name `devices` $devices `slots` $slots $body attr-dict";
}

#endif // PTO_PLD_OPS_TD
