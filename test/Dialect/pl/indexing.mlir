// Index sequences, sorts, gathers and bit reinterpretation round-trip
// (custom and generic form), in pto-opt and in stock mlir-opt with the
// plugin. They are pure until tiles are planned: CSE merges equal ones
// and DCE drops unused ones.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s
// RUN: pto-opt %s --cse --canonicalize | FileCheck %s --check-prefix=PURE

// CHECK-LABEL: func.func @tiles
// CHECK: pl.tile.ci %{{.*}} : i32 -> !pl.tile<1x256xui32, vec>
// CHECK: pl.tile.ci %{{.*}} descending : i16 -> !pl.tile<1x16xi16>
// CHECK: pl.tile.sort32 %{{.*}}, %{{.*}} : !pl.tile<1x256xf32, vec>, !pl.tile<1x256xui32, vec> -> !pl.tile<1x512xf32, vec>
// CHECK: pl.tile.sort32 %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<2x32xf16>, !pl.tile<2x32xui32>, !pl.tile<2x32xf16> -> !pl.tile<2x128xf16>
// CHECK: pl.tile.mrgsort_format1 %{{.*}}, %{{.*}} : !pl.tile<1x512xf32, vec>, i32
// CHECK: pl.tile.mrgsort_format2 %{{.*}}, %{{.*}} tmp %{{.*}} : (!pl.tile<1x256xf32, vec>, !pl.tile<1x256xf32, vec>), !pl.tile<1x512xf32, vec> -> !pl.tile<1x128xf32, vec>
// CHECK: pl.tile.mrgsort_format2 %{{.*}}, %{{.*}}, %{{.*}} tmp %{{.*}} exhausted : (!pl.tile<1x256xf32, vec>, !pl.tile<1x256xf32, vec>, !pl.tile<1x256xf32, vec>), !pl.tile<1x768xf32, vec> -> !pl.tile<1x768xf32, vec>
// CHECK: pl.tile.gather %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<1x256xf32, vec>, !pl.tile<1x64xi32, vec>, !pl.tile<1x64xi32, vec> -> !pl.tile<1x64xf32, vec>
// CHECK: pl.tile.gather_mask %{{.*}} p0101 : !pl.tile<1x512xf32, vec> -> !pl.tile<1x256xf32, vec>
// CHECK: pl.tile.gather_mask %{{.*}} p1010 : !pl.tile<1x512xf32, vec> -> !pl.tile<1x256xi32, vec>
// CHECK: pl.tile.gather_mask %{{.*}} p0001 : !pl.tile<4x64xi16, vec, valid = ?x64> -> !pl.tile<4x16xui16, vec, valid = ?x16>
// CHECK: pl.tile.reinterpret_view %{{.*}} : !pl.tile<8x16xf32, vec> -> !pl.tile<8x32xi16, vec>
// CHECK: pl.tile.reinterpret_view %{{.*}} : !pl.tile<8x16xi16, vec, valid = ?x16> -> !pl.tile<8x8xf32, vec, valid = ?x8>
// CHECK: pl.tile.scatter %{{.*}}, %{{.*}} : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xi32, vec> -> !pl.tile<4x64xf32, vec>
// CHECK: pl.tile.scatter %{{.*}}, %{{.*}} : !pl.tile<8x16xi16, vec, valid = ?x16>, !pl.tile<8x16xi16, vec, valid = ?x16> -> !pl.tile<16x16xi16, vec>
// CHECK: pl.tile.scatter_update %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<4x64xf32, vec>, !pl.tile<1x64xi32, vec>, !pl.tile<64x64xf32, vec>
// CHECK: pl.tile.scatter_mask %{{.*}} p0010 : !pl.tile<8x16xf32, vec> -> !pl.tile<8x64xf32, vec>
// CHECK: pl.tile.gatherb %{{.*}}, %{{.*}} : !pl.tile<8x16xf32, vec>, !pl.tile<2x8xui32, vec, valid = 2x?> -> !pl.tile<2x128xf16, vec, valid = 2x?>
// CHECK: pl.tile.gather_row %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}}[%{{.*}}, %{{.*}}] shape [2, 16] valid(%{{.*}}, %{{.*}}) : !pl.tensor<?x16xf32>, !pl.tile<8x16xf32, vec>
// CHECK: pl.tile.mgather %{{.*}}[%{{.*}}] row : !pl.tensor<?x16xf32>, !pl.tile<1x64xi32, vec> -> !pl.tile<64x16xf32, vec>
// CHECK: pl.tile.mgather %{{.*}}[%{{.*}}] elem oob zero : !pl.tensor<?x16xf32>, !pl.tile<1x64xi32, vec> -> !pl.tile<1x64xf32, vec>
// CHECK: pl.tile.random key(%{{.*}}, %{{.*}}) counter(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !pl.tile<4x256xui32, vec>
// CHECK: pl.tile.random key(%{{.*}}, %{{.*}}) counter(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) rounds 7 : !pl.tile<3x40xi32, vec, valid = 3x33>
// CHECK: pl.tile.mscatter %{{.*}}, %{{.*}} into %{{.*}} row : !pl.tile<8x16xf32, vec>, !pl.tile<1x8xui32, vec>, !pl.tensor<?x16xf32>
// CHECK: pl.tile.mscatter %{{.*}}, %{{.*}} into %{{.*}} elem oob skip atomic_add : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xi32, vec>, !pl.tensor<?x16xf32>
// CHECK: pl.tile.gather_compare %{{.*}}, %{{.*}} gt offset 64 : !pl.tile<8x16xf32, vec>, f32 -> !pl.tile<8x4xi32, vec>, !pl.tile<1x8xi32, vec>
// CHECK: pl.tile.gather_compare %{{.*}}, %{{.*}}, %{{.*}} ne : !pl.tile<8x16xi16, vec, valid = ?x16>, i16, !pl.tile<8x16xui8, vec> -> !pl.tile<8x16xi32, vec, valid = ?x16>, !pl.tile<1x8xui32, vec, valid = 1x?>
func.func @tiles(%x: !pl.tile<1x256xf32, vec>, %h: !pl.tile<2x32xf16>, %hi: !pl.tile<2x32xui32>, %ht: !pl.tile<2x32xf16>,
                 %p: !pl.tile<1x512xf32, vec>, %a: !pl.tile<1x256xf32, vec>, %b: !pl.tile<1x256xf32, vec>,
                 %t: !pl.tile<1x512xf32, vec>, %t3: !pl.tile<1x768xf32, vec>, %i: !pl.tile<1x64xi32, vec>,
                 %it: !pl.tile<1x64xi32, vec>, %m: !pl.tile<4x64xi16, vec, valid = ?x64>,
                 %f: !pl.tile<8x16xf32, vec>, %s: !pl.tile<8x16xi16, vec, valid = ?x16>, %n: i32,
                 %o: !pl.tile<2x8xui32, vec, valid = 2x?>, %cache: !pl.tensor<?x16xf32>, %at: index,
                 %fk: f32, %sk: i16, %scratch: !pl.tile<8x16xui8, vec>) {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i16
  %seq = pl.tile.ci %c0 : i32 -> !pl.tile<1x256xui32, vec>
  %down = pl.tile.ci %c7 descending : i16 -> !pl.tile<1x16xi16>
  %pairs = pl.tile.sort32 %x, %seq : !pl.tile<1x256xf32, vec>, !pl.tile<1x256xui32, vec> -> !pl.tile<1x512xf32, vec>
  %hp = pl.tile.sort32 %h, %hi, %ht : !pl.tile<2x32xf16>, !pl.tile<2x32xui32>, !pl.tile<2x32xf16> -> !pl.tile<2x128xf16>
  %runs = pl.tile.mrgsort_format1 %p, %n : !pl.tile<1x512xf32, vec>, i32
  %top = pl.tile.mrgsort_format2 %a, %b tmp %t : (!pl.tile<1x256xf32, vec>, !pl.tile<1x256xf32, vec>), !pl.tile<1x512xf32, vec> -> !pl.tile<1x128xf32, vec>
  %all = pl.tile.mrgsort_format2 %a, %b, %a tmp %t3 exhausted : (!pl.tile<1x256xf32, vec>, !pl.tile<1x256xf32, vec>, !pl.tile<1x256xf32, vec>), !pl.tile<1x768xf32, vec> -> !pl.tile<1x768xf32, vec>
  %g = pl.tile.gather %x, %i, %it : !pl.tile<1x256xf32, vec>, !pl.tile<1x64xi32, vec>, !pl.tile<1x64xi32, vec> -> !pl.tile<1x64xf32, vec>
  %v = pl.tile.gather_mask %p p0101 : !pl.tile<1x512xf32, vec> -> !pl.tile<1x256xf32, vec>
  %k = pl.tile.gather_mask %p p1010 : !pl.tile<1x512xf32, vec> -> !pl.tile<1x256xi32, vec>
  %q = pl.tile.gather_mask %m p0001 : !pl.tile<4x64xi16, vec, valid = ?x64> -> !pl.tile<4x16xui16, vec, valid = ?x16>
  %r = pl.tile.reinterpret_view %f : !pl.tile<8x16xf32, vec> -> !pl.tile<8x32xi16, vec>
  %w = pl.tile.reinterpret_view %s : !pl.tile<8x16xi16, vec, valid = ?x16> -> !pl.tile<8x8xf32, vec, valid = ?x8>
  %sc = pl.tile.scatter %g, %i : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xi32, vec> -> !pl.tile<4x64xf32, vec>
  %sh = pl.tile.scatter %s, %s : !pl.tile<8x16xi16, vec, valid = ?x16>, !pl.tile<8x16xi16, vec, valid = ?x16> -> !pl.tile<16x16xi16, vec>
  %rows = pl.tile.create : !pl.tile<64x64xf32, vec>
  %su = pl.tile.scatter_update %sc, %i, %rows : !pl.tile<4x64xf32, vec>, !pl.tile<1x64xi32, vec>, !pl.tile<64x64xf32, vec>
  %sm = pl.tile.scatter_mask %f p0010 : !pl.tile<8x16xf32, vec> -> !pl.tile<8x64xf32, vec>
  %gb = pl.tile.gatherb %f, %o : !pl.tile<8x16xf32, vec>, !pl.tile<2x8xui32, vec, valid = 2x?> -> !pl.tile<2x128xf16, vec, valid = 2x?>
  %gr = pl.tile.gather_row %cache[%at, %at] into %f[%at, %at] shape [2, 16] valid(%at, %at) : !pl.tensor<?x16xf32>, !pl.tile<8x16xf32, vec>
  %mr = pl.tile.mgather %cache[%i] row : !pl.tensor<?x16xf32>, !pl.tile<1x64xi32, vec> -> !pl.tile<64x16xf32, vec>
  %me = pl.tile.mgather %cache[%i] elem oob zero : !pl.tensor<?x16xf32>, !pl.tile<1x64xi32, vec> -> !pl.tile<1x64xf32, vec>
  %rw = pl.tile.random key(%n, %n) counter(%n, %n, %n, %n) : !pl.tile<4x256xui32, vec>
  %rc = pl.tile.random key(%n, %n) counter(%n, %n, %n, %n) rounds 7 : !pl.tile<3x40xi32, vec, valid = 3x33>
  %slots = pl.tile.create : !pl.tile<1x8xui32, vec>
  %ms = pl.tile.mscatter %f, %slots into %cache row : !pl.tile<8x16xf32, vec>, !pl.tile<1x8xui32, vec>, !pl.tensor<?x16xf32>
  %me2 = pl.tile.mscatter %g, %i into %ms elem oob skip atomic_add : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xi32, vec>, !pl.tensor<?x16xf32>
  %gc, %gn = pl.tile.gather_compare %f, %fk gt offset 64 : !pl.tile<8x16xf32, vec>, f32 -> !pl.tile<8x4xi32, vec>, !pl.tile<1x8xi32, vec>
  %hc, %hn = pl.tile.gather_compare %s, %sk, %scratch ne offset 0 : !pl.tile<8x16xi16, vec, valid = ?x16>, i16, !pl.tile<8x16xui8, vec> -> !pl.tile<8x16xi32, vec, valid = ?x16>, !pl.tile<1x8xui32, vec, valid = 1x?>
  return
}

