// A kernel call's result is the parameter the kernel returns, not "the
// i-th out parameter": @fill_second writes %first and %second and returns
// %second, so @twice reads %b. The simulator's program forwards the same.
// RUN: rm -rf %t && pto-translate --mlir-to-cce %s -o %t
// RUN: FileCheck %s < %t/main_orchestration.cpp
// RUN: rm -rf %t.sim && pto-translate --mlir-to-cce --target=a2a3sim %s -o %t.sim
// RUN: FileCheck %s --check-prefix=SIM < %t.sim/run_main.cpp

// CHECK: const ChipTensor& [[A:v[0-9]+]] = pto_orch_tensor([[ARGS:v[0-9]+]], 1);
// CHECK-NEXT: const ChipTensor& [[B:v[0-9]+]] = pto_orch_tensor([[ARGS]], 2);
// CHECK: [[T0:v[0-9]+]].add_output([[A]]);
// CHECK-NEXT: [[T0]].add_output([[B]]);
// CHECK-NEXT: rt_submit_aiv_task(0, [[T0]]);
// CHECK: [[T1:v[0-9]+]].add_input([[B]]);
// CHECK-NEXT: [[T1]].add_output({{v[0-9]+}});
// CHECK-NEXT: rt_submit_aiv_task(1, [[T1]]);
// SIM: pto::sim::Buffer<float> [[SB:v[0-9]+]] = pto::sim::input<float>({{v[0-9]+}}, "b", {16, 64});
// SIM: fill_second(
// SIM-NEXT: float* [[R:v[0-9]+]] = pto::sim::data([[SB]]);
// SIM: twice([[R]],

!T = !pl.tensor<16x64xf32>
!V = !pl.tile<16x64xf32, vec>
func.func @fill_second(%x: !T, %first: !T {pl.direction = #pl.direction<out>}, %second: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !T -> !V
  %f = pl.tile.store %t, %first[%c0, %c0] : !V, !T
  %s = pl.tile.store %t, %second[%c0, %c0] : !V, !T
  return %s : !T
}
func.func @twice(%x: !T, %y: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !T -> !V
  %d = pl.tile.add %t, %t : !V, !V -> !V
  %s = pl.tile.store %d, %y[%c0, %c0] : !V, !T
  return %s : !T
}
func.func @main(%x: !T, %a: !T, %b: !T, %c: !T) attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.call @fill_second(%x, %a, %b) : (!T, !T, !T) -> !T
  %d = pl.call @twice(%r, %c) : (!T, !T) -> !T
  return
}
