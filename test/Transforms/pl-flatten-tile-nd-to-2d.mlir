// RUN: pto-opt --verify-roundtrip %s --split-input-file --pass-pipeline='builtin.module(func.func(pl-flatten-tile-nd-to-2d))' | FileCheck %s
// The flattened kernels verify and keep their meaning (checked by pto-run in
// run/tests/lowering.rs); stock mlir-opt runs the pass through the plugin.
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --split-input-file --pass-pipeline='builtin.module(func.func(pl-flatten-tile-nd-to-2d))' | FileCheck %s

!T = !pl.tensor<2x16x64xf32>
!X = !pl.tile<2x16x64xf32>
!C = !pl.tile<2x16x1xf32>

// Loads and stores keep the window as their partition; row reductions and
// expansions fold the leading dimensions into rows.
// CHECK-LABEL: func.func @row_softmax_step
// CHECK: %[[A:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] partition [2, 16, 64] : !pl.tensor<2x16x64xf32> -> !pl.tile<32x64xf32>
// CHECK-NEXT: %[[TMP:.*]] = pl.tile.create : !pl.tile<32x64xf32>
// CHECK-NEXT: %[[M:.*]] = pl.tile.row_max %[[A]], %[[TMP]] : !pl.tile<32x64xf32>, !pl.tile<32x64xf32> -> !pl.tile<32x1xf32>
// CHECK-NEXT: %[[S:.*]] = pl.tile.row_expand_sub %[[A]], %[[M]] : !pl.tile<32x64xf32>, !pl.tile<32x1xf32> -> !pl.tile<32x64xf32>
// CHECK-NEXT: %[[E:.*]] = pl.tile.exp %[[S]] : !pl.tile<32x64xf32>
// CHECK-NEXT: pl.tile.store %[[E]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] partition [2, 16, 64] : !pl.tile<32x64xf32>, !pl.tensor<2x16x64xf32>
func.func @row_softmax_step(%t: !T, %o: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %t[%c0, %c0, %c0] : !T -> !X
  %tmp = pl.tile.create : !X
  %m = pl.tile.row_max %a, %tmp : !X, !X -> !C
  %s = pl.tile.row_expand_sub %a, %m : !X, !C -> !X
  %e = pl.tile.exp %s : !X
  %r = pl.tile.store %e, %o[%c0, %c0, %c0] : !X, !T
  return %r : !T
}

// -----

// A loop-carried rank-3 tile is retyped with its loop; a window of one
// batch row of a bigger tensor keeps its offsets.
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[Z:.*]] = pl.tile.full %{{.*}} : f32 -> !pl.tile<8x32xf32>
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (!pl.tile<8x32xf32>) {
// CHECK-NEXT: %[[L:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] partition [1, 2, 4, 32] : !pl.tensor<4x2x4x32xf32> -> !pl.tile<8x32xf32>
// CHECK-NEXT: %[[SUM:.*]] = pl.tile.add %[[ACC]], %[[L]] : !pl.tile<8x32xf32>, !pl.tile<8x32xf32> -> !pl.tile<8x32xf32>
// CHECK-NEXT: scf.yield %[[SUM]] : !pl.tile<8x32xf32>
// CHECK: %[[F:.*]] = pl.tile.reshape %[[R]] : !pl.tile<8x32xf32> -> !pl.tile<8x32xf32>
// CHECK-NEXT: pl.tile.store %[[F]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] partition [2, 4, 32] : !pl.tile<8x32xf32>, !pl.tensor<2x4x32xf32>
func.func @accumulate(%x: !pl.tensor<4x2x4x32xf32>, %o: !pl.tensor<2x4x32xf32>) -> !pl.tensor<2x4x32xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %z = pl.tile.full %zero : f32 -> !pl.tile<1x2x4x32xf32>
  %sum = scf.for %b = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (!pl.tile<1x2x4x32xf32>) {
    %l = pl.tile.load %x[%b, %c0, %c0, %c0] : !pl.tensor<4x2x4x32xf32> -> !pl.tile<1x2x4x32xf32>
    %s = pl.tile.add %acc, %l : !pl.tile<1x2x4x32xf32>, !pl.tile<1x2x4x32xf32> -> !pl.tile<1x2x4x32xf32>
    scf.yield %s : !pl.tile<1x2x4x32xf32>
  }
  %flat = pl.tile.reshape %sum : !pl.tile<1x2x4x32xf32> -> !pl.tile<2x4x32xf32>
  %r = pl.tile.store %flat, %o[%c0, %c0, %c0] : !pl.tile<2x4x32xf32>, !pl.tensor<2x4x32xf32>
  return %r : !pl.tensor<2x4x32xf32>
}

