// RUN: pto-opt --verify-roundtrip %s --pl-convert-tensor-to-tile | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile, func.func(pl-infer-memory-space, pl-plan-memory), pl-insert-sync, pl-verify-sync)' -o /dev/null

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

// Dynamic columns too: blocks of 64 rows of 256 bytes (64 f32), the column
// loop inside the row loop. The row maxima accumulate across the column
// blocks in a carried tile that starts at -inf, valid for the block's rows;
// the result with the columns is stored at [row, column], the reduction
// after the column loop at [row, 0].
// CHECK-LABEL: func.func @relu_row_max(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<?x?xf32>, %[[Y:.*]]: !pl.tensor<?x?xf32> {pl.direction = #pl.direction<out>}, %[[M:.*]]: !pl.tensor<?x1xf32> {pl.direction = #pl.direction<out>})
// CHECK-DAG: %[[ROWS:.*]] = pl.tensor.dim %[[X]], 0
// CHECK-DAG: %[[COLS:.*]] = pl.tensor.dim %[[X]], 1
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[ROWS]] step %{{.*}} iter_args(%[[YO:.*]] = %[[Y]], %[[MO:.*]] = %[[M]])
// CHECK: %[[VR:.*]] = arith.minsi
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[FULL:.*]] = pl.tile.full %[[NEG]] : f32 -> !pl.tile<64x1xf32>
// CHECK: %[[INIT:.*]] = pl.tile.set_validshape %[[FULL]], %[[VR]], %{{.*}} : !pl.tile<64x1xf32> -> !pl.tile<64x1xf32, valid = ?x1>
// CHECK: %[[INNER:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %[[COLS]] step %{{.*}} iter_args(%[[YI:.*]] = %[[YO]], %[[ACC:.*]] = %[[INIT]]) -> (!pl.tensor<?x?xf32>, !pl.tile<64x1xf32, valid = ?x1>)
// CHECK: %[[VC:.*]] = arith.minsi
// CHECK-NEXT: %[[T:.*]] = pl.tile.load %[[X]][%[[I]], %[[J]]] valid(%[[VR]], %[[VC]]) : !pl.tensor<?x?xf32> -> !pl.tile<64x64xf32, valid = ?x?>
// CHECK-NEXT: %[[R:.*]] = pl.tile.relu %[[T]]
// CHECK: %[[P:.*]] = pl.tile.row_max %[[R]], %{{.*}} : !pl.tile<64x64xf32, valid = ?x?>, !pl.tile<64x64xf32> -> !pl.tile<64x1xf32, valid = ?x1>
// CHECK-NEXT: %[[A:.*]] = pl.tile.maximum %[[ACC]], %[[P]]
// CHECK-NEXT: %[[ST:.*]] = pl.tile.store %[[R]], %[[YI]][%[[I]], %[[J]]]
// CHECK-NEXT: scf.yield %[[ST]], %[[A]]
// CHECK: %[[MS:.*]] = pl.tile.store %[[INNER]]#1, %[[MO]][%[[I]], %{{.*}}] : !pl.tile<64x1xf32, valid = ?x1>, !pl.tensor<?x1xf32>
// CHECK-NEXT: scf.yield %[[INNER]]#0, %[[MS]]
func.func @relu_row_max(%x: !pl.tensor<?x?xf32>) -> (!pl.tensor<?x?xf32>, !pl.tensor<?x1xf32>) attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.relu %x : !pl.tensor<?x?xf32>
  %m = pl.tensor.row_max %r : !pl.tensor<?x?xf32> -> !pl.tensor<?x1xf32>
  return %r, %m : !pl.tensor<?x?xf32>, !pl.tensor<?x1xf32>
}

// Both extents of a new out parameter are the caller's argument's.
// CHECK-LABEL: func.func @relu_row_max_caller(
// CHECK: %[[R:.*]] = pl.tensor.dim %arg0, 0 : !pl.tensor<?x?xf32>
// CHECK-NEXT: %[[C:.*]] = pl.tensor.dim %arg0, 1 : !pl.tensor<?x?xf32>
// CHECK-NEXT: pl.tensor.create(%[[R]], %[[C]]) : !pl.tensor<?x?xf32>
// CHECK: %[[R2:.*]] = pl.tensor.dim %arg0, 0 : !pl.tensor<?x?xf32>
// CHECK-NEXT: pl.tensor.create(%[[R2]]) : !pl.tensor<?x1xf32>
func.func @relu_row_max_caller(%x: !pl.tensor<?x?xf32>) -> !pl.tensor<?x1xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %r, %m = pl.call @relu_row_max(%x) : (!pl.tensor<?x?xf32>) -> (!pl.tensor<?x?xf32>, !pl.tensor<?x1xf32>)
  return %m : !pl.tensor<?x1xf32>
}

// Static rows, dynamic columns: one loop over blocks of 256 columns (16
// rows within 16 KB); the column reduction and its broadcast stay inside a
// block, and a sum of f16 rows accumulates from 0 in a static [16, 1] tile.
// CHECK-LABEL: func.func @center_columns(
// CHECK: %[[COLS:.*]] = pl.tensor.dim %arg0, 1 : !pl.tensor<16x?xf16>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[INIT:.*]] = pl.tile.full %[[ZERO]] : f16 -> !pl.tile<16x1xf16>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[COLS]] step %{{.*}} iter_args(%{{.*}} = %arg1, %[[ACC:.*]] = %[[INIT]]) -> (!pl.tensor<16x?xf16>, !pl.tile<16x1xf16>)
// CHECK: pl.tile.load %arg0[%{{.*}}, %[[J]]] valid(%{{.*}}) : !pl.tensor<16x?xf16> -> !pl.tile<16x512xf16, valid = 16x?>
// CHECK: pl.tile.col_sum %{{.*}} : !pl.tile<16x512xf16, valid = 16x?> -> !pl.tile<1x512xf16, valid = 1x?>
// CHECK: pl.tile.col_expand_sub
// CHECK: pl.tile.row_sum
// CHECK-NEXT: pl.tile.add %[[ACC]], %{{.*}} : !pl.tile<16x1xf16>, !pl.tile<16x1xf16> -> !pl.tile<16x1xf16>
func.func @center_columns(%x: !pl.tensor<16x?xf16>) -> (!pl.tensor<16x?xf16>, !pl.tensor<16x1xf16>) attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.col_sum %x : !pl.tensor<16x?xf16> -> !pl.tensor<1x?xf16>
  %d = pl.tensor.sub %x, %s : !pl.tensor<16x?xf16>, !pl.tensor<1x?xf16> -> !pl.tensor<16x?xf16>
  %t = pl.tensor.row_sum %d : !pl.tensor<16x?xf16> -> !pl.tensor<16x1xf16>
  return %d, %t : !pl.tensor<16x?xf16>, !pl.tensor<16x1xf16>
}
