//===- PLCrossCoreOps.td - pl cross-core pipes --------------*- tablegen -*-===//
//
// The cube core (aic) and the two vector cores (aiv) of a core group are
// separate cores: a tile crosses between them through a pipe, a ring of
// slots in the consuming core's memory (and, on a2a3, in global memory).
// The producer pushes a tile into the next free slot, the consumer pops the
// oldest full slot into a tile of its own and frees the slot when it is
// done with the tile. A pipe is set up once per kernel (`*_initialize_pipe`)
// on a buffer the consumer reserves (`reserve_buffer`) and the producer
// imports (`import_peer_buffer`). docs/pl-guide.md, "Mixed kernels".
//
// Pushes, pops, frees and the set-up change the pipe, so they read and
// write memory: no upstream pass removes, merges or reorders them.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_CROSS_CORE_OPS_TD
#define PTO_PL_CROSS_CORE_OPS_TD

include "PLTypes.td"
include "PLTraits.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"

//===----------------------------------------------------------------------===//
// Transport
//===----------------------------------------------------------------------===//

def PL_TPushToAivOp : PL_Op<"tile.tpush_to_aiv", [PL_OrdersMemory]> {
  let ptoFamily = "cross_core";
  let ptoPipe = "fix";
  let summary = "Push a cube tile to the vector cores";
  let description = [{
    In an aic kernel: waits for a free slot of the cube-to-vector pipe `id`
    and writes `tile` (an `acc` tile, the product of a matmul) into it. The
    vector cores of the group pop it with `pl.tile.tpop_from_aic` of the
    same `split`: `none` gives each running vector core the whole tile (a
    group whose pipes are all `none` runs vector core 0 alone: a2a3's
    one-to-one mode), `up_down` gives vector core 0 the upper half of the
    rows and core 1 the lower half, `left_right` halves the columns. Example:

    ```mlir
    pl.tile.tpush_to_aiv %acc up_down : !pl.tile<16x32xf32, acc>
    ```
  }];
  let arguments = (ins PL_AnyTile:$tile, PL_CoreSplit:$split,
                       DefaultValuedAttr<I32Attr, "0">:$id);
  let assemblyFormat = "$tile $split (`id` $id^)? attr-dict `:` qualified(type($tile))";
}

