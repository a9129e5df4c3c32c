// A matmul's a_trans / b_trans operands are read transposed before the
// product (Q·K^T in attention), never dropped: a transposed view of the
// loaded tile, which memory-space inference places in L1 (nz read as zn)
// and moves into L0, where the move transposes.
// RUN: pto-opt --verify-roundtrip %s --pl-convert-tensor-to-tile | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile, func.func(pl-infer-memory-space))' | FileCheck %s --check-prefix=SPACES
// (A transposed operand the vector unit computes is still a mixed kernel:
// pl-infer-memory-space-errors.mlir.)

!Q = !pl.tensor<16x64xf16>
!K = !pl.tensor<32x64xf16>
!S = !pl.tensor<16x32xf32>

// CHECK-LABEL: func.func @qk_t(
// CHECK-DAG: %[[K:.*]] = pl.tile.load %arg1[{{.*}}] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16>
// CHECK-DAG: %[[Q:.*]] = pl.tile.load %arg0[{{.*}}] : !pl.tensor<16x64xf16> -> !pl.tile<16x64xf16>
// CHECK: %[[KT:.*]] = pl.tile.transpose_view %[[K]] : !pl.tile<32x64xf16> -> !pl.tile<64x32xf16, blayout = col_major>
// CHECK: pl.tile.matmul %[[Q]], %[[KT]] : !pl.tile<16x64xf16>, !pl.tile<64x32xf16, blayout = col_major> -> !pl.tile<16x32xf32, acc>
// SPACES-LABEL: func.func @qk_t(
// SPACES-SAME: pl.kind = #pl.kind<aic>
// SPACES: %[[K:.*]] = pl.tile.load %arg1[{{.*}}] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16, mat>
// SPACES: %[[KT:.*]] = pl.tile.transpose_view %[[K]] : !pl.tile<32x64xf16, mat> -> !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major>
// SPACES: pl.tile.move %[[KT]] : !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major> -> !pl.tile<64x32xf16, right>
func.func @qk_t(%q: !Q, %k: !K) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.matmul %q, %k {b_trans} : !Q, !K -> !S
  return %s : !S
}

// CHECK-LABEL: func.func @qt_k(
// CHECK: %[[A:.*]] = pl.tile.load %arg0[{{.*}}] : !pl.tensor<64x16xf16> -> !pl.tile<64x16xf16>
// CHECK: %[[AT:.*]] = pl.tile.transpose_view %[[A]] : !pl.tile<64x16xf16> -> !pl.tile<16x64xf16, blayout = col_major>
// CHECK: pl.tile.matmul %[[AT]], %{{.*}} : !pl.tile<16x64xf16, blayout = col_major>, !pl.tile<64x32xf16>
// SPACES-LABEL: func.func @qt_k(
// SPACES: %[[A:.*]] = pl.tile.load %arg0[{{.*}}] : !pl.tensor<64x16xf16> -> !pl.tile<64x16xf16, mat>
// SPACES: %[[AT:.*]] = pl.tile.transpose_view %[[A]] : !pl.tile<64x16xf16, mat> -> !pl.tile<16x64xf16, mat, blayout = row_major, slayout = col_major>
// SPACES: pl.tile.move %[[AT]] : {{.*}} -> !pl.tile<16x64xf16, left>
func.func @qt_k(%a: !pl.tensor<64x16xf16>, %b: !pl.tensor<64x32xf16>) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.matmul %a, %b {a_trans} : !pl.tensor<64x16xf16>, !pl.tensor<64x32xf16> -> !S
  return %s : !S
}
