// Tile creation, transfers and views round-trip (custom and generic form),
// in pto-opt and in stock mlir-opt with the plugin.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s
// Loads and stores are memory operations: CSE keeps every load and store,
// even identical and unused ones; two creates stay two buffers.
// RUN: pto-opt %s --cse | FileCheck %s --check-prefix=EFFECTS

// CHECK-LABEL: func.func @transfers
// CHECK: pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<?x128xf16> -> !pl.tile<64x128xf16, vec>
// CHECK: pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] valid(%{{.*}}) clamp : !pl.tensor<?x128xf16> -> !pl.tile<64x128xf16, mat, valid = ?x128>
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<64x128xf16, vec>, !pl.tensor<?x128xf16>
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] atomic_add : !pl.tile<64x128xf32, acc>, !pl.tensor<?x128xbf16>
// EFFECTS-LABEL: func.func @transfers
// EFFECTS-COUNT-2: pl.tile.load {{.*}} -> !pl.tile<64x128xf16, vec>
// EFFECTS-NEXT: pl.tile.load {{.*}} clamp
// EFFECTS-COUNT-2: pl.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<64x128xf16, vec>
func.func @transfers(%a: !pl.tensor<?x128xf16>, %o: !pl.tensor<?x128xbf16>, %i: index, %rows: index,
                     %acc: !pl.tile<64x128xf32, acc>) {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %a[%i, %c0] : !pl.tensor<?x128xf16> -> !pl.tile<64x128xf16, vec>
  %t2 = pl.tile.load %a[%i, %c0] : !pl.tensor<?x128xf16> -> !pl.tile<64x128xf16, vec>
  %u = pl.tile.load %a[%i, %c0] valid(%rows) clamp : !pl.tensor<?x128xf16> -> !pl.tile<64x128xf16, mat, valid = ?x128>
  %a2 = pl.tile.store %t, %a[%i, %c0] : !pl.tile<64x128xf16, vec>, !pl.tensor<?x128xf16>
  %a3 = pl.tile.store %t, %a[%i, %c0] : !pl.tile<64x128xf16, vec>, !pl.tensor<?x128xf16>
  %o2 = pl.tile.store %acc, %o[%i, %c0] atomic_add : !pl.tile<64x128xf32, acc>, !pl.tensor<?x128xbf16>
  return
}

// A 2-D tile standing for a window of a rank-3 tensor.
// CHECK-LABEL: func.func @partitioned
// CHECK: pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] partition [2, 16, 64] : !pl.tensor<8x16x64xf32> -> !pl.tile<32x64xf32, vec>
// CHECK: pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] valid(%{{.*}}) partition [1, 4, 64] : !pl.tensor<8x16x64xf32> -> !pl.tile<4x64xf32, vec, valid = 4x?>
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] partition [2, 16, 64] : !pl.tile<32x64xf32, vec>, !pl.tensor<8x16x64xf32>
func.func @partitioned(%x: !pl.tensor<8x16x64xf32>, %b: index, %cols: index) -> !pl.tensor<8x16x64xf32> {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%b, %c0, %c0] partition [2, 16, 64] : !pl.tensor<8x16x64xf32> -> !pl.tile<32x64xf32, vec>
  %u = pl.tile.load %x[%b, %c0, %c0] valid(%cols) partition [1, 4, 64] : !pl.tensor<8x16x64xf32> -> !pl.tile<4x64xf32, vec, valid = 4x?>
  %y = pl.tile.store %t, %x[%b, %c0, %c0] partition [2, 16, 64] : !pl.tile<32x64xf32, vec>, !pl.tensor<8x16x64xf32>
  return %y : !pl.tensor<8x16x64xf32>
}

