// pld-comm-stats' work is bounded by two options (max-ranks, max-trips):
// past them it diagnoses, at the function or the loop, instead of running
// (or allocating) without end.
// RUN: not pto-opt --verify-roundtrip %s --pld-comm-stats=nranks=9223372036854775807 -o %t.mlir 2>&1 | FileCheck %s --check-prefix=RANKS
// RUN: not test -e %t.mlir
// RUN: not mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-comm-stats{nranks=1025})' 2>&1 | FileCheck %s --check-prefix=RANKS-DEFAULT
// RUN: pto-opt --verify-roundtrip %s --pld-comm-stats='nranks=1025 max-ranks=2048' -o /dev/null 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: not pto-opt --verify-roundtrip %s --pld-comm-stats='nranks=2 max-trips=3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRIPS
// RUN: pto-opt --verify-roundtrip %s --pld-comm-stats='nranks=2 max-trips=4' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ENOUGH

// RANKS: pld-comm-stats-limits.mlir:[[@LINE+5]]:1: error: 'func.func' op pld-comm-stats: nranks=9223372036854775807 is more ranks than max-ranks (1024) to evaluate; raise max-ranks
// RANKS-DEFAULT: pld-comm-stats-limits.mlir:[[@LINE+4]]:1: error: 'func.func' op pld-comm-stats: nranks=1025 is more ranks than max-ranks (1024)
// RAISED: remark: 'func.func' op @four rank 1024 of 1025: {{.*}} notifies 4, waits 0
// TRIPS: pld-comm-stats-limits.mlir:[[@LINE+7]]:3: error: 'scf.for' op pld-comm-stats: this loop's 4 iterations exceed max-trips (3 loop iterations per rank and function)
// ENOUGH: remark: 'func.func' op @four rank 1 of 2: {{.*}} notifies 4, waits 0
func.func @four(%sig: !pld.dtensor<?x1xi32>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  scf.for %i = %c0 to %c4 step %c1 {
    pld.system.notify %sig[%c0, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
  }
  return
}
