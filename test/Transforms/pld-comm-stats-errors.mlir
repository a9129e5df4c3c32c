// RUN: pto-opt --verify-roundtrip %s --pld-comm-stats=nranks=2 --split-input-file --verify-diagnostics -o /dev/null

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

// -----

// A loop of 10^12 trips is more than max-trips: diagnosed, not replayed.
func.func @spin() -> index attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %many = arith.constant 1000000000000 : index
  // expected-error @+1 {{pld-comm-stats: this loop's 1000000000000 iterations exceed max-trips (1000000 loop iterations per rank and function)}}
  %n = scf.for %i = %c0 to %many step %c1 iter_args(%acc = %c0) -> (index) {
    %next = arith.addi %acc, %c1 : index
    scf.yield %next : index
  }
  return %n : index
}

// -----

// Nested loops share the budget: 2000 x 1000 iterations are too many.
func.func @nested() attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %c2000 = arith.constant 2000 : index
  scf.for %i = %c0 to %c2000 step %c1 {
    // expected-error @+1 {{pld-comm-stats: this loop's 1000 iterations exceed max-trips}}
    scf.for %j = %c0 to %c1000 step %c1 {
    }
  }
  return
}

// -----

// A loop whose last step would overflow runs its one trip.
// expected-remark @+2 {{@edge rank 0 of 2: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 1, waits 0}}
// expected-remark @+1 {{@edge rank 1 of 2: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 1, waits 0}}
func.func @edge(%sig: !pld.dtensor<?x1xi32>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %lo = arith.constant 9223372036854775806 : index
  %hi = arith.constant 9223372036854775807 : index
  %step = arith.constant 4611686018427387904 : index
  scf.for %i = %lo to %hi step %step {
    pld.system.notify %sig[%c0, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
  }
  return
}
