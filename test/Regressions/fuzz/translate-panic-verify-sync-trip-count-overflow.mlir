// pto-translate panic: internal error in pass 'pl-verify-sync' (attempt to add with overflow counting the trips of a loop with bounds near the ends of i64), found by scripts/fuzz.py --seed 1
// RUN (from the checkout root, %s = this file): target/debug/pto-translate --mlir-to-cce --target=a2a3sim --entry=kernel %s -o out/o


func.func @edge(%sig: !pld.dtensor<?x1xi32>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %lo = arith.constant 4096 : index
  %hi = arith.constant 9223372036854775807 : index
  %step = arith.constant 4611686018427387904 : index
  scf.for %i = %lo to %hi step %step {
    pld.system.notify %sig[%c0, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
  }
  return
}
