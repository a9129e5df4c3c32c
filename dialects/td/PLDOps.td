//===- PLDOps.td - pld operations --------------------------*- tablegen -*-===//

#ifndef PTO_PLD_OPS_TD
#define PTO_PLD_OPS_TD

include "PLDTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// pld.system.*: ranks and signals
//===----------------------------------------------------------------------===//

def PLD_GetCommCtxOp : PLD_Op<"system.get_comm_ctx", [Pure]> {
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

def PLD_WaitOp : PLD_Op<"system.wait"> {
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

#endif // PTO_PLD_OPS_TD
