//===- PLSystemOps.td - pl system ops ----------------------*- tablegen -*-===//
//
// Barriers, fences, pipe and cross-core synchronisation, block queries.
// Barriers and syncs read and write memory, so no generic pass moves a
// load or store across them.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_SYSTEM_OPS_TD
#define PTO_PL_SYSTEM_OPS_TD

include "PLTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class PL_BarrierOp<string mnemonic, string pipes>
    : PL_Op<"system." # mnemonic, [PL_OrdersMemory]> {
  let ptoFamily = "sync";
  let summary = "Barrier on " # pipes;
  let description = "Waits until every instruction issued before it on "
      # pipes # " has completed. Example:\n\n```mlir\npl.system."
      # mnemonic # "\n```\n";
  let assemblyFormat = "attr-dict";
}

def PL_BarAllOp : PL_BarrierOp<"bar_all", "every pipe">;
def PL_BarVOp : PL_BarrierOp<"bar_v", "the vector pipe">;
def PL_BarMOp : PL_BarrierOp<"bar_m", "the cube pipe">;

def PL_FenceOp : PL_Op<"system.fence", [PL_OrdersMemory]> {
  let ptoFamily = "memory_order";
  let ptoPipe = "s";
  let summary = "Order global-memory accesses";
  let description = [{
    Global-memory accesses issued before the fence complete before any
    issued after it. Example:

    ```mlir
    pl.system.fence
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def PL_CacheInvalidOp : PL_Op<"system.cacheinvalid", [PL_OrdersMemory]> {
  let ptoFamily = "memory_order";
  let ptoPipe = "s";
  let summary = "Invalidate cached lines of global memory";
  let description = [{
    Drops the data cache's copy of `tensor` (or of all global memory when
    no tensor is given), so later reads see other cores' and ranks' writes.
    Example:

    ```mlir
    pl.system.cacheinvalid on %t : !pl.tensor<64xf32>
    pl.system.cacheinvalid
    ```
  }];
  let arguments = (ins Optional<PL_TensorLike>:$tensor);
  let assemblyFormat = "(`on` $tensor^ `:` qualified(type($tensor)))? attr-dict";
}

def PL_SyncSrcOp : PL_Op<"system.sync_src", [PL_OrdersMemory]> {
  let ptoFamily = "sync";
  let summary = "Signal a pipe-to-pipe event (set_flag)";
  let description = [{
    `set` signals event `event` (0 to 7) once its earlier instructions are
    done, for `wait` to consume with the matching `pl.system.sync_dst`. The
    two pipes differ. Example:

    ```mlir
    pl.system.sync_src set mte2 wait v event 0
    ```
  }];
  let arguments = (ins PL_Pipe:$set_pipe, PL_Pipe:$wait_pipe, I32Attr:$event);
  let assemblyFormat = "`set` $set_pipe `wait` $wait_pipe `event` $event attr-dict";
}

def PL_SyncDstOp : PL_Op<"system.sync_dst", [PL_OrdersMemory]> {
  let ptoFamily = "sync";
  let summary = "Wait for a pipe-to-pipe event (wait_flag)";
  let description = [{
    Blocks `wait` until `set` signalled event `event` (0 to 7) with the
    matching `pl.system.sync_src`. Example:

    ```mlir
    pl.system.sync_dst set mte2 wait v event 0
    ```
  }];
  let arguments = (ins PL_Pipe:$set_pipe, PL_Pipe:$wait_pipe, I32Attr:$event);
  let assemblyFormat = "`set` $set_pipe `wait` $wait_pipe `event` $event attr-dict";
}

def PL_PipeBarrierOp : PL_Op<"system.pipe_barrier", [PL_OrdersMemory]> {
  let ptoFamily = "sync";
  let summary = "Order one pipe's instructions (pipe_barrier)";
  let description = [{
    The instructions of `pipe` issued after it start once those issued
    before it are done (`all`: every pipe). `pl-insert-sync` places it
    between dependent instructions of one pipe. Example:

    ```mlir
    pl.system.pipe_barrier v
    ```
  }];
  let arguments = (ins PL_Pipe:$pipe);
  let assemblyFormat = "$pipe attr-dict";
}

def PL_SyncSetOp : PL_Op<"system.sync_set", [PL_OrdersMemory]> {
  let ptoFamily = "sync";
  let summary = "Signal a cross-core event";
  let description = [{
    Signals cross-core event `event` (0 to 13) once `pipe` is done.
    Example:

    ```mlir
    pl.system.sync_set mte3 event 3
    ```
  }];
  let arguments = (ins PL_Pipe:$pipe, I32Attr:$event);
  let assemblyFormat = "$pipe `event` $event attr-dict";
}

def PL_SyncWaitOp : PL_Op<"system.sync_wait", [PL_OrdersMemory]> {
  let ptoFamily = "sync";
  let summary = "Wait for a cross-core event";
  let description = [{
    Blocks `pipe` until cross-core event `event` (0 to 13) is signalled.
    Example:

    ```mlir
    pl.system.sync_wait mte2 event 3
    ```
  }];
  let arguments = (ins PL_Pipe:$pipe, I32Attr:$event);
  let assemblyFormat = "$pipe `event` $event attr-dict";
}

def PL_SyncAllOp : PL_Op<"system.syncall", [PL_OrdersMemory, AttrSizedOperandSegments]> {
  let ptoFamily = "sync";
  let summary = "Wait until every block of the launch gets here";
  let description = [{
    A barrier across the blocks of an SPMD launch: no block goes past it
    before every block of the launch has reached it. `core_type` names the
    cores that take part: `aiv_only` in a vector kernel, `aic_only` in a
    cube kernel (`mix`, the cube and vector cores of core groups, is refused
    until core groups are translated). `hard` waits on the
    cores' hardware event: the launch must start its blocks together
    (`sync_start`). `soft` polls a counter in `workspace`, a zeroed
    tensor of at least 16 i32 (a 64-byte line of global memory the
    barrier owns), for `used` blocks (all of the launch when absent or 0).
    It orders no data: a block reads another's global-memory writes after
    it only once they are stored and fenced. Example:

    ```mlir
    pl.system.syncall hard aiv_only
    pl.system.syncall soft aiv_only on %ws : !pl.tensor<16xi32> used %n
    ```
  }];
  let arguments = (ins PL_SyncAllMode:$mode, PL_SyncCoreType:$core_type,
                       Optional<PL_TensorLike>:$workspace, Optional<I32>:$used);
  let assemblyFormat = [{
    $mode $core_type (`on` $workspace^ `:` qualified(type($workspace)))? (`used` $used^)? attr-dict
  }];
}

def PL_SetFftsOp : PL_Op<"system.set_ffts", [PL_OrdersMemory]> {
  let ptoFamily = "sync";
  let summary = "Install the cross-core event base address";
  let description = [{
    Points the core's cross-core events (FFTS) at `workspace`, a 1-D
    tensor of at least 256 i64 the runtime provides, before the kernel's
    first cross-core event. a2a3 only; a persistent runtime that keeps the
    address installed makes it a formality. Example:

    ```mlir
    pl.system.set_ffts %ws : !pl.tensor<256xi64>
    ```
  }];
  let arguments = (ins PL_TensorLike:$workspace);
  let assemblyFormat = "$workspace attr-dict `:` qualified(type($workspace))";
}

class PL_BlockQueryOp<string mnemonic, string what>
    : PL_Op<"tile." # mnemonic, [Pure]> {
  let ptoFamily = "block_query";
  let summary = "The " # what;
  let description = "Returns the " # what # " of the executing core (an "
      # "`index`). Example:\n\n```mlir\n%i = pl.tile." # mnemonic # "\n```\n";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def PL_GetBlockIdxOp : PL_BlockQueryOp<"get_block_idx", "index of this block in a multi-block launch">;
def PL_GetBlockNumOp : PL_BlockQueryOp<"get_block_num", "number of blocks of the launch">;
def PL_GetSubblockIdxOp : PL_BlockQueryOp<"get_subblock_idx", "index of this vector core within its core group">;

// The same queries in tensor-level code (PyPTO's `pl.tensor.get_block_idx`),
// which pl-convert-tensor-to-tile makes their tile forms.
class PL_TensorBlockQueryOp<string mnemonic, string what>
    : PL_Op<"tensor." # mnemonic, [PL_TensorCompute]> {
  let ptoFamily = "block_query";
  let ptoTileForm = "pl.tile." # mnemonic;
  let summary = "The " # what;
  let description = "Returns the " # what # " of the executing core (an "
      # "`index`), as `pl.tile." # mnemonic # "`. Example:\n\n```mlir\n%i = "
      # "pl.tensor." # mnemonic # "\n```\n";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def PL_TensorGetBlockIdxOp : PL_TensorBlockQueryOp<"get_block_idx", "index of this block in a multi-block launch">;
def PL_TensorGetBlockNumOp : PL_TensorBlockQueryOp<"get_block_num", "number of blocks of the launch">;
def PL_TensorGetSubblockIdxOp : PL_TensorBlockQueryOp<"get_subblock_idx", "index of this vector core within its core group">;

//===----------------------------------------------------------------------===//
// Tasks and the device's size, in orchestrations
//===----------------------------------------------------------------------===//

def PL_TaskDummyOp : PL_Op<"system.task_dummy", [Pure]> {
  let ptoFamily = "task";
  let summary = "A task that runs nothing, done once its dependencies are";
  let description = [{
    Submits a task with no kernel that completes once every task of `deps`
    has (an invalid id among them, from `pl.system.task_invalid`, adds no
    dependency) and returns its id: one id for many, so that M consumers
    of N producers need N + M dependencies instead of N * M. With no valid
    dependency it is done at once. It sits in an orchestration. Example:

    ```mlir
    %all = pl.system.task_dummy deps(%t0, %t1, %t2)
    %o, %t = pl.submit @k(%x, %y) deps(%all) : (!T, !T) -> !T
    ```
  }];
  let arguments = (ins Variadic<PL_TaskIdType>:$deps);
  let results = (outs PL_TaskIdType:$result);
  let assemblyFormat = "(`deps` `(` $deps^ `)`)? attr-dict";
}

def PL_TaskInvalidOp : PL_Op<"system.task_invalid", [Pure]> {
  let ptoFamily = "task";
  let summary = "The id of no task";
  let description = [{
    Returns the invalid task id (PyPTO's `None` as a dependency): a
    dependency on it is none, `pl.system.task_is_valid` of it is false. It
    seeds loop-carried ids. It sits in an orchestration. Example:

    ```mlir
    %none = pl.system.task_invalid
    ```
  }];
  let results = (outs PL_TaskIdType:$result);
  let assemblyFormat = "attr-dict";
}

def PL_TaskIsValidOp : PL_Op<"system.task_is_valid", [Pure]> {
  let ptoFamily = "task";
  let summary = "Whether a task id names a task";
  let description = [{
    Returns whether `task` is the id of a submitted task, not
    `pl.system.task_invalid`'s. It sits in an orchestration. Example:

    ```mlir
    %v = pl.system.task_is_valid %t
    ```
  }];
  let arguments = (ins PL_TaskIdType:$task);
  let results = (outs I1:$result);
  let assemblyFormat = "$task attr-dict";
}

class PL_CoreCountOp<string mnemonic, string what>
    : PL_Op<"system." # mnemonic, [Pure]> {
  let ptoFamily = "task";
  let summary = "The number of " # what # " the runtime launches on";
  let description = "Returns the number of " # what # " of the device (an "
      # "`i32`, fixed while the program runs): the block count of an SPMD "
      # "launch that fills it, one block per core. It sits in an "
      # "orchestration. Example:\n\n```mlir\n%n = pl.system." # mnemonic
      # "\n```\n";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def PL_AvailableClusterCountOp : PL_CoreCountOp<"available_cluster_count",
    "core groups (one cube core and its vector cores each)">;
def PL_AvailableAivCountOp : PL_CoreCountOp<"available_aiv_count", "vector cores">;

#endif // PTO_PL_SYSTEM_OPS_TD