// CHECK-LABEL: func.func @tensors
// CHECK: pl.tensor.ci %{{.*}} : i32 -> !pl.tensor<1x256xui32>
// CHECK: pl.tensor.sort32 %{{.*}}, %{{.*}} : !pl.tensor<1x256xf32>, !pl.tensor<1x256xui32> -> !pl.tensor<1x512xf32>
// CHECK: pl.tensor.mrgsort_format1 %{{.*}}, %{{.*}} : !pl.tensor<1x512xf32>, index
// CHECK: pl.tensor.mrgsort_format2 %{{.*}}, %{{.*}} exhausted : !pl.tensor<1x256xf32>, !pl.tensor<1x256xf32> -> !pl.tensor<1x64xf32>
// CHECK: pl.tensor.gather_mask %{{.*}} p1010 : !pl.tensor<1x512xf32> -> !pl.tensor<1x256xui32>
// CHECK: pl.tensor.reinterpret_view %{{.*}} : !pl.tensor<?x16xf32> -> !pl.tensor<?x64xi8>
// CHECK: pl.tensor.gather %{{.*}}, %{{.*}} dim 1 : !pl.tensor<16x64xf32>, !pl.tensor<16x8xi32> -> !pl.tensor<16x8xf32>
// CHECK: pl.tensor.gather %{{.*}}, %{{.*}} dim 0 : !pl.tensor<4x8x16xf16>, !pl.tensor<2x8x16xi32> -> !pl.tensor<2x8x16xf16>
// CHECK: pl.tensor.scatter %{{.*}}, %{{.*}}, %{{.*}} dim 1 : !pl.tensor<16x64xf32>, !pl.tensor<16x8xi32>, !pl.tensor<16x8xf32>
// CHECK: pl.tensor.scatter_update %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<16x64xf32>, !pl.tensor<2x4xi32>, !pl.tensor<8x64xf32>
// CHECK: pl.tensor.scatter_mask %{{.*}} into %{{.*}} p1010 : !pl.tensor<8x32xf32>, !pl.tensor<8x64xf32>
// CHECK: pl.tensor.gather_row %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}}[%{{.*}}, %{{.*}}] shape [1, 64] : !pl.tensor<16x64xf32>, !pl.tensor<8x64xf32>
// CHECK: pl.tensor.paged_gather %{{.*}}, %{{.*}}, %{{.*}} block_size 4 col_off 16 : !pl.tensor<16x64xf32>, !pl.tensor<8xi32>, !pl.tensor<1x4xi32> -> !pl.tensor<8x32xf32>
// CHECK: pl.tensor.paged_gather %{{.*}}, %{{.*}}, %{{.*}} block_size 4 : !pl.tensor<16x64xf32>
// CHECK: pl.tensor.random key(%{{.*}}, %{{.*}}) counter(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) rounds 7 : !pl.tensor<4x256xui32>
// CHECK: pl.tensor.gather_compare %{{.*}}, %{{.*}} le offset -3 : !pl.tensor<?x16xf32>, f32 -> !pl.tensor<?x8xi32>, !pl.tensor<1x?xui32>
func.func @tensors(%x: !pl.tensor<1x256xf32>, %a: !pl.tensor<1x256xf32>, %b: !pl.tensor<1x256xf32>,
                   %y: !pl.tensor<?x16xf32>, %s: !pl.tensor<16x64xf32>, %e: !pl.tensor<16x8xi32>,
                   %z: !pl.tensor<4x8x16xf16>, %zi: !pl.tensor<2x8x16xi32>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : index
  %seq = pl.tensor.ci %c0 : i32 -> !pl.tensor<1x256xui32>
  %p = pl.tensor.sort32 %x, %seq : !pl.tensor<1x256xf32>, !pl.tensor<1x256xui32> -> !pl.tensor<1x512xf32>
  %r = pl.tensor.mrgsort_format1 %p, %c64 : !pl.tensor<1x512xf32>, index
  %m = pl.tensor.mrgsort_format2 %a, %b exhausted : !pl.tensor<1x256xf32>, !pl.tensor<1x256xf32> -> !pl.tensor<1x64xf32>
  %i = pl.tensor.gather_mask %p p1010 : !pl.tensor<1x512xf32> -> !pl.tensor<1x256xui32>
  %v = pl.tensor.reinterpret_view %y : !pl.tensor<?x16xf32> -> !pl.tensor<?x64xi8>
  %g = pl.tensor.gather %s, %e dim 1 : !pl.tensor<16x64xf32>, !pl.tensor<16x8xi32> -> !pl.tensor<16x8xf32>
  %h = pl.tensor.gather %z, %zi dim 0 : !pl.tensor<4x8x16xf16>, !pl.tensor<2x8x16xi32> -> !pl.tensor<2x8x16xf16>
  %k = pl.tensor.scatter %s, %e, %g dim 1 : !pl.tensor<16x64xf32>, !pl.tensor<16x8xi32>, !pl.tensor<16x8xf32>
  %slots = pl.tensor.reshape %e : !pl.tensor<16x8xi32> -> !pl.tensor<2x64xi32>
  %i0 = arith.constant 0 : index
  %rows = pl.tensor.slice %s[%i0, %i0] : !pl.tensor<16x64xf32> -> !pl.tensor<8x64xf32>
  %few = pl.tensor.slice %slots[%i0, %i0] : !pl.tensor<2x64xi32> -> !pl.tensor<2x4xi32>
  %su = pl.tensor.scatter_update %s, %few, %rows : !pl.tensor<16x64xf32>, !pl.tensor<2x4xi32>, !pl.tensor<8x64xf32>
  %half = pl.tensor.slice %rows[%i0, %i0] : !pl.tensor<8x64xf32> -> !pl.tensor<8x32xf32>
  %sm = pl.tensor.scatter_mask %half into %rows p1010 : !pl.tensor<8x32xf32>, !pl.tensor<8x64xf32>
  %gr = pl.tensor.gather_row %s[%i0, %i0] into %rows[%i0, %i0] shape [1, 64] : !pl.tensor<16x64xf32>, !pl.tensor<8x64xf32>
  %positions = pl.tensor.slice %e[%i0, %i0] : !pl.tensor<16x8xi32> -> !pl.tensor<1x8xi32>
  %flat = pl.tensor.reshape %positions : !pl.tensor<1x8xi32> -> !pl.tensor<8xi32>
  %pages = pl.tensor.slice %e[%i0, %i0] : !pl.tensor<16x8xi32> -> !pl.tensor<1x4xi32>
  %pg = pl.tensor.paged_gather %s, %flat, %pages block_size 4 col_off 16 : !pl.tensor<16x64xf32>, !pl.tensor<8xi32>, !pl.tensor<1x4xi32> -> !pl.tensor<8x32xf32>
  %pg0 = pl.tensor.paged_gather %s, %flat, %pages block_size 4 : !pl.tensor<16x64xf32>, !pl.tensor<8xi32>, !pl.tensor<1x4xi32> -> !pl.tensor<8x64xf32>
  %rt = pl.tensor.random key(%c0, %c0) counter(%c0, %c0, %c0, %c0) rounds 7 : !pl.tensor<4x256xui32>
  %bound = arith.constant 0.5 : f32
  %gc, %gn = pl.tensor.gather_compare %y, %bound le offset -3 : !pl.tensor<?x16xf32>, f32 -> !pl.tensor<?x8xi32>, !pl.tensor<1x?xui32>
  return
}

// Equal computations are one; an unused one is dropped.
// PURE-LABEL: func.func @pure
// PURE-COUNT-1: pl.tile.sort32
// PURE-NOT: pl.tile.ci %{{.*}} descending
// PURE: return
func.func @pure(%x: !pl.tile<1x64xf32, vec>) -> (!pl.tile<1x128xf32, vec>, !pl.tile<1x128xf32, vec>) {
  %c0 = arith.constant 0 : i32
  %seq = pl.tile.ci %c0 : i32 -> !pl.tile<1x64xui32, vec>
  %unused = pl.tile.ci %c0 descending : i32 -> !pl.tile<1x64xui32, vec>
  %p = pl.tile.sort32 %x, %seq : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xui32, vec> -> !pl.tile<1x128xf32, vec>
  %q = pl.tile.sort32 %x, %seq : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xui32, vec> -> !pl.tile<1x128xf32, vec>
  return %p, %q : !pl.tile<1x128xf32, vec>, !pl.tile<1x128xf32, vec>
}
