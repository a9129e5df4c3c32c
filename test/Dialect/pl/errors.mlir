// One section per pl verifier rule; the same expectations hold in pto-opt
// and in stock mlir-opt with the plugin.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

// expected-error @+1 {{pl.tile dimensions must be static and positive, got 0}}
func.func @tile_zero_dim(%t: !pl.tile<0x16xf32>) {
  return
}

// -----

// expected-error @+1 {{expected static shape}}
func.func @tile_dynamic_dim(%t: !pl.tile<?x16xf32>) {
  return
}

// -----

// expected-error @+1 {{a pl.tile lives in an on-chip buffer, not in 'ddr'}}
func.func @tile_in_ddr(%t: !pl.tile<4x16xf32, ddr>) {
  return
}

// -----

// expected-error @+1 {{unknown memory space or tile view field 'l2'}}
func.func @tile_unknown_space(%t: !pl.tile<4x16xf32, l2>) {
  return
}

// -----

// expected-error @+1 {{pl.tile element type must be an integer, index or float type, got 'complex<f32>'}}
func.func @tile_bad_element(%t: !pl.tile<4x4xcomplex<f32>>) {
  return
}

// -----

// expected-error @+1 {{pl.tile valid shape has rank 1 but the tile has rank 2}}
func.func @tile_valid_rank(%t: !pl.tile<4x16xf32, valid = 4>) {
  return
}

// -----

// expected-error @+1 {{pl.tile valid extent 17 is outside [0, 16]}}
func.func @tile_valid_too_large(%t: !pl.tile<4x16xf32, valid = 4x17>) {
  return
}

// -----

// expected-error @+1 {{pl.tile fractal must be 32, 512 or 1024 bytes, got 256}}
func.func @tile_fractal(%t: !pl.tile<4x16xf32, mat, fractal = 256>) {
  return
}

// -----

// expected-error @+1 {{expected none_box, row_major or col_major, got 'diagonal'}}
func.func @tile_bad_layout(%t: !pl.tile<4x16xf32, blayout = diagonal>) {
  return
}

// -----

// expected-error @+1 {{expected null, zero, max or min, got 'nan'}}
func.func @tile_bad_pad(%t: !pl.tile<4x16xf32, pad = nan>) {
  return
}

// -----

// expected-error @+1 {{'pad' given twice}}
func.func @tile_field_twice(%t: !pl.tile<4x16xf32, pad = zero, pad = max>) {
  return
}

// -----

// expected-error @+1 {{pl.tensor dimensions must be positive or '?', got 0}}
func.func @tensor_zero_dim(%t: !pl.tensor<0x16xf32>) {
  return
}

// -----

// expected-error @+1 {{pl.tensor element type must be an integer, index or float type}}
func.func @tensor_bad_element(%t: !pl.tensor<4xvector<4xf32>>) {
  return
}

// -----

func.func @move_illegal_pair(%l: !pl.tile<16x16xi32, left>) {
  // expected-error @+1 {{'pl.tile.move' op cannot move a tile from 'left' to 'right' on a2a3}}
  %r = pl.tile.move %l : !pl.tile<16x16xi32, left> -> !pl.tile<16x16xi32, right>
  return
}

// -----

func.func @move_vec_to_left(%v: !pl.tile<16x16xf16, vec>) {
  // expected-error @+1 {{cannot move a tile from 'vec' to 'left'}}
  %l = pl.tile.move %v : !pl.tile<16x16xf16, vec> -> !pl.tile<16x16xf16, left>
  return
}

// -----

func.func @move_needs_target_space(%m: !pl.tile<16x16xf16, mat>) {
  // expected-error @+1 {{'pl.tile.move' op result tile must have a memory space}}
  %l = pl.tile.move %m : !pl.tile<16x16xf16, mat> -> !pl.tile<16x16xf16>
  return
}

// -----

func.func @move_changes_shape(%m: !pl.tile<16x16xf16, mat>) {
  // expected-error @+1 {{result shape [16, 32] differs from source shape [16, 16]}}
  %l = pl.tile.move %m : !pl.tile<16x16xf16, mat> -> !pl.tile<16x32xf16, left>
  return
}

