// RUN: pto-opt --verify-roundtrip %s --pl-convert-tensor-to-tile | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile, func.func(pl-infer-memory-space, pl-plan-memory), pl-insert-sync, pl-verify-sync)' -o /dev/null

// A static kernel whose tiles would not fit the vector buffer at once
// (1 MB here) and whose rows are independent runs in blocks of rows: a
// loop over them, each parameter's block a window load, each result's
// block stored at its row into a new out parameter the loop carries. The
// block is the largest divisor of the rows whose live tiles (the input,
// the row reduction's scratch, the intermediates) stay within half the
// buffer: 16 rows of 2 KB.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<512x512xf32>, %[[OUT:.*]]: !pl.tensor<512x512xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<512x512xf32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C512]] step %[[C16]] iter_args(%[[O:.*]] = %[[OUT]]) -> (!pl.tensor<512x512xf32>) {
// CHECK-NEXT: %[[T:.*]] = pl.tile.load %[[X]][%[[I]], %[[C0]]] : !pl.tensor<512x512xf32> -> !pl.tile<16x512xf32>
// CHECK-NEXT: %[[TMP:.*]] = pl.tile.create : !pl.tile<16x512xf32>
// CHECK-NEXT: %[[M:.*]] = pl.tile.row_max %[[T]], %[[TMP]] : !pl.tile<16x512xf32>, !pl.tile<16x512xf32> -> !pl.tile<16x1xf32>
// CHECK-NEXT: %[[D:.*]] = pl.tile.row_expand_sub %[[T]], %[[M]]
// CHECK-NEXT: %[[E:.*]] = pl.tile.exp %[[D]] : !pl.tile<16x512xf32>
// CHECK-NEXT: %[[ST:.*]] = pl.tile.store %[[E]], %[[O]][%[[I]], %[[C0]]] : !pl.tile<16x512xf32>, !pl.tensor<512x512xf32>
// CHECK-NEXT: scf.yield %[[ST]]
// CHECK: return %[[R]]
func.func @softmax(%x: !pl.tensor<512x512xf32>) -> !pl.tensor<512x512xf32> attributes {pl.kind = #pl.kind<incore>} {
  %m = pl.tensor.row_max %x : !pl.tensor<512x512xf32> -> !pl.tensor<512x1xf32>
  %d = pl.tensor.sub %x, %m : !pl.tensor<512x512xf32>, !pl.tensor<512x1xf32> -> !pl.tensor<512x512xf32>
  %e = pl.tensor.exp %d : !pl.tensor<512x512xf32>
  return %e : !pl.tensor<512x512xf32>
}

// When even one block of rows is too large (four rows of 128 KB here),
// the columns run in blocks too, a multiple of 32 bytes wide; a [1, N]
// broadcast operand is read in the same columns, and scalars pass through.
// CHECK-LABEL: func.func @wide(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<4x65536xf16>, %[[W:.*]]: !pl.tensor<1x65536xf16>, %[[S:.*]]: f16, %[[OUT:.*]]: !pl.tensor<4x65536xf16> {pl.direction = #pl.direction<out>})
// CHECK-DAG: %[[C4096:.*]] = arith.constant 4096 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C4096]] iter_args(%[[O:.*]] = %[[OUT]])
// CHECK-NEXT: %[[T:.*]] = pl.tile.load %[[X]][%{{.*}}, %[[J]]] : !pl.tensor<4x65536xf16> -> !pl.tile<4x4096xf16>
// CHECK-NEXT: %[[TW:.*]] = pl.tile.load %[[W]][%{{.*}}, %[[J]]] : !pl.tensor<1x65536xf16> -> !pl.tile<1x4096xf16>
// CHECK-NEXT: %[[P:.*]] = pl.tile.col_expand_mul %[[T]], %[[TW]]
// CHECK-NEXT: %[[Q:.*]] = pl.tile.adds %[[P]], %[[S]] : !pl.tile<4x4096xf16>, f16
// CHECK-NEXT: pl.tile.store %[[Q]], %[[O]][%{{.*}}, %[[J]]]
func.func @wide(%x: !pl.tensor<4x65536xf16>, %w: !pl.tensor<1x65536xf16>, %s: f16) -> !pl.tensor<4x65536xf16> attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.mul %x, %w : !pl.tensor<4x65536xf16>, !pl.tensor<1x65536xf16> -> !pl.tensor<4x65536xf16>
  %q = pl.tensor.adds %p, %s : !pl.tensor<4x65536xf16>, f16
  return %q : !pl.tensor<4x65536xf16>
}

