//===- PLTraits.td - traits shared by pl and pld ops -------*- tablegen -*-===//
//
// Side effects of tile ops once pl-plan-memory has placed their tiles.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_TRAITS_TD
#define PTO_PL_TRAITS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

// Before memory planning a tile is a value: tile computations are pure and
// upstream passes may hoist, merge or drop them. pl-plan-memory then gives
// every tile an address (`pl.addresses` on the op, `pl.memory` on the
// function), and buffers are reused: two tiles may share one address when
// their lifetimes do not overlap. From then on a tile op reads the buffers
// of its tile operands and writes the buffers of its tile results (on the
// `pl.planned_buffer` resource), and is not speculatable, so that no
// upstream pass moves it across another op that writes the same buffer
// (docs/a2a3-lowering.md, "Planned buffers under upstream passes").
// `global` adds fixed effects on the default resource: 0 none, 1 read,
// 2 write, 3 both (global memory, windows).
class PL_PlannedBufferEffects<int global>
    : ParamNativeOpTrait<"PlannedBufferEffects", !cast<string>(global)> {
  let cppNamespace = "::pto";
}

// A tile computation: pure until its tiles are planned.
def PL_TilePure : TraitList<[PL_PlannedBufferEffects<0>,
                             MemoryEffectsOpInterface,
                             ConditionallySpeculatable]>;

// A tile op that also reads (1), writes (2) or reads and writes (3) global
// memory.
class PL_TileMemory<int global>
    : TraitList<[PL_PlannedBufferEffects<global>, MemoryEffectsOpInterface,
                 ConditionallySpeculatable]>;

// The planned on-chip buffers as a side-effect resource.
def PL_PlannedBuffer : Resource<"::pto::PlannedBufferResource">;

// Pipe synchronisation and fences order every access to global memory and
// to the planned buffers.
def PL_OrdersMemory : MemoryEffects<[MemRead, MemWrite, MemRead<PL_PlannedBuffer>,
                                     MemWrite<PL_PlannedBuffer>]>;

// A tensor computation: reads the memory of its tensor operands and makes
// each tensor result a tensor of its own in memory. Tensors are memory that
// later ops may write in place (pl.tile.store, pl.tensor.write, a kernel's
// out parameter), so the op must not move across such a write (LICM hoisted
// one out of a loop that stored into its operand) nor merge with another
// (CSE); an unused one is dead (docs/canonicalization.md).
def PL_TensorComputeEffects : NativeOpTrait<"TensorComputeEffects"> {
  let cppNamespace = "::pto";
}
def PL_TensorCompute : TraitList<[PL_TensorComputeEffects, MemoryEffectsOpInterface]>;

// A view of global memory: the result aliases the memory of operand 0
// (ViewLikeOpInterface, for alias analysis).
def PL_ViewOfFirstOperand : NativeOpTrait<"ViewOfFirstOperand"> {
  let cppNamespace = "::pto";
}
def PL_View : TraitList<[PL_ViewOfFirstOperand, ViewLikeOpInterface]>;

// A kernel call that runs as a task (pl.call, pld.dispatch): a call for
// call-graph analyses (CallOpInterface, arguments `args`), never inlined:
// the callee runs on other cores or another device.
def PL_TaskCallMethods : NativeOpTrait<"TaskCall"> {
  let cppNamespace = "::pto";
}
def PL_TaskCall : TraitList<[PL_TaskCallMethods, CallOpInterface]>;

// A scope (pl's incore/cluster/spmd/runtime scopes, pld.comm_domain): its
// body runs once, then control and the yielded values return to the
// parent (RegionBranchOpInterface, dialects/cpp/Interfaces.cpp).
def PL_Scope : DeclareOpInterfaceMethods<RegionBranchOpInterface>;

#endif // PTO_PL_TRAITS_TD
