// One section per rule of index sequences, sorts, gathers and bit
// reinterpretation.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @ci_rows(%s: i32) {
  // expected-error @+1 {{makes one row: every dimension but the last must be 1 and the last not 1, got 2x16}}
  %t = pl.tile.ci %s : i32 -> !pl.tile<2x16xi32, vec>
  return
}

// -----

func.func @ci_one_column(%s: i32) {
  // expected-error @+1 {{makes one row: every dimension but the last must be 1 and the last not 1, got 1x1}}
  %t = pl.tensor.ci %s : i32 -> !pl.tensor<1x1xi32>
  return
}

// -----

func.func @ci_dynamic(%s: i32) {
  // expected-error @+1 {{needs a static shape, got !pl.tensor<1x?xi32>}}
  %t = pl.tensor.ci %s : i32 -> !pl.tensor<1x?xi32>
  return
}

// -----

func.func @ci_start_width(%s: i64) {
  // expected-error @+1 {{start must be an integer of the element type's width (32 bits), got i64}}
  %t = pl.tile.ci %s : i64 -> !pl.tile<1x16xui32>
  return
}

// -----

func.func @ci_element(%s: i32) {
  // expected-error @+1 {{result #0 must be pl tile of 16-bit signless integer or 32-bit signless integer or 16-bit unsigned integer or 32-bit unsigned integer values}}
  %t = pl.tile.ci %s : i32 -> !pl.tile<1x16xf32>
  return
}

// -----

func.func @ci_space(%s: i32) {
  // expected-error @+1 {{result must be in 'vec' (or not yet placed), got 'mat'}}
  %t = pl.tile.ci %s : i32 -> !pl.tile<1x16xi32, mat>
  return
}

// -----

func.func @sort32_indices(%x: !pl.tile<1x64xf32>, %i: !pl.tile<1x32xui32>) {
  // expected-error @+1 {{indices must have the source's shape and valid extents, got !pl.tile<1x32xui32> for !pl.tile<1x64xf32>}}
  %p = pl.tile.sort32 %x, %i : !pl.tile<1x64xf32>, !pl.tile<1x32xui32> -> !pl.tile<1x128xf32>
  return
}

// -----

func.func @sort32_blocks(%x: !pl.tile<1x48xf32>, %i: !pl.tile<1x48xui32>) {
  // expected-error @+1 {{sorts whole blocks of 32: the source's last dimension must be a static multiple of 32, got 1x48}}
  %p = pl.tile.sort32 %x, %i : !pl.tile<1x48xf32>, !pl.tile<1x48xui32> -> !pl.tile<1x96xf32>
  return
}

// -----

func.func @sort32_valid(%x: !pl.tile<1x64xf32, vec, valid = 1x?>, %i: !pl.tile<1x64xui32, vec, valid = 1x?>) {
  // expected-error @+1 {{the source's columns must be wholly valid (fill the rest with pl.tile.fillpad first)}}
  %p = pl.tile.sort32 %x, %i : !pl.tile<1x64xf32, vec, valid = 1x?>, !pl.tile<1x64xui32, vec, valid = 1x?> -> !pl.tile<1x128xf32, vec>
  return
}

// -----

func.func @sort32_result(%x: !pl.tile<1x64xf16>, %i: !pl.tile<1x64xui32>) {
  // expected-error @+1 {{result must hold one 8-byte pair per element (4 f16 elements each): 1x256 with valid 1x256, got !pl.tile<1x128xf16>}}
  %p = pl.tile.sort32 %x, %i : !pl.tile<1x64xf16>, !pl.tile<1x64xui32> -> !pl.tile<1x128xf16>
  return
}

// -----

func.func @sort32_scratch(%x: !pl.tile<1x64xf32>, %i: !pl.tile<1x64xui32>) {
  // expected-error @+1 {{tmp must be a tile of its own, not another operand}}
  %p = pl.tile.sort32 %x, %i, %x : !pl.tile<1x64xf32>, !pl.tile<1x64xui32>, !pl.tile<1x64xf32> -> !pl.tile<1x128xf32>
  return
}

// -----

func.func @sort32_element(%x: !pl.tensor<1x64xi32>, %i: !pl.tensor<1x64xui32>) {
  // expected-error @+1 {{operand #0 must be pl tensor of 16-bit float or 32-bit float values}}
  %p = pl.tensor.sort32 %x, %i : !pl.tensor<1x64xi32>, !pl.tensor<1x64xui32> -> !pl.tensor<1x128xi32>
  return
}

// -----

