// pto-translate --mlir-to-cce: the a2a3 pipeline (run here because the input
// is not lowered yet), then one C++ file per kernel, printed by MLIR's C++
// emitter, and a manifest. Byte-identical across runs.
// RUN: pto-translate --mlir-to-cce --entry=kernel %s | FileCheck %s
// RUN: pto-translate --mlir-to-cce %s > %t.1 && pto-translate --mlir-to-cce %s > %t.2 && cmp %t.1 %t.2
// Lowered input translates to the same text.
// RUN: pto-opt --pto-a2a3-pipeline %s | pto-translate --mlir-to-cce --entry=kernel | FileCheck %s
// By default the kernel is entered through the runtime's packed arguments
// (docs/translate.md): descriptors first, the kernel static.
// RUN: pto-translate --mlir-to-cce %s | FileCheck %s --check-prefix=ENTRY
// ENTRY-LABEL: // ----- exp_rows.cpp -----
// ENTRY-NEXT: #include <cstdint>
// ENTRY-NEXT: #include "pto/pto-inst.hpp"
// ENTRY-NEXT: #include "tensor.h"
// ENTRY-NEXT: using namespace pto;
// ENTRY: static __aicore__ inline __gm__ T* pto_tensor_arg(__gm__ int64_t* args, int index) {
// ENTRY: static __aicore__ void exp_rows(__gm__ float* {{v[0-9]+}}, __gm__ float* {{v[0-9]+}}) {
// ENTRY: extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t* [[ARGS:v[0-9]+]]) {
// ENTRY-NEXT: pto_entry_prologue();
// ENTRY-NEXT: __gm__ float* [[A:v[0-9]+]] = pto_tensor_arg<float>([[ARGS]], 0);
// ENTRY-NEXT: __gm__ float* [[B:v[0-9]+]] = pto_tensor_arg<float>([[ARGS]], 1);
// ENTRY-NEXT: exp_rows([[A]], [[B]]);
// ENTRY-NEXT: return;
// ENTRY-NEXT: }
// With the simulator target, a driver per kernel.
// RUN: pto-translate --mlir-to-cce --target=a2a3sim %s | FileCheck %s --check-prefix=SIM

// CHECK-LABEL: // ----- exp_rows.cpp -----
// CHECK-NEXT: #include <cstdint>
// CHECK-NEXT: #include "pto/pto-inst.hpp"
// CHECK-NEXT: using namespace pto;
// CHECK-NEXT: __global__ AICORE void exp_rows(__gm__ float* [[X:v[0-9]+]], __gm__ float* [[Y:v[0-9]+]]) {
// CHECK: for (size_t [[I:i[0-9]+]] = {{.*}}; [[I]] < {{.*}}; [[I]] += {{.*}}) {
// CHECK: Tile<TileType::Vec, float, 32, 64, BLayout::RowMajor, 32, 64, SLayout::NoneBox, 512, PadValue::Null> [[T:v[0-9]+]] = Tile<TileType::Vec, float, 32, 64, BLayout::RowMajor, 32, 64, SLayout::NoneBox, 512, PadValue::Null>();
// CHECK-NEXT: TASSIGN([[T]], 0);
// CHECK: __gm__ float* [[P:v[0-9]+]] = [[X]] + {{v[0-9]+}};
// CHECK-NEXT: GlobalTensor<float, pto::Shape<1, 1, 1, 32, 64>, pto::Stride<16384, 16384, 16384, 64, 1>, pto::Layout::ND> [[G:v[0-9]+]] = GlobalTensor<float, pto::Shape<1, 1, 1, 32, 64>, pto::Stride<16384, 16384, 16384, 64, 1>, pto::Layout::ND>([[P]]);
// CHECK-NEXT: TLOAD([[T]], [[G]]);
// CHECK-NEXT: set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
// CHECK-NEXT: wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
// CHECK: TEXP([[E:v[0-9]+]], [[T]]);
// CHECK-NEXT: set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
// CHECK-NEXT: set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
// CHECK-NEXT: wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
// CHECK: TSTORE({{v[0-9]+}}, [[E]]);
// CHECK: pipe_barrier(PIPE_ALL);
// CHECK-NEXT: return;
// CHECK-NEXT: }
// CHECK-LABEL: // ----- manifest.json -----
// CHECK: {"func_id": 0, "name": "exp_rows", "core_type": "aiv", "source": "exp_rows.cpp"}

// SIM-LABEL: // ----- run_exp_rows.cpp -----
// SIM-NEXT: #include "pto/sim/host.hpp"
// SIM-NEXT: #include "exp_rows.cpp"
// SIM: pto::sim::Buffer<float> {{v[0-9]+}} = pto::sim::input<float>({{v[0-9]+}}, "x", {256, 64});
// SIM: pto::sim::Buffer<float> {{v[0-9]+}} = pto::sim::output<float>({{v[0-9]+}}, "y", {256, 64});
// SIM: exp_rows(
// SIM: pto::sim::finish(
// SIM: "target": "a2a3sim"

!T = !pl.tensor<256x64xf32>
!V = !pl.tile<32x64xf32>
func.func @exp_rows(%x: !T, %y: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %r = scf.for %i = %c0 to %c256 step %c32 iter_args(%o = %y) -> (!T) {
    %t = pl.tile.load %x[%i, %c0] : !T -> !V
    %e = pl.tile.exp %t : !V
    %o2 = pl.tile.store %e, %o[%i, %c0] : !V, !T
    scf.yield %o2 : !T
  }
  return %r : !T
}
