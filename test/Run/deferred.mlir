// Deferred completion: pld.system.defer_wait does not block its task; the
// tasks that depend on it start once the condition holds. Here each
// device's waiter defers on a credit that a later task (the publisher)
// sends, and the consumer, which depends on the waiter, copies the cell out:
// a blocking wait would deadlock (the publisher runs after the waiter).
// RUN: rm -rf %t && pto-run %s --ranks 2 -o %t | FileCheck %s --allow-empty --check-prefix=RUNS
// RUN: python3 -c "import sys; d = open(sys.argv[1], 'rb').read(); print(list(d[-8:]))" %t/seen.npy | FileCheck %s --check-prefix=SEEN
// A condition that never holds is a deadlock at the defer_wait when the
// device's work ends.
// RUN: not pto-run %s --ranks 2 --entry never 2>&1 | FileCheck %s --check-prefix=NEVER
// The condition compares unsigned: a cell set to -1 (0xffffffff) is >= 1.
// RUN: pto-run %s --ranks 1 --entry unsigned_cell
// RUNS-NOT: error
// SEEN: [1, 0, 0, 0, 1, 0, 0, 0]
// NEVER: deferred.mlir:[[@LINE+31]]:3: error: deadlock: device 0 blocked and nothing left running can release it
// NEVER-NEXT: device 0: rank 0 waits at {{.*}}deferred.mlir:[[@LINE+30]]:3 for lonely_signal[0, 0] >= (unsigned) 1; the cell holds 0
// NEVER-NEXT: device 1: idle
!Sig = !pld.dtensor<2x1xi32>
func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 64 : i64
  %buf = pld.tensor.alloc_window_buffer %bytes name "signal" : i64 -> !pl.ptr
  %sig = pld.tensor.window %buf : !pl.ptr -> !Sig
  %seen_buf = pld.tensor.alloc_window_buffer %bytes name "seen" : i64 -> !pl.ptr
  %seen = pld.tensor.window %seen_buf : !pl.ptr -> !pld.dtensor<1x1xi32>
  %world = pld.system.world_size : i64
  %n = arith.index_cast %world : i64 to index
  scf.for %d = %c0 to %n step %c1 {
    pld.dispatch @chip(%sig, %seen) on %d : (!Sig, !pld.dtensor<1x1xi32>) -> ()
  }
  return
}
func.func @chip(%sig: !Sig, %seen: !pld.dtensor<1x1xi32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %t = pl.submit @waiter(%sig) : (!Sig) -> ()
  %u = pl.submit @publisher(%sig) : (!Sig) -> ()
  %v = pl.submit @consumer(%sig, %seen) deps(%t) : (!Sig, !pld.dtensor<1x1xi32>) -> ()
  return
}
func.func @waiter(%sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %sig : !Sig
  %me = pld.system.rank %ctx : i32
  %row = arith.index_cast %me : i32 to index
  pld.system.defer_wait %sig[%row, %c0], %one ge : !Sig
  return
}
func.func @publisher(%sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %sig : !Sig
  %me = pld.system.rank %ctx : i32
  %row = arith.index_cast %me : i32 to index
  pld.system.notify %sig[%row, %c0] to %me, %one atomic_add : !Sig
  return
}
func.func @consumer(%sig: !Sig, %seen: !pld.dtensor<1x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %ctx = pld.system.get_comm_ctx %sig : !Sig
  %me = pld.system.rank %ctx : i32
  %row = arith.index_cast %me : i32 to index
  %cell = pl.tensor.read %sig[%row, %c0] : !Sig -> i32
  %seen2 = pl.tensor.write %seen[%c0, %c0], %cell : !pld.dtensor<1x1xi32>, i32
  return
}
func.func @never() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 64 : i64
  %buf = pld.tensor.alloc_window_buffer %bytes name "lonely_signal" : i64 -> !pl.ptr
  %sig = pld.tensor.window %buf : !pl.ptr -> !Sig
  pld.dispatch @lonely(%sig) on %c0 : (!Sig) -> ()
  return
}
func.func @lonely(%sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  %t = pl.submit @waiter(%sig) : (!Sig) -> ()
  return
}
func.func @unsigned_cell() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 64 : i64
  %buf = pld.tensor.alloc_window_buffer %bytes name "minus_one" : i64 -> !pl.ptr
  %sig = pld.tensor.window %buf : !pl.ptr -> !Sig
  pld.dispatch @set_then_defer(%sig) on %c0 : (!Sig) -> ()
  return
}
func.func @set_then_defer(%sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  %t = pl.submit @waiter(%sig) : (!Sig) -> ()
  %u = pl.submit @set_minus_one(%sig) : (!Sig) -> ()
  return
}
func.func @set_minus_one(%sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %minus = arith.constant -1 : i32
  %me = arith.constant 0 : i32
  pld.system.notify %sig[%c0, %c0] to %me, %minus set : !Sig
  return
}
