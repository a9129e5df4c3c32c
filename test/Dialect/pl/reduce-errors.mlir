// One section per rule of the reductions and broadcasts.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @rank(%t: !pl.tile<64xf32>, %tmp: !pl.tile<64xf32>) {
  // expected-error @+1 {{'pl.tile.row_sum' op source must have rank 2 or more, got !pl.tile<64xf32>}}
  %r = pl.tile.row_sum %t, %tmp : !pl.tile<64xf32>, !pl.tile<64xf32> -> !pl.tile<1xf32>
  return
}

// -----

func.func @not_vec(%t: !pl.tile<16x64xf32, mat>, %tmp: !pl.tile<16x64xf32, mat>) {
  // expected-error @+1 {{source must be in 'vec' (or not yet placed), got 'mat'}}
  %r = pl.tile.row_max %t, %tmp : !pl.tile<16x64xf32, mat>, !pl.tile<16x64xf32, mat> -> !pl.tile<16x1xf32, mat>
  return
}

// -----

func.func @empty(%t: !pl.tile<16x64xf32, valid = 0x64>, %tmp: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{source !pl.tile<16x64xf32, valid = 0x64> has an empty valid region}}
  %r = pl.tile.row_sum %t, %tmp : !pl.tile<16x64xf32, valid = 0x64>, !pl.tile<16x64xf32> -> !pl.tile<16x1xf32, valid = 0x1>
  return
}

// -----

func.func @row_min_layout(%t: !pl.tile<16x64xf32, blayout = col_major>, %tmp: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{'pl.tile.row_min' op source must be row_major without inner boxes}}
  %r = pl.tile.row_min %t, %tmp : !pl.tile<16x64xf32, blayout = col_major>, !pl.tile<16x64xf32> -> !pl.tile<16x1xf32>
  return
}

// -----

func.func @tmp_too_small(%t: !pl.tile<16x64xf32>, %tmp: !pl.tile<16x32xf32>) {
  // expected-error @+1 {{tmp must have the source's rank and element type and dimensions at least the source's, got !pl.tile<16x32xf32>}}
  %r = pl.tile.row_sum %t, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x32xf32> -> !pl.tile<16x1xf32>
  return
}

// -----

func.func @argmax_tmp_exact(%t: !pl.tile<16x64xf32>, %tmp: !pl.tile<16x128xf32>) {
  // expected-error @+1 {{tmp must have the source's rank and element type and dimensions equal to the source's}}
  %r = pl.tile.row_argmax %t, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x128xf32> -> !pl.tile<16x1xi32>
  return
}

// -----

func.func @col_argmax_needs_tmp(%t: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{'pl.tile.col_argmax' op requires a tmp tile}}
  %r = pl.tile.col_argmax %t : !pl.tile<16x64xf32> -> !pl.tile<1x64xi32>
  return
}

// -----

func.func @result_shape(%t: !pl.tile<16x64xf32>, %tmp: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{result must be 16x1xf32, got !pl.tile<1x64xf32>}}
  %r = pl.tile.row_sum %t, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @argmax_dtype(%t: !pl.tile<16x64xf32>, %tmp: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{result must be 1x64xi32, got !pl.tile<1x64xf32>}}
  %r = pl.tile.col_argmin %t, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

// TCOLARGMIN writes its tmp on a2a3: the source cannot be its own scratch.
func.func @argmin_scratch_is_the_source(%t: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{'pl.tile.col_argmin' op tmp must be a tile of its own, not another operand: the instruction writes its scratch on a2a3}}
  %r = pl.tile.col_argmin %t, %t : !pl.tile<16x64xf32>, !pl.tile<16x64xf32> -> !pl.tile<1x64xi32>
  return
}

// -----

// A one-row f32 source: the index counter and running minimum of 64
// columns need 128 elements.
func.func @argmin_scratch_too_small(%t: !pl.tile<1x64xf32>, %tmp: !pl.tile<1x64xf32>) {
  // expected-error @+1 {{'pl.tile.col_argmin' op tmp must hold at least 128 elements (a2a3's column arg-reduction keeps its index and running values there for 64 valid columns), got !pl.tile<1x64xf32>}}
  %r = pl.tile.col_argmin %t, %tmp : !pl.tile<1x64xf32>, !pl.tile<1x64xf32> -> !pl.tile<1x64xi32>
  return
}

// -----

func.func @result_valid(%t: !pl.tile<16x64xf32, valid = 8x64>, %tmp: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{result valid shape must follow the source's, got !pl.tile<16x1xf32>}}
  %r = pl.tile.row_sum %t, %tmp : !pl.tile<16x64xf32, valid = 8x64>, !pl.tile<16x64xf32> -> !pl.tile<16x1xf32>
  return
}

// -----

func.func @result_layout(%t: !pl.tile<2x64xf32>, %tmp: !pl.tile<2x64xf32>) {
  // expected-error @+1 {{result must have col_major blocks, got !pl.tile<2x1xf32, blayout = row_major>}}
  %r = pl.tile.row_sum %t, %tmp : !pl.tile<2x64xf32>, !pl.tile<2x64xf32> -> !pl.tile<2x1xf32, blayout = row_major>
  return
}

// -----

func.func @expand_vector_shape(%t: !pl.tile<16x64xf32>, %v: !pl.tile<8x1xf32>) {
  // expected-error @+1 {{'pl.tile.row_expand_add' op vector must be a [..., rows, 1] column matching the tile, got !pl.tile<8x1xf32>}}
  %r = pl.tile.row_expand_add %t, %v : !pl.tile<16x64xf32>, !pl.tile<8x1xf32> -> !pl.tile<16x64xf32>
  return
}

// -----

func.func @col_expand_vector_shape(%t: !pl.tile<16x64xf32>, %v: !pl.tile<16x1xf32>) {
  // expected-error @+1 {{'pl.tile.col_expand' op vector must be a [..., 1, cols] row matching the tile, got !pl.tile<16x1xf32>}}
  %r = pl.tile.col_expand %t, %v : !pl.tile<16x64xf32>, !pl.tile<16x1xf32> -> !pl.tile<16x64xf32>
  return
}

// -----

func.func @expand_result(%t: !pl.tile<16x64xf16>, %v: !pl.tile<16x1xf32>) {
  // expected-error @+1 {{result must have the tile's shape, valid shape and layout and element type f32, got !pl.tile<16x64xf16>}}
  %r = pl.tile.row_expand_mul %t, %v : !pl.tile<16x64xf16>, !pl.tile<16x1xf32> -> !pl.tile<16x64xf16>
  return
}

// -----

func.func @expand_rank(%t: !pl.tile<64xf32>, %v: !pl.tile<1xf32>) {
  // expected-error @+1 {{tile and vector must have one rank of 2 or more}}
  %r = pl.tile.row_expand %t, %v : !pl.tile<64xf32>, !pl.tile<1xf32> -> !pl.tile<64xf32>
  return
}
