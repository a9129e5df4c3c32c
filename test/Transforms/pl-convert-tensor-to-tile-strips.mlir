// RUN: pto-opt --verify-roundtrip %s --pl-convert-tensor-to-tile | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile, func.func(pl-infer-memory-space, pl-plan-memory, pl-insert-sync, pl-verify-sync))' -o /dev/null

// A kernel whose tensors have a dynamic leading extent and whose rows are
// independent runs in strips: a loop over blocks of rows (64 here: 16 KB
// of 64 f32 columns), each loaded into a static tile valid for the rows
// left, computed, and stored at its row into a new out parameter.
// CHECK-LABEL: func.func @center(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<?x64xf32>, %[[OUT:.*]]: !pl.tensor<?x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<?x64xf32>
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[N:.*]] = pl.tensor.dim %[[X]], 0
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %[[C64]] iter_args(%[[O:.*]] = %[[OUT]]) -> (!pl.tensor<?x64xf32>) {
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[N]], %[[I]]
// CHECK-NEXT: %[[V:.*]] = arith.minsi %[[LEFT]], %[[C64]]
// CHECK-NEXT: %[[T:.*]] = pl.tile.load %[[X]][%[[I]], %{{.*}}] valid(%[[V]]) : !pl.tensor<?x64xf32> -> !pl.tile<64x64xf32, valid = ?x64>
// CHECK: %[[TMP:.*]] = pl.tile.create : !pl.tile<64x64xf32>
// CHECK-NEXT: %[[S:.*]] = pl.tile.row_sum %[[T]], %[[TMP]] : !pl.tile<64x64xf32, valid = ?x64>, !pl.tile<64x64xf32> -> !pl.tile<64x1xf32, valid = ?x1>
// CHECK-NEXT: %[[M:.*]] = pl.tile.muls %[[S]], %{{.*}} : !pl.tile<64x1xf32, valid = ?x1>, f32
// CHECK-NEXT: %[[D:.*]] = pl.tile.row_expand_sub %[[T]], %[[M]] : !pl.tile<64x64xf32, valid = ?x64>, !pl.tile<64x1xf32, valid = ?x1> -> !pl.tile<64x64xf32, valid = ?x64>
// CHECK-NEXT: %[[ST:.*]] = pl.tile.store %[[D]], %[[O]][%[[I]], %{{.*}}] : !pl.tile<64x64xf32, valid = ?x64>, !pl.tensor<?x64xf32>
// CHECK-NEXT: scf.yield %[[ST]]
// CHECK: return %[[R]]
func.func @center(%x: !pl.tensor<?x64xf32>) -> !pl.tensor<?x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %inv = arith.constant 0.015625 : f32
  %s = pl.tensor.row_sum %x : !pl.tensor<?x64xf32> -> !pl.tensor<?x1xf32>
  %m = pl.tensor.muls %s, %inv : !pl.tensor<?x1xf32>, f32
  %r = pl.tensor.sub %x, %m : !pl.tensor<?x64xf32>, !pl.tensor<?x1xf32> -> !pl.tensor<?x64xf32>
  return %r : !pl.tensor<?x64xf32>
}

// A static operand (a [1, 64] row broadcast over the rows) is loaded once
// at the entry; the strip's rows are 128 for 32 f32 columns, and the
// leading extent of each new out parameter is the caller's argument's.
// CHECK-LABEL: func.func @scale(
// CHECK: %[[W:.*]] = pl.tile.load %arg1[%{{.*}}, %{{.*}}] : !pl.tensor<1x32xf32> -> !pl.tile<1x32xf32>
// CHECK: arith.constant 128 : index
// CHECK: scf.for
// CHECK: pl.tile.load %arg0[%{{.*}}, %{{.*}}] valid(%{{.*}}) : !pl.tensor<?x32xf32> -> !pl.tile<128x32xf32, valid = ?x32>
// CHECK: pl.tile.col_expand_mul %{{.*}}, %[[W]] : !pl.tile<128x32xf32, valid = ?x32>, !pl.tile<1x32xf32> -> !pl.tile<128x32xf32, valid = ?x32>
// CHECK: pl.tile.exp %{{.*}} : !pl.tile<128x32xf32, valid = ?x32>
func.func @scale(%x: !pl.tensor<?x32xf32>, %w: !pl.tensor<1x32xf32>) -> (!pl.tensor<?x32xf32>, !pl.tensor<?x32xf32>) attributes {pl.kind = #pl.kind<incore>} {
  %y = pl.tensor.mul %x, %w : !pl.tensor<?x32xf32>, !pl.tensor<1x32xf32> -> !pl.tensor<?x32xf32>
  %e = pl.tensor.exp %y : !pl.tensor<?x32xf32>
  return %y, %e : !pl.tensor<?x32xf32>, !pl.tensor<?x32xf32>
}

// CHECK-LABEL: func.func @caller(
// CHECK: %[[N:.*]] = pl.tensor.dim %arg0, 0 : !pl.tensor<?x32xf32>
// CHECK-NEXT: %[[A:.*]] = pl.tensor.create(%[[N]]) : !pl.tensor<?x32xf32>
// CHECK-NEXT: %[[N2:.*]] = pl.tensor.dim %arg0, 0 : !pl.tensor<?x32xf32>
// CHECK-NEXT: %[[B:.*]] = pl.tensor.create(%[[N2]]) : !pl.tensor<?x32xf32>
// CHECK-NEXT: pl.call @scale(%arg0, %arg1, %[[A]], %[[B]])
func.func @caller(%x: !pl.tensor<?x32xf32>, %w: !pl.tensor<1x32xf32>) -> !pl.tensor<?x32xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %y, %e = pl.call @scale(%x, %w) : (!pl.tensor<?x32xf32>, !pl.tensor<1x32xf32>) -> (!pl.tensor<?x32xf32>, !pl.tensor<?x32xf32>)
  return %e : !pl.tensor<?x32xf32>
}
