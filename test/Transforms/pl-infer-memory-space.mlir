// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space))' | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space))' | FileCheck %s
// The whole a2a3 lowering then plans and synchronises the result.
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pto-a2a3-pipeline, pl-verify-sync)' -o /dev/null

// Matmul operands load into L1 and move to L0A/L0B; the product is in L0C;
// the incore kernel becomes aic.
// CHECK-LABEL: func.func @cube
// CHECK-SAME: pl.kind = #pl.kind<aic>
// CHECK: %[[A:.*]] = pl.tile.load {{.*}} -> !pl.tile<16x32xf16, mat>
// CHECK-NEXT: %[[B:.*]] = pl.tile.load {{.*}} -> !pl.tile<32x16xf16, mat>
// CHECK-NEXT: %[[L:.*]] = pl.tile.move %[[A]] : !pl.tile<16x32xf16, mat> -> !pl.tile<16x32xf16, left>
// CHECK-NEXT: %[[R:.*]] = pl.tile.move %[[B]] : !pl.tile<32x16xf16, mat> -> !pl.tile<32x16xf16, right>
// CHECK-NEXT: pl.tile.matmul %[[L]], %[[R]] : {{.*}} -> !pl.tile<16x16xf32, acc>
// CHECK-NEXT: pl.tile.store {{.*}} : !pl.tile<16x16xf32, acc>, !pl.tensor<16x16xf32>
func.func @cube(%a: !pl.tensor<16x32xf16>, %b: !pl.tensor<32x16xf16>, %c: !pl.tensor<16x16xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %am = pl.tile.load %a[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16>
  %bm = pl.tile.load %b[%c0, %c0] : !pl.tensor<32x16xf16> -> !pl.tile<32x16xf16>
  %p = pl.tile.matmul %am, %bm : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
  %r = pl.tile.store %p, %c[%c0, %c0] : !pl.tile<16x16xf32>, !pl.tensor<16x16xf32>
  return %r : !pl.tensor<16x16xf32>
}
// Vector work: everything in the unified buffer, loop-carried values in
// their init's space; the kernel becomes aiv.
// CHECK-LABEL: func.func @vector
// CHECK-SAME: pl.kind = #pl.kind<aiv>
// CHECK: pl.tile.create : !pl.tile<16x64xf32, vec>
// CHECK-NEXT: pl.tile.load {{.*}} -> !pl.tile<16x64xf32, vec>
// CHECK: scf.for {{.*}} -> (!pl.tile<16x64xf32, vec>)
// CHECK-NEXT: pl.tile.add {{.*}} -> !pl.tile<16x64xf32, vec>
func.func @vector(%x: !pl.tensor<16x64xf32>, %out: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %init = pl.tile.create : !pl.tile<16x64xf32>
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32>
  %zero = arith.constant 0.0 : f32
  %z = pl.tile.muls %t, %zero : !pl.tile<16x64xf32>, f32
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (!pl.tile<16x64xf32>) {
    %n = pl.tile.add %acc, %t : !pl.tile<16x64xf32>, !pl.tile<16x64xf32> -> !pl.tile<16x64xf32>
    scf.yield %n : !pl.tile<16x64xf32>
  }
  %r = pl.tile.store %s, %out[%c0, %c0] : !pl.tile<16x64xf32>, !pl.tensor<16x64xf32>
  return %r : !pl.tensor<16x64xf32>
}

// Explicit spaces stay; a valid shape survives retyping.
// CHECK-LABEL: func.func @explicit
// CHECK: pl.tile.load {{.*}} valid(%{{.*}}) {{.*}} -> !pl.tile<16x64xf32, vec, valid = ?x64>
// CHECK-NEXT: pl.tile.exp {{.*}} : !pl.tile<16x64xf32, vec, valid = ?x64>
func.func @explicit(%x: !pl.tensor<16x64xf32>, %rows: index) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] valid(%rows) : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, valid = ?x64>
  %e = pl.tile.exp %t : !pl.tile<16x64xf32, valid = ?x64>
  return
}

// A kernel without tile work (scalar accesses only) runs on a vector
// core's scalar unit: it becomes aiv.
// CHECK-LABEL: func.func @scalar_only
// CHECK-SAME: pl.kind = #pl.kind<aiv>
func.func @scalar_only(%x: !pl.tensor<8xf32>, %y: !pl.tensor<8xf32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %v = pl.tensor.read %x[%c0] : !pl.tensor<8xf32> -> f32
  %y2 = pl.tensor.write %y[%c0], %v : !pl.tensor<8xf32>, f32
  return
}

// A layout written on a tile without a space is kept when the space is
// inferred (a [1, 1] column of a row reduction, here).
// CHECK-LABEL: func.func @written_layout(
// CHECK: pl.tile.row_max %{{.*}}, %{{.*}} : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xf32, vec> -> !pl.tile<1x1xf32, vec, blayout = col_major>
func.func @written_layout(%x: !pl.tensor<1x64xf32>, %out: !pl.tensor<1x1xf32>) -> !pl.tensor<1x1xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<1x64xf32> -> !pl.tile<1x64xf32>
  %tmp = pl.tile.create : !pl.tile<1x64xf32>
  %m = pl.tile.row_max %t, %tmp : !pl.tile<1x64xf32>, !pl.tile<1x64xf32> -> !pl.tile<1x1xf32, blayout = col_major>
  %r = pl.tile.store %m, %out[%c0, %c0] : !pl.tile<1x1xf32, blayout = col_major>, !pl.tensor<1x1xf32>
  return %r : !pl.tensor<1x1xf32>
}

// A load read through a transposed view feeds the matmul: the load goes to
// L1 (nz), the view follows it (zn), and the move into L0 transposes.
// CHECK-LABEL: func.func @transposed_operand(
// CHECK: %[[K:.*]] = pl.tile.load %arg1[{{.*}}] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16, mat>
// CHECK: %[[V:.*]] = pl.tile.transpose_view %[[K]] : !pl.tile<32x64xf16, mat> -> !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major>
// CHECK: %[[R:.*]] = pl.tile.move %[[V]] : !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major> -> !pl.tile<64x32xf16, right>
// CHECK: pl.tile.matmul %{{.*}}, %[[R]]
func.func @transposed_operand(%q: !pl.tensor<16x64xf16>, %k: !pl.tensor<32x64xf16>, %s: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %qt = pl.tile.load %q[%c0, %c0] : !pl.tensor<16x64xf16> -> !pl.tile<16x64xf16>
  %kt = pl.tile.load %k[%c0, %c0] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16>
  %v = pl.tile.transpose_view %kt : !pl.tile<32x64xf16> -> !pl.tile<64x32xf16, blayout = col_major>
  %p = pl.tile.matmul %qt, %v : !pl.tile<16x64xf16>, !pl.tile<64x32xf16, blayout = col_major> -> !pl.tile<16x32xf32>
  %r = pl.tile.store %p, %s[%c0, %c0] : !pl.tile<16x32xf32>, !pl.tensor<16x32xf32>
  return
}
