// RUN: pto-opt --verify-roundtrip %s --pld-insert-comm-fence | FileCheck %s
// The pass is idempotent.
// RUN: pto-opt --verify-roundtrip %s --pld-insert-comm-fence --pld-insert-comm-fence | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-insert-comm-fence)' | FileCheck %s

!Win = !pld.dtensor<?x256xf32>
!Sig = !pld.dtensor<?x1xi32>
!Row = !pl.tile<1x256xf32, vec>

// Publish locally, notify; wait, then read.
// CHECK-LABEL: func.func @publish
// CHECK: %[[W2:.*]] = pl.tile.store %{{.*}}, %[[WIN:.*]][%{{.*}}, %{{.*}}] : !pl.tile<1x256xf32, vec>, !pld.dtensor<?x256xf32>
// CHECK-NEXT: pl.system.cacheinvalid on %[[WIN]] : !pld.dtensor<?x256xf32>
// CHECK-NEXT: pl.system.fence
// CHECK-NEXT: pld.system.notify
// CHECK-NEXT: pld.system.wait
// CHECK-NEXT: pl.system.cacheinvalid{{$}}
// CHECK-NEXT: pl.tile.load
// CHECK-NEXT: pl.tensor.write
// CHECK-NEXT: pl.system.cacheinvalid on %{{.*}} : !pld.dtensor<?x256xf32>
// CHECK-NEXT: pl.system.fence
// CHECK-NEXT: return
func.func @publish(%win: !Win, %sig: !Sig, %row: index, %me: i32, %peer: i32, %x: f32)
    attributes {pl.kind = #pl.kind<aiv>} {
  %t = pl.tile.create : !Row
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %w2 = pl.tile.store %t, %win[%row, %c0] : !Row, !Win
  pld.system.notify %sig[%row, %c0] to %peer, %one atomic_add : !Sig
  pld.system.wait %sig[%row, %c0], %one ge : !Sig
  %r = pl.tile.load %win[%row, %c0] : !Win -> !Row
  %w3 = pl.tensor.write %w2[%row, %c0], %x : !Win, f32
  return
}

// Remote writes need a fence only; reads and plain-tensor stores need nothing.
// CHECK-LABEL: func.func @remote
// CHECK: pld.tile.remote_store
// CHECK-NEXT: pl.system.fence
// CHECK-NEXT: pld.tensor.put
// CHECK-NEXT: pl.system.fence
// CHECK-NEXT: pld.tile.remote_load
// CHECK-NEXT: pl.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<1x256xf32, vec>, !pl.tensor<4x256xf32>
// CHECK-NEXT: pld.system.notify
// CHECK-NEXT: return
func.func @remote(%win: !Win, %sig: !Sig, %local: !pl.tensor<4x256xf32>, %peer: i32)
    attributes {pl.kind = #pl.kind<aiv>} {
  %t = pl.tile.create : !Row
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  pld.tile.remote_store %t, %win[%c0, %c0] to %peer none : !Row, !Win
  pld.tensor.put %win to %peer from %local none chunk 4, 256 : !Win, !pl.tensor<4x256xf32>
  %r = pld.tile.remote_load %win[%c0, %c0] from %peer : !Win -> !Row
  %l2 = pl.tile.store %r, %local[%c0, %c0] : !Row, !pl.tensor<4x256xf32>
  pld.system.notify %sig[%c0, %c0] to %peer, %one atomic_add : !Sig
  return
}

// Inside loops and branches too; orchestrations and host code are untouched.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK-NEXT: pld.system.wait
// CHECK-NEXT: pl.system.cacheinvalid{{$}}
// CHECK: scf.if
// CHECK-NEXT: pld.tile.remote_store
// CHECK-NEXT: pl.system.fence
// CHECK-LABEL: func.func @chip
// CHECK-NEXT: pld.system.wait
// CHECK-NEXT: return
func.func @nested(%win: !Win, %sig: !Sig, %peer: i32, %n: index, %flag: i1)
    attributes {pl.kind = #pl.kind<incore>} {
  %t = pl.tile.create : !Row
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 {
    pld.system.wait %sig[%i, %c0], %one ge : !Sig
  }
  scf.if %flag {
    pld.tile.remote_store %t, %win[%c0, %c0] to %peer none : !Row, !Win
  }
  return
}
func.func @chip(%sig: !Sig, %i: index, %one: i32) attributes {pl.kind = #pl.kind<orchestration>} {
  pld.system.wait %sig[%i, %i], %one ge : !Sig
  return
}