// -----

// A partly valid last dimension stays partly valid; 2-D tiles and
// orchestrations are untouched.
// CHECK-LABEL: func.func @ragged
// CHECK: pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] valid(%{{.*}}) partition [2, 8, 64] : !pl.tensor<2x8x64xf16> -> !pl.tile<16x64xf16, valid = 16x?>
// CHECK: pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<16x64xf16> -> !pl.tile<16x64xf16>
func.func @ragged(%x: !pl.tensor<2x8x64xf16>, %y: !pl.tensor<16x64xf16>, %cols: index) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0, %c0] valid(%cols) : !pl.tensor<2x8x64xf16> -> !pl.tile<2x8x64xf16, valid = 2x8x?>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<16x64xf16> -> !pl.tile<16x64xf16>
  return
}

// -----

// 2-D transposes and parametric relus get the scratch their instructions
// write: TTRANS the result's rows and its columns in blocks of 16, TPRELU a
// packed ui8 sign mask with one more row; a given scratch stays.
// CHECK-LABEL: func.func @scratches
// CHECK: %[[TT:.*]] = pl.tile.create : !pl.tile<64x16xf32, vec>
// CHECK-NEXT: pl.tile.transpose %{{.*}} axes 0, 1, %[[TT]] : !pl.tile<8x64xf32, vec>, !pl.tile<64x16xf32, vec> -> !pl.tile<64x8xf32, vec>
// CHECK: %[[TP:.*]] = pl.tile.create : !pl.tile<33x32xui8>
// CHECK-NEXT: pl.tile.prelu %{{.*}}, %{{.*}}, %[[TP]] : !pl.tile<32x64xf32>, !pl.tile<32x64xf32>, !pl.tile<33x32xui8> -> !pl.tile<32x64xf32>
// CHECK: %[[GIVEN:.*]] = pl.tile.create : !pl.tile<64x16xf32, vec>
// CHECK-NEXT: pl.tile.transpose %{{.*}} axes 0, 1, %[[GIVEN]] : !pl.tile<8x64xf32, vec>, !pl.tile<64x16xf32, vec> -> !pl.tile<64x8xf32, vec>
// CHECK-NOT: pl.tile.create
func.func @scratches(%x: !pl.tensor<8x64xf32>, %y: !pl.tensor<2x16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<8x64xf32> -> !pl.tile<8x64xf32, vec>
  %n = pl.tile.load %y[%c0, %c0, %c0] : !pl.tensor<2x16x64xf32> -> !pl.tile<2x16x64xf32>
  %a = pl.tile.transpose %t axes 0, 1 : !pl.tile<8x64xf32, vec> -> !pl.tile<64x8xf32, vec>
  %b = pl.tile.prelu %n, %n : !pl.tile<2x16x64xf32>, !pl.tile<2x16x64xf32> -> !pl.tile<2x16x64xf32>
  %tmp = pl.tile.create : !pl.tile<64x16xf32, vec>
  %c = pl.tile.transpose %t axes 0, 1, %tmp : !pl.tile<8x64xf32, vec>, !pl.tile<64x16xf32, vec> -> !pl.tile<64x8xf32, vec>
  return
}

// A vector is one row: [N] tiles become [1, N], their loads and stores
// keeping the vector's window as their partition.
// CHECK-LABEL: func.func @vector
// CHECK: %[[X:.*]] = pl.tile.load %{{.*}}[%{{.*}}] partition [64] : !pl.tensor<64xf32> -> !pl.tile<1x64xf32>
// CHECK: %[[E:.*]] = pl.tile.exp %[[X]] : !pl.tile<1x64xf32>
// CHECK: pl.tile.store %[[E]], %{{.*}}[%{{.*}}] partition [64] : !pl.tile<1x64xf32>, !pl.tensor<64xf32>
func.func @vector(%t: !pl.tensor<64xf32>, %o: !pl.tensor<64xf32>) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %t[%c0] : !pl.tensor<64xf32> -> !pl.tile<64xf32>
  %e = pl.tile.exp %a : !pl.tile<64xf32>
  %r = pl.tile.store %e, %o[%c0] : !pl.tile<64xf32>, !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}
