// RUN: pto-opt --verify-roundtrip %s --split-input-file --pass-pipeline='builtin.module(func.func(pl-tile-matmul-l0))' | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --split-input-file --pass-pipeline='builtin.module(func.func(pl-tile-matmul-l0))' | FileCheck %s
// The split keeps the product (run/tests/lowering.rs runs the tiled-matmul
// example through the whole pipeline in pto-run).

// Operands of 128 KiB and 256 KiB: K steps of 128 would make a 32 KiB left
// and a 64 KiB right block, which fit L0A and L0B once; steps of 64 (16 KiB
// and 32 KiB) fit them twice, so two steps can be in flight
// (pl-double-buffer). The 128 KiB product fits L0C whole.
// CHECK-LABEL: func.func @k_steps
// CHECK: %[[A:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<128x512xf16> -> !pl.tile<128x512xf16, mat>
// CHECK: %[[B:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16, mat>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[INIT:.*]] = pl.tile.create : !pl.tile<128x256xf32, acc>
// CHECK: %[[K:.*]] = arith.constant 512 : index
// CHECK: %[[STEP:.*]] = arith.constant 64 : index
// CHECK: %[[ACC:.*]] = scf.for %[[I:.*]] = %[[ZERO]] to %[[K]] step %[[STEP]] iter_args(%[[P:.*]] = %[[INIT]]) -> (!pl.tile<128x256xf32, acc>) {
// CHECK-NEXT: %[[L:.*]] = pl.tile.extract %[[A]][%[[ZERO]], %[[I]]] : !pl.tile<128x512xf16, mat> -> !pl.tile<128x64xf16, left>
// CHECK-NEXT: %[[R:.*]] = pl.tile.extract %[[B]][%[[I]], %[[ZERO]]] : !pl.tile<512x256xf16, mat> -> !pl.tile<64x256xf16, right>
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[I]], %[[ZERO]] : index
// CHECK-NEXT: %[[N:.*]] = pl.tile.matmul_acc %[[P]], %[[L]], %[[R]] init %[[FIRST]]
// CHECK-NEXT: scf.yield %[[N]]
// CHECK: pl.tile.store %[[ACC]], %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<128x256xf32, acc>, !pl.tensor<128x256xf32>
// CHECK-NOT: pl.tile.matmul %
func.func @k_steps(%x: !pl.tensor<128x512xf16>, %y: !pl.tensor<512x256xf16>, %out: !pl.tensor<128x256xf32>) -> !pl.tensor<128x256xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<128x512xf16> -> !pl.tile<128x512xf16>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16>
  %p = pl.tile.matmul %a, %b : !pl.tile<128x512xf16>, !pl.tile<512x256xf16> -> !pl.tile<128x256xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<128x256xf32, acc>, !pl.tensor<128x256xf32>
  return %o : !pl.tensor<128x256xf32>
}

// -----

// A 512 KiB product: N is split in four 128-column blocks, each stored at
// its column offset (added to the store's own).
// CHECK-LABEL: func.func @column_blocks
// CHECK: %[[OUT:.*]] = scf.for %[[N0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %{{.*}}) -> (!pl.tensor<256x512xf32>) {
// CHECK: pl.tile.create : !pl.tile<256x128xf32, acc>
// CHECK: scf.for
// CHECK: pl.tile.extract %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<256x256xf16, mat> -> !pl.tile<256x64xf16, left>
// CHECK: pl.tile.extract %{{.*}}[%{{.*}}, %[[N0]]] : !pl.tile<256x512xf16, mat> -> !pl.tile<64x128xf16, right>
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[N0]] : index
// CHECK: %[[S:.*]] = pl.tile.store %{{.*}}, %[[T]][%{{.*}}, %[[COL]]] : !pl.tile<256x128xf32, acc>, !pl.tensor<256x512xf32>
// CHECK: scf.yield %[[S]] : !pl.tensor<256x512xf32>
// CHECK: return %[[OUT]]
func.func @column_blocks(%x: !pl.tensor<256x256xf16>, %y: !pl.tensor<256x512xf16>, %out: !pl.tensor<256x512xf32>) -> !pl.tensor<256x512xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<256x256xf16> -> !pl.tile<256x256xf16>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<256x512xf16> -> !pl.tile<256x512xf16>
  %p = pl.tile.matmul %a, %b : !pl.tile<256x256xf16>, !pl.tile<256x512xf16> -> !pl.tile<256x512xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<256x512xf32, acc>, !pl.tensor<256x512xf32>
  return %o : !pl.tensor<256x512xf32>
}

