// One section per rule of the matmul family.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @lhs_space(%a: !pl.tile<16x16xf16, vec>, %b: !pl.tile<16x16xf16, right>) {
  // expected-error @+1 {{'pl.tile.matmul' op lhs must be in 'mat' or 'left' (or not yet placed), got 'vec'}}
  %c = pl.tile.matmul %a, %b : !pl.tile<16x16xf16, vec>, !pl.tile<16x16xf16, right> -> !pl.tile<16x16xf32, acc>
  return
}

// -----

func.func @rhs_space(%a: !pl.tile<16x16xf16, left>, %b: !pl.tile<16x16xf16, left>) {
  // expected-error @+1 {{rhs must be in 'mat' or 'right' (or not yet placed), got 'left'}}
  %c = pl.tile.matmul %a, %b : !pl.tile<16x16xf16, left>, !pl.tile<16x16xf16, left> -> !pl.tile<16x16xf32, acc>
  return
}

// -----

func.func @result_space(%a: !pl.tile<16x16xf16, left>, %b: !pl.tile<16x16xf16, right>) {
  // expected-error @+1 {{result must be in 'acc' (or not yet placed), got 'vec'}}
  %c = pl.tile.matmul %a, %b : !pl.tile<16x16xf16, left>, !pl.tile<16x16xf16, right> -> !pl.tile<16x16xf32, vec>
  return
}

// -----

