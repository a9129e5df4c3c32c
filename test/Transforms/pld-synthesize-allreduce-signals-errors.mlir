// RUN: pto-opt --verify-roundtrip %s --pld-synthesize-allreduce-signals -verify-diagnostics -o /dev/null

func.func @in_loop(%x: !pld.dtensor<4x256xf32>, %n: index) attributes {pl.level = #pl.level<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'pld.tensor.allreduce' op without an explicit signal is not supported inside a loop on the host path; pass an explicit signal or hoist the allreduce}}
    %r = pld.tensor.allreduce %x sum mesh cores 1 : !pld.dtensor<4x256xf32>
  }
  return
}

// A core count whose signal size (cores x 4 bytes per rank) overflows.
func.func @too_many_cores(%x: !pld.dtensor<4xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  // expected-error @+1 {{'pld.tensor.allreduce' op cores 4611686018427387904 is too many for a synthesized signal (4611686018427387904 x 4 bytes per rank overflows)}}
  %r = pld.tensor.allreduce %x max mesh cores 4611686018427387904 : !pld.dtensor<4xf32>
  return
}
