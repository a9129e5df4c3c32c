// RUN: pto-opt --verify-roundtrip %s --pld-lower-composite-ops --split-input-file --verify-diagnostics

func.func @dynamic_broadcast(%d: !pld.dtensor<?x256xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{broadcast lowering needs a static target shape}}
  %r = pld.tensor.broadcast %d, %s root 0 : !pld.dtensor<?x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @dynamic_reduce_scatter(%d: !pld.dtensor<?x?xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{reduce_scatter lowering needs a static row size}}
  %r = pld.tensor.reduce_scatter %d, %s sum : !pld.dtensor<?x?xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @allreduce_dynamic(%d: !pld.dtensor<?x256xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{allreduce lowering needs a static target shape}}
  %r = pld.tensor.allreduce %d, %s sum mesh cores 1 : !pld.dtensor<?x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @ring_dynamic_target(%d: !pld.dtensor<?x256xf32>, %s: !pld.dtensor<6x4xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{allreduce lowering needs a static target shape}}
  %r = pld.tensor.allreduce %d, %s sum ring cores 1 : !pld.dtensor<?x256xf32>, !pld.dtensor<6x4xi32>
  return
}

// -----

func.func @huge_allreduce(%d: !pld.dtensor<4611686018427387904x256xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{the target has more elements than 64 bits count}}
  %r = pld.tensor.allreduce %d, %s sum mesh cores 1 : !pld.dtensor<4611686018427387904x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @huge_broadcast(%d: !pld.dtensor<4611686018427387904x4x256xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{the broadcast target has more rows than 64 bits count}}
  %r = pld.tensor.broadcast %d, %s root 0 : !pld.dtensor<4611686018427387904x4x256xf32>, !pld.dtensor<?x1xi32>
  return
}
