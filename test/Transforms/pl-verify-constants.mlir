// The op rules that constant operands decide run in pl-verify-constants,
// not in the verifier (folding must keep valid IR valid): windows that
// provably leave their tensor or tile, non-positive sizes and extents,
// valid extents that disagree with their operands. One section per rule.
// RUN: pto-opt --verify-roundtrip %s -split-input-file --pl-verify-constants -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s -split-input-file --pass-pipeline='builtin.module(pl-verify-constants)' -verify-diagnostics
// Without the pass every section verifies.
// RUN: pto-opt --verify-roundtrip %s -split-input-file -o /dev/null

func.func @partition_leaves(%a: !pl.tensor<4x16x64xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{the window leaves the tensor in dimension 0 (offset 3 + 2 > 4)}}
  %t = pl.tile.load %a[%c3, %c0, %c0] partition [2, 16, 64] : !pl.tensor<4x16x64xf32> -> !pl.tile<32x64xf32, vec>
  return
}

// -----

func.func @load_past_edge(%a: !pl.tensor<100x128xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{the window leaves the tensor in dimension 0 (offset 64 + 64 > 100); use clamp to narrow it}}
  %t = pl.tile.load %a[%c64, %c0] : !pl.tensor<100x128xf16> -> !pl.tile<64x128xf16, vec>
  return
}

// -----

func.func @store_past_edge(%t: !pl.tile<64x128xf16, vec>, %o: !pl.tensor<100x128xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{the write leaves the destination in dimension 0}}
  %o2 = pl.tile.store %t, %o[%c64, %c0] : !pl.tile<64x128xf16, vec>, !pl.tensor<100x128xf16>
  return
}

// -----

func.func @slice_outside(%t: !pl.tile<64x128xf16, vec>) {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  // expected-error @+1 {{'pl.tile.slice' op the window leaves the source in dimension 1}}
  %s = pl.tile.slice %t[%c0, %c96] : !pl.tile<64x128xf16, vec> -> !pl.tile<64x64xf16, vec>
  return
}

// -----

func.func @slice_valid(%t: !pl.tile<64x128xf16, vec, valid = 64x100>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{result valid extent in dimension 1 exceeds the source's valid region}}
  %s = pl.tile.slice %t[%c0, %c64] : !pl.tile<64x128xf16, vec, valid = 64x100> -> !pl.tile<64x64xf16, vec>
  return
}

// -----

func.func @extract_outside(%t: !pl.tile<64x64xf16, mat>) {
  %c0 = arith.constant 0 : index
  %c56 = arith.constant 56 : index
  // expected-error @+1 {{'pl.tile.extract' op the window leaves the source in dimension 1}}
  %r = pl.tile.extract %t[%c0, %c56] : !pl.tile<64x64xf16, mat> -> !pl.tile<16x16xf16, left>
  return
}

// -----

func.func @set_validshape_result(%t: !pl.tile<16x64xf32, vec>, %i: index) {
  %c32 = arith.constant 32 : index
  // expected-error @+1 {{result must be !pl.tile<16x64xf32, vec> with valid extents ?x32 (or ?), got !pl.tile<16x64xf32, vec, valid = ?x64>}}
  %r = pl.tile.set_validshape %t, %i, %c32 : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec, valid = ?x64>
  return
}

// -----

func.func @tensor_set_validshape_result(%t: !pl.tensor<16x64xf32>, %i: index) {
  %c32 = arith.constant 32 : index
  // expected-error @+1 {{result must be !pl.tensor<16x64xf32> with valid extents ?x32 (or ?), got !pl.tensor<16x64xf32, valid = ?x48>}}
  %r = pl.tensor.set_validshape %t, %i, %c32 : !pl.tensor<16x64xf32> -> !pl.tensor<16x64xf32, valid = ?x48>
  return
}

// -----

func.func @tensor_set_validshape_exceeds(%t: !pl.tensor<16x64xf32>, %i: index) {
  %c65 = arith.constant 65 : index
  // expected-error @+1 {{valid extent 65 exceeds dimension 1 (64)}}
  %r = pl.tensor.set_validshape %t, %i, %c65 : !pl.tensor<16x64xf32> -> !pl.tensor<16x64xf32, valid = ?x?>
  return
}

// -----

func.func @assemble_outside(%s: !pl.tile<16x64xf32, vec>, %t: !pl.tile<16x128xf32, vec>) {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  // expected-error @+1 {{the window leaves the target in dimension 1}}
  %r = pl.tile.assemble %s into %t[%c0, %c96] : !pl.tile<16x64xf32, vec>, !pl.tile<16x128xf32, vec>
  return
}

// -----

func.func @slice_window(%t: !pl.tensor<32x64xf32>) {
  %c0 = arith.constant 0 : index
  %c24 = arith.constant 24 : index
  // expected-error @+1 {{the window leaves the source in dimension 0; use clamp to narrow it}}
  %s = pl.tensor.slice %t[%c24, %c0] : !pl.tensor<32x64xf32> -> !pl.tensor<16x64xf32>
  return
}

// -----

func.func @assemble_window(%s: !pl.tensor<16x64xf32>, %t: !pl.tensor<32x64xf32>) {
  %c0 = arith.constant 0 : index
  %c20 = arith.constant 20 : index
  // expected-error @+1 {{the window leaves the target in dimension 0}}
  %r = pl.tensor.assemble %s into %t[%c20, %c0] : !pl.tensor<16x64xf32>, !pl.tensor<32x64xf32>
  return
}

// -----

func.func @alloc_size() attributes {pl.level = #pl.level<host>} {
  %z = arith.constant 0 : i64
  // expected-error @+1 {{size must be positive, got 0}}
  %b = pld.tensor.alloc_window_buffer %z name "buf" : i64 -> !pl.ptr
  return
}

// -----

func.func @defer_wait_negative(%s: !pld.dtensor<4xi32>, %i: index) {
  %g = arith.constant -1 : i32
  // expected-error @+1 {{a constant expected value must be in [0, 2^31), got -1}}
  pld.system.defer_wait %s[%i], %g ge : !pld.dtensor<4xi32>
  return
}

// -----

func.func @remote_load_past_edge(%d: !pld.dtensor<4x256xf32>, %p: i32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{the read leaves the target in dimension 0 (reads do not clamp; pass a smaller valid shape)}}
  %t = pld.tile.remote_load %d[%c4, %c0] from %p : !pld.dtensor<4x256xf32> -> !pl.tile<1x256xf32, vec>
  return
}