// -----

func.func @move_changes_dtype(%m: !pl.tile<16x16xf16, mat>) {
  // expected-error @+1 {{a move keeps the element type, got f16 to f32}}
  %l = pl.tile.move %m : !pl.tile<16x16xf16, mat> -> !pl.tile<16x16xf32, left>
  return
}

// -----

func.func @move_bias_bf16(%m: !pl.tile<1x64xbf16, mat>) {
  // expected-error @+1 {{a move into 'bias' takes i32 to i32 or f32/f16 to f32, got bf16 to f32}}
  %b = pl.tile.move %m : !pl.tile<1x64xbf16, mat> -> !pl.tile<1x64xf32, bias>
  return
}

// -----

func.func @move_bias_f16_to_f16(%m: !pl.tile<1x64xf16, mat>) {
  // expected-error @+1 {{a move into 'bias' takes i32 to i32 or f32/f16 to f32, got f16 to f16}}
  %b = pl.tile.move %m : !pl.tile<1x64xf16, mat> -> !pl.tile<1x64xf16, bias>
  return
}

// -----

func.func @add_not_in_vec(%a: !pl.tile<16x16xf32, mat>) {
  // expected-error @+1 {{'pl.tile.add' op lhs must be in 'vec' (or not yet placed), got 'mat'}}
  %c = pl.tile.add %a, %a : !pl.tile<16x16xf32, mat>, !pl.tile<16x16xf32, mat> -> !pl.tile<16x16xf32, mat>
  return
}

// -----

func.func @add_incompatible_shapes(%a: !pl.tile<16x16xf32>, %b: !pl.tile<8x16xf32>) {
  // expected-error @+1 {{requires compatible shapes, got [16, 16] and [8, 16]}}
  %c = pl.tile.add %a, %b : !pl.tile<16x16xf32>, !pl.tile<8x16xf32> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @add_wrong_result_shape(%a: !pl.tile<16x1xf32>, %b: !pl.tile<1x8xf32>) {
  // expected-error @+1 {{result shape [16, 1] must be the broadcast shape [16, 8]}}
  %c = pl.tile.add %a, %b : !pl.tile<16x1xf32>, !pl.tile<1x8xf32> -> !pl.tile<16x1xf32>
  return
}

// -----

func.func @add_wrong_promotion(%a: !pl.tile<16x16xi32>, %b: !pl.tile<16x16xf16>) {
  // expected-error @+1 {{result element type i32 must be the promotion of i32 and f16, which is f16}}
  %c = pl.tile.add %a, %b : !pl.tile<16x16xi32>, !pl.tile<16x16xf16> -> !pl.tile<16x16xi32>
  return
}

// -----

func.func @add_operand_not_a_tile(%a: !pl.tile<16x16xf32>, %b: tensor<16x16xf32>) {
  // expected-error @+1 {{'pl.tile.add' op operand #1 must be pl tile, but got 'tensor<16x16xf32>'}}
  %c = pl.tile.add %a, %b : !pl.tile<16x16xf32>, tensor<16x16xf32> -> !pl.tile<16x16xf32>
  return
}

// -----

// expected-error @+1 {{a pl.tile of 4-bit elements needs an even last dimension, got 3}}
func.func @tile_fp4_odd(%t: !pl.tile<4x3xf4E2M1FN>) {
  return
}

// -----

// expected-error @+1 {{a pl.tensor of 4-bit elements needs an even last dimension, got 5}}
func.func @tensor_hf4_odd(%t: !pl.tensor<?x5x!pl.hf4>) {
  return
}

// -----

func.func @alloc_size() {
  // expected-error @+1 {{'pl.tile.alloc' op size must be positive, got 0}}
  %a = pl.tile.alloc vec, 0 : !pl.ptr
  return
}

// -----

func.func @alloc_space() {
  // expected-error @+1 {{'pl.tile.alloc' op allocates on chip, not in 'ddr'}}
  %a = pl.tile.alloc ddr, 64 : !pl.ptr
  return
}
