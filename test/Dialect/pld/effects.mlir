// Generic passes never merge, drop or hoist communication: every pld
// communication op reads and writes memory.
// RUN: pto-opt %s --loop-invariant-code-motion --cse --canonicalize | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s --loop-invariant-code-motion --cse --canonicalize | FileCheck %s

// Loop-invariant notify/wait/remote loads stay in the loop; identical ones
// stay distinct; an unused remote load is not dropped.
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK-NEXT: pld.system.notify
// CHECK-NEXT: pld.system.notify
// CHECK-NEXT: pld.system.wait
// CHECK-NEXT: pld.tile.remote_load
// CHECK-NEXT: pld.tensor.barrier
func.func @in_loop(%sig: !pld.dtensor<?x1xi32>, %data: !pld.dtensor<4x256xf32>, %peer: i32, %n: index)
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 {
    pld.system.notify %sig[%c0, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
    pld.system.notify %sig[%c0, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
    pld.system.wait %sig[%c0, %c0], %one ge : !pld.dtensor<?x1xi32>
    %unused = pld.tile.remote_load %data[%c0, %c0] from %peer : !pld.dtensor<4x256xf32> -> !pl.tile<1x256xf32, vec>
    %b = pld.tensor.barrier %sig : !pld.dtensor<?x1xi32>
  }
  return
}
