// One section per rule of tile creation, transfers and views.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @load_offsets(%a: !pl.tensor<128x128xf16>, %i: index) {
  // expected-error @+1 {{'pl.tile.load' op needs one offset per tensor dimension (2), got 1}}
  %t = pl.tile.load %a[%i] : !pl.tensor<128x128xf16> -> !pl.tile<64x128xf16, vec>
  return
}

// -----

func.func @partition_rank(%a: !pl.tensor<128x128xf16>, %i: index) {
  // expected-error @+1 {{a partition has one extent per dimension of a tensor of rank 1 or rank 3 or more, got [64, 128] for rank 2}}
  %t = pl.tile.load %a[%i, %i] partition [64, 128] : !pl.tensor<128x128xf16> -> !pl.tile<64x128xf16, vec>
  return
}

// -----

func.func @partition_positive(%a: !pl.tensor<4x16x64xf32>, %i: index) {
  // expected-error @+1 {{partition extents must be positive, got [-1, -16, 64]}}
  %t = pl.tile.load %a[%i, %i, %i] partition [-1, -16, 64] : !pl.tensor<4x16x64xf32> -> !pl.tile<16x64xf32, vec>
  return
}

// -----

func.func @partition_shape(%a: !pl.tensor<4x16x64xf32>, %i: index) {
  // expected-error @+1 {{a partition [2, 16, 64] moves a 32x64 tile, got !pl.tile<16x64xf32, vec>}}
  %t = pl.tile.load %a[%i, %i, %i] partition [2, 16, 64] : !pl.tensor<4x16x64xf32> -> !pl.tile<16x64xf32, vec>
  return
}

// -----

func.func @partition_rows_valid(%a: !pl.tensor<4x16x64xf32>, %i: index, %rows: index) {
  // expected-error @+1 {{the rows of a partitioned tile must all be valid, got !pl.tile<32x64xf32, vec, valid = ?x64>}}
  %t = pl.tile.load %a[%i, %i, %i] valid(%rows) partition [2, 16, 64] : !pl.tensor<4x16x64xf32> -> !pl.tile<32x64xf32, vec, valid = ?x64>
  return
}

// -----

func.func @partition_clamp(%a: !pl.tensor<4x16x64xf32>, %i: index) {
  // expected-error @+1 {{clamp narrows a window of the tile's own shape; it does not combine with partition}}
  %t = pl.tile.load %a[%i, %i, %i] clamp partition [2, 16, 64] : !pl.tensor<4x16x64xf32> -> !pl.tile<32x64xf32, vec>
  return
}

// -----

func.func @partition_store(%t: !pl.tile<32x64xf32, vec>, %o: !pl.tensor<4x16x64xf32>, %i: index) {
  // expected-error @+1 {{'pl.tile.store' op a partition [4, 16, 64] moves a 64x64 tile, got !pl.tile<32x64xf32, vec>}}
  %r = pl.tile.store %t, %o[%i, %i, %i] partition [4, 16, 64] : !pl.tile<32x64xf32, vec>, !pl.tensor<4x16x64xf32>
  return
}

// -----

func.func @load_rank(%a: !pl.tensor<128x128xf16>, %i: index) {
  // expected-error @+1 {{the tile must have the tensor's rank (2), got !pl.tile<128xf16, vec>}}
  %t = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16> -> !pl.tile<128xf16, vec>
  return
}

// -----

func.func @load_dtype(%a: !pl.tensor<128x128xf16>, %i: index) {
  // expected-error @+1 {{the tile must have the tensor's element type f16, got f32}}
  %t = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16> -> !pl.tile<64x128xf32, vec>
  return
}

// -----

func.func @load_space(%a: !pl.tensor<128x128xf16>, %i: index) {
  // expected-error @+1 {{loads target 'vec' or 'mat', got 'left'}}
  %t = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16> -> !pl.tile<64x128xf16, left>
  return
}

// -----

