// RUN: pto-opt --verify-roundtrip %s --pld-materialize-comm-domains | FileCheck %s
// The pass is idempotent.
// RUN: pto-opt --verify-roundtrip %s --pld-materialize-comm-domains --pld-materialize-comm-domains | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-materialize-comm-domains)' | FileCheck %s

!Row = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<?xi32>

func.func @chip(%a: !Row) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
func.func @chip2(%a: !Row, %b: !Row) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}

// A world_size-bounded device loop covers every device (devices []); a
// constant device and a constant-bounded loop give those devices. Buffers
// group, in allocation order, by device set: one nested domain per group,
// the first outermost, around the whole body.
// CHECK-LABEL: func.func @groups
// CHECK-NEXT: pld.comm_domain "comm_d0" devices [] slots ["all", "all2"] {
// CHECK-NEXT: pld.comm_domain "comm_d1" devices [1] slots ["one"] {
// CHECK-NEXT: pld.comm_domain "comm_d2" devices [2, 3] slots ["range"] {
// CHECK-NEXT: pld.system.world_size
// CHECK: scf.for %{{.*}} = %c2 to %c4
// CHECK-NEXT: pld.dispatch @chip
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @groups() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %world = pld.system.world_size : i64
  %bytes = arith.constant 1024 : i64
  %b0 = pld.tensor.alloc_window_buffer %bytes name "all" : i64 -> !pl.ptr
  %w0 = pld.tensor.window %b0 : !pl.ptr -> !Row
  %b1 = pld.tensor.alloc_window_buffer %bytes name "one" : i64 -> !pl.ptr
  %w1 = pld.tensor.window %b1 : !pl.ptr -> !Row
  %b2 = pld.tensor.alloc_window_buffer %bytes name "range" : i64 -> !pl.ptr
  %w2 = pld.tensor.window %b2 : !pl.ptr -> !Row
  %b3 = pld.tensor.alloc_window_buffer %bytes name "all2" : i64 -> !pl.ptr
  %w3 = pld.tensor.window %b3 : !pl.ptr -> !Row
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %devices = arith.index_cast %world : i64 to index
  scf.for %d = %c0 to %devices step %c1 {
    pld.dispatch @chip2(%w0, %w3) on %d : (!Row, !Row) -> ()
  }
  pld.dispatch @chip(%w1) on %c1 : (!Row) -> ()
  scf.for %d = %c2 to %c4 step %c1 {
    pld.dispatch @chip(%w2) on %d : (!Row) -> ()
  }
  return
}

// A host collective's signal inherits its data buffer's devices, also
// through the collective's result.
// CHECK-LABEL: func.func @signals
// CHECK-NEXT: pld.comm_domain "comm_d0" devices [0] slots ["data", "sig", "sig2"]
func.func @signals() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 1024 : i64
  %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
  %w0 = pld.tensor.window %b0 : !pl.ptr -> !Row
  %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
  %w1 = pld.tensor.window %b1 : !pl.ptr -> !Sig
  %b2 = pld.tensor.alloc_window_buffer %bytes name "sig2" : i64 -> !pl.ptr
  %w2 = pld.tensor.window %b2 : !pl.ptr -> !Sig
  pld.dispatch @chip(%w0) on %c0 : (!Row) -> ()
  %r = pld.tensor.broadcast %w0, %w1 root 0 : !Row, !Sig
  %r2 = pld.tensor.reduce_scatter %r, %w2 sum : !Row, !Sig
  return
}

// Host orchestrators without window buffers, and other functions, are left
// alone.
// CHECK-LABEL: func.func @nothing
// CHECK-NOT: pld.comm_domain
// CHECK: return
func.func @nothing() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  return
}
