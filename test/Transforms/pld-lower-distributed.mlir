// RUN: pto-opt --verify-roundtrip %s --pld-lower-distributed | FileCheck %s
// The pipeline equals its passes run one by one.
// RUN: pto-opt --verify-roundtrip %s --pld-lower-distributed > %t.pipeline
// RUN: pto-opt --verify-roundtrip %s --pld-lower-composite-ops --pld-synthesize-allreduce-signals --pld-materialize-comm-domains --pld-lower-host-collectives --pld-materialize-dist-tensor-ctx --pld-insert-comm-fence > %t.passes
// RUN: diff %t.pipeline %t.passes
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-lower-distributed)' | FileCheck %s

!Data = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<?x1xi32>

// The kernel's allgather expands; the put is followed by a fence before the
// barrier's notifies (pld-insert-comm-fence after the expansion).
// CHECK-LABEL: func.func @kernel
// CHECK-NOT: pld.tensor.allgather
// CHECK: pld.tile.put
// CHECK-NEXT: pl.system.fence
// CHECK: pld.system.notify
// CHECK: pld.system.wait
func.func @kernel(%i: !pl.tensor<1x256xf32>, %d: !pld.dtensor<?x256xf32>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x256xf32>, !pld.dtensor<?x256xf32>, !Sig
  return
}
