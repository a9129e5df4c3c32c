// A matmul's a_trans / b_trans operands are transposed before the product
// (Q·K^T in attention), never dropped.
// RUN: pto-opt --verify-roundtrip %s --pl-convert-tensor-to-tile | FileCheck %s
// The transpose is vector work in a cube kernel: memory-space inference
// says so instead of emitting a product of the untransposed operands.
// RUN: not pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile, func.func(pl-infer-memory-space))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIXED

!Q = !pl.tensor<16x64xf16>
!K = !pl.tensor<32x64xf16>
!S = !pl.tensor<16x32xf32>

// CHECK-LABEL: func.func @qk_t(
// CHECK-DAG: %[[K:.*]] = pl.tile.load %arg1[{{.*}}] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16>
// CHECK-DAG: %[[Q:.*]] = pl.tile.load %arg0[{{.*}}] : !pl.tensor<16x64xf16> -> !pl.tile<16x64xf16>
// CHECK: %[[KT:.*]] = pl.tile.transpose %[[K]] axes 0, 1 : !pl.tile<32x64xf16> -> !pl.tile<64x32xf16>
// CHECK: pl.tile.matmul %[[Q]], %[[KT]] : !pl.tile<16x64xf16>, !pl.tile<64x32xf16> -> !pl.tile<16x32xf32, acc>
// MIXED: error: 'pl.tile.matmul' op pl-infer-memory-space: this op needs operand #1 in right, but it is in vec
func.func @qk_t(%q: !Q, %k: !K) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.matmul %q, %k {b_trans} : !Q, !K -> !S
  return %s : !S
}

// CHECK-LABEL: func.func @qt_k(
// CHECK: %[[A:.*]] = pl.tile.load %arg0[{{.*}}] : !pl.tensor<64x16xf16> -> !pl.tile<64x16xf16>
// CHECK: %[[AT:.*]] = pl.tile.transpose %[[A]] axes 0, 1 : !pl.tile<64x16xf16> -> !pl.tile<16x64xf16>
// CHECK: pl.tile.matmul %[[AT]], %{{.*}} : !pl.tile<16x64xf16>, !pl.tile<64x32xf16>
func.func @qt_k(%a: !pl.tensor<64x16xf16>, %b: !pl.tensor<64x32xf16>) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.matmul %a, %b {a_trans} : !pl.tensor<64x16xf16>, !pl.tensor<64x32xf16> -> !S
  return %s : !S
}