// Column sums need every row: the columns run in blocks, and the [1, N]
// result is stored at each block's column. Two results, two out
// parameters, both carried.
// CHECK-LABEL: func.func @colnorm(
// CHECK: %[[R:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O1:.*]] = %arg1, %[[O2:.*]] = %arg2)
// CHECK: %[[CS:.*]] = pl.tile.col_sum %{{.*}} : !pl.tile<32x{{[0-9]+}}xf32> -> !pl.tile<1x{{[0-9]+}}xf32>
// CHECK: %[[S1:.*]] = pl.tile.store %{{.*}}, %[[O1]][%{{.*}}, %[[J]]]
// CHECK: %[[S2:.*]] = pl.tile.store %[[CS]], %[[O2]][%{{.*}}, %[[J]]]
// CHECK: scf.yield %[[S1]], %[[S2]]
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @colnorm(%y: !pl.tensor<32x8192xf32>) -> (!pl.tensor<32x8192xf32>, !pl.tensor<1x8192xf32>) attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.col_sum %y : !pl.tensor<32x8192xf32> -> !pl.tensor<1x8192xf32>
  %n = pl.tensor.div %y, %s : !pl.tensor<32x8192xf32>, !pl.tensor<1x8192xf32> -> !pl.tensor<32x8192xf32>
  return %n, %s : !pl.tensor<32x8192xf32>, !pl.tensor<1x8192xf32>
}

// A rank-1 tensor is a row: its blocks are windows of columns.
// CHECK-LABEL: func.func @vector(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<65536xf32>, %[[S:.*]]: f32, %[[OUT:.*]]: !pl.tensor<65536xf32> {pl.direction = #pl.direction<out>})
// CHECK-DAG: %[[C8192:.*]] = arith.constant 8192 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C8192]] iter_args(%[[O:.*]] = %[[OUT]])
// CHECK-NEXT: %[[T:.*]] = pl.tile.load %[[X]][%[[J]]] : !pl.tensor<65536xf32> -> !pl.tile<8192xf32>
// CHECK-NEXT: %[[M:.*]] = pl.tile.muls %[[T]], %[[S]] : !pl.tile<8192xf32>, f32
// CHECK-NEXT: pl.tile.store %[[M]], %[[O]][%[[J]]] : !pl.tile<8192xf32>, !pl.tensor<65536xf32>
func.func @vector(%x: !pl.tensor<65536xf32>, %s: f32) -> !pl.tensor<65536xf32> attributes {pl.kind = #pl.kind<incore>} {
  %v = pl.tensor.muls %x, %s : !pl.tensor<65536xf32>, f32
  return %v : !pl.tensor<65536xf32>
}

// Kernels whose tiles fit stay whole.
// CHECK-LABEL: func.func @fits(
// CHECK-NOT: scf.for
// CHECK: pl.tile.load %arg0[%{{.*}}, %{{.*}}] : !pl.tensor<128x128xf32> -> !pl.tile<128x128xf32>
func.func @fits(%x: !pl.tensor<128x128xf32>) -> !pl.tensor<128x128xf32> attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.exp %x : !pl.tensor<128x128xf32>
  return %e : !pl.tensor<128x128xf32>
}

// Callers pass a fresh tensor for each new out parameter.
// CHECK-LABEL: func.func @main(
// CHECK: %[[NEW:.*]] = pl.tensor.create() : !pl.tensor<512x512xf32>
// CHECK: pl.call @softmax(%arg0, %[[NEW]])
func.func @main(%x: !pl.tensor<512x512xf32>) -> !pl.tensor<512x512xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.call @softmax(%x) : (!pl.tensor<512x512xf32>) -> !pl.tensor<512x512xf32>
  return %r : !pl.tensor<512x512xf32>
}
