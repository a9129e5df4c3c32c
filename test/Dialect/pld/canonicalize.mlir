// RUN: pto-opt %s --canonicalize | FileCheck %s
// RUN: pto-opt %s --sccp | FileCheck %s --check-prefix=SCCP
// RUN: pto-opt %s --inline | FileCheck %s --check-prefix=INLINE

// Canonicalize removes pld's unused pure ops (a window view nobody reads)
// and keeps every window buffer: the program's outputs name them, used or
// not. pld.dispatch is a call (CallOpInterface): sccp carries the constant
// every dispatch passes into the private chip orchestration; `inline`
// leaves the dispatch, which runs on another device.

// CHECK-LABEL: func.func @main(
// CHECK: %[[BUF:.*]] = pld.tensor.alloc_window_buffer %{{.*}} name "signal"
// CHECK: pld.tensor.alloc_window_buffer %{{.*}} name "unused"
// CHECK: pld.tensor.window %[[BUF]] : !pl.ptr -> !pld.dtensor<?x1xi32>
// CHECK-NOT: pld.tensor.window
// CHECK: pld.dispatch @chip(
// INLINE-LABEL: func.func @main(
// INLINE: pld.dispatch @chip(
func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i32
  %bytes = arith.constant 64 : i64
  %buf = pld.tensor.alloc_window_buffer %bytes name "signal" : i64 -> !pl.ptr
  %unused = pld.tensor.alloc_window_buffer %bytes name "unused" : i64 -> !pl.ptr
  %signal = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<?x1xi32>
  %flat = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<?xi32>
  %world = pld.system.world_size : i64
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    %r = pld.dispatch @chip(%signal, %c7) on %device : (!pld.dtensor<?x1xi32>, i32) -> i32
  }
  return
}

// SCCP-LABEL: func.func private @chip(
// SCCP: %[[C7:.*]] = arith.constant 7 : i32
// SCCP: return %[[C7]]
func.func private @chip(%signal: !pld.dtensor<?x1xi32>, %v: i32) -> i32 attributes {pl.kind = #pl.kind<orchestration>} {
  return %v : i32
}