// -----

// A tall product: M is split, rows offset from the store's.
// CHECK-LABEL: func.func @row_blocks
// CHECK: scf.for %[[M0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %{{.*}}) -> (!pl.tensor<1024x64xf32>) {
// CHECK: pl.tile.extract %{{.*}}[%[[M0]], %{{.*}}] : !pl.tile<1024x64xf16, mat> -> !pl.tile<512x32xf16, left>
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[M0]] : index
// CHECK: pl.tile.store %{{.*}}, %[[T]][%[[ROW]], %{{.*}}] : !pl.tile<512x64xf32, acc>, !pl.tensor<1024x64xf32>
func.func @row_blocks(%x: !pl.tensor<1024x64xf16>, %y: !pl.tensor<64x64xf16>, %out: !pl.tensor<1024x64xf32>) -> !pl.tensor<1024x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<1024x64xf16> -> !pl.tile<1024x64xf16>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<64x64xf16> -> !pl.tile<64x64xf16>
  %p = pl.tile.matmul %a, %b : !pl.tile<1024x64xf16>, !pl.tile<64x64xf16> -> !pl.tile<1024x64xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<1024x64xf32, acc>, !pl.tensor<1024x64xf32>
  return %o : !pl.tensor<1024x64xf32>
}

// -----

// A matmul that fits L0 is left as it is.
// CHECK-LABEL: func.func @fits
// CHECK: pl.tile.matmul %{{.*}}, %{{.*}} : !pl.tile<64x64xf16>, !pl.tile<64x64xf16> -> !pl.tile<64x64xf32, acc>
// CHECK-NOT: scf.for
func.func @fits(%x: !pl.tensor<64x64xf16>, %out: !pl.tensor<64x64xf32>) -> !pl.tensor<64x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<64x64xf16> -> !pl.tile<64x64xf16>
  %b = pl.tile.load %x[%c0, %c0] : !pl.tensor<64x64xf16> -> !pl.tile<64x64xf16>
  %p = pl.tile.matmul %a, %b : !pl.tile<64x64xf16>, !pl.tile<64x64xf16> -> !pl.tile<64x64xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<64x64xf32, acc>, !pl.tensor<64x64xf32>
  return %o : !pl.tensor<64x64xf32>
}

// -----

// A product stored into one matrix of a rank-3 tensor (a batch of a
// batched matmul, partition [1, M, N]): its blocks are stored there too,
// at the store's leading offset, each with a partition of its block.
// CHECK-LABEL: func.func @into_one_batch
// CHECK: %[[A:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] partition [1, 128, 512] : !pl.tensor<2x128x512xf16> -> !pl.tile<128x512xf16, mat>
// CHECK: scf.for
// CHECK: pl.tile.extract %[[A]]
// CHECK: pl.tile.matmul_acc
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%[[B:[^,]*]], %{{.*}}, %{{.*}}] partition [1, 128, 256] : !pl.tile<128x256xf32, acc>, !pl.tensor<2x128x256xf32>
// CHECK-NOT: pl.tile.matmul %
func.func @into_one_batch(%x: !pl.tensor<2x128x512xf16>, %y: !pl.tensor<512x256xf16>, %out: !pl.tensor<2x128x256xf32>) -> !pl.tensor<2x128x256xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = pl.tile.load %x[%c1, %c0, %c0] partition [1, 128, 512] : !pl.tensor<2x128x512xf16> -> !pl.tile<128x512xf16>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16>
  %p = pl.tile.matmul %a, %b : !pl.tile<128x512xf16>, !pl.tile<512x256xf16> -> !pl.tile<128x256xf32, acc>
  %o = pl.tile.store %p, %out[%c1, %c0, %c0] partition [1, 128, 256] : !pl.tile<128x256xf32, acc>, !pl.tensor<2x128x256xf32>
  return %o : !pl.tensor<2x128x256xf32>
}