func.func @load_valid_operands(%a: !pl.tensor<128x128xf16>, %i: index) {
  // expected-error @+1 {{needs one valid(...) operand per dynamic valid extent (1), got 0}}
  %t = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16> -> !pl.tile<64x128xf16, vec, valid = ?x128>
  return
}

// -----

func.func @store_space(%t: !pl.tile<64x128xf16, mat>, %o: !pl.tensor<128x128xf16>, %i: index) {
  // expected-error @+1 {{stores take a tile in 'vec' or 'acc', got 'mat'}}
  %o2 = pl.tile.store %t, %o[%i, %i] : !pl.tile<64x128xf16, mat>, !pl.tensor<128x128xf16>
  return
}

// -----

func.func @store_dtype(%t: !pl.tile<64x128xf16, vec>, %o: !pl.tensor<128x128xf32>, %i: index) {
  // expected-error @+1 {{the tile must have the tensor's element type f32, got f16}}
  %o2 = pl.tile.store %t, %o[%i, %i] : !pl.tile<64x128xf16, vec>, !pl.tensor<128x128xf32>
  return
}

// -----

func.func @acc_store_target(%t: !pl.tile<64x128xf32, acc>, %o: !pl.tensor<128x128xi8>, %i: index) {
  // expected-error @+1 {{an acc store: the destination element type must be i32, f32, f16 or bf16, got i8}}
  %o2 = pl.tile.store %t, %o[%i, %i] : !pl.tile<64x128xf32, acc>, !pl.tensor<128x128xi8>
  return
}

// -----

func.func @acc_store_widen(%t: !pl.tile<64x128xi32, acc>, %o: !pl.tensor<128x128xf32>, %i: index) {
  // expected-error @+1 {{an acc store keeps i32 or narrows f32 to f16/bf16, got f32}}
  %o2 = pl.tile.store %t, %o[%i, %i] : !pl.tile<64x128xi32, acc>, !pl.tensor<128x128xf32>
  return
}

// -----

func.func @atomic_dtype(%t: !pl.tile<64x128xi64, vec>, %o: !pl.tensor<128x128xi64>, %i: index) {
  // expected-error @+1 {{an atomic add: the tile element type must be f32, bf16, f16, i32, i16 or i8, got i64}}
  %o2 = pl.tile.store %t, %o[%i, %i] atomic_add : !pl.tile<64x128xi64, vec>, !pl.tensor<128x128xi64>
  return
}

// -----

func.func @create_scale() {
  // expected-error @+1 {{cannot create a tile in the A5-only scale space of !pl.tile<16x16xf32, left_scale>}}
  %t = pl.tile.create : !pl.tile<16x16xf32, left_scale>
  return
}

// -----

func.func @full_not_constant(%x: f32) {
  // expected-error @+1 {{'pl.tile.full' op value must be an arith.constant}}
  %t = pl.tile.full %x : f32 -> !pl.tile<16x16xf32, vec>
  return
}

// -----

func.func @full_type() {
  %x = arith.constant 1 : i32
  // expected-error @+1 {{value type i32 must be the element type f32}}
  %t = pl.tile.full %x : i32 -> !pl.tile<16x16xf32, vec>
  return
}

// -----

func.func @full_space() {
  %x = arith.constant 1.0 : f32
  // expected-error @+1 {{result must be in 'vec' (or not yet placed), got 'mat'}}
  %t = pl.tile.full %x : f32 -> !pl.tile<16x16xf32, mat>
  return
}

// -----

func.func @slice_space(%t: !pl.tile<64x128xf16, vec>, %i: index) {
  // expected-error @+1 {{a slice keeps the element type, memory space and layout of !pl.tile<64x128xf16, vec>}}
  %s = pl.tile.slice %t[%i, %i] : !pl.tile<64x128xf16, vec> -> !pl.tile<64x64xf16, mat>
  return
}

// -----

func.func @reshape_count(%t: !pl.tile<4x16xf16, vec>) {
  // expected-error @+1 {{reshape keeps the element count, element type and memory space}}
  %r = pl.tile.reshape %t : !pl.tile<4x16xf16, vec> -> !pl.tile<8x16xf16, vec>
  return
}

