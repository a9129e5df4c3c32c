// RUN: pto-opt --verify-roundtrip %s --pld-materialize-comm-domains --pld-lower-host-collectives | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-materialize-comm-domains, pld-lower-host-collectives)' | FileCheck %s

// An all-devices domain: one builtin call per device in a world_size loop;
// the result aliases the data buffer (reduce_scatter consumes the
// broadcast's result, which is %[[DATA]]).
// CHECK-LABEL: func.func @main
// CHECK: %[[DATA:.*]] = pld.tensor.window %{{.*}} : !pl.ptr -> !pld.dtensor<1x256xf32>
// CHECK: %[[SIG:.*]] = pld.tensor.window %{{.*}} : !pl.ptr -> !pld.dtensor<?xi32>
// CHECK: %[[WS:.*]] = pld.system.world_size : i64
// CHECK-NEXT: %[[N:.*]] = arith.index_cast %[[WS]] : i64 to index
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT: pld.builtin.broadcast %[[DATA]], %[[SIG]] root 0 f32 on %[[R]] directions [#pl.direction<inout>, #pl.direction<inout>]
// CHECK: scf.for %[[R2:.*]] =
// CHECK-NEXT: pld.builtin.reduce_scatter %[[DATA]], %[[SIG]] sum f32 on %[[R2]]
// CHECK-NOT: pld.tensor.
// A static domain {0, 1}: one call per device.
// CHECK-LABEL: func.func @pair
// CHECK: pld.dispatch @chip2
// CHECK: %[[D0:.*]] = arith.constant 0 : index
// CHECK-NEXT: pld.builtin.barrier %{{.*}} on %[[D0]] directions [#pl.direction<inout>]
// CHECK-NEXT: %[[D1:.*]] = arith.constant 1 : index
// CHECK-NEXT: pld.builtin.barrier %{{.*}} on %[[D1]]
!Row = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<?xi32>
func.func @chip(%a: !Row, %s: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %world = pld.system.world_size : i64
  %bytes = arith.constant 1024 : i64
  %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
  %w0 = pld.tensor.window %b0 : !pl.ptr -> !Row
  %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
  %w1 = pld.tensor.window %b1 : !pl.ptr -> !Sig
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %devices = arith.index_cast %world : i64 to index
  scf.for %d = %c0 to %devices step %c1 {
    pld.dispatch @chip(%w0, %w1) on %d : (!Row, !Sig) -> ()
  }
  %r = pld.tensor.broadcast %w0, %w1 root 0 : !Row, !Sig
  %r2 = pld.tensor.reduce_scatter %r, %w1 sum : !Row, !Sig
  return
}
func.func @pair() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %bytes = arith.constant 1024 : i64
  %b0 = pld.tensor.alloc_window_buffer %bytes name "pdata" : i64 -> !pl.ptr
  %w0 = pld.tensor.window %b0 : !pl.ptr -> !Row
  %b1 = pld.tensor.alloc_window_buffer %bytes name "psig" : i64 -> !pl.ptr
  %w1 = pld.tensor.window %b1 : !pl.ptr -> !pld.dtensor<2xi32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %d = %c0 to %c2 step %c1 {
    pld.dispatch @chip2(%w0, %w1) on %d : (!Row, !pld.dtensor<2xi32>) -> ()
  }
  %r = pld.tensor.barrier %w1 : !pld.dtensor<2xi32>
  return
}
func.func @chip2(%a: !Row, %s: !pld.dtensor<2xi32>) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