// -----

func.func @remote_store_fits(%t: !pl.tile<2x256xf32, vec>, %d: !pld.dtensor<4x256xf32>, %p: i32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{push exceeds the peer's target region in dimension 0}}
  pld.tile.remote_store %t, %d[%c3, %c0] to %p none : !pl.tile<2x256xf32, vec>, !pld.dtensor<4x256xf32>
  return
}

// -----

func.func @put_region_bounds(%d: !pld.dtensor<4x256xf32>, %s: !pl.tensor<4x256xf32>, %p: i32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{dst subregion dimension 0 exceeds dst shape}}
  pld.tensor.put %d to %p from %s region [%c3, %c0] [%c0, %c0] [%c2, %c2] none chunk 0, 0 : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>
  return
}

// -----

func.func @put_extent(%d: !pld.dtensor<4x256xf32>, %s: !pl.tensor<4x256xf32>, %p: i32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{transfer extent 0 must be positive}}
  pld.tensor.put %d to %p from %s region [%c0, %c0] [%c0, %c0] [%c0, %c0] none chunk 0, 0 : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>
  return
}

// -----

func.func @stage_too_large(%d: !pld.dtensor<4x256xf32>, %s: !pl.tensor<4x256xf32>, %p: i32, %t: !pl.tile<8x128xf32, vec>) {
  // expected-error @+1 {{stage rows (8) exceed the transfer rows (4)}}
  pld.tile.put %d to %p from %s stage %t none : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>, !pl.tile<8x128xf32, vec>
  return
}

// -----

func.func @tail_padding_room(%d: !pld.dtensor<4x200xf16>, %p: i32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{the read leaves the target in dimension 1}}
  %t = pld.tile.remote_load %d[%c0, %c0] from %p tail_padding : !pld.dtensor<4x200xf16> -> !pl.tile<1x256xf16, vec, valid = 1x250>
  return
}

// -----

func.func @mrgsort_block_len(%p: !pl.tile<1x512xf32, vec>) {
  %c48 = arith.constant 48 : i32
  // expected-error @+1 {{block_len must be a positive multiple of 64, got 48}}
  %m = pl.tile.mrgsort_format1 %p, %c48 : !pl.tile<1x512xf32, vec>, i32
  return
}

// -----

func.func @mrgsort_groups(%p: !pl.tensor<1x384xf32>) {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{merges groups of four runs: the row's 384 elements must be a multiple of 4 * block_len (256)}}
  %m = pl.tensor.mrgsort_format1 %p, %c64 : !pl.tensor<1x384xf32>, index
  return
}

// -----

func.func @array_outside() -> i32 attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.array.create : !pl.array<i32, 4>
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{index 4 is outside the array's 4 elements}}
  %n = pl.array.get_element %a[%c4] : !pl.array<i32, 4> -> i32
  return %n : i32
}

// -----

func.func @gather_row_window(%c: !pl.tensor<64x32xf16>, %t: !pl.tile<8x32xf16, vec>) {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{the window 8x32 at the target's offsets leaves the target !pl.tile<8x32xf16, vec>}}
  %r = pl.tile.gather_row %c[%c4, %c4] into %t[%c4, %c4] shape [8, 32] : !pl.tensor<64x32xf16>, !pl.tile<8x32xf16, vec>
  return
}

// -----

func.func @gather_row_valid(%c: !pl.tensor<64x32xf16>, %t: !pl.tensor<8x32xf16>) {
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  // expected-error @+1 {{valid extent 9 on axis 1 is outside the window's 8}}
  %r = pl.tensor.gather_row %c[%c0, %c0] into %t[%c0, %c0] shape [2, 8] valid(%c0, %c9) : !pl.tensor<64x32xf16>, !pl.tensor<8x32xf16>
  return
}

// -----

func.func @negative_used(%ws: !pl.tensor<16xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %n = arith.constant -1 : i32
  // expected-error @+1 {{the used block count must not be negative (0 is every block of the launch), got -1}}
  pl.system.syncall soft aiv_only on %ws : !pl.tensor<16xi32> used %n
  return
}