func.func @mrgsort1_row(%p: !pl.tile<2x256xf32>, %n: i32) {
  // expected-error @+1 {{source must be one row (every dimension but the last 1), got 2x256}}
  %m = pl.tile.mrgsort_format1 %p, %n : !pl.tile<2x256xf32>, i32
  return
}

// -----

func.func @mrgsort1_valid(%p: !pl.tile<1x256xf32, vec, valid = 1x?>, %n: i32) {
  // expected-error @+1 {{source must be wholly valid, got !pl.tile<1x256xf32, vec, valid = 1x?>}}
  %m = pl.tile.mrgsort_format1 %p, %n : !pl.tile<1x256xf32, vec, valid = 1x?>, i32
  return
}

// -----

func.func @mrgsort1_pairs(%p: !pl.tile<1x250xf16>, %n: i32) {
  // expected-error @+1 {{source must hold whole pairs (4 f16 elements each), got 250 elements}}
  %m = pl.tile.mrgsort_format1 %p, %n : !pl.tile<1x250xf16>, i32
  return
}

// -----

func.func @mrgsort2_count(%a: !pl.tile<1x64xf32>, %t: !pl.tile<1x64xf32>) {
  // expected-error @+1 {{merges two to four sources, got 1}}
  %m = pl.tile.mrgsort_format2 %a tmp %t : (!pl.tile<1x64xf32>), !pl.tile<1x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @mrgsort2_elements(%a: !pl.tile<1x64xf32>, %b: !pl.tile<1x64xf16>, %t: !pl.tile<1x128xf32>) {
  // expected-error @+1 {{sources must have one element type, got f32 and f16}}
  %m = pl.tile.mrgsort_format2 %a, %b tmp %t : (!pl.tile<1x64xf32>, !pl.tile<1x64xf16>), !pl.tile<1x128xf32> -> !pl.tile<1x128xf32>
  return
}

// -----

func.func @mrgsort2_longer(%a: !pl.tile<1x64xf32>, %b: !pl.tile<1x64xf32>, %t: !pl.tile<1x256xf32>) {
  // expected-error @+1 {{result row of 256 elements is longer than the sources' 128}}
  %m = pl.tile.mrgsort_format2 %a, %b tmp %t : (!pl.tile<1x64xf32>, !pl.tile<1x64xf32>), !pl.tile<1x256xf32> -> !pl.tile<1x256xf32>
  return
}

// -----

func.func @mrgsort2_room(%a: !pl.tile<1x64xf32>, %b: !pl.tile<1x64xf32>, %t: !pl.tile<1x64xf32>) {
  // expected-error @+1 {{tmp must have room for the sources' 128 elements, got 64}}
  %m = pl.tile.mrgsort_format2 %a, %b tmp %t : (!pl.tile<1x64xf32>, !pl.tile<1x64xf32>), !pl.tile<1x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @mrgsort2_scratch(%a: !pl.tile<1x64xf32>, %b: !pl.tile<1x128xf32>) {
  // expected-error @+1 {{tmp must be a tile of its own, not another operand}}
  %m = pl.tile.mrgsort_format2 %a, %b tmp %b : (!pl.tile<1x64xf32>, !pl.tile<1x128xf32>), !pl.tile<1x128xf32> -> !pl.tile<1x128xf32>
  return
}

// -----

func.func @mrgsort2_tensor_row(%a: !pl.tensor<2x64xf32>, %b: !pl.tensor<2x64xf32>) {
  // expected-error @+1 {{source 0 must be one row (every dimension but the last 1), got 2x64}}
  %m = pl.tensor.mrgsort_format2 %a, %b : !pl.tensor<2x64xf32>, !pl.tensor<2x64xf32> -> !pl.tensor<1x128xf32>
  return
}

// -----

func.func @gather_shape(%x: !pl.tile<1x64xf32>, %i: !pl.tile<1x32xi32>, %t: !pl.tile<1x32xi32>) {
  // expected-error @+1 {{result must have the indices' shape and valid extents and the source's element type, got !pl.tile<1x64xf32>}}
  %g = pl.tile.gather %x, %i, %t : !pl.tile<1x64xf32>, !pl.tile<1x32xi32>, !pl.tile<1x32xi32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @gather_scratch_shape(%x: !pl.tile<1x64xf32>, %i: !pl.tile<1x32xi32>, %t: !pl.tile<1x64xi32>) {
  // expected-error @+1 {{tmp must have the indices' shape 1x32, got !pl.tile<1x64xi32>}}
  %g = pl.tile.gather %x, %i, %t : !pl.tile<1x64xf32>, !pl.tile<1x32xi32>, !pl.tile<1x64xi32> -> !pl.tile<1x32xf32>
  return
}

// -----

func.func @gather_scratch(%x: !pl.tile<1x64xf32>, %i: !pl.tile<1x32xi32>) {
  // expected-error @+1 {{tmp must be a tile of its own, not another operand}}
  %g = pl.tile.gather %x, %i, %i : !pl.tile<1x64xf32>, !pl.tile<1x32xi32>, !pl.tile<1x32xi32> -> !pl.tile<1x32xf32>
  return
}

// -----

func.func @gather_mask_rank(%x: !pl.tile<2x2x64xf32>) {
  // expected-error @+1 {{source must be 2-D, got 2x2x64}}
  %g = pl.tile.gather_mask %x p0101 : !pl.tile<2x2x64xf32> -> !pl.tile<2x32xf32>
  return
}

// -----

func.func @gather_mask_stride(%x: !pl.tile<2x66xf32>) {
  // expected-error @+1 {{pattern p0001 keeps one column in 4: the source's columns must be a static multiple of 4, got 2x66}}
  %g = pl.tile.gather_mask %x p0001 : !pl.tile<2x66xf32> -> !pl.tile<2x16xf32>
  return
}

// -----

func.func @gather_mask_shape(%x: !pl.tile<2x64xf32>) {
  // expected-error @+1 {{result must be 2x32 with valid 2x32 (the source's rows, one column in 2), got !pl.tile<2x16xf32>}}
  %g = pl.tile.gather_mask %x p1010 : !pl.tile<2x64xf32> -> !pl.tile<2x16xf32>
  return
}

// -----

func.func @gather_mask_width(%x: !pl.tensor<2x64xf32>) {
  // expected-error @+1 {{result element type must have the source's width (32 bits), got ui16}}
  %g = pl.tensor.gather_mask %x p1010 : !pl.tensor<2x64xf32> -> !pl.tensor<2x32xui16>
  return
}

// -----

func.func @gather_mask_columns(%x: !pl.tile<2x64xf32, vec, valid = 2x?>) {
  // expected-error @+1 {{the source's columns must be wholly valid, got !pl.tile<2x64xf32, vec, valid = 2x?>}}
  %g = pl.tile.gather_mask %x p1010 : !pl.tile<2x64xf32, vec, valid = 2x?> -> !pl.tile<2x32xf32, vec>
  return
}

// -----

func.func @reinterpret_same(%x: !pl.tile<8x16xf32>) {
  // expected-error @+1 {{views f32 as itself: the element type must change}}
  %v = pl.tile.reinterpret_view %x : !pl.tile<8x16xf32> -> !pl.tile<8x16xf32>
  return
}

// -----

func.func @reinterpret_scaled(%x: !pl.tile<8x16xf32>) {
  // expected-error @+1 {{result must be 8x32 with valid 8x32 (the last dimension scaled by 32/16), got !pl.tile<16x16xi16>}}
  %v = pl.tile.reinterpret_view %x : !pl.tile<8x16xf32> -> !pl.tile<16x16xi16>
  return
}

// -----

func.func @reinterpret_whole(%x: !pl.tile<8x15xi16>) {
  // expected-error @+1 {{the last extent 15 of i16 elements is not a whole number of f32 elements}}
  %v = pl.tile.reinterpret_view %x : !pl.tile<8x15xi16> -> !pl.tile<8x7xf32>
  return
}

// -----

func.func @reinterpret_space(%x: !pl.tile<8x16xf32, vec>) {
  // expected-error @+1 {{keeps the memory space, got !pl.tile<8x16xf32, vec> to !pl.tile<8x16xi32, mat>}}
  %v = pl.tile.reinterpret_view %x : !pl.tile<8x16xf32, vec> -> !pl.tile<8x16xi32, mat>
  return
}

// -----

func.func @reinterpret_bits(%x: !pl.tile<8x16xi8>) {
  // expected-error @+1 {{views whole bytes: i8 and i4 must both be at least a byte wide}}
  %v = pl.tile.reinterpret_view %x : !pl.tile<8x16xi8> -> !pl.tile<8x32xi4>
  return
}

// -----

func.func @reinterpret_strided(%x: !pl.tensor<8x16xf32, strides = [32, 1]>) {
  // expected-error @+1 {{views a packed row-major tensor, got !pl.tensor<8x16xf32, strides = [32, 1]>}}
  %v = pl.tensor.reinterpret_view %x : !pl.tensor<8x16xf32, strides = [32, 1]> -> !pl.tensor<8x16xi32>
  return
}

// -----

func.func @gather_rank(%x: !pl.tensor<64xf32>, %i: !pl.tensor<8xi32>) {
  // expected-error @+1 {{input must have rank 2 or more, got !pl.tensor<64xf32>}}
  %g = pl.tensor.gather %x, %i dim 0 : !pl.tensor<64xf32>, !pl.tensor<8xi32> -> !pl.tensor<8xf32>
  return
}

// -----

func.func @gather_index_rank(%x: !pl.tensor<4x64xf32>, %i: !pl.tensor<2x4x8xi32>) {
  // expected-error @+1 {{index must have the input's rank 2, got !pl.tensor<2x4x8xi32>}}
  %g = pl.tensor.gather %x, %i dim 1 : !pl.tensor<4x64xf32>, !pl.tensor<2x4x8xi32> -> !pl.tensor<2x4x8xf32>
  return
}

// -----

func.func @gather_dim(%x: !pl.tensor<4x64xf32>, %i: !pl.tensor<4x8xi32>) {
  // expected-error @+1 {{dim must be an axis of the input (0 to 1), got 2}}
  %g = pl.tensor.gather %x, %i dim 2 : !pl.tensor<4x64xf32>, !pl.tensor<4x8xi32> -> !pl.tensor<4x8xf32>
  return
}

// -----

func.func @gather_result(%x: !pl.tensor<4x64xf32>, %i: !pl.tensor<4x8xi32>) {
  // expected-error @+1 {{result must have the index's shape 4x8 and the input's element type f32, got !pl.tensor<4x8xf16>}}
  %g = pl.tensor.gather %x, %i dim 1 : !pl.tensor<4x64xf32>, !pl.tensor<4x8xi32> -> !pl.tensor<4x8xf16>
  return
}

// -----

func.func @gather_extent(%x: !pl.tensor<4x64xf32>, %i: !pl.tensor<8x8xi32>) {
  // expected-error @+1 {{index extent 8 on axis 0 exceeds the input's 4 (only axis 1 is indexed)}}
  %g = pl.tensor.gather %x, %i dim 1 : !pl.tensor<4x64xf32>, !pl.tensor<8x8xi32> -> !pl.tensor<8x8xf32>
  return
}

// -----

func.func @gather_index_type(%x: !pl.tensor<4x64xf32>, %i: !pl.tensor<4x8xi16>) {
  // expected-error @+1 {{operand #1 must be}}
  %g = pl.tensor.gather %x, %i dim 1 : !pl.tensor<4x64xf32>, !pl.tensor<4x8xi16> -> !pl.tensor<4x8xf32>
  return
}

// -----

func.func @scatter_index_width(%x: !pl.tile<2x16xf16, vec>, %i: !pl.tile<2x16xi32, vec>) {
  // expected-error @+1 {{indexes of f16 elements are i16, got i32}}
  %s = pl.tile.scatter %x, %i : !pl.tile<2x16xf16, vec>, !pl.tile<2x16xi32, vec> -> !pl.tile<4x16xf16, vec>
  return
}

// -----

func.func @scatter_index_shape(%x: !pl.tile<2x8xf32, vec>, %i: !pl.tile<1x8xi32, vec>) {
  // expected-error @+1 {{indexes must have the source's shape and valid extents, got !pl.tile<1x8xi32, vec> for !pl.tile<2x8xf32, vec>}}
  %s = pl.tile.scatter %x, %i : !pl.tile<2x8xf32, vec>, !pl.tile<1x8xi32, vec> -> !pl.tile<4x8xf32, vec>
  return
}

// -----

func.func @scatter_partial_result(%x: !pl.tile<2x8xf32, vec>, %i: !pl.tile<2x8xi32, vec>) {
  // expected-error @+1 {{result must be wholly valid and of the source's element type f32, got !pl.tile<4x8xf32, vec, valid = 2x8>}}
  %s = pl.tile.scatter %x, %i : !pl.tile<2x8xf32, vec>, !pl.tile<2x8xi32, vec> -> !pl.tile<4x8xf32, vec, valid = 2x8>
  return
}

// -----

func.func @scatter_rank(%x: !pl.tile<2x2x8xf32, vec>, %i: !pl.tile<2x2x8xi32, vec>) {
  // expected-error @+1 {{source must be 2-D, got !pl.tile<2x2x8xf32, vec>}}
  %s = pl.tile.scatter %x, %i : !pl.tile<2x2x8xf32, vec>, !pl.tile<2x2x8xi32, vec> -> !pl.tile<4x8xf32, vec>
  return
}

// -----

func.func @scatter_source(%x: !pl.tensor<4x64xf32>, %i: !pl.tensor<4x8xi32>, %v: !pl.tensor<4x4xf32>) {
  // expected-error @+1 {{source must have the index's shape 4x8 and the input's element type f32, got !pl.tensor<4x4xf32>}}
  %s = pl.tensor.scatter %x, %i, %v dim 1 : !pl.tensor<4x64xf32>, !pl.tensor<4x8xi32>, !pl.tensor<4x4xf32>
  return
}

// -----

func.func @scatter_dim(%x: !pl.tensor<4x64xf32>, %i: !pl.tensor<4x8xi32>, %v: !pl.tensor<4x8xf32>) {
  // expected-error @+1 {{dim must be an axis of the input (0 to 1), got 3}}
  %s = pl.tensor.scatter %x, %i, %v dim 3 : !pl.tensor<4x64xf32>, !pl.tensor<4x8xi32>, !pl.tensor<4x8xf32>
  return
}

// -----

func.func @scatter_update_rows(%c: !pl.tensor<32x64xf16>, %i: !pl.tensor<2x8xi32>, %r: !pl.tensor<8x64xf16>) {
  // expected-error @+1 {{source must have a row for each index (16) of the input's 64 columns of f16, got !pl.tensor<8x64xf16>}}
  %u = pl.tensor.scatter_update %c, %i, %r : !pl.tensor<32x64xf16>, !pl.tensor<2x8xi32>, !pl.tensor<8x64xf16>
  return
}

// -----

func.func @scatter_update_rank(%c: !pl.tile<2x16x64xf16, vec>, %i: !pl.tile<2x8xi32, vec>, %r: !pl.tile<16x64xf16, vec>) {
  // expected-error @+1 {{input must be 2-D, got !pl.tile<2x16x64xf16, vec>}}
  %u = pl.tile.scatter_update %c, %i, %r : !pl.tile<2x16x64xf16, vec>, !pl.tile<2x8xi32, vec>, !pl.tile<16x64xf16, vec>
  return
}

// -----

func.func @scatter_mask_columns(%x: !pl.tile<4x16xf32, vec>) {
  // expected-error @+1 {{pattern p0101 spreads each row over one column in 2: the result must be 4x32 of f32, got !pl.tile<4x16xf32, vec>}}
  %s = pl.tile.scatter_mask %x p0101 : !pl.tile<4x16xf32, vec> -> !pl.tile<4x16xf32, vec>
  return
}

// -----

func.func @scatter_mask_valid(%x: !pl.tile<4x16xf32, vec, valid = 2x16>) {
  // expected-error @+1 {{source must be wholly valid, got !pl.tile<4x16xf32, vec, valid = 2x16>}}
  %s = pl.tile.scatter_mask %x p1111 : !pl.tile<4x16xf32, vec, valid = 2x16> -> !pl.tile<4x16xf32, vec>
  return
}

// -----

func.func @scatter_mask_target(%x: !pl.tensor<4x16xf32>, %d: !pl.tensor<4x48xf32>) {
  // expected-error @+1 {{pattern p0001 spreads each row over one column in 4: the target must be 4x64 of f32, got !pl.tensor<4x48xf32>}}
  %s = pl.tensor.scatter_mask %x into %d p0001 : !pl.tensor<4x16xf32>, !pl.tensor<4x48xf32>
  return
}

// -----

func.func @gatherb_padded_source(%x: !pl.tile<4x4xf32, vec>, %o: !pl.tile<1x8xui32, vec>) {
  // expected-error @+1 {{offsets count bytes of the source's storage: its rows must be a whole number of 32 bytes, got !pl.tile<4x4xf32, vec>}}
  %g = pl.tile.gatherb %x, %o : !pl.tile<4x4xf32, vec>, !pl.tile<1x8xui32, vec> -> !pl.tile<1x64xf32, vec>
  return
}

// -----

func.func @gatherb_eight_blocks(%x: !pl.tile<4x64xf32, vec>, %o: !pl.tile<1x4xui32, vec>) {
  // expected-error @+1 {{a2a3 gathers 8 blocks at a time: the offsets' columns must be a multiple of 8, got !pl.tile<1x4xui32, vec>}}
  %g = pl.tile.gatherb %x, %o : !pl.tile<4x64xf32, vec>, !pl.tile<1x4xui32, vec> -> !pl.tile<1x32xf32, vec>
  return
}

// -----

func.func @gatherb_result(%x: !pl.tile<4x64xf32, vec>, %o: !pl.tile<2x8xui32, vec, valid = 2x5>) {
  // expected-error @+1 {{a block holds 16 elements of f16: the result must be 2x128 valid 2x80, got !pl.tile<2x64xf16, vec, valid = 2x40>}}
  %g = pl.tile.gatherb %x, %o : !pl.tile<4x64xf32, vec>, !pl.tile<2x8xui32, vec, valid = 2x5> -> !pl.tile<2x64xf16, vec, valid = 2x40>
  return
}

// -----

func.func @gatherb_offsets(%x: !pl.tile<4x64xf32, vec>, %o: !pl.tile<1x8xi32, vec>) {
  // expected-error @+1 {{operand #1 must be pl tile of 32-bit unsigned integer values}}
  %g = pl.tile.gatherb %x, %o : !pl.tile<4x64xf32, vec>, !pl.tile<1x8xi32, vec> -> !pl.tile<1x64xf32, vec>
  return
}

// -----

func.func @gather_row_elements(%c: !pl.tensor<64x32xf32>, %t: !pl.tile<8x32xf16, vec>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{source and target must have one element type, got f32 and f16}}
  %r = pl.tile.gather_row %c[%c0, %c0] into %t[%c0, %c0] shape [1, 32] : !pl.tensor<64x32xf32>, !pl.tile<8x32xf16, vec>
  return
}

// -----

func.func @gather_row_space(%c: !pl.tensor<64x32xf16>, %t: !pl.tile<16x32xf16, left>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{target must be in vec or mat, got !pl.tile<16x32xf16, left>}}
  %r = pl.tile.gather_row %c[%c0, %c0] into %t[%c0, %c0] shape [1, 32] : !pl.tensor<64x32xf16>, !pl.tile<16x32xf16, left>
  return
}

// -----

func.func @paged_gather_rows(%c: !pl.tensor<64x32xf16>, %i: !pl.tensor<1x16xi32>, %t: !pl.tensor<1x4xi32>) {
  // expected-error @+1 {{16 indices need 16 rows; the result has 8}}
  %r = pl.tensor.paged_gather %c, %i, %t block_size 16 : !pl.tensor<64x32xf16>, !pl.tensor<1x16xi32>, !pl.tensor<1x4xi32> -> !pl.tensor<8x32xf16>
  return
}

// -----

func.func @paged_gather_columns(%c: !pl.tensor<64x32xf16>, %i: !pl.tensor<8xi32>, %t: !pl.tensor<4xi32>) {
  // expected-error @+1 {{columns 16 to 47 leave the source's 32}}
  %r = pl.tensor.paged_gather %c, %i, %t block_size 16 col_off 16 : !pl.tensor<64x32xf16>, !pl.tensor<8xi32>, !pl.tensor<4xi32> -> !pl.tensor<8x32xf16>
  return
}

// -----

// An offset near the largest i64 is diagnosed, not an overflow.
func.func @paged_gather_huge_offset(%c: !pl.tensor<64x32xf16>, %i: !pl.tensor<8xi32>, %t: !pl.tensor<4xi32>) {
  // expected-error @+1 {{32 columns from 9223372036854775807 leave the source's 32}}
  %r = pl.tensor.paged_gather %c, %i, %t block_size 16 col_off 9223372036854775807 : !pl.tensor<64x32xf16>, !pl.tensor<8xi32>, !pl.tensor<4xi32> -> !pl.tensor<8x32xf16>
  return
}

// -----

func.func @paged_gather_table(%c: !pl.tensor<64x32xf16>, %i: !pl.tensor<8xi32>, %t: !pl.tensor<2x4xi32>) {
  // expected-error @+1 {{table must be [n] or [1, n], got !pl.tensor<2x4xi32>}}
  %r = pl.tensor.paged_gather %c, %i, %t block_size 16 : !pl.tensor<64x32xf16>, !pl.tensor<8xi32>, !pl.tensor<2x4xi32> -> !pl.tensor<8x32xf16>
  return
}

// -----

func.func @paged_gather_block(%c: !pl.tensor<64x32xf16>, %i: !pl.tensor<8xi32>, %t: !pl.tensor<4xi32>) {
  // expected-error @+1 {{block_size must be positive and col_off not negative, got 0 and 0}}
  %r = pl.tensor.paged_gather %c, %i, %t block_size 0 : !pl.tensor<64x32xf16>, !pl.tensor<8xi32>, !pl.tensor<4xi32> -> !pl.tensor<8x32xf16>
  return
}

// -----

func.func @mgather_rows(%t: !pl.tensor<64x32xf16>, %i: !pl.tile<1x16xi32, vec>) {
  // expected-error @+1 {{a row gather's result is a row of the table per index: 16x32 valid 16x32, got !pl.tile<16x16xf16, vec>}}
  %r = pl.tile.mgather %t[%i] row : !pl.tensor<64x32xf16>, !pl.tile<1x16xi32, vec> -> !pl.tile<16x16xf16, vec>
  return
}

// -----

func.func @mgather_row_indices(%t: !pl.tensor<64x32xf16>, %i: !pl.tile<2x8xi32, vec>) {
  // expected-error @+1 {{a row gather's indices are one row [1, R], got !pl.tile<2x8xi32, vec>}}
  %r = pl.tile.mgather %t[%i] row : !pl.tensor<64x32xf16>, !pl.tile<2x8xi32, vec> -> !pl.tile<16x32xf16, vec>
  return
}

// -----

func.func @mgather_elements(%t: !pl.tensor<64x32xf16>, %i: !pl.tile<2x8xi32, vec>) {
  // expected-error @+1 {{an element gather's indices have the result's shape and valid extents, got !pl.tile<2x8xi32, vec> and !pl.tile<2x16xf16, vec>}}
  %r = pl.tile.mgather %t[%i] elem : !pl.tensor<64x32xf16>, !pl.tile<2x8xi32, vec> -> !pl.tile<2x16xf16, vec>
  return
}

// -----

func.func @mgather_element_type(%t: !pl.tensor<64x32xf16>, %i: !pl.tile<2x8xi32, vec>) {
  // expected-error @+1 {{result must have the table's element type f16, got !pl.tile<2x8xf32, vec>}}
  %r = pl.tile.mgather %t[%i] elem : !pl.tensor<64x32xf16>, !pl.tile<2x8xi32, vec> -> !pl.tile<2x8xf32, vec>
  return
}


// -----

func.func @gather_compare_rank(%x: !pl.tile<2x2x16xf32, vec>, %k: f32) {
  // expected-error @+1 {{source must be 2-D, got !pl.tile<2x2x16xf32, vec>}}
  %i, %n = pl.tile.gather_compare %x, %k gt : !pl.tile<2x2x16xf32, vec>, f32 -> !pl.tile<2x4xi32, vec>, !pl.tile<1x2xi32, vec>
  return
}

// -----

func.func @gather_compare_key(%x: !pl.tile<8x16xf32, vec>, %k: f16) {
  // expected-error @+1 {{kvalue must have the source's element type f32, got f16}}
  %i, %n = pl.tile.gather_compare %x, %k gt : !pl.tile<8x16xf32, vec>, f16 -> !pl.tile<8x4xi32, vec>, !pl.tile<1x8xi32, vec>
  return
}

// -----

func.func @gather_compare_rows(%x: !pl.tile<8x16xf32, vec, valid = 5x16>, %k: f32) {
  // expected-error @+1 {{result must be 8x4 valid 5x4 (the source's rows), got !pl.tile<8x4xi32, vec>}}
  %i, %n = pl.tile.gather_compare %x, %k eq : !pl.tile<8x16xf32, vec, valid = 5x16>, f32 -> !pl.tile<8x4xi32, vec>, !pl.tile<1x8xi32, vec, valid = 1x5>
  return
}

// -----

func.func @gather_compare_counts(%x: !pl.tensor<8x16xi32>, %k: i32) {
  // expected-error @+1 {{counts must be 1x8 valid 1x8 (one per source row), got !pl.tensor<8x1xi32>}}
  %i, %n = pl.tensor.gather_compare %x, %k eq : !pl.tensor<8x16xi32>, i32 -> !pl.tensor<8x4xi32>, !pl.tensor<8x1xi32>
  return
}

// -----

func.func @gather_compare_space(%x: !pl.tile<8x16xf32, mat>, %k: f32) {
  // expected-error @+1 {{source}}
  %i, %n = pl.tile.gather_compare %x, %k eq : !pl.tile<8x16xf32, mat>, f32 -> !pl.tile<8x4xi32, vec>, !pl.tile<1x8xi32, vec>
  return
}

// -----

func.func @gather_compare_element(%x: !pl.tile<8x16xf32, vec>, %k: f32) {
  // expected-error @+1 {{result #0 must be}}
  %i, %n = pl.tile.gather_compare %x, %k eq : !pl.tile<8x16xf32, vec>, f32 -> !pl.tile<8x4xf32, vec>, !pl.tile<1x8xi32, vec>
  return
}

// -----

func.func @mscatter_element_type(%x: !pl.tile<8x16xf32, vec>, %i: !pl.tile<1x8xi32, vec>, %t: !pl.tensor<32x16xf16>) {
  // expected-error @+1 {{table must have the source's element type f32, got !pl.tensor<32x16xf16>}}
  %r = pl.tile.mscatter %x, %i into %t row : !pl.tile<8x16xf32, vec>, !pl.tile<1x8xi32, vec>, !pl.tensor<32x16xf16>
  return
}

// -----

func.func @mscatter_row_columns(%x: !pl.tile<8x16xf32, vec>, %i: !pl.tile<1x8xi32, vec>, %t: !pl.tensor<32x32xf32>) {
  // expected-error @+1 {{a row scatter writes rows of a 2-D table of the source's 16 columns, got !pl.tensor<32x32xf32>}}
  %r = pl.tile.mscatter %x, %i into %t row : !pl.tile<8x16xf32, vec>, !pl.tile<1x8xi32, vec>, !pl.tensor<32x32xf32>
  return
}

// -----

func.func @mscatter_row_indices(%x: !pl.tile<8x16xf32, vec, valid = 5x16>, %i: !pl.tile<1x8xi32, vec>, %t: !pl.tensor<32x16xf32>) {
  // expected-error @+1 {{a row scatter's indices are one per source row: 1x8 valid 1x5, got !pl.tile<1x8xi32, vec>}}
  %r = pl.tile.mscatter %x, %i into %t row : !pl.tile<8x16xf32, vec, valid = 5x16>, !pl.tile<1x8xi32, vec>, !pl.tensor<32x16xf32>
  return
}

// -----

func.func @mscatter_elements(%x: !pl.tile<8x16xf32, vec>, %i: !pl.tile<8x8xi32, vec>, %t: !pl.tensor<512xf32>) {
  // expected-error @+1 {{an element scatter's indices have the source's shape and valid extents, got !pl.tile<8x8xi32, vec> and !pl.tile<8x16xf32, vec>}}
  %r = pl.tile.mscatter %x, %i into %t elem : !pl.tile<8x16xf32, vec>, !pl.tile<8x8xi32, vec>, !pl.tensor<512xf32>
  return
}

// -----

func.func @mscatter_table_rank(%x: !pl.tile<8x16xf32, vec>, %i: !pl.tile<8x16xi32, vec>, %t: !pl.tensor<4x8x16xf32>) {
  // expected-error @+1 {{an element scatter writes a table of rank 1 or 2, got !pl.tensor<4x8x16xf32>}}
  %r = pl.tile.mscatter %x, %i into %t elem : !pl.tile<8x16xf32, vec>, !pl.tile<8x16xi32, vec>, !pl.tensor<4x8x16xf32>
  return
}

// -----

func.func @mscatter_atomic(%x: !pl.tile<8x16xui16, vec>, %i: !pl.tile<8x16xi32, vec>, %t: !pl.tensor<512xui16>) {
  // expected-error @+1 {{an atomic add: the source}}
  %r = pl.tile.mscatter %x, %i into %t elem atomic_add : !pl.tile<8x16xui16, vec>, !pl.tile<8x16xi32, vec>, !pl.tensor<512xui16>
  return
}

// -----

func.func @mscatter_space(%x: !pl.tile<8x16xf32, mat>, %i: !pl.tile<8x16xi32, vec>, %t: !pl.tensor<512xf32>) {
  // expected-error @+1 {{source}}
  %r = pl.tile.mscatter %x, %i into %t elem : !pl.tile<8x16xf32, mat>, !pl.tile<8x16xi32, vec>, !pl.tensor<512xf32>
  return
}

// -----

func.func @random_rounds(%k: i32) {
  // expected-error @+1 {{rounds must be 7 or 10, got 8}}
  %r = pl.tile.random key(%k, %k) counter(%k, %k, %k, %k) rounds 8 : !pl.tile<4x64xui32, vec>
  return
}

// -----

func.func @random_rank(%k: i32) {
  // expected-error @+1 {{result must be 2-D of static shape, got !pl.tensor<4x4x64xi32>}}
  %r = pl.tensor.random key(%k, %k) counter(%k, %k, %k, %k) : !pl.tensor<4x4x64xi32>
  return
}

// -----

func.func @random_valid(%k: i32) {
  // expected-error @+1 {{the result's valid extents must be static (they place the counters), got !pl.tile<4x64xi32, vec, valid = 4x?>}}
  %r = pl.tile.random key(%k, %k) counter(%k, %k, %k, %k) : !pl.tile<4x64xi32, vec, valid = 4x?>
  return
}

// -----

func.func @random_element(%k: i32) {
  // expected-error @+1 {{result #0 must be}}
  %r = pl.tile.random key(%k, %k) counter(%k, %k, %k, %k) : !pl.tile<4x64xf32, vec>
  return
}
