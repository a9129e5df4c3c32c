// A run that does not finish in time stops with a report of every device,
// even when a device is busy rather than blocked, at the op a busy device
// was last seen running (in the loop body).
// RUN: not pto-run %s --ranks 2 --timeout 0.5 2>&1 | FileCheck %s
// CHECK: timeout.mlir:{{1[45]}}:{{[0-9]+}}: error: timeout: the run took longer than 0.5 s
// CHECK-DAG: device 0: running (last seen at {{.*}}timeout.mlir:{{1[45]}}:{{[0-9]+}})
// CHECK-DAG: device 1: idle

func.func @spin() -> index attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %many = arith.constant 1000000000000 : index
  %n = scf.for %i = %c0 to %many step %c1 iter_args(%acc = %c0) -> (index) {
    %next = arith.addi %acc, %c1 : index
    scf.yield %next : index
  }
  return %n : index
}
func.func @chip() attributes {pl.kind = #pl.kind<orchestration>} {
  %n = pl.call @spin() : () -> index
  return
}
func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  pld.dispatch @chip() on %c0 : () -> ()
  return
}