def PL_TPushToAicOp : PL_Op<"tile.tpush_to_aic", [PL_OrdersMemory]> {
  let ptoFamily = "cross_core";
  let ptoPipe = "mte3";
  let summary = "Push a vector tile to the cube core";
  let description = [{
    In an aiv kernel: waits for a free slot of the vector-to-cube pipe
    `id` and writes `tile` (a `vec` tile) into it. With `up_down` each
    vector core writes its half of the rows (core 0 the upper half), with
    `left_right` its half of the columns, and the slot is full once both
    have; with `none` each running vector core writes the whole tile,
    which must then be the same (a group whose pipes are all `none` runs
    vector core 0 alone). The cube core pops the joined tile with
    `pl.tile.tpop_from_aiv`.
    Example:

    ```mlir
    pl.tile.tpush_to_aic %v up_down : !pl.tile<8x32xf16, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$tile, PL_CoreSplit:$split,
                       DefaultValuedAttr<I32Attr, "0">:$id);
  let assemblyFormat = "$tile $split (`id` $id^)? attr-dict `:` qualified(type($tile))";
}

def PL_TPopFromAicOp : PL_Op<"tile.tpop_from_aic", [PL_OrdersMemory]> {
  let ptoFamily = "cross_core";
  let ptoPipe = "mte2";
  let summary = "Pop a tile the cube core pushed";
  let description = [{
    In an aiv kernel: waits until the oldest slot of the cube-to-vector
    pipe `id` is full and returns this vector core's part of it (a `vec`
    tile: the whole pushed tile with `none`, its half by `split`
    otherwise). The slot stays this core's until `pl.system.tfree_to_aic`
    of the result. Example:

    ```mlir
    %t = pl.tile.tpop_from_aic up_down : !pl.tile<8x32xf32, vec>
    ```
  }];
  let arguments = (ins PL_CoreSplit:$split, DefaultValuedAttr<I32Attr, "0">:$id);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$split (`id` $id^)? attr-dict `:` qualified(type($result))";
}

def PL_TPopFromAivOp : PL_Op<"tile.tpop_from_aiv", [PL_OrdersMemory]> {
  let ptoFamily = "cross_core";
  let ptoPipe = "mte2";
  let summary = "Pop a tile the vector cores pushed";
  let description = [{
    In an aic kernel: waits until the oldest slot of the vector-to-cube
    pipe `id` is full and returns it as a `mat` tile: the vector cores'
    halves joined by `split`, or the one tile both pushed with `none`. The
    slot stays the cube core's until `pl.system.tfree_to_aiv` of the
    result. Example:

    ```mlir
    %m = pl.tile.tpop_from_aiv up_down : !pl.tile<16x32xf16, mat>
    ```
  }];
  let arguments = (ins PL_CoreSplit:$split, DefaultValuedAttr<I32Attr, "0">:$id);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$split (`id` $id^)? attr-dict `:` qualified(type($result))";
}

def PL_TFreeToAicOp : PL_Op<"system.tfree_to_aic", [PL_OrdersMemory]> {
  let ptoFamily = "cross_core";
  let summary = "Give a popped slot back to the cube core";
  let description = [{
    In an aiv kernel, after the last use of `tile`, the result of a
    `pl.tile.tpop_from_aic`: its slot is free for the cube core's next
    push once every vector core that popped it has freed it. Example:

    ```mlir
    pl.system.tfree_to_aic %t : !pl.tile<8x32xf32, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$tile);
  let assemblyFormat = "$tile attr-dict `:` qualified(type($tile))";
}

def PL_TFreeToAivOp : PL_Op<"system.tfree_to_aiv", [PL_OrdersMemory]> {
  let ptoFamily = "cross_core";
  let summary = "Give a popped slot back to the vector cores";
  let description = [{
    In an aic kernel, after the last use of `tile`, the result of a
    `pl.tile.tpop_from_aiv`: its slot is free for the vector cores' next
    push. Example:

    ```mlir
    pl.system.tfree_to_aiv %m : !pl.tile<16x32xf16, mat>
    ```
  }];
  let arguments = (ins PL_AnyTile:$tile);
  let assemblyFormat = "$tile attr-dict `:` qualified(type($tile))";
}

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

def PL_ReserveBufferOp : PL_Op<"system.reserve_buffer", [PL_OrdersMemory]> {
  let ptoFamily = "cross_core";
  let summary = "Reserve a consumer's ring of pipe slots";
  let description = [{
    In the kernel that consumes a pipe (the aiv kernel for cube-to-vector,
    the aic kernel for vector-to-cube): sets `size` bytes of its memory
    (`vec` on a vector core, `mat` on the cube core) aside for the pipe's
    slots, at address `base` when given (else where memory planning puts
    it), and returns its address for the `*_initialize_pipe`. The peer
    kernel finds it by `name`. Example:

    ```mlir
    %ring = pl.system.reserve_buffer "k_c2v" size 4096 : i32
    ```
  }];
  let arguments = (ins StrAttr:$name, I64Attr:$size, OptionalAttr<I64Attr>:$base);
  let results = (outs I32:$address);
  let assemblyFormat = "$name `size` $size (`base` $base^)? attr-dict `:` type($address)";
}

def PL_ImportPeerBufferOp : PL_Op<"system.import_peer_buffer",
    [PL_OrdersMemory, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let ptoFamily = "cross_core";
  let summary = "The address of the ring a peer kernel reserved";
  let description = [{
    In the kernel that produces into a pipe: the address of the buffer
    `name` that kernel `peer`, the other half of the core group, reserves
    with `pl.system.reserve_buffer`. `base` records that address once the
    peer's memory is planned (pto-translate records it before it
    translates each kernel on its own); it must be the reservation's, and
    an import that has it may stand without its peer in the module.
    Example:

    ```mlir
    %ring = pl.system.import_peer_buffer "k_c2v" from @k_aiv : i32
    ```
  }];
  let arguments = (ins StrAttr:$name, FlatSymbolRefAttr:$peer, OptionalAttr<I64Attr>:$base);
  let results = (outs I32:$address);
  let assemblyFormat = "$name `from` $peer (`base` $base^)? attr-dict `:` type($address)";
}

