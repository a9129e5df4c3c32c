// RUN: pto-opt %s --pld-comm-stats=nranks=2 --split-input-file --verify-diagnostics -o /dev/null

// A loop bound read from memory cannot be evaluated.
func.func @data_dependent(%t: !pl.tensor<4xi32>, %sig: !pld.dtensor<?x1xi32>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = pl.tensor.read %t[%c0] : !pl.tensor<4xi32> -> i32
  %bound = arith.index_cast %n : i32 to index
  // expected-error @+1 {{pld-comm-stats: cannot evaluate}}
  scf.for %i = %c0 to %bound step %c1 {
    pld.system.notify %sig[%c0, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
  }
  return
}
