// A kernel waiting for a credit nobody sends: every rank blocks, and
// pto-run reports each rank's wait with its location and the cell's value
// (exit 1) instead of hanging.
// RUN: not pto-run %s --ranks 2 2>&1 | FileCheck %s

// CHECK: deadlock.mlir:[[@LINE+28]]:3: error: deadlock: every rank is blocked
// CHECK-DAG: device 0: rank 0 waits at {{.*}}deadlock.mlir:[[@LINE+27]]:3 for signal[0, 0] >= 2; the cell holds 1
// CHECK-DAG: device 1: rank 1 waits at {{.*}}deadlock.mlir:[[@LINE+26]]:3 for signal[1, 0] >= 2; the cell holds 1
func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 64 : i64
  %buf = pld.tensor.alloc_window_buffer %bytes name "signal" : i64 -> !pl.ptr
  %sig = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<2x1xi32>
  %world = pld.system.world_size : i64
  %n = arith.index_cast %world : i64 to index
  scf.for %d = %c0 to %n step %c1 {
    pld.dispatch @chip(%sig) on %d : (!pld.dtensor<2x1xi32>) -> ()
  }
  return
}
func.func @chip(%sig: !pld.dtensor<2x1xi32>) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @kernel(%sig) : (!pld.dtensor<2x1xi32>) -> ()
  return
}
func.func @kernel(%sig: !pld.dtensor<2x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<2x1xi32>
  %me = pld.system.rank %ctx : i32
  %row = arith.index_cast %me : i32 to index
  pld.system.notify %sig[%row, %c0] to %me, %one atomic_add : !pld.dtensor<2x1xi32>
  pld.system.wait %sig[%row, %c0], %two ge : !pld.dtensor<2x1xi32>
  return
}
