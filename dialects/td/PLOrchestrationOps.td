//===- PLOrchestrationOps.td - pl kernel dispatch and scopes -*- tablegen -*-===//
//
// How orchestration dispatches kernels and the InCore scope
// (docs/pl-guide.md, "Dispatch and scopes"). Callee checks run in Rust
// (dialects/src/verify/functions.rs).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_ORCHESTRATION_OPS_TD
#define PTO_PL_ORCHESTRATION_OPS_TD

include "PLTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def PL_CallOp : PL_Op<"call", [DeclareOpInterfaceMethods<SymbolUserOpInterface>, PL_TaskCall]> {
  let ptoFamily = "call";
  let summary = "Dispatch a kernel as one task";
  let description = [{
    Runs kernel `callee` (a function of kind incore, aic, aiv, group or
    spmd) as one task of the orchestration. Operand and result types match
    the callee's signature; results are the tensors the kernel writes (its
    out and inout parameters). Example:

    ```mlir
    %o2 = pl.call @add_kernel(%a, %b, %o) : (!pl.tensor<64x64xf32>, !pl.tensor<64x64xf32>, !pl.tensor<64x64xf32>) -> !pl.tensor<64x64xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$callee `(` $args `)` attr-dict `:` functional-type($args, $results)";
}

// Not a CallOpInterface: its results are the callee's and the task id,
// and passes that rewrite calls and callees together (remove-dead-values)
// take a call's results to be the callee's.
def PL_SubmitOp : PL_Op<"submit", [AttrSizedOperandSegments,
                                   DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let ptoFamily = "call";
  let summary = "Submit a kernel as a task with explicit dependencies";
  let description = [{
    As `pl.call`, and also returns the task's id and waits for the tasks in
    `deps` first. `blocks` launches the kernel on that many blocks (SPMD;
    the kernel reads `pl.tile.get_block_idx`), `sync_start` starts them
    together. Example:

    ```mlir
    %o2, %t = pl.submit @k(%a, %o) deps(%t0) : (!pl.tensor<64xf32>, !pl.tensor<64xf32>) -> !pl.tensor<64xf32>
    %t1 = pl.submit @k2(%o2) blocks %n sync_start : (!pl.tensor<64xf32>) -> ()
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
                       Variadic<PL_TaskIdType>:$deps, Optional<Index>:$blocks,
                       UnitAttr:$sync_start);
  let results = (outs Variadic<AnyType>:$results, PL_TaskIdType:$task);
  let assemblyFormat = [{
    $callee `(` $args `)` (`deps` `(` $deps^ `)`)? (`blocks` $blocks^)? (`sync_start` $sync_start^)?
    attr-dict `:` functional-type($args, $results)
  }];
}

def PL_YieldOp : PL_Op<"yield", [Pure, Terminator, ReturnLike,
                                 ParentOneOf<["InCoreScopeOp", "ClusterScopeOp", "SpmdScopeOp", "RuntimeScopeOp"]>]> {
  let ptoFamily = "terminator";
  let summary = "Values flowing out of a scope";
  let description = [{
    Ends a scope's body; its operands become the scope's results. Example:

    ```mlir
    pl.yield %o : !pl.tensor<64xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def PL_InCoreScopeOp : PL_Op<"incore_scope", [SingleBlockImplicitTerminator<"YieldOp">,
                                              RecursiveMemoryEffects, PL_Scope]> {
  let ptoFamily = "scope";
  let summary = "A block of kernel code inside an orchestration";
  let description = [{
    Its body runs once on the AI cores; values of the enclosing function
    flow in, results flow out through `pl.yield`. Outlining turns it into an
    InCore function and a `pl.call`. Scopes do not nest, and they appear
    only in opaque or orchestration functions. `name` is the outlined
    function's name hint; `split` (`up_down`, `left_right`) becomes the
    kernel's `pl.split`, sharing its vector work between the two vector
    cores (PyPTO's `pl.split` optimisation). Example:

    ```mlir
    %o = pl.incore_scope -> !pl.tensor<64xf32> {
      %t = pl.tile.load %a[%c0] : !pl.tensor<64xf32> -> !pl.tile<64xf32, vec>
      %o2 = pl.tile.store %t, %out[%c0] : !pl.tile<64xf32, vec>, !pl.tensor<64xf32>
      pl.yield %o2 : !pl.tensor<64xf32>
    }
    ```
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$name, OptionalAttr<PL_CoreSplit>:$split);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`name` $name^)? (`split` $split^)? (`->` type($results)^)? $body attr-dict";
}

class PL_ScopeOp<string mnemonic, string summaryText, string descriptionText,
                 dag extraArgs, string format>
    : PL_Op<mnemonic, [SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
                       PL_Scope]> {
  let ptoFamily = "scope";
  let summary = summaryText;
  let description = descriptionText;
  let arguments = extraArgs;
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = format;
}

def PL_ClusterScopeOp : PL_ScopeOp<"cluster_scope",
    "A block run by one cube core and its vector cores together",
    [{
      Its body mixes cube and vector work on one core group; outlining turns
      it into a group function. It sits in an opaque or orchestration
      function. Example:

      ```mlir
      pl.cluster_scope {
        pl.yield
      }
      ```
    }], (ins), "(`->` type($results)^)? $body attr-dict">;

def PL_SpmdScopeOp : PL_ScopeOp<"spmd_scope",
    "A block launched on many blocks at once",
    [{
      Its body runs on `blocks` blocks (`pl.tile.get_block_idx` tells which);
      `sync_start` starts them together. Outlining makes an spmd wrapper. It
      sits in an opaque or orchestration function. Example:

      ```mlir
      pl.spmd_scope blocks %n {
        pl.yield
      }
      ```
    }], (ins Index:$blocks, UnitAttr:$sync_start),
    "`blocks` $blocks (`sync_start` $sync_start^)? (`->` type($results)^)? $body attr-dict">;

def PL_RuntimeScopeOp : PL_ScopeOp<"runtime_scope",
    "A runtime scope of an orchestration",
    [{
      Groups the tasks its body submits into one runtime scope (code
      generation emits `PTO2_SCOPE()`); with `manual`, the runtime does not
      track dependencies and the body passes task ids itself. It sits in an
      orchestration. Example:

      ```mlir
      pl.runtime_scope manual {
        pl.yield
      }
      ```
    }], (ins UnitAttr:$manual), "(`manual` $manual^)? (`->` type($results)^)? $body attr-dict">;

#endif // PTO_PL_ORCHESTRATION_OPS_TD
