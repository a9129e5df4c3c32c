// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-unroll-loops))' | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-unroll-loops))' | FileCheck %s

!X = !pl.tensor<2x64xf32>
!T = !pl.tile<1x64xf32, vec>

// Each iteration becomes a copy with its index.
// CHECK-LABEL: func.func @rows(
// CHECK-NOT: scf.for
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: pl.tile.load %{{.*}}[%[[C0]], %[[C0]]]
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%[[C0]], %[[C0]]]
// CHECK: pl.tile.load %{{.*}}[%[[C1]], %[[C0]]]
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%[[C1]], %[[C0]]]
// CHECK-NOT: scf.for
func.func @rows(%x: !X, %y: !X) -> !X attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %y) -> !X {
    %t = pl.tile.load %x[%i, %c0] : !X -> !T
    %e = pl.tile.exp %t : !T
    %o = pl.tile.store %e, %acc[%i, %c0] : !T, !X
    scf.yield %o : !X
  } {pl.unroll}
  return %r : !X
}

// Only marked loops are unrolled; the marked inner loop goes first, and
// the copies fold (adding iteration 0 is gone).
// CHECK-LABEL: func.func @nested(
// CHECK: scf.for
// CHECK-COUNT-2: arith.addi
// CHECK-NOT: scf.for
// CHECK: return
func.func @nested(%n: index) -> index attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
    %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%a = %acc) -> index {
      %b = arith.addi %a, %j : index
      scf.yield %b : index
    } {pl.unroll}
    scf.yield %s : index
  }
  return %r : index
}

// A loop of no iteration is its initial values.
// CHECK-LABEL: func.func @empty(
// CHECK-SAME: %[[N:.*]]: index)
// CHECK-NOT: scf.for
// CHECK: return %[[N]]
func.func @empty(%n: index) -> index attributes {pl.kind = #pl.kind<orchestration>} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c4 to %c1 step %c1 iter_args(%a = %n) -> index {
    %b = arith.addi %a, %i : index
    scf.yield %b : index
  } {pl.unroll}
  return %r : index
}
