// The runtime's side of a program for the device (docs/translate.md): each
// kernel entered through packed arguments, each orchestration as PTO2 C++
// (one task per kernel call: tensors by direction, then scalars; a
// temporary from alloc_tensors; a returned tensor handed in after the
// parameters). g++ checks every file against the simulator's runtime API.
// RUN: rm -rf %t && pto-translate --mlir-to-cce %s -o %t
// RUN: FileCheck %s < %t/rows_orchestration.cpp
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=ENTRY < %t/double_row.cpp
// RUN: g++ -std=c++17 -fsyntax-only -D__CPU_SIM -D__aicore__= -I%repo/sim/include -I%repo/sim/include/runtime %t/rows_orchestration.cpp
// RUN: g++ -std=c++17 -fsyntax-only -D__CPU_SIM -D__aicore__= -I%repo/sim/include -I%repo/sim/include/runtime %t/double_row.cpp
// RUN: g++ -std=c++17 -fsyntax-only -D__CPU_SIM -D__aicore__= -I%repo/sim/include -I%repo/sim/include/runtime %t/add_rows.cpp

// CHECK: #include <stddef.h>
// CHECK: #include "pto_orchestration_api.h"
// CHECK: extern "C" __attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& [[CFG:v[0-9]+]]) {
// CHECK-NEXT: return PTO2OrchestrationConfig{ .expected_arg_count = 3 };
// CHECK: extern "C" __attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs& [[ARGS:v[0-9]+]]) {
// CHECK: const ChipTensor& [[X:v[0-9]+]] = pto_orch_tensor([[ARGS]], 0);
// CHECK-NEXT: float [[S:v[0-9]+]] = pto_orch_scalar<float>([[ARGS]], 0);
// CHECK-NEXT: PTO2_SCOPE() {
// CHECK: TaskOutputTensors [[ALLOC:v[0-9]+]] = pto_orch_alloc(DataType::FLOAT32, 64, 64);
// CHECK-NEXT: const ChipTensor& [[TMP:v[0-9]+]] = pto_orch_ref([[ALLOC]], 0);
// CHECK: for (size_t [[ROW:i[0-9]+]] = {{.*}}; [[ROW]] < {{.*}}; [[ROW]] += {{.*}}) {
// CHECK-NEXT: CoreTaskArgs [[T0:v[0-9]+]] = CoreTaskArgs();
// CHECK-NEXT: [[T0]].add_input([[X]]);
// CHECK-NEXT: [[T0]].add_output([[TMP]]);
// CHECK-NEXT: uint64_t [[ROWP:v[0-9]+]] = pto_orch_payload([[ROW]]);
// CHECK-NEXT: [[T0]].add_scalar([[ROWP]]);
// CHECK-NEXT: uint64_t [[SP:v[0-9]+]] = pto_orch_payload([[S]]);
// CHECK-NEXT: [[T0]].add_scalar([[SP]]);
// CHECK-NEXT: rt_submit_aiv_task(0, [[T0]]);
// CHECK: const ChipTensor& [[OUT:v[0-9]+]] = pto_orch_tensor([[ARGS]], 1);
// CHECK-NEXT: CoreTaskArgs [[T1:v[0-9]+]] = CoreTaskArgs();
// CHECK-NEXT: [[T1]].add_input([[TMP]]);
// CHECK-NEXT: [[T1]].add_input([[X]]);
// CHECK-NEXT: [[T1]].add_output([[OUT]]);
// CHECK-NEXT: rt_submit_aiv_task(1, [[T1]]);
// CHECK-NEXT: {{^  }}}
// CHECK-NEXT: return;

// MANIFEST: {"func_id": 0, "name": "double_row", "core_type": "aiv", "source": "double_row.cpp"}
// MANIFEST: {"func_id": 1, "name": "add_rows", "core_type": "aiv", "source": "add_rows.cpp"}
// MANIFEST: {"name": "rows", "source": "rows_orchestration.cpp"}

// ENTRY: extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t* [[ARGS:v[0-9]+]]) {
// ENTRY-NEXT: pto_entry_prologue();
// ENTRY-NEXT: __gm__ float* [[X:v[0-9]+]] = pto_tensor_arg<float>([[ARGS]], 0);
// ENTRY-NEXT: size_t [[ROW:v[0-9]+]] = pto_scalar_arg<size_t>([[ARGS]], 2);
// ENTRY-NEXT: float [[S:v[0-9]+]] = pto_scalar_arg<float>([[ARGS]], 3);
// ENTRY-NEXT: __gm__ float* [[Y:v[0-9]+]] = pto_tensor_arg<float>([[ARGS]], 1);
// ENTRY-NEXT: double_row([[X]], [[ROW]], [[S]], [[Y]]);

!M = !pl.tensor<64x64xf32>
!Row = !pl.tile<1x64xf32, vec>
!Whole = !pl.tile<64x64xf32, vec>

func.func @rows(%x: !M, %s: f32) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %tmp = pl.tensor.create() : !M
  %scaled = scf.for %row = %c0 to %c64 step %c1 iter_args(%t = %tmp) -> (!M) {
    %t2 = pl.call @double_row(%x, %row, %s, %t) : (!M, index, f32, !M) -> !M
    scf.yield %t2 : !M
  }
  %out = pl.tensor.create() : !M
  %sum = pl.call @add_rows(%scaled, %x, %out) : (!M, !M, !M) -> !M
  return %sum : !M
}

func.func @double_row(%x: !M, %row: index, %s: f32, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%row, %c0] : !M -> !Row
  %d = pl.tile.muls %t, %s : !Row, f32
  %r = pl.tile.store %d, %y[%row, %c0] : !Row, !M
  return %r : !M
}

func.func @add_rows(%a: !M, %b: !M, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %ta = pl.tile.load %a[%c0, %c0] : !M -> !Whole
  %tb = pl.tile.load %b[%c0, %c0] : !M -> !Whole
  %s = pl.tile.add %ta, %tb : !Whole, !Whole -> !Whole
  %r = pl.tile.store %s, %y[%c0, %c0] : !Whole, !M
  return %r : !M
}
