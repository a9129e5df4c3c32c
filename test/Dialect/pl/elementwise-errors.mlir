// One section per rule of the elementwise tile ops, in pto-opt and in stock
// mlir-opt with the plugin.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @unary_not_in_vec(%t: !pl.tile<16x16xf32, mat>) {
  // expected-error @+1 {{'pl.tile.exp' op operand must be in 'vec' (or not yet placed), got 'mat'}}
  %r = pl.tile.exp %t : !pl.tile<16x16xf32, mat>
  return
}

// -----

func.func @unary_result_type(%t: !pl.tile<16x16xf32, vec>) {
  // expected-error @+1 {{'pl.tile.exp' op requires the same type for all operands and results}}
  %r = "pl.tile.exp"(%t) : (!pl.tile<16x16xf32, vec>) -> !pl.tile<16x16xf16, vec>
  return
}

// -----

func.func @log_dtype(%t: !pl.tile<16x16xbf16, vec>) {
  // expected-error @+1 {{'pl.tile.log' op operand #0 must be pl tile of 16-bit float or 32-bit float values, but got '!pl.tile<16x16xbf16, vec>'}}
  %r = pl.tile.log %t : !pl.tile<16x16xbf16, vec>
  return
}

// -----

func.func @sin_dtype(%t: !pl.tile<16x16xf16, vec>) {
  // expected-error @+1 {{'pl.tile.sin' op operand #0 must be pl tile of 32-bit float values, but got '!pl.tile<16x16xf16, vec>'}}
  %r = pl.tile.sin %t : !pl.tile<16x16xf16, vec>
  return
}

// -----

func.func @not_dtype(%t: !pl.tile<16x16xi32, vec>) {
  // expected-error @+1 {{'pl.tile.not' op operand #0 must be pl tile of 16-bit signless integer or 16-bit unsigned integer values, but got '!pl.tile<16x16xi32, vec>'}}
  %r = pl.tile.not %t : !pl.tile<16x16xi32, vec>
  return
}

// -----

func.func @recip_high_precision_int(%t: !pl.tile<16x16xi32, vec>) {
  // expected-error @+1 {{'high_precision' recip: the operand must have a float element type, got i32}}
  %r = pl.tile.recip %t {high_precision} : !pl.tile<16x16xi32, vec>
  return
}

// -----

func.func @binary_not_in_vec(%a: !pl.tile<16x16xf32, acc>) {
  // expected-error @+1 {{'pl.tile.mul' op lhs must be in 'vec' (or not yet placed), got 'acc'}}
  %r = pl.tile.mul %a, %a : !pl.tile<16x16xf32, acc>, !pl.tile<16x16xf32, acc> -> !pl.tile<16x16xf32, acc>
  return
}

// -----

