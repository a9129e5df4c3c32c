// One section per rule of partial and carrying arithmetic, joins, masks
// and fills.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @partial_shape(%a: !pl.tile<16x32xf32>, %b: !pl.tile<16x16xf32>) {
  // expected-error @+1 {{rhs must have lhs's shape and element type, got !pl.tile<16x32xf32> and !pl.tile<16x16xf32>}}
  %r = pl.tile.part_add %a, %b : !pl.tile<16x32xf32>, !pl.tile<16x16xf32>
  return
}

// -----

func.func @partial_inside(%a: !pl.tile<16x32xf32, vec, valid = 8x32>, %b: !pl.tile<16x32xf32, vec>) {
  // expected-error @+1 {{rhs's valid region must lie inside lhs's: extent 16 of !pl.tile<16x32xf32, vec> exceeds 8 of !pl.tile<16x32xf32, vec, valid = 8x32>}}
  %r = pl.tile.part_max %a, %b : !pl.tile<16x32xf32, vec, valid = 8x32>, !pl.tile<16x32xf32, vec>
  return
}

// -----

func.func @partial_element(%a: !pl.tile<16x32xi8>, %b: !pl.tile<16x32xi8>) {
  // expected-error @+1 {{operand #0 must be pl tile of 16-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float values}}
  %r = pl.tile.part_mul %a, %b : !pl.tile<16x32xi8>, !pl.tile<16x32xi8>
  return
}

// -----

func.func @partial_space(%a: !pl.tile<16x32xf32, mat>, %b: !pl.tile<16x32xf32, mat>) {
  // expected-error @+1 {{lhs must be in 'vec' (or not yet placed), got 'mat'}}
  %r = pl.tile.part_min %a, %b : !pl.tile<16x32xf32, mat>, !pl.tile<16x32xf32, mat>
  return
}

// -----

func.func @carry_tile(%a: !pl.tile<16x32xf32>, %b: !pl.tile<16x16xf32>) {
  // expected-error @+1 {{rhs must have lhs's type !pl.tile<16x32xf32>, got !pl.tile<16x16xf32>}}
  %r = pl.tile.addc %a, %b, %a : !pl.tile<16x32xf32>, !pl.tile<16x16xf32>
  return
}

// -----

func.func @carry_scalar(%a: !pl.tile<16x32xf32>, %s: f16) {
  // expected-error @+1 {{the scalar must have the element type f32, got f16}}
  %r = pl.tile.subsc %a, %s, %a : !pl.tile<16x32xf32>, f16
  return
}

// -----

func.func @concat_rows(%a: !pl.tile<16x32xf32>, %b: !pl.tile<8x32xf32>) {
  // expected-error @+1 {{joins 2-D tiles of one element type and number of rows, got !pl.tile<16x32xf32> and !pl.tile<8x32xf32>}}
  %r = pl.tile.concat %a, %b : !pl.tile<16x32xf32>, !pl.tile<8x32xf32> -> !pl.tile<16x64xf32>
  return
}

// -----

func.func @concat_valid(%a: !pl.tile<16x32xf32, vec, valid = 16x?>, %b: !pl.tile<16x32xf32, vec>) {
  // expected-error @+1 {{joins tiles whose columns are wholly valid and whose valid rows are one count}}
  %r = pl.tile.concat %a, %b : !pl.tile<16x32xf32, vec, valid = 16x?>, !pl.tile<16x32xf32, vec> -> !pl.tile<16x64xf32, vec>
  return
}

// -----

func.func @concat_result(%a: !pl.tile<16x32xf32>, %b: !pl.tile<16x32xf32>) {
  // expected-error @+1 {{result must be 16x64 with valid 16x64 (!pl.tile<16x32xf32>'s rows, the columns of both), got !pl.tile<16x32xf32>}}
  %r = pl.tile.concat %a, %b : !pl.tile<16x32xf32>, !pl.tile<16x32xf32> -> !pl.tile<16x32xf32>
  return
}

// -----

func.func @tri_rank(%d: i32) {
  // expected-error @+1 {{makes a 2-D mask, got 2x4x8}}
  %r = pl.tile.tri %d : i32 -> !pl.tile<2x4x8xf32>
  return
}

// -----

func.func @tri_element(%d: i32) {
  // expected-error @+1 {{result #0 must be pl tile of}}
  %r = pl.tile.tri %d : i32 -> !pl.tile<8x8xi64>
  return
}

// -----

func.func @fillpad_inplace_null(%a: !pl.tile<16x32xf32, vec, valid = 8x32>) {
  // expected-error @+1 {{pad must be zero, max or min}}
  %r = pl.tile.fillpad_inplace %a null : !pl.tile<16x32xf32, vec, valid = 8x32> -> !pl.tile<16x32xf32, vec>
  return
}

// -----

func.func @fillpad_expand_smaller(%a: !pl.tile<16x32xf32, vec>) {
  // expected-error @+1 {{result must be at least !pl.tile<16x32xf32, vec>'s size in every dimension, of its element type and space, fully valid with pad = zero, got !pl.tile<8x64xf32, vec, pad = zero>}}
  %r = pl.tile.fillpad_expand %a zero : !pl.tile<16x32xf32, vec> -> !pl.tile<8x64xf32, vec, pad = zero>
  return
}

// -----

func.func @fillpad_expand_pad(%a: !pl.tile<16x32xf32, vec>) {
  // expected-error @+1 {{fully valid with pad = max, got !pl.tile<32x32xf32, vec, pad = min>}}
  %r = pl.tile.fillpad_expand %a max : !pl.tile<16x32xf32, vec> -> !pl.tile<32x32xf32, vec, pad = min>
  return
}
