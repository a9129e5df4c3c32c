// RUN: pto-opt %s --pld-synthesize-allreduce-signals -verify-diagnostics -o /dev/null

func.func @in_loop(%x: !pld.dtensor<4x256xf32>, %n: index) attributes {pl.level = #pl.level<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'pld.tensor.allreduce' op without an explicit signal is not supported inside a loop on the host path; pass an explicit signal or hoist the allreduce}}
    %r = pld.tensor.allreduce %x sum mesh cores 1 : !pld.dtensor<4x256xf32>
  }
  return
}