// CHECK-LABEL: func.func @creation
// CHECK: pl.tile.create : !pl.tile<16x128xf32, vec>
// CHECK: pl.tile.create : !pl.tile<16x128xf32, vec>
// CHECK: pl.tile.full %{{.*}} : f32 -> !pl.tile<16x64xf32, vec>
// EFFECTS-LABEL: func.func @creation
// EFFECTS-COUNT-2: pl.tile.create
func.func @creation() -> (!pl.tile<16x128xf32, vec>, !pl.tile<16x128xf32, vec>, !pl.tile<16x64xf32, vec>) {
  %a = pl.tile.create : !pl.tile<16x128xf32, vec>
  %b = pl.tile.create : !pl.tile<16x128xf32, vec>
  %zero = arith.constant 0.0 : f32
  %z = pl.tile.full %zero : f32 -> !pl.tile<16x64xf32, vec>
  return %a, %b, %z : !pl.tile<16x128xf32, vec>, !pl.tile<16x128xf32, vec>, !pl.tile<16x64xf32, vec>
}

// CHECK-LABEL: func.func @views
// CHECK: pl.tile.slice %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<64x128xf16, vec> -> !pl.tile<64x64xf16, vec>
// CHECK: pl.tile.slice %{{.*}}[%{{.*}}, %{{.*}}] valid(%{{.*}}) : !pl.tile<64x128xf16, vec> -> !pl.tile<64x64xf16, vec, valid = ?x64>
// CHECK: pl.tile.reshape %{{.*}} : !pl.tile<4x16x32xf16, vec> -> !pl.tile<64x32xf16, vec>
// CHECK: pl.tile.transpose %{{.*}} axes 0, 1 : !pl.tile<16x64xf32, vec> -> !pl.tile<64x16xf32, vec>
// CHECK: pl.tile.transpose %{{.*}} axes 0, 1, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<64x16xf32, vec> -> !pl.tile<64x16xf32, vec>
// CHECK: pl.tile.extract %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<64x256xf16, mat> -> !pl.tile<64x64xf16, left>
// CHECK: pl.tile.fillpad %{{.*}} zero : !pl.tile<16x64xf32, vec, valid = ?x50> -> !pl.tile<16x64xf32, vec, pad = zero>
// CHECK: pl.tile.read %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<16x64xf32, vec> -> f32
// CHECK: pl.tile.write %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !pl.tile<16x64xf32, vec>, f32
// CHECK: pl.tile.set_validshape %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec, valid = ?x64>
// CHECK: pl.tile.assemble %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<16x64xf32, vec>, !pl.tile<16x128xf32, vec>
func.func @views(%t: !pl.tile<64x128xf16, vec>, %n: !pl.tile<4x16x32xf16, vec>, %f: !pl.tile<16x64xf32, vec>,
                 %m: !pl.tile<64x256xf16, mat>, %p: !pl.tile<16x64xf32, vec, valid = ?x50>,
                 %w: !pl.tile<16x128xf32, vec>, %k: index, %rows: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = pl.tile.slice %t[%c0, %c64] : !pl.tile<64x128xf16, vec> -> !pl.tile<64x64xf16, vec>
  %1 = pl.tile.slice %t[%c0, %c64] valid(%rows) : !pl.tile<64x128xf16, vec> -> !pl.tile<64x64xf16, vec, valid = ?x64>
  %2 = pl.tile.reshape %n : !pl.tile<4x16x32xf16, vec> -> !pl.tile<64x32xf16, vec>
  %3 = pl.tile.transpose %f axes 0, 1 : !pl.tile<16x64xf32, vec> -> !pl.tile<64x16xf32, vec>
  %tmp = pl.tile.create : !pl.tile<64x16xf32, vec>
  %13 = pl.tile.transpose %f axes 0, 1, %tmp : !pl.tile<16x64xf32, vec>, !pl.tile<64x16xf32, vec> -> !pl.tile<64x16xf32, vec>
  %4 = pl.tile.extract %m[%c0, %k] : !pl.tile<64x256xf16, mat> -> !pl.tile<64x64xf16, left>
  %5 = pl.tile.fillpad %p zero : !pl.tile<16x64xf32, vec, valid = ?x50> -> !pl.tile<16x64xf32, vec, pad = zero>
  %6 = pl.tile.read %f[%c0, %k] : !pl.tile<16x64xf32, vec> -> f32
  %7 = pl.tile.write %f[%c0, %k], %6 : !pl.tile<16x64xf32, vec>, f32
  %8 = pl.tile.set_validshape %f, %rows, %c64 : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec, valid = ?x64>
  %9 = pl.tile.assemble %f into %w[%c0, %c64] : !pl.tile<16x64xf32, vec>, !pl.tile<16x128xf32, vec>
  return
}

