// Runtime scopes for the runtime (docs/translate.md): an automatic scope
// is a PTO2_SCOPE() block, a manual one PTO2_SCOPE(PTO2ScopeMode::MANUAL)
// whose tasks wait for the ids their submits pass, nested inside the
// entry's scope and inside loops; for the simulator's host program a scope
// is its body. g++ checks the files against the simulator's runtime API.
// RUN: rm -rf %t && pto-translate --mlir-to-cce %s -o %t
// RUN: FileCheck %s < %t/main_orchestration.cpp
// RUN: g++ -std=c++17 -fsyntax-only -D__CPU_SIM -D__aicore__= -I%repo/sim/include -I%repo/sim/include/runtime %t/main_orchestration.cpp
// RUN: pto-translate --mlir-to-cce --target a2a3sim %s -o %t/sim
// RUN: FileCheck %s --check-prefix=SIM < %t/sim/run_main.cpp

// CHECK: PTO2_SCOPE() {
// CHECK: for (
// CHECK-NEXT: PTO2_SCOPE() {
// CHECK: rt_submit_aiv_task(0,
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
// CHECK: PTO2TaskId [[T:v[0-9]+]] = pto_orch_task_id(
// CHECK: PTO2TaskId [[DEPS:pto_deps_[0-9]+]][] = {[[T]]};
// CHECK-NEXT: .set_dependencies([[DEPS]], 1);
// CHECK-NEXT: rt_submit_aiv_task(0,
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return;
// SIM-NOT: PTO2_SCOPE
// SIM: for (
// SIM-NEXT: {{.*}} = pto::sim::
// SIM: step(
// SIM-NEXT: }
// SIM: step(
// SIM: step(
// SIM-NOT: PTO2_SCOPE
!T = !pl.tensor<16x32xf32>
func.func @step(%x: !T, %y: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !T
}
func.func @main(%x: !T, %y: !T {pl.direction = #pl.direction<out>}, %n: index) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = pl.tensor.create() : !T
  scf.for %i = %c0 to %n step %c1 {
    pl.runtime_scope {
      %r = pl.call @step(%x, %t) : (!T, !T) -> !T
      pl.yield
    }
  }
  pl.runtime_scope manual {
    %a, %t0 = pl.submit @step(%x, %t) : (!T, !T) -> !T
    %b, %t1 = pl.submit @step(%a, %y) deps(%t0) : (!T, !T) -> !T
    pl.yield
  }
  return
}