func.func @and_of_floats(%a: !pl.tile<16x16xf32>) {
  // expected-error @+1 {{'pl.tile.and' op operand #0 must be pl tile of integer (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32, ui64 or index) values, but got '!pl.tile<16x16xf32>'}}
  %r = pl.tile.and %a, %a : !pl.tile<16x16xf32>, !pl.tile<16x16xf32> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @div_dtype(%a: !pl.tile<16x16xi8>) {
  // expected-error @+1 {{'pl.tile.div' op operand #0 must be pl tile of 16-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float values, but got '!pl.tile<16x16xi8>'}}
  %r = pl.tile.div %a, %a : !pl.tile<16x16xi8>, !pl.tile<16x16xi8> -> !pl.tile<16x16xi8>
  return
}

// -----

func.func @div_one_type(%a: !pl.tile<16x16xf32>, %b: !pl.tile<16x1xf32>) {
  // expected-error @+1 {{'pl.tile.div' op requires lhs, rhs and result of one type}}
  %r = pl.tile.div %a, %b : !pl.tile<16x16xf32>, !pl.tile<16x1xf32> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @incompatible_shapes(%a: !pl.tile<16x16xf32>, %b: !pl.tile<8x16xf32>) {
  // expected-error @+1 {{'pl.tile.sub' op requires compatible shapes, got [16, 16] and [8, 16]}}
  %c = pl.tile.sub %a, %b : !pl.tile<16x16xf32>, !pl.tile<8x16xf32> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @wrong_result_shape(%a: !pl.tile<16x1xf32>, %b: !pl.tile<1x8xf32>) {
  // expected-error @+1 {{result shape [16, 1] must be the broadcast shape [16, 8]}}
  %c = pl.tile.maximum %a, %b : !pl.tile<16x1xf32>, !pl.tile<1x8xf32> -> !pl.tile<16x1xf32>
  return
}

// -----

func.func @wrong_promotion(%a: !pl.tile<16x16xi32>, %b: !pl.tile<16x16xf16>) {
  // expected-error @+1 {{result element type i32 must be the promotion of i32 and f16, which is f16}}
  %c = pl.tile.add %a, %b : !pl.tile<16x16xi32>, !pl.tile<16x16xf16> -> !pl.tile<16x16xi32>
  return
}

// -----

func.func @shift_keeps_lhs_dtype(%a: !pl.tile<16x16xi16>, %b: !pl.tile<16x16xi32>) {
  // expected-error @+1 {{'pl.tile.shl' op result element type i32 must be the lhs element type, i16}}
  %c = pl.tile.shl %a, %b : !pl.tile<16x16xi16>, !pl.tile<16x16xi32> -> !pl.tile<16x16xi32>
  return
}

// -----

// a2a3's TREM keeps a row of quotients and a comparison mask in its tmp:
// 16 columns (stored as 16) need 16 + 64.
func.func @scratch_shape(%a: !pl.tile<16x16xi32>, %t: !pl.tile<16x16xi32>) {
  // expected-error @+1 {{'pl.tile.rem' op tmp must be a tile of the result's element type and rank with at least 80 columns (a row of quotients and a comparison mask for 16 columns), got !pl.tile<16x16xi32>}}
  %c = pl.tile.rem %a, %a, %t : !pl.tile<16x16xi32>, !pl.tile<16x16xi32>, !pl.tile<16x16xi32> -> !pl.tile<16x16xi32>
  return
}

// -----

// The instructions write their scratch: a source cannot be it.
func.func @scratch_is_a_source(%a: !pl.tile<16x16xi32>, %b: !pl.tile<16x16xi32>) {
  // expected-error @+1 {{'pl.tile.xor' op tmp must be a tile of its own, not another operand: the instruction writes its scratch on a2a3}}
  %c = pl.tile.xor %a, %b, %b : !pl.tile<16x16xi32>, !pl.tile<16x16xi32>, !pl.tile<16x16xi32> -> !pl.tile<16x16xi32>
  return
}

// -----

func.func @scalar_not_in_vec(%a: !pl.tile<16x16xf32, mat>, %s: f32) {
  // expected-error @+1 {{'pl.tile.adds' op tile must be in 'vec' (or not yet placed), got 'mat'}}
  %c = pl.tile.adds %a, %s : !pl.tile<16x16xf32, mat>, f32
  return
}

// -----

func.func @scalar_index(%a: !pl.tile<16x16xi32>, %s: index) {
  // expected-error @+1 {{'pl.tile.muls' op scalar must not be index; cast it to i32}}
  %c = pl.tile.muls %a, %s : !pl.tile<16x16xi32>, index
  return
}

// -----

func.func @scalar_bitwise_float(%a: !pl.tile<16x16xi32>, %s: f32) {
  // expected-error @+1 {{'pl.tile.ands' op operand #1 must be integer scalar (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32 or ui64), but got 'f32'}}
  %c = pl.tile.ands %a, %s : !pl.tile<16x16xi32>, f32
  return
}

// -----

func.func @subs_dtype(%a: !pl.tile<16x16xi64>, %s: i64) {
  // expected-error @+1 {{'pl.tile.subs' op operand #0 must be pl tile of 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or bfloat16 type values, but got '!pl.tile<16x16xi64>'}}
  %c = pl.tile.subs %a, %s : !pl.tile<16x16xi64>, i64
  return
}

// -----

func.func @lrelu_int(%a: !pl.tile<16x16xi32>, %s: i32) {
  // expected-error @+1 {{'pl.tile.lrelu' op operand #0 must be pl tile of float (f16, bf16, f32, f8E4M3FN, f8E5M2, f8E8M0FNU, f4E2M1FN, !pl.hf8 or !pl.hf4) values, but got '!pl.tile<16x16xi32>'}}
  %c = pl.tile.lrelu %a, %s : !pl.tile<16x16xi32>, i32
  return
}

// -----

func.func @cmp_operands(%a: !pl.tile<16x64xf32>, %b: !pl.tile<16x64xf16>) {
  // expected-error @+1 {{'pl.tile.cmp' op requires lhs and rhs of one shape and element type}}
  %m = pl.tile.cmp %a, %b eq : !pl.tile<16x64xf32>, !pl.tile<16x64xf16> -> !pl.tile<16x32xui8, valid = 16x8>
  return
}

// -----

func.func @cmp_mask_shape(%a: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{'pl.tile.cmp' op result must be a ui8 mask of shape 16x32 with valid 16x8 for !pl.tile<16x64xf32>, got !pl.tile<16x8xui8>}}
  %m = pl.tile.cmp %a, %a eq : !pl.tile<16x64xf32>, !pl.tile<16x64xf32> -> !pl.tile<16x8xui8>
  return
}

// -----

func.func @cmps_index(%a: !pl.tile<16x64xi32>, %s: index) {
  // expected-error @+1 {{'pl.tile.cmps' op scalar must not be index; cast it to i32}}
  %m = pl.tile.cmps %a, %s ne : !pl.tile<16x64xi32>, index -> !pl.tile<16x32xui8, valid = 16x8>
  return
}

// -----

func.func @cmp_unknown_mode(%a: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'cmp' [eq, ne, lt, le, gt, ge]}}
  %m = pl.tile.cmp %a, %a less : !pl.tile<16x64xf32>, !pl.tile<16x64xf32> -> !pl.tile<16x32xui8, valid = 16x8>
  return
}

