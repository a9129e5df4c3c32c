// The rank count defaults to what the program's comm domains fix: here a
// domain over device 2 alone, so three devices, and rank ids are
// domain-local (device 2 is rank 0 of 1).
// RUN: rm -rf %t && pto-run %s -o %t
// RUN: not pto-run %s --ranks 2 2>&1 | FileCheck %s
// CHECK: error: device 2 is outside the 2 devices

func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [2] slots ["ids"] {
    %c2 = arith.constant 2 : index
    %bytes = arith.constant 8 : i64
    %buf = pld.tensor.alloc_window_buffer %bytes name "ids" : i64 -> !pl.ptr
    %ids = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<1x2xi32>
    pld.dispatch @chip(%ids) on %c2 : (!pld.dtensor<1x2xi32>) -> ()
    pld.yield
  }
  return
}
func.func @chip(%ids: !pld.dtensor<1x2xi32>) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @kernel(%ids) : (!pld.dtensor<1x2xi32>) -> ()
  return
}
func.func @kernel(%ids: !pld.dtensor<1x2xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %ids : !pld.dtensor<1x2xi32>
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %t0 = pl.tile.create : !pl.tile<1x2xi32, vec>
  %t1 = pl.tile.write %t0[%c0, %c0], %me : !pl.tile<1x2xi32, vec>, i32
  %t2 = pl.tile.write %t1[%c0, %c1], %n : !pl.tile<1x2xi32, vec>, i32
  %r = pl.tile.store %t2, %ids[%c0, %c0] : !pl.tile<1x2xi32, vec>, !pld.dtensor<1x2xi32>
  return
}