// -----

func.func @transpose_axes(%t: !pl.tile<16x64xf32, vec>) {
  // expected-error @+1 {{axes must be two distinct axes of a rank >= 2 tile, got 1 and 1}}
  %r = pl.tile.transpose %t axes 1, 1 : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
  return
}

// -----

func.func @transpose_result(%t: !pl.tile<16x64xf32, vec>) {
  // expected-error @+1 {{result must be !pl.tile<16x64xf32, vec> with axes 0 and 1 swapped, got !pl.tile<16x64xf32, vec>}}
  %r = pl.tile.transpose %t axes 0, 1 : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
  return
}

// -----

func.func @transpose_view_rank(%t: !pl.tile<64xf32, vec>) {
  // expected-error @+1 {{views a tile of rank 2 or more, got !pl.tile<64xf32, vec>}}
  %r = pl.tile.transpose_view %t : !pl.tile<64xf32, vec> -> !pl.tile<64xf32, vec>
  return
}

// -----

// The layouts flip with the axes: a zn result of an nz source, not nz.
func.func @transpose_view_layout(%k: !pl.tile<32x64xf16, mat>) {
  // expected-error @+1 {{result must be !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major> (the last two axes swapped, the layouts' major order flipped), got !pl.tile<64x32xf16, mat>}}
  %r = pl.tile.transpose_view %k : !pl.tile<32x64xf16, mat> -> !pl.tile<64x32xf16, mat>
  return
}

// -----

func.func @transpose_view_shape(%t: !pl.tile<16x64xf32, vec>) {
  // expected-error @+1 {{result must be !pl.tile<64x16xf32, vec, blayout = col_major> (the last two axes swapped, the layouts' major order flipped), got !pl.tile<16x64xf32, vec, blayout = col_major>}}
  %r = pl.tile.transpose_view %t : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec, blayout = col_major>
  return
}

// -----

func.func @transpose_view_space(%k: !pl.tile<32x64xf16, mat>) {
  // expected-error @+1 {{result must be !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major> (the last two axes swapped, the layouts' major order flipped), got !pl.tile<64x32xf16, right>}}
  %r = pl.tile.transpose_view %k : !pl.tile<32x64xf16, mat> -> !pl.tile<64x32xf16, right>
  return
}

// -----

// TTRANS transposes into its scratch in blocks of 16 columns.
func.func @transpose_scratch(%t: !pl.tile<8x32xf32, vec>, %tmp: !pl.tile<32x8xf32, vec>) {
  // expected-error @+1 {{tmp must be a 2-D tile of the source's element type and memory space with at least 32 rows and 16 columns, got !pl.tile<32x8xf32, vec>}}
  %r = pl.tile.transpose %t axes 0, 1, %tmp : !pl.tile<8x32xf32, vec>, !pl.tile<32x8xf32, vec> -> !pl.tile<32x8xf32, vec>
  return
}

// -----

func.func @extract_pair(%t: !pl.tile<64x64xf16, vec>, %i: index) {
  // expected-error @+1 {{cannot extract from 'vec' to 'left' (legal: mat->left, mat->right, acc->mat, vec->vec)}}
  %r = pl.tile.extract %t[%i, %i] : !pl.tile<64x64xf16, vec> -> !pl.tile<16x16xf16, left>
  return
}

// -----

func.func @extract_rank(%t: !pl.tile<4x64x64xf16, mat>, %i: index) {
  // expected-error @+1 {{source and result must be 2-D}}
  %r = pl.tile.extract %t[%i, %i] : !pl.tile<4x64x64xf16, mat> -> !pl.tile<16x16xf16, left>
  return
}

// -----

func.func @fillpad_null(%t: !pl.tile<16x64xf32, vec, valid = 16x50>) {
  // expected-error @+1 {{'pl.tile.fillpad' op pad must be zero, max or min}}
  %r = pl.tile.fillpad %t null : !pl.tile<16x64xf32, vec, valid = 16x50> -> !pl.tile<16x64xf32, vec>
  return
}