// -----

func.func @sel_mask(%m: !pl.tile<16x32xi8>, %a: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{'pl.tile.sel' op mask must be a ui8 mask of shape 16x32 with valid 16x8}}
  %r = pl.tile.sel %m, %a, %a, %a : !pl.tile<16x32xi8>, !pl.tile<16x64xf32>
  return
}

// -----

func.func @cast_to_itself(%a: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{'pl.tile.cast' op casts f32 to itself}}
  %r = pl.tile.cast %a round : !pl.tile<16x64xf32> -> !pl.tile<16x64xf32>
  return
}

// -----

func.func @cast_shape(%a: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{'pl.tile.cast' op result !pl.tile<16x64xf16, valid = 8x64> must keep the shape and valid shape of !pl.tile<16x64xf32>}}
  %r = pl.tile.cast %a round : !pl.tile<16x64xf32> -> !pl.tile<16x64xf16, valid = 8x64>
  return
}

// -----

func.func @cast_layout(%a: !pl.tile<16x64xf32, vec>) {
  // expected-error @+1 {{'pl.tile.cast' op result !pl.tile<16x64xf16, vec, blayout = col_major> must keep the layout of !pl.tile<16x64xf32, vec>}}
  %r = pl.tile.cast %a round : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf16, vec, blayout = col_major>
  return
}

// -----

func.func @cast_round_mode_range(%a: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{invalid properties {mode = 9 : i32} for op pl.tile.cast}}
  %r = "pl.tile.cast"(%a) <{mode = 9 : i32}> : (!pl.tile<16x64xf32>) -> !pl.tile<16x64xf16>
  return
}

// -----

func.func @xors_float(%a: !pl.tile<16x16xf32>, %s: f32) {
  // expected-error @+1 {{'pl.tile.xors' op operand #0 must be pl tile of integer (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32, ui64 or index) values, but got '!pl.tile<16x16xf32>'}}
  %c = pl.tile.xors %a, %s, %a : !pl.tile<16x16xf32>, f32
  return
}

// -----

func.func @sels_scalar(%m: !pl.tile<16x32xui8, valid = 16x8>, %a: !pl.tile<16x64xf32>, %s: f16, %tmp: !pl.tile<16x64xf32>) {
  // expected-error @+1 {{'pl.tile.sels' op scalar must have the element type f32, got f16}}
  %r = pl.tile.sels %m, %a, %s, %tmp : !pl.tile<16x32xui8, valid = 16x8>, !pl.tile<16x64xf32>, f16
  return
}

// -----