// -----

// Two batches' products sharing one load of the right operand (a batched
// matmul's broadcast operand): the load is made once in L1 and both
// products' steps extract from it.
// CHECK-LABEL: func.func @shared_right
// CHECK: %[[B:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16, mat>
// CHECK: scf.for
// CHECK: pl.tile.extract %[[B]]
// CHECK: pl.tile.store %{{.*}} partition [1, 128, 256]
// CHECK: scf.for
// CHECK: pl.tile.extract %[[B]]
// CHECK: pl.tile.store %{{.*}} partition [1, 128, 256]
// CHECK-NOT: pl.tile.matmul %
func.func @shared_right(%x: !pl.tensor<2x128x512xf16>, %y: !pl.tensor<512x256xf16>, %out: !pl.tensor<2x128x256xf32>) -> !pl.tensor<2x128x256xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16>
  %a0 = pl.tile.load %x[%c0, %c0, %c0] partition [1, 128, 512] : !pl.tensor<2x128x512xf16> -> !pl.tile<128x512xf16>
  %p0 = pl.tile.matmul %a0, %b : !pl.tile<128x512xf16>, !pl.tile<512x256xf16> -> !pl.tile<128x256xf32, acc>
  %o0 = pl.tile.store %p0, %out[%c0, %c0, %c0] partition [1, 128, 256] : !pl.tile<128x256xf32, acc>, !pl.tensor<2x128x256xf32>
  %a1 = pl.tile.load %x[%c1, %c0, %c0] partition [1, 128, 512] : !pl.tensor<2x128x512xf16> -> !pl.tile<128x512xf16>
  %p1 = pl.tile.matmul %a1, %b : !pl.tile<128x512xf16>, !pl.tile<512x256xf16> -> !pl.tile<128x256xf32, acc>
  %o1 = pl.tile.store %p1, %o0[%c1, %c0, %c0] partition [1, 128, 256] : !pl.tile<128x256xf32, acc>, !pl.tensor<2x128x256xf32>
  return %o1 : !pl.tensor<2x128x256xf32>
}

// -----

// A transposed right operand (q·kᵀ): the keys are loaded into L1 as they
// lie, read through their zn view, and each K step extracts the view's
// [k, n] block.
// CHECK-LABEL: func.func @transposed_keys
// CHECK: %[[K:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<128x512xf16> -> !pl.tile<128x512xf16, mat>
// CHECK: %[[KT:.*]] = pl.tile.transpose_view %[[K]] : !pl.tile<128x512xf16, mat> -> !pl.tile<512x128xf16, mat, blayout = row_major, slayout = col_major>
// CHECK: scf.for %[[I:[a-z0-9_]+]] = 
// CHECK: pl.tile.extract %[[KT]][%[[I]], %{{.*}}] : !pl.tile<512x128xf16, mat, blayout = row_major, slayout = col_major> -> !pl.tile<{{[0-9]+}}x128xf16, right>
// CHECK-NOT: pl.tile.matmul %
func.func @transposed_keys(%q: !pl.tensor<64x512xf16>, %k: !pl.tensor<128x512xf16>, %out: !pl.tensor<64x128xf32>) -> !pl.tensor<64x128xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %q[%c0, %c0] : !pl.tensor<64x512xf16> -> !pl.tile<64x512xf16>
  %b = pl.tile.load %k[%c0, %c0] : !pl.tensor<128x512xf16> -> !pl.tile<128x512xf16>
  %bt = pl.tile.transpose_view %b : !pl.tile<128x512xf16> -> !pl.tile<512x128xf16, blayout = col_major>
  %p = pl.tile.matmul %a, %bt : !pl.tile<64x512xf16>, !pl.tile<512x128xf16, blayout = col_major> -> !pl.tile<64x128xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<64x128xf32, acc>, !pl.tensor<64x128xf32>
  return %o : !pl.tensor<64x128xf32>
}
