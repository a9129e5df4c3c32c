//===- PLPrefetchOps.td - asynchronous L2 prefetches ------*- tablegen -*-===//
//
// Cache hints a vector kernel gives before it loads: pto-isa's
// TPREFETCH_ASYNC stages a tensor into the L2 cache through the SDMA
// engine so that later loads hit. They write no value: a program computes
// the same with or without them. Rules in dialects/src/verify/system.rs.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_PREFETCH_OPS_TD
#define PTO_PL_PREFETCH_OPS_TD

include "PLOps.td"

def PL_PrefetchMakeContextOp : PL_Op<"prefetch.make_context"> {
  let ptoFamily = "prefetch";
  let summary = "A context for asynchronous L2 prefetches";
  let description = [{
    Returns a fresh prefetch context of the vector kernel it sits in (an
    `aiv` kernel, or an InCore one). Its session with the SDMA engine is
    built at the first prefetch from the SDMA workspace the runtime gives
    the kernel; without one (the kernels pto-translate writes take none
    yet) pto-isa issues no prefetch. Example:

    ```mlir
    %ctx = pl.prefetch.make_context : !pl.prefetch_context
    ```
  }];
  let results = (outs Res<PL_PrefetchContextType, "", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def PL_PrefetchAsyncPrefetchOp : PL_Op<"prefetch.async_prefetch",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "prefetch";
  let summary = "Start staging a tensor into the L2 cache";
  let description = [{
    Starts prefetching the whole of `source` (a tensor in global memory,
    packed row-major) into the L2 cache through `context`'s SDMA session
    and returns the event of its completion: pto-isa's TPREFETCH_ASYNC.
    It changes no value; its effects (a read of global memory, and a write
    of the context's state) keep it in place among the kernel's loads.
    Example:

    ```mlir
    %e = pl.prefetch.async_prefetch %w, %ctx : !pl.tensor<64x128xf16>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, PL_PrefetchContextType:$ctx);
  let results = (outs PL_AsyncEventType:$result);
  let assemblyFormat = "$source `,` $ctx attr-dict `:` qualified(type($source))";
}

def PL_PrefetchSessionOp : PL_Op<"prefetch.session", [Pure]> {
  let ptoFamily = "prefetch";
  let summary = "The SDMA session of a prefetch context";
  let description = [{
    Returns `context`'s session, in which its prefetches' events are
    waited for. Example:

    ```mlir
    %s = pl.prefetch.session %ctx
    ```
  }];
  let arguments = (ins PL_PrefetchContextType:$ctx);
  let results = (outs PL_AsyncSessionType:$result);
  let assemblyFormat = "$ctx attr-dict";
}

def PL_PrefetchWaitOp : PL_Op<"prefetch.wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoFamily = "prefetch";
  let summary = "Wait for a prefetch to complete";
  let description = [{
    Waits until the prefetch of `event` has completed in `session` and
    returns whether it did (true; also for a prefetch pto-isa did not
    issue). Example:

    ```mlir
    %done = pl.prefetch.wait %e, %s
    ```
  }];
  let arguments = (ins PL_AsyncEventType:$event, PL_AsyncSessionType:$session);
  let results = (outs I1:$result);
  let assemblyFormat = "$event `,` $session attr-dict";
}

#endif // PTO_PL_PREFETCH_OPS_TD
