// RUN: pto-opt --verify-roundtrip %s -split-input-file --pld-materialize-dist-tensor-ctx | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s -split-input-file --pass-pipeline='builtin.module(pld-materialize-dist-tensor-ctx)' | FileCheck %s

!Data = !pld.dtensor<4x256xf32>
!Sig = !pld.dtensor<?x1xi32>

// Kernels and chip orchestrations get one context per window parameter;
// the host queries the context of a window it created.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%[[DATA:.*]]: !pld.dtensor<4x256xf32>, %[[SIG:.*]]: !pld.dtensor<?x1xi32>, %{{.*}}: i32, %[[DCTX:.*]]: !pld.comm_ctx, %[[SCTX:.*]]: !pld.comm_ctx)
// CHECK-NOT: get_comm_ctx
// CHECK: pld.system.rank %[[SCTX]] : i32
// CHECK-LABEL: func.func @chip
// CHECK-SAME: (%[[D:.*]]: !pld.dtensor<4x256xf32>, %[[S:.*]]: !pld.dtensor<?x1xi32> {pl.direction = #pl.direction<inout>}, %[[DC:.*]]: !pld.comm_ctx, %[[SC:.*]]: !pld.comm_ctx)
// CHECK: %[[W:.*]] = pl.tensor.write %[[D]]
// CHECK: pl.call @kernel(%[[W]], %[[S]], %{{.*}}, %[[DC]], %[[SC]]) : (!pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>, i32, !pld.comm_ctx, !pld.comm_ctx) -> ()
// CHECK-LABEL: func.func @host
// CHECK: %[[HD:.*]] = pld.tensor.window
// CHECK: %[[HS:.*]] = pld.tensor.window
// CHECK: scf.for
// CHECK: %[[HDC:.*]] = pld.system.get_comm_ctx %[[HD]]
// CHECK: %[[HSC:.*]] = pld.system.get_comm_ctx %[[HS]]
// CHECK: pld.dispatch @chip(%[[HD]], %[[HS]], %[[HDC]], %[[HSC]]) on %{{.*}} : (!pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>, !pld.comm_ctx, !pld.comm_ctx) -> ()
func.func @kernel(%data: !Data, %sig: !Sig, %x: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %ctx = pld.system.get_comm_ctx %sig : !Sig
  %me = pld.system.rank %ctx : i32
  return
}
func.func @chip(%data: !Data, %sig: !Sig {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = arith.constant 7 : i32
  %written = pl.tensor.write %data[%c0, %c0], %one : !Data, f32
  pl.call @kernel(%written, %sig, %x) : (!Data, !Sig, i32) -> ()
  return
}
func.func @host(%buf: !pl.ptr, %n: index) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %data = pld.tensor.window %buf : !pl.ptr -> !Data
  %sig = pld.tensor.window %buf : !pl.ptr -> !Sig
  scf.for %r = %c0 to %n step %c1 {
    pld.dispatch @chip(%data, %sig) on %r : (!Data, !Sig) -> ()
  }
  return
}

// -----

!Data = !pld.dtensor<4x256xf32>

// A loop carry resolves to its initial value's context; pl.submit keeps its
// dependencies after the context arguments.
// CHECK-LABEL: func.func @orch
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CARRY:.*]] = %{{.*}})
// CHECK: pl.submit @k(%[[CARRY]], %{{.*}}) deps(%{{.*}}) : (!pld.dtensor<4x256xf32>, !pld.comm_ctx) -> ()
func.func @k(%d: !Data) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @orch(%d: !Data, %t0: !pl.task_id, %n: index) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%carry = %d) -> (!Data) {
    %t = pl.submit @k(%carry) deps(%t0) : (!Data) -> ()
    scf.yield %carry : !Data
  }
  return
}

// -----

!Data = !pld.dtensor<4x256xf32>
!Flat = !pld.dtensor<1x1024xf32>

// Lineage follows views, both branches of an scf.if that
// agree, an scf.while's carries, and a call's result back to the callee's
// parameter it returns.
// CHECK-LABEL: func.func @lineage
// CHECK-SAME: %[[DC:[^:]*]]: !pld.comm_ctx, %[[EC:[^:]*]]: !pld.comm_ctx)
// CHECK: %[[FLAT:.*]] = pl.tensor.view
// CHECK: pl.call @flat(%[[FLAT]], %[[DC]])
// CHECK: %[[IF:.*]] = scf.if
// CHECK: pl.call @whole(%[[IF]], %[[DC]])
// CHECK: scf.while
// CHECK: pl.call @whole(%{{.*}}, %[[EC]])
// CHECK: pl.call @whole(%{{.*}}, %[[EC]])
// CHECK: %[[SECOND:.*]] = pl.call @second(%{{.*}}, %{{.*}}, %[[DC]], %[[EC]])
// CHECK: pl.call @whole(%[[SECOND]], %[[EC]])
// CHECK-LABEL: func.func @whole
// CHECK-SAME: %[[C:[^:]*]]: !pld.comm_ctx)
// CHECK: pld.system.rank %[[C]]
func.func @flat(%d: !Flat) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @second(%a: !Data, %b: !Data) -> !Data attributes {pl.kind = #pl.kind<aiv>} {
  return %b : !Data
}
func.func @lineage(%d: !Data, %e: !Data, %c: i1) attributes {pl.kind = #pl.kind<orchestration>} {
  %flat = pl.tensor.view %d : !Data -> !Flat
  pl.call @flat(%flat) : (!Flat) -> ()
  %either = scf.if %c -> !Data {
    scf.yield %d : !Data
  } else {
    %back = pl.tensor.view %flat : !Flat -> !Data
    scf.yield %back : !Data
  }
  pl.call @whole(%either) : (!Data) -> ()
  %last = scf.while (%a = %e) : (!Data) -> !Data {
    scf.condition(%c) %a : !Data
  } do {
  ^bb0(%b: !Data):
    pl.call @whole(%b) : (!Data) -> ()
    scf.yield %b : !Data
  }
  pl.call @whole(%last) : (!Data) -> ()
  %r = pl.call @second(%d, %e) : (!Data, !Data) -> !Data
  pl.call @whole(%r) : (!Data) -> ()
  return
}
func.func @whole(%d: !Data) attributes {pl.kind = #pl.kind<aiv>} {
  %v = pl.tensor.view %d : !Data -> !Flat
  %ctx = pld.system.get_comm_ctx %v : !Flat
  %me = pld.system.rank %ctx : i32
  return
}