// A transposed view swaps the last two extents (and valid extents) and
// flips each layout's major order: nz reads as zn, nd as dn.
// CHECK-LABEL: func.func @transpose_views
// CHECK: pl.tile.transpose_view %{{.*}} : !pl.tile<32x64xf16, mat> -> !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major>
// CHECK: pl.tile.transpose_view %{{.*}} : !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major> -> !pl.tile<32x64xf16, mat>
// CHECK: pl.tile.transpose_view %{{.*}} : !pl.tile<16x64xf32, vec, valid = ?x50> -> !pl.tile<64x16xf32, vec, valid = 50x?, blayout = col_major>
// CHECK: pl.tile.transpose_view %{{.*}} : !pl.tile<2x16x32xf16, mat> -> !pl.tile<2x32x16xf16, mat, blayout = row_major, slayout = col_major>
func.func @transpose_views(%k: !pl.tile<32x64xf16, mat>, %p: !pl.tile<16x64xf32, vec, valid = ?x50>,
                           %b: !pl.tile<2x16x32xf16, mat>) {
  %0 = pl.tile.transpose_view %k : !pl.tile<32x64xf16, mat> -> !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major>
  %1 = pl.tile.transpose_view %0 : !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major> -> !pl.tile<32x64xf16, mat>
  %2 = pl.tile.transpose_view %p : !pl.tile<16x64xf32, vec, valid = ?x50> -> !pl.tile<64x16xf32, vec, valid = 50x?, blayout = col_major>
  %3 = pl.tile.transpose_view %b : !pl.tile<2x16x32xf16, mat> -> !pl.tile<2x32x16xf16, mat, blayout = row_major, slayout = col_major>
  return
}

// Loads into L1 yield the NZ layout, swapped for a dn source, flat for a row.
// CHECK-LABEL: func.func @load_layouts
// CHECK: -> !pl.tile<64x128xf16, mat>
// CHECK: -> !pl.tile<64x128xf16, mat, blayout = row_major, slayout = col_major>
// CHECK: -> !pl.tile<1x128xf16, mat, blayout = row_major, slayout = none_box>
// CHECK: -> !pl.tile<64x1xf16, vec>
func.func @load_layouts(%a: !pl.tensor<128x128xf16>, %d: !pl.tensor<128x128xf16, dn>, %i: index) {
  %0 = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16> -> !pl.tile<64x128xf16, mat>
  %1 = pl.tile.load %d[%i, %i] : !pl.tensor<128x128xf16, dn> -> !pl.tile<64x128xf16, mat, blayout = row_major, slayout = col_major>
  %2 = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16> -> !pl.tile<1x128xf16, mat, blayout = row_major, slayout = none_box>
  %3 = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16> -> !pl.tile<64x1xf16, vec>
  return
}

// Loads, stores, scalar writes and cache invalidation take the local copy
// of a window-bound tensor as well as a plain tensor.
// CHECK-LABEL: func.func @windows
// CHECK: pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pld.dtensor<?x256xf32> -> !pl.tile<1x256xf32, vec>
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<1x256xf32, vec>, !pld.dtensor<?x256xf32>
// CHECK: pl.tensor.write %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !pld.dtensor<?x256xf32>, f32
// CHECK: pl.system.cacheinvalid on %{{.*}} : !pld.dtensor<?x256xf32>
func.func @windows(%w: !pld.dtensor<?x256xf32>, %i: index, %x: f32) {
  %t = pl.tile.load %w[%i, %i] : !pld.dtensor<?x256xf32> -> !pl.tile<1x256xf32, vec>
  %w2 = pl.tile.store %t, %w[%i, %i] : !pl.tile<1x256xf32, vec>, !pld.dtensor<?x256xf32>
  %w3 = pl.tensor.write %w2[%i, %i], %x : !pld.dtensor<?x256xf32>, f32
  pl.system.cacheinvalid on %w3 : !pld.dtensor<?x256xf32>
  return
}
