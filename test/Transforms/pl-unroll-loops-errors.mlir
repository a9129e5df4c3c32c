// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-unroll-loops))' --split-input-file --verify-diagnostics

func.func @dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{pl-unroll-loops: a loop marked pl.unroll needs constant bounds and step (fold them, or drop pl.unroll)}}
  scf.for %i = %c0 to %n step %c1 {
  } {pl.unroll}
  return
}

// -----

func.func @huge() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000 : index
  // expected-error @+1 {{pl-unroll-loops: a loop marked pl.unroll runs 1000000 iterations; at most 4096 are unrolled}}
  scf.for %i = %c0 to %big step %c1 {
  } {pl.unroll}
  return
}
