// Once pl-plan-memory has given tiles addresses, buffers are reused: a tile
// computation reads and writes planned buffers and is not speculatable, so
// upstream passes keep it where it is. Before planning it is pure.
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-plan-memory, loop-invariant-code-motion, cse))' | FileCheck %s --check-prefix=PLANNED
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-plan-memory, loop-invariant-code-motion, cse))' | FileCheck %s --check-prefix=PLANNED
// RUN: pto-opt --verify-roundtrip %s --loop-invariant-code-motion | FileCheck %s --check-prefix=VALUES

!T = !pl.tensor<16x64xf32>
!B = !pl.tensor<64x64xf32>
!V = !pl.tile<16x64xf32, vec>

// %b is loop-invariant, but the planner gives it the buffer of %c, which
// the loop's load overwrites on every trip: hoisting %b out of the loop
// would store a clobbered buffer from the second trip on.
// PLANNED-LABEL: func.func @reused_buffer
// PLANNED: pl.tile.load {{.*}}pl.addresses = array<i64: 0>
// PLANNED: scf.for
// PLANNED-NEXT: arith.muli
// PLANNED-NEXT: pl.tile.exp {{.*}}pl.addresses = array<i64: [[B:[0-9]+]]>
// PLANNED-NEXT: pl.tile.store
// PLANNED-NEXT: pl.tile.load {{.*}}pl.addresses = array<i64: [[B]]>
// Two identical planned computations stay two.
// PLANNED-COUNT-2: pl.tile.add
// VALUES-LABEL: func.func @reused_buffer
// VALUES: pl.tile.exp
// VALUES-NEXT: scf.for
func.func @reused_buffer(%x: !T, %y: !B, %out: !B {pl.direction = #pl.direction<out>}) -> !B attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %a = pl.tile.load %x[%c0, %c0] : !T -> !V
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!B) {
    %row = arith.muli %i, %c16 : index
    %b = pl.tile.exp %a : !V
    %s = pl.tile.store %b, %o[%row, %c0] : !V, !B
    %c = pl.tile.load %y[%row, %c0] : !B -> !V
    %d = pl.tile.add %c, %c : !V, !V -> !V
    %e = pl.tile.add %c, %c : !V, !V -> !V
    %f = pl.tile.mul %d, %e : !V, !V -> !V
    %s2 = pl.tile.store %f, %s[%row, %c0] : !V, !B
    scf.yield %s2 : !B
  }
  return %r : !B
}
