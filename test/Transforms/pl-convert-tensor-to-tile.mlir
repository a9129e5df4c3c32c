// RUN: pto-opt %s --pl-convert-tensor-to-tile | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile)' | FileCheck %s
// The result plans and synchronises.
// RUN: pto-opt %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile, func.func(pl-infer-memory-space, pl-plan-memory, pl-insert-sync, pl-verify-sync))' -o /dev/null

!T = !pl.tensor<16x64xf32>
!C = !pl.tensor<16x1xf32>

// A row softmax at tensor level: parameters load once, the row reductions
// get scratch tiles, `x - max` (a [16, 1] operand) becomes row_expand_sub,
// and the returned tensor is stored into a new out parameter.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<16x64xf32>, %[[OUT:.*]]: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[T:.*]] = pl.tile.load %[[X]][%[[C0]], %[[C0]]] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32>
// CHECK-NEXT: %[[S1:.*]] = pl.tile.create : !pl.tile<16x64xf32>
// CHECK-NEXT: %[[M:.*]] = pl.tile.row_max %[[T]], %[[S1]] : !pl.tile<16x64xf32>, !pl.tile<16x64xf32> -> !pl.tile<16x1xf32>
// CHECK-NEXT: %[[D:.*]] = pl.tile.row_expand_sub %[[T]], %[[M]] : !pl.tile<16x64xf32>, !pl.tile<16x1xf32> -> !pl.tile<16x64xf32>
// CHECK-NEXT: %[[E:.*]] = pl.tile.exp %[[D]] : !pl.tile<16x64xf32>
// CHECK-NEXT: %[[S2:.*]] = pl.tile.create : !pl.tile<16x64xf32>
// CHECK-NEXT: %[[SUM:.*]] = pl.tile.row_sum %[[E]], %[[S2]]
// CHECK-NEXT: %[[P:.*]] = pl.tile.row_expand_div %[[E]], %[[SUM]]
// CHECK-NEXT: %[[R:.*]] = pl.tile.store %[[P]], %[[OUT]][%[[C0]], %[[C0]]] : !pl.tile<16x64xf32>, !pl.tensor<16x64xf32>
// CHECK-NEXT: return %[[R]]
func.func @softmax(%x: !T) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %max = pl.tensor.row_max %x : !T -> !C
  %shifted = pl.tensor.sub %x, %max : !T, !C -> !T
  %e = pl.tensor.exp %shifted : !T
  %sum = pl.tensor.row_sum %e : !T -> !C
  %p = pl.tensor.div %e, %sum : !T, !C -> !T
  return %p : !T
}

// Callers pass a fresh tensor for the new parameter (pl.submit too).
// CHECK-LABEL: func.func @caller
// CHECK: %[[NEW:.*]] = pl.tensor.create() : !pl.tensor<16x64xf32>
// CHECK-NEXT: pl.call @softmax(%{{.*}}, %[[NEW]])
// CHECK: %[[NEW2:.*]] = pl.tensor.create() : !pl.tensor<16x64xf32>
// CHECK-NEXT: pl.submit @softmax(%{{.*}}, %[[NEW2]])
func.func @caller(%x: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.call @softmax(%x) : (!T) -> !T
  %z, %task = pl.submit @softmax(%y) : (!T) -> !T
  return %z : !T
}

// A matmul's product is an f32 accumulator tile (in acc from the start),
// stored to the f16 result by the fix pipe.
// CHECK-LABEL: func.func @mm(
// CHECK: pl.tile.matmul %{{.*}}, %{{.*}} : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32, acc>
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<16x16xf32, acc>, !pl.tensor<16x16xf16>
func.func @mm(%a: !pl.tensor<16x32xf16>, %b: !pl.tensor<32x16xf16>) -> !pl.tensor<16x16xf16> attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %a, %b : !pl.tensor<16x32xf16>, !pl.tensor<32x16xf16> -> !pl.tensor<16x16xf16>
  return %p : !pl.tensor<16x16xf16>
}