class PL_InitializePipeOp<string core, string summaryText, string c2vRole, string v2cRole>
    : PL_Op<"system." # core # "_initialize_pipe", [PL_OrdersMemory, AttrSizedOperandSegments]> {
  let ptoFamily = "cross_core";
  let summary = summaryText;
  let description = "Sets up pipe `id` of this " # core # " kernel before its "
      # "first push or pop: the ways it carries tiles (`c2v`, `v2c` or "
      # "`both`), the bytes of one slot (`slot_size`, a multiple of 32 at "
      # "least the largest tile pushed) and the ring's depth (`slots`; "
      # "`local` slots of the consumer's memory, at most `slots`, default "
      # "`slots`). The operands are the rings' addresses: for `c2v` the "
      # "vector cores' ring (" # c2vRole # "), for `v2c` the cube core's ("
      # v2cRole # "). On a2a3 a tile crosses through global memory: `gm` "
      # "is the pipe's slot buffer there, a parameter of the kernel of at "
      # "least `slot_size` × `slots` bytes that the group passes to both "
      # "kernels (pl-inject-gm-pipe-buffer adds it; pto-run does without). "
      # "Both kernels of the group set the pipe up alike. "
      # "Example:\n\n```mlir\npl.system." # core # "_initialize_pipe c2v "
      # "c2v %ring gm %slots : !pl.tensor<4096xi8> slot_size 2048 slots 2\n```\n";
  let arguments = (ins PL_PipeDirections:$directions, Optional<I32>:$c2v_buffer,
                       Optional<I32>:$v2c_buffer, Optional<PL_AnyTensor>:$gm_buffer,
                       I64Attr:$slot_size, I64Attr:$slot_num,
                       OptionalAttr<I64Attr>:$local_slot_num,
                       DefaultValuedAttr<I32Attr, "0">:$id);
  let assemblyFormat = [{
    $directions (`c2v` $c2v_buffer^)? (`v2c` $v2c_buffer^)?
    (`gm` $gm_buffer^ `:` qualified(type($gm_buffer)))? `slot_size` $slot_size
    `slots` $slot_num (`local` $local_slot_num^)? (`id` $id^)? attr-dict
  }];
}

def PL_AicInitializePipeOp : PL_InitializePipeOp<"aic", "Set up a pipe on the cube core",
    "imported", "reserved">;
def PL_AivInitializePipeOp : PL_InitializePipeOp<"aiv", "Set up a pipe on a vector core",
    "reserved", "imported">;

//===----------------------------------------------------------------------===//
// Boundaries of a mixed kernel, before pl-expand-mixed-kernel
//===----------------------------------------------------------------------===//

class PL_CoreBoundaryOp<string group, string mnemonic, string summaryText, string what,
                        string example, Type valueType>
    : PL_Op<group # "." # mnemonic, [Pure]> {
  let ptoFamily = "core_boundary";
  let summary = summaryText;
  let description = "In a mixed kernel: marks `value` as crossing " # what
      # ". With `up_down` the result has half (`aiv_shard`) or twice "
      # "(`aic_gather`) the rows, with `left_right` the columns, with "
      # "`none` the same shape. pl-expand-mixed-kernel makes it a push and a "
      # "pop of the same split. Example:\n\n```mlir\n" # example # "\n```\n";
  let arguments = (ins valueType:$value, PL_CoreSplit:$split);
  let results = (outs valueType:$result);
  let assemblyFormat = [{
    $value $split attr-dict `:` qualified(type($value)) `->` qualified(type($result))
  }];
}

def PL_TileAivShardOp : PL_CoreBoundaryOp<"tile", "aiv_shard",
    "Hand a cube tile to the vector cores, split between them",
    "from the cube core to the vector cores, each taking its part",
    "%h = pl.tile.aiv_shard %acc up_down : !pl.tile<16x32xf32, acc> -> !pl.tile<8x32xf32, vec>",
    PL_AnyTile>;
def PL_TileAicGatherOp : PL_CoreBoundaryOp<"tile", "aic_gather",
    "Hand the vector cores' parts of a tile to the cube core",
    "from the vector cores to the cube core, joined",
    "%m = pl.tile.aic_gather %h up_down : !pl.tile<8x32xf16, vec> -> !pl.tile<16x32xf16, mat>",
    PL_AnyTile>;
def PL_TensorAivShardOp : PL_CoreBoundaryOp<"tensor", "aiv_shard",
    "Hand a cube result to the vector cores, split between them",
    "from the cube core to the vector cores, each taking its part",
    "%h = pl.tensor.aiv_shard %c up_down : !pl.tensor<16x32xf32> -> !pl.tensor<8x32xf32>",
    PL_TensorLike> {
  let ptoTileForm = "pl.tile.aiv_shard";
}
def PL_TensorAicGatherOp : PL_CoreBoundaryOp<"tensor", "aic_gather",
    "Hand the vector cores' parts of a value to the cube core",
    "from the vector cores to the cube core, joined",
    "%m = pl.tensor.aic_gather %h up_down : !pl.tensor<8x32xf16> -> !pl.tensor<16x32xf16>",
    PL_TensorLike> {
  let ptoTileForm = "pl.tile.aic_gather";
}

#endif // PTO_PL_CROSS_CORE_OPS_TD