func.func @rank(%a: !pl.tile<16xf16>, %b: !pl.tile<16x16xf16>) {
  // expected-error @+1 {{operands must have rank 2}}
  %c = pl.tile.matmul %a, %b : !pl.tile<16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @k_mismatch(%a: !pl.tile<16x32xf16>, %b: !pl.tile<16x16xf16>) {
  // expected-error @+1 {{lhs K (32) must equal rhs K (16)}}
  %c = pl.tile.matmul %a, %b : !pl.tile<16x32xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @dtype_mismatch(%a: !pl.tile<16x16xf16>, %b: !pl.tile<16x16xbf16>) {
  // expected-error @+1 {{lhs and rhs must have one element type, got f16 and bf16}}
  %c = pl.tile.matmul %a, %b : !pl.tile<16x16xf16>, !pl.tile<16x16xbf16> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @product_dtype(%a: !pl.tile<16x16xi8>) {
  // expected-error @+1 {{result must be 16x16xi32 (the product), got !pl.tile<16x16xf32>}}
  %c = pl.tile.matmul %a, %a : !pl.tile<16x16xi8>, !pl.tile<16x16xi8> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @product_shape(%a: !pl.tile<16x32xf16>, %b: !pl.tile<32x8xf16>) {
  // expected-error @+1 {{result must be 16x8xf32 (the product), got !pl.tile<16x16xf32>}}
  %c = pl.tile.matmul %a, %b : !pl.tile<16x32xf16>, !pl.tile<32x8xf16> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @valid_k(%a: !pl.tile<16x32xf16, valid = 16x32>, %b: !pl.tile<32x8xf16, valid = 20x8>) {
  // expected-error @+1 {{rhs valid K (20) must cover lhs valid K (32)}}
  %c = pl.tile.matmul %a, %b : !pl.tile<16x32xf16, valid = 16x32>, !pl.tile<32x8xf16, valid = 20x8> -> !pl.tile<16x8xf32>
  return
}

// -----

func.func @product_valid(%a: !pl.tile<16x32xf16, valid = 10x32>, %b: !pl.tile<32x8xf16>) {
  // expected-error @+1 {{result valid extents must be 10x8, got 16x8}}
  %c = pl.tile.matmul %a, %b : !pl.tile<16x32xf16, valid = 10x32>, !pl.tile<32x8xf16> -> !pl.tile<16x8xf32>
  return
}

// -----

func.func @acc_covers(%c: !pl.tile<16x8xf32, acc, valid = 4x8>, %a: !pl.tile<16x32xf16>, %b: !pl.tile<32x8xf16>) {
  // expected-error @+1 {{acc valid extents must cover 16x8, got 4x8}}
  %d = pl.tile.matmul_acc %c, %a, %b : !pl.tile<16x8xf32, acc, valid = 4x8>, !pl.tile<16x32xf16>, !pl.tile<32x8xf16>
  return
}

// -----

func.func @acc_type(%c: !pl.tile<16x8xf16, acc>, %a: !pl.tile<16x32xf16>, %b: !pl.tile<32x8xf16>) {
  // expected-error @+1 {{acc must be 16x8xf32 (the product), got !pl.tile<16x8xf16, acc>}}
  %d = pl.tile.matmul_acc %c, %a, %b : !pl.tile<16x8xf16, acc>, !pl.tile<16x32xf16>, !pl.tile<32x8xf16>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @init_not_bool(%c: !pl.tile<16x8xf32, acc>, %a: !pl.tile<16x32xf16>, %b: !pl.tile<32x8xf16>, %x: i32) {
  // expected-error @+1 {{use of value '%x' expects different type than prior uses: 'i1' vs 'i32'}}
  %d = pl.tile.matmul_acc %c, %a, %b init %x : !pl.tile<16x8xf32, acc>, !pl.tile<16x32xf16>, !pl.tile<32x8xf16>
  return
}

// -----

func.func @bias_row(%a: !pl.tile<16x32xf16>, %b: !pl.tile<32x8xf16>, %bias: !pl.tile<2x8xf32, bias>) {
  // expected-error @+1 {{bias must be 1x8xf32 (a row of the product), got !pl.tile<2x8xf32, bias>}}
  %c = pl.tile.matmul_bias %a, %b, %bias : !pl.tile<16x32xf16>, !pl.tile<32x8xf16>, !pl.tile<2x8xf32, bias> -> !pl.tile<16x8xf32>
  return
}

// -----

func.func @bias_space(%a: !pl.tile<16x32xf16>, %b: !pl.tile<32x8xf16>, %bias: !pl.tile<1x8xf32, vec>) {
  // expected-error @+1 {{bias must be in 'mat' or 'bias' (or not yet placed), got 'vec'}}
  %c = pl.tile.matmul_bias %a, %b, %bias : !pl.tile<16x32xf16>, !pl.tile<32x8xf16>, !pl.tile<1x8xf32, vec> -> !pl.tile<16x8xf32>
  return
}

// -----

func.func @gemv_row(%a: !pl.tile<2x32xf16>, %b: !pl.tile<32x8xf16>) {
  // expected-error @+1 {{'pl.tile.gemv' op lhs must be a 1xK row, got 2 rows}}
  %c = pl.tile.gemv %a, %b unspecified : !pl.tile<2x32xf16>, !pl.tile<32x8xf16> -> !pl.tile<2x8xf32>
  return
}

// -----

func.func @gemv_dtype(%a: !pl.tile<1x32xi16>, %b: !pl.tile<32x8xi16>) {
  // expected-error @+1 {{'pl.tile.gemv' op operand #0 must be pl tile of 8-bit signless integer or 16-bit float or bfloat16 type or 32-bit float values, but got '!pl.tile<1x32xi16>'}}
  %c = pl.tile.gemv %a, %b unspecified : !pl.tile<1x32xi16>, !pl.tile<32x8xi16> -> !pl.tile<1x8xi32>
  return
}

// -----

func.func @gemv_phase(%a: !pl.tile<1x32xf16>, %b: !pl.tile<32x8xf16>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'phase' [unspecified, partial, final]}}
  %c = pl.tile.gemv %a, %b first : !pl.tile<1x32xf16>, !pl.tile<32x8xf16> -> !pl.tile<1x8xf32>
  return
}

// -----

func.func @batch_broadcast(%a: !pl.tile<4x16x32xf16>, %b: !pl.tile<3x32x16xf16>) {
  // expected-error @+1 {{batch dimensions of !pl.tile<4x16x32xf16> and !pl.tile<3x32x16xf16> do not broadcast}}
  %c = pl.tile.batch_matmul %a, %b : !pl.tile<4x16x32xf16>, !pl.tile<3x32x16xf16> -> !pl.tile<4x16x16xf32>
  return
}

// -----

func.func @batch_rank(%a: !pl.tile<16xf16>, %b: !pl.tile<3x16x16xf16>) {
  // expected-error @+1 {{operands must have rank 2 or more}}
  %c = pl.tile.batch_matmul %a, %b : !pl.tile<16xf16>, !pl.tile<3x16x16xf16> -> !pl.tile<3x1x16xf32>
  return
}

// -----

func.func @gemv_acc_rhs_dtype(%c: !pl.tile<1x8xf32>, %a: !pl.tile<1x32xf16>, %b: !pl.tile<32x8xf64>) {
  // expected-error @+1 {{'pl.tile.gemv_acc' op operand #2 must be pl tile of 8-bit signless integer or 16-bit float or bfloat16 type or 32-bit float values, but got '!pl.tile<32x8xf64>'}}
  %r = pl.tile.gemv_acc %c, %a, %b unspecified : !pl.tile<1x8xf32>, !pl.tile<1x32xf16>, !pl.tile<32x8xf64>
  return
}