// -----

func.func @fillpad_result(%t: !pl.tile<16x64xf32, vec, valid = 16x50>) {
  // expected-error @+1 {{result must be !pl.tile<16x64xf32, vec, valid = 16x50> fully valid with pad = max, got !pl.tile<16x64xf32, vec, valid = 16x50, pad = max>}}
  %r = pl.tile.fillpad %t max : !pl.tile<16x64xf32, vec, valid = 16x50> -> !pl.tile<16x64xf32, vec, valid = 16x50, pad = max>
  return
}

// -----

func.func @read_space(%t: !pl.tile<16x64xf32, mat>, %i: index) {
  // expected-error @+1 {{'pl.tile.read' op tile must be in 'vec' (or not yet placed), got 'mat'}}
  %x = pl.tile.read %t[%i, %i] : !pl.tile<16x64xf32, mat> -> f32
  return
}

// -----

func.func @read_indices(%t: !pl.tile<16x64xf32, vec>, %i: index) {
  // expected-error @+1 {{needs one index per dimension (2), got 1}}
  %x = pl.tile.read %t[%i] : !pl.tile<16x64xf32, vec> -> f32
  return
}

// -----

func.func @write_type(%t: !pl.tile<16x64xf32, vec>, %i: index, %x: f16) {
  // expected-error @+1 {{the scalar must have the element type f32, got f16}}
  %r = pl.tile.write %t[%i, %i], %x : !pl.tile<16x64xf32, vec>, f16
  return
}

// -----

func.func @set_validshape_rank(%t: !pl.tile<4x16x64xf32, vec>, %i: index) {
  // expected-error @+1 {{source must be 2-D, got !pl.tile<4x16x64xf32, vec>}}
  %r = pl.tile.set_validshape %t, %i, %i : !pl.tile<4x16x64xf32, vec> -> !pl.tile<4x16x64xf32, vec>
  return
}

// -----

func.func @assemble_dtype(%s: !pl.tile<16x64xf16, vec>, %t: !pl.tile<16x128xf32, vec>, %i: index) {
  // expected-error @+1 {{source !pl.tile<16x64xf16, vec> and target !pl.tile<16x128xf32, vec> must have one rank and element type}}
  %r = pl.tile.assemble %s into %t[%i, %i] : !pl.tile<16x64xf16, vec>, !pl.tile<16x128xf32, vec>
  return
}

// -----

func.func @load_mat_layout(%a: !pl.tensor<128x128xf16>, %i: index) {
  // expected-error @+1 {{a load into this tile yields blayout = col_major, slayout = row_major, got !pl.tile<64x128xf16, mat, blayout = row_major>}}
  %t = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16> -> !pl.tile<64x128xf16, mat, blayout = row_major>
  return
}

// -----

func.func @load_dn_layout(%a: !pl.tensor<128x128xf16, dn>, %i: index) {
  // expected-error @+1 {{a load into this tile yields blayout = row_major, slayout = col_major, got !pl.tile<64x128xf16, mat>}}
  %t = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16, dn> -> !pl.tile<64x128xf16, mat>
  return
}

// -----

func.func @load_vec_layout(%a: !pl.tensor<128x128xf16>, %i: index) {
  // expected-error @+1 {{a load into this tile yields blayout = row_major, slayout = none_box, got !pl.tile<64x128xf16, vec, blayout = col_major>}}
  %t = pl.tile.load %a[%i, %i] : !pl.tensor<128x128xf16> -> !pl.tile<64x128xf16, vec, blayout = col_major>
  return
}

// -----

// A partition whose row count overflows is diagnosed, not an overflow.
func.func @partition_rows_overflow(%a: !pl.tensor<4x16x64xf32>, %i: index) {
  // expected-error @+1 {{a partition [9223372036854775807, 16, 64] has more rows than 64 bits count}}
  %t = pl.tile.load %a[%i, %i, %i] partition [9223372036854775807, 16, 64] : !pl.tensor<4x16x64xf32> -> !pl.tile<16x64xf32, vec>
  return
}
