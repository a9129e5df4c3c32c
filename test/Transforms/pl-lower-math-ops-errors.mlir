// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-lower-math-ops))' --split-input-file --verify-diagnostics

// A row gather into an L1 tile: its rows are spread over NZ fractals, not a
// window a load writes.
func.func @into_mat(%c: !pl.tensor<256x128xf16>, %t: !pl.tile<16x128xf16, mat>, %p: index) -> !pl.tile<16x128xf16, mat> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{pl-lower-math-ops: a gather_row into a tile in mat is not lowered yet (a row of an NZ tile is not a window a load can write); gather into vec}}
  %r = pl.tile.gather_row %c[%p, %c0] into %t[%c0, %c0] shape [1, 128] : !pl.tensor<256x128xf16>, !pl.tile<16x128xf16, mat>
  return %r : !pl.tile<16x128xf16, mat>
}

// -----

// A compare gather of a source whose valid region is not static is not
// scanned yet.
func.func @gather_compare_dynamic(%x: !pl.tile<4x16xf32, vec, valid = ?x16>, %k: f32) -> (!pl.tile<4x8xi32, vec, valid = ?x8>, !pl.tile<1x4xi32, vec, valid = 1x?>) {
  // expected-error @+1 {{pl-lower-math-ops: a gather_compare of a source with a dynamic valid region is not lowered yet, got !pl.tile<4x16xf32, vec, valid = ?x16>}}
  %i, %n = pl.tile.gather_compare %x, %k ge : !pl.tile<4x16xf32, vec, valid = ?x16>, f32 -> !pl.tile<4x8xi32, vec, valid = ?x8>, !pl.tile<1x4xi32, vec, valid = 1x?>
  return %i, %n : !pl.tile<4x8xi32, vec, valid = ?x8>, !pl.tile<1x4xi32, vec, valid = 1x?>
}

// -----

// An mscatter of a source whose valid region is not static is not
// lowered yet.
func.func @mscatter_dynamic(%x: !pl.tile<4x16xf32, vec, valid = ?x16>, %i: !pl.tile<1x4xi32, vec, valid = 1x?>, %t: !pl.tensor<32x16xf32>) -> !pl.tensor<32x16xf32> {
  // expected-error @+1 {{pl-lower-math-ops: an mscatter of a source with a dynamic valid region is not lowered yet, got !pl.tile<4x16xf32, vec, valid = ?x16>}}
  %r = pl.tile.mscatter %x, %i into %t row : !pl.tile<4x16xf32, vec, valid = ?x16>, !pl.tile<1x4xi32, vec, valid = 1x?>, !pl.tensor<32x16xf32>
  return %r : !pl.tensor<32x16xf32>
}