func.func @prelu_shapes(%a: !pl.tile<16x16xf32>, %b: !pl.tile<8x16xf32>) {
  // expected-error @+1 {{'pl.tile.prelu' op requires compatible shapes, got [16, 16] and [8, 16]}}
  %c = pl.tile.prelu %a, %b : !pl.tile<16x16xf32>, !pl.tile<8x16xf32> -> !pl.tile<16x16xf32>
  return
}

// -----

// TPRELU's scratch holds the packed sign mask and one more row.
func.func @prelu_scratch_rows(%a: !pl.tile<16x64xf32>, %tmp: !pl.tile<16x32xui8>) {
  // expected-error @+1 {{'pl.tile.prelu' op tmp must be a 2-D ui8 tile of more than 16 rows and at least 32 columns, got !pl.tile<16x32xui8>}}
  %c = pl.tile.prelu %a, %a, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x64xf32>, !pl.tile<16x32xui8> -> !pl.tile<16x64xf32>
  return
}

// -----

func.func @prelu_scratch_type(%a: !pl.tile<16x64xf32>, %tmp: !pl.tile<17x32xf32>) {
  // expected-error @+1 {{'pl.tile.prelu' op tmp must be a 2-D ui8 tile of more than 16 rows and at least 32 columns, got !pl.tile<17x32xf32>}}
  %c = pl.tile.prelu %a, %a, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x64xf32>, !pl.tile<17x32xf32> -> !pl.tile<16x64xf32>
  return
}

// -----

func.func @prelu_scratch_rank(%a: !pl.tile<2x8x64xf32>, %tmp: !pl.tile<17x32xui8>) {
  // expected-error @+1 {{'pl.tile.prelu' op a tmp is given to a 2-D prelu (pl-flatten-tile-nd-to-2d adds one after flattening), got the result !pl.tile<2x8x64xf32>}}
  %c = pl.tile.prelu %a, %a, %tmp : !pl.tile<2x8x64xf32>, !pl.tile<2x8x64xf32>, !pl.tile<17x32xui8> -> !pl.tile<2x8x64xf32>
  return
}

// -----

// The element-type constraints (dialects/td/PLConstraints.td) hold for
// results and every operand, and pl's integers are signless or unsigned.

func.func @bitwise_float_result(%a: !pl.tile<16x16xi32>) {
  // expected-error @+1 {{'pl.tile.or' op result #0 must be pl tile of integer (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32, ui64 or index) values, but got '!pl.tile<16x16xf32>'}}
  %r = "pl.tile.or"(%a, %a) : (!pl.tile<16x16xi32>, !pl.tile<16x16xi32>) -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @bitwise_signed(%a: !pl.tile<16x16xsi8>) {
  // expected-error @+1 {{'pl.tile.shl' op operand #0 must be pl tile of integer (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32, ui64 or index) values, but got '!pl.tile<16x16xsi8>'}}
  %r = pl.tile.shl %a, %a : !pl.tile<16x16xsi8>, !pl.tile<16x16xsi8> -> !pl.tile<16x16xsi8>
  return
}

// -----

func.func @div_rhs_dtype(%a: !pl.tile<16x16xf32>, %b: !pl.tile<16x16xi8>) {
  // expected-error @+1 {{'pl.tile.div' op operand #1 must be pl tile of 16-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float values, but got '!pl.tile<16x16xi8>'}}
  %r = pl.tile.div %a, %b : !pl.tile<16x16xf32>, !pl.tile<16x16xi8> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @scalar_bitwise_index(%a: !pl.tile<16x16xi32>, %s: index) {
  // expected-error @+1 {{'pl.tile.shrs' op operand #1 must be integer scalar (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32 or ui64), but got 'index'}}
  %c = pl.tile.shrs %a, %s : !pl.tile<16x16xi32>, index
  return
}

// -----

func.func @subs_scalar_dtype(%a: !pl.tile<16x16xi32>, %s: i64) {
  // expected-error @+1 {{'pl.tile.subs' op operand #1 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or bfloat16 type, but got 'i64'}}
  %c = pl.tile.subs %a, %s : !pl.tile<16x16xi32>, i64
  return
}

// -----

func.func @cos_dtype(%t: !pl.tile<16x16xbf16, vec>) {
  // expected-error @+1 {{'pl.tile.cos' op operand #0 must be pl tile of 32-bit float values, but got '!pl.tile<16x16xbf16, vec>'}}
  %r = pl.tile.cos %t : !pl.tile<16x16xbf16, vec>
  return
}
