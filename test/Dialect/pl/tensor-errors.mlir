// One section per rule of tensor types and tensor-level ops.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

// expected-error @+1 {{the nz layout is tile-only; a pl.tensor is nd or dn}}
func.func @nz(%t: !pl.tensor<16x16xf16, nz>) {
  return
}

// -----

// expected-error @+1 {{a dn pl.tensor needs rank 2 or more}}
func.func @dn_rank(%t: !pl.tensor<16xf16, dn>) {
  return
}

// -----

// expected-error @+1 {{pl.tensor has 1 strides for rank 2}}
func.func @strides_rank(%t: !pl.tensor<16x16xf16, strides = [1]>) {
  return
}

// -----

// expected-error @+1 {{pl.tensor strides must be positive or '?', got 0}}
func.func @strides_zero(%t: !pl.tensor<16x16xf16, strides = [0, 1]>) {
  return
}

// -----

// expected-error @+1 {{pl.tensor valid extent 17 is outside [0, 16]}}
func.func @valid_range(%t: !pl.tensor<16x16xf16, valid = 17x16>) {
  return
}

// -----

// expected-error @+1 {{unknown tensor layout or view field 'blayout'}}
func.func @unknown_field(%t: !pl.tensor<16x16xf16, blayout = row_major>) {
  return
}

// -----

func.func @create_sizes(%m: index) {
  // expected-error @+1 {{'pl.tensor.create' op needs one size operand per dynamic dimension (2), got 1}}
  %t = pl.tensor.create(%m) : !pl.tensor<?x?xf32>
  return
}

// -----

func.func @full_type(%x: f16) {
  // expected-error @+1 {{value type f16 must be the element type f32}}
  %t = pl.tensor.full %x() : f16 -> !pl.tensor<4xf32>
  return
}

// -----

func.func @dim_axis(%t: !pl.tensor<?x64xf32>) {
  // expected-error @+1 {{'pl.tensor.dim' op axis 2 is out of range for rank 2}}
  %d = pl.tensor.dim %t, 2 : !pl.tensor<?x64xf32>
  return
}

// -----

func.func @view_count(%t: !pl.tensor<128x64xf16>) {
  // expected-error @+1 {{'pl.tensor.view' op keeps the element count, got 8192 to 4096}}
  %v = pl.tensor.view %t : !pl.tensor<128x64xf16> -> !pl.tensor<64x64xf16>
  return
}

// -----

func.func @reshape_type(%t: !pl.tensor<128x64xf16>) {
  // expected-error @+1 {{'pl.tensor.reshape' op keeps the element type, got f16 to f32}}
  %v = pl.tensor.reshape %t : !pl.tensor<128x64xf16> -> !pl.tensor<8192xf32>
  return
}

// -----

func.func @slice_offsets(%t: !pl.tensor<?x64xf32>, %i: index) {
  // expected-error @+1 {{needs the source's rank (2) of offsets and result dimensions}}
  %s = pl.tensor.slice %t[%i] : !pl.tensor<?x64xf32> -> !pl.tensor<16x64xf32>
  return
}

// -----

func.func @transpose_axes(%t: !pl.tensor<16x64xf32>) {
  // expected-error @+1 {{axes must be two distinct axes of rank 2, got 0 and 2}}
  %r = pl.tensor.transpose %t axes 0, 2 : !pl.tensor<16x64xf32> -> !pl.tensor<64x16xf32>
  return
}

// -----

func.func @concat_off_axis(%a: !pl.tensor<16x32xf32>, %b: !pl.tensor<8x64xf32>) {
  // expected-error @+1 {{inputs differ in dimension 0, which is not the axis}}
  %c = pl.tensor.concat %a, %b axis 1 : !pl.tensor<16x32xf32>, !pl.tensor<8x64xf32> -> !pl.tensor<16x96xf32>
  return
}

// -----

func.func @concat_sum(%a: !pl.tensor<16x32xf32>, %b: !pl.tensor<16x64xf32>) {
  // expected-error @+1 {{result must be 16x96 of f32, got !pl.tensor<16x90xf32>}}
  %c = pl.tensor.concat %a, %b axis 1 : !pl.tensor<16x32xf32>, !pl.tensor<16x64xf32> -> !pl.tensor<16x90xf32>
  return
}

// -----

func.func @cast_same(%t: !pl.tensor<16xf32>) {
  // expected-error @+1 {{'pl.tensor.cast' op casts f32 to itself}}
  %c = pl.tensor.cast %t round : !pl.tensor<16xf32> -> !pl.tensor<16xf32>
  return
}

// -----

func.func @fillpad_null(%t: !pl.tensor<16xf32, valid = 8>) {
  // expected-error @+1 {{'pl.tensor.fillpad' op pad must be zero, max or min}}
  %c = pl.tensor.fillpad %t null : !pl.tensor<16xf32, valid = 8> -> !pl.tensor<16xf32>
  return
}

// -----

func.func @fillpad_expand_smaller(%t: !pl.tensor<16x64xf32, valid = 8x?>) {
  // expected-error @+1 {{'pl.tensor.fillpad_expand' op result dimension 1 (32) is smaller than the source's (64)}}
  %c = pl.tensor.fillpad_expand %t zero : !pl.tensor<16x64xf32, valid = 8x?> -> !pl.tensor<16x32xf32, pad = zero>
  return
}

// -----

func.func @fillpad_expand_dynamic(%t: !pl.tensor<?x64xf32>, %n: index) {
  // expected-error @+1 {{'pl.tensor.fillpad_expand' op result must have a static shape, got !pl.tensor<?x64xf32, pad = zero>}}
  %c = pl.tensor.fillpad_expand %t zero : !pl.tensor<?x64xf32> -> !pl.tensor<?x64xf32, pad = zero>
  return
}

// -----

func.func @fillpad_expand_pad(%t: !pl.tensor<16x64xf32, valid = 8x?>) {
  // expected-error @+1 {{'pl.tensor.fillpad_expand' op result must be a tensor of !pl.tensor<16x64xf32, valid = 8x?>'s rank and element type, fully valid with the pad recorded, got !pl.tensor<32x64xf32, pad = max>}}
  %c = pl.tensor.fillpad_expand %t zero : !pl.tensor<16x64xf32, valid = 8x?> -> !pl.tensor<32x64xf32, pad = max>
  return
}

// -----

func.func @set_validshape_rank(%t: !pl.tensor<4x16x64xf32>, %n: index) {
  // expected-error @+1 {{'pl.tensor.set_validshape' op source must be 2-D, got !pl.tensor<4x16x64xf32>}}
  %v = pl.tensor.set_validshape %t, %n, %n : !pl.tensor<4x16x64xf32> -> !pl.tensor<4x16x64xf32>
  return
}

// -----

func.func @set_validshape_shape(%t: !pl.tensor<16x64xf32>, %n: index) {
  // expected-error @+1 {{'pl.tensor.set_validshape' op result must be !pl.tensor<16x64xf32> with valid extents ?x? (or ?), got !pl.tensor<16x32xf32, valid = ?x?>}}
  %v = pl.tensor.set_validshape %t, %n, %n : !pl.tensor<16x64xf32> -> !pl.tensor<16x32xf32, valid = ?x?>
  return
}

// -----

func.func @read_indices(%t: !pl.tensor<16x16xf32>, %i: index) {
  // expected-error @+1 {{'pl.tensor.read' op needs one index per dimension (2), got 1}}
  %x = pl.tensor.read %t[%i] : !pl.tensor<16x16xf32> -> f32
  return
}

// -----

func.func @write_type(%t: !pl.tensor<16xf32>, %i: index, %x: i32) {
  // expected-error @+1 {{the scalar must have the element type f32, got i32}}
  %r = pl.tensor.write %t[%i], %x : !pl.tensor<16xf32>, i32
  return
}

// -----

func.func @unary_dtype(%t: !pl.tensor<16xf16>) {
  // expected-error @+1 {{'pl.tensor.sin' op operand #0 must be pl tensor of 32-bit float values, but got '!pl.tensor<16xf16>'}}
  %r = pl.tensor.sin %t : !pl.tensor<16xf16>
  return
}

// -----

func.func @binary_shapes(%a: !pl.tensor<?x64xf32>, %b: !pl.tensor<?x32xf32>) {
  // expected-error @+1 {{requires compatible shapes, got ?x64 and ?x32}}
  %r = pl.tensor.add %a, %b : !pl.tensor<?x64xf32>, !pl.tensor<?x32xf32> -> !pl.tensor<?x64xf32>
  return
}

// -----

func.func @binary_result(%a: !pl.tensor<?x64xf32>, %b: !pl.tensor<16x1xf32>) {
  // expected-error @+1 {{result shape ?x64 must be the broadcast shape 16x64}}
  %r = pl.tensor.mul %a, %b : !pl.tensor<?x64xf32>, !pl.tensor<16x1xf32> -> !pl.tensor<?x64xf32>
  return
}

// -----

func.func @div_broadcast_int(%a: !pl.tensor<16x64xi32>, %b: !pl.tensor<16x1xi32>) {
  // expected-error @+1 {{a broadcasting div: lhs must have a float element type, got i32}}
  %r = pl.tensor.div %a, %b : !pl.tensor<16x64xi32>, !pl.tensor<16x1xi32> -> !pl.tensor<16x64xi32>
  return
}

// -----

func.func @bitwise_float(%a: !pl.tensor<16xf32>) {
  // expected-error @+1 {{'pl.tensor.xor' op operand #0 must be pl tensor of integer (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32, ui64 or index) values, but got '!pl.tensor<16xf32>'}}
  %r = pl.tensor.xor %a, %a : !pl.tensor<16xf32>, !pl.tensor<16xf32> -> !pl.tensor<16xf32>
  return
}

// -----

func.func @promotion(%a: !pl.tensor<16xi32>, %b: !pl.tensor<16xf32>) {
  // expected-error @+1 {{result element type i32 must be f32}}
  %r = pl.tensor.sub %a, %b : !pl.tensor<16xi32>, !pl.tensor<16xf32> -> !pl.tensor<16xi32>
  return
}

// -----

func.func @scalar_index(%a: !pl.tensor<16xi32>, %i: index) {
  // expected-error @+1 {{'pl.tensor.adds' op scalar must not be index; cast it to i32}}
  %r = pl.tensor.adds %a, %i : !pl.tensor<16xi32>, index
  return
}

// -----

func.func @reduce_rank(%a: !pl.tensor<16xf32>) {
  // expected-error @+1 {{source must have rank 2 or more, got !pl.tensor<16xf32>}}
  %r = pl.tensor.row_sum %a : !pl.tensor<16xf32> -> !pl.tensor<1xf32>
  return
}

// -----

func.func @reduce_result(%a: !pl.tensor<?x64xf32>) {
  // expected-error @+1 {{result must be ?x1xi32, got !pl.tensor<?x1xf32>}}
  %r = pl.tensor.row_argmin %a : !pl.tensor<?x64xf32> -> !pl.tensor<?x1xf32>
  return
}

// -----

func.func @matmul_k(%a: !pl.tensor<?x64xf16>, %b: !pl.tensor<32x128xf16>) {
  // expected-error @+1 {{'pl.tensor.matmul' op lhs K (64) must equal rhs K (32)}}
  %c = pl.tensor.matmul %a, %b : !pl.tensor<?x64xf16>, !pl.tensor<32x128xf16> -> !pl.tensor<?x128xf32>
  return
}

// -----

func.func @matmul_trans_rank(%a: !pl.tensor<64xf16>, %b: !pl.tensor<64x128xf16>) {
  // expected-error @+1 {{a transposed operand needs rank 2 or more}}
  %c = pl.tensor.matmul %a, %b {a_trans} : !pl.tensor<64xf16>, !pl.tensor<64x128xf16> -> !pl.tensor<128xf32>
  return
}

// -----

func.func @matmul_shape(%a: !pl.tensor<16x64xf16>, %b: !pl.tensor<64xf16>) {
  // expected-error @+1 {{result shape must be 16, got 16x1}}
  %c = pl.tensor.matmul %a, %b : !pl.tensor<16x64xf16>, !pl.tensor<64xf16> -> !pl.tensor<16x1xf32>
  return
}

// -----

func.func @matmul_dtypes(%a: !pl.tensor<16x64xf16>, %b: !pl.tensor<64x8xbf16>) {
  // expected-error @+1 {{lhs and rhs must have one element type, got f16 and bf16}}
  %c = pl.tensor.matmul %a, %b : !pl.tensor<16x64xf16>, !pl.tensor<64x8xbf16> -> !pl.tensor<16x8xf32>
  return
}

// -----

func.func @cmp_result(%a: !pl.tensor<?x64xf32>) {
  // expected-error @+1 {{'pl.tensor.cmp' op result must be ?x64xi1, got !pl.tensor<?x64xui8>}}
  %m = pl.tensor.cmp %a, %a lt : !pl.tensor<?x64xf32>, !pl.tensor<?x64xf32> -> !pl.tensor<?x64xui8>
  return
}

// -----

func.func @cmp_operands(%a: !pl.tensor<?x64xf32>, %b: !pl.tensor<?x64xf16>) {
  // expected-error @+1 {{requires lhs and rhs of one shape and element type}}
  %m = pl.tensor.cmp %a, %b lt : !pl.tensor<?x64xf32>, !pl.tensor<?x64xf16> -> !pl.tensor<?x64xi1>
  return
}

// -----

func.func @cmps_index(%a: !pl.tensor<?x64xi32>, %i: index) {
  // expected-error @+1 {{'pl.tensor.cmps' op scalar must not be index; cast it to i32}}
  %m = pl.tensor.cmps %a, %i eq : !pl.tensor<?x64xi32>, index -> !pl.tensor<?x64xi1>
  return
}

// -----

func.func @sel_mask(%m: !pl.tensor<?x32xi1>, %a: !pl.tensor<?x64xf32>) {
  // expected-error @+1 {{'pl.tensor.sel' op mask must be ?x64xi1, got !pl.tensor<?x32xi1>}}
  %r = pl.tensor.sel %m, %a, %a : !pl.tensor<?x32xi1>, !pl.tensor<?x64xf32>
  return
}

// -----

func.func @sels_scalar(%m: !pl.tensor<?x64xi1>, %a: !pl.tensor<?x64xf32>, %s: i32) {
  // expected-error @+1 {{'pl.tensor.sels' op scalar must have the element type f32, got i32}}
  %r = pl.tensor.sels %m, %a, %s : !pl.tensor<?x64xi1>, !pl.tensor<?x64xf32>, i32
  return
}

// -----

func.func @lrelu_int(%a: !pl.tensor<16xi32>, %s: i32) {
  // expected-error @+1 {{'pl.tensor.lrelu' op operand #0 must be pl tensor of float (f16, bf16, f32, f8E4M3FN, f8E5M2, f8E8M0FNU, f4E2M1FN, !pl.hf8 or !pl.hf4) values, but got '!pl.tensor<16xi32>'}}
  %r = pl.tensor.lrelu %a, %s : !pl.tensor<16xi32>, i32
  return
}

// -----

func.func @expand_vector(%a: !pl.tensor<?x64xf32>, %v: !pl.tensor<?x2xf32>) {
  // expected-error @+1 {{'pl.tensor.row_expand_add' op vector must be a [..., rows, 1] column matching the tensor, got !pl.tensor<?x2xf32>}}
  %r = pl.tensor.row_expand_add %a, %v : !pl.tensor<?x64xf32>, !pl.tensor<?x2xf32> -> !pl.tensor<?x64xf32>
  return
}

// -----

func.func @expand_result(%a: !pl.tensor<?x64xf16>, %v: !pl.tensor<1x64xf32>) {
  // expected-error @+1 {{result must have the tensor's shape and element type f32, got !pl.tensor<?x64xf16>}}
  %r = pl.tensor.col_expand %a, %v : !pl.tensor<?x64xf16>, !pl.tensor<1x64xf32> -> !pl.tensor<?x64xf16>
  return
}

// -----

func.func @matmul_acc_shape(%c: !pl.tensor<16x16xf32>, %a: !pl.tensor<16x64xf16>, %b: !pl.tensor<64x32xf16>) {
  // expected-error @+1 {{'pl.tensor.matmul_acc' op acc shape must be 16x32, got 16x16}}
  %r = pl.tensor.matmul_acc %c, %a, %b : !pl.tensor<16x16xf32>, !pl.tensor<16x64xf16>, !pl.tensor<64x32xf16>
  return
}

// -----

func.func @matmul_acc_rank(%c: !pl.tensor<16xf32>, %a: !pl.tensor<64xf16>, %b: !pl.tensor<64x16xf16>) {
  // expected-error @+1 {{matmul_acc takes 2-D operands}}
  %r = pl.tensor.matmul_acc %c, %a, %b : !pl.tensor<16xf32>, !pl.tensor<64xf16>, !pl.tensor<64x16xf16>
  return
}

// -----

func.func @view_kind(%d: !pld.dtensor<4x256xf32>) {
  // expected-error @+1 {{'pl.tensor.view' op keeps the tensor kind, got !pld.dtensor<4x256xf32> to !pl.tensor<1x1024xf32>}}
  %v = pl.tensor.view %d : !pld.dtensor<4x256xf32> -> !pl.tensor<1x1024xf32>
  return
}

// -----

func.func @view_window_count(%d: !pld.dtensor<4x256xf32>) {
  // expected-error @+1 {{'pl.tensor.view' op keeps the element count, got 1024 to 512}}
  %v = pl.tensor.view %d : !pld.dtensor<4x256xf32> -> !pld.dtensor<1x512xf32>
  return
}

// -----

// The element-type constraints of the tensor forms (dialects/td/PLConstraints.td).

func.func @log_dtype(%t: !pl.tensor<16xbf16>) {
  // expected-error @+1 {{'pl.tensor.log' op operand #0 must be pl tensor of 16-bit float or 32-bit float values, but got '!pl.tensor<16xbf16>'}}
  %r = pl.tensor.log %t : !pl.tensor<16xbf16>
  return
}

// -----

func.func @not_dtype(%t: !pl.tensor<16xi32>) {
  // expected-error @+1 {{'pl.tensor.not' op operand #0 must be pl tensor of 16-bit signless integer or 16-bit unsigned integer values, but got '!pl.tensor<16xi32>'}}
  %r = pl.tensor.not %t : !pl.tensor<16xi32>
  return
}

// -----

func.func @bitwise_float_result(%a: !pl.tensor<16xi32>) {
  // expected-error @+1 {{'pl.tensor.and' op result #0 must be pl tensor of integer (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32, ui64 or index) values, but got '!pl.tensor<16xf32>'}}
  %r = "pl.tensor.and"(%a, %a) : (!pl.tensor<16xi32>, !pl.tensor<16xi32>) -> !pl.tensor<16xf32>
  return
}

// -----

func.func @scalar_bitwise_float(%a: !pl.tensor<16xi32>, %s: f32) {
  // expected-error @+1 {{'pl.tensor.ors' op operand #1 must be integer scalar (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32 or ui64), but got 'f32'}}
  %r = pl.tensor.ors %a, %s : !pl.tensor<16xi32>, f32
  return
}

// -----

func.func @subs_dtype(%a: !pl.tensor<16xi64>, %s: i64) {
  // expected-error @+1 {{'pl.tensor.subs' op operand #0 must be pl tensor of 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or bfloat16 type values, but got '!pl.tensor<16xi64>'}}
  %r = pl.tensor.subs %a, %s : !pl.tensor<16xi64>, i64
  return
}

// -----

func.func @div_any_dtype(%a: !pl.tensor<16xi8>) {
  // The tile form's element-type set is not the tensor form's: a tensor
  // div of one shape takes any element type (conversion picks the tile
  // form's rules later).
  // expected-error @+1 {{result element type i16 must be i8}}
  %r = pl.tensor.div %a, %a : !pl.tensor<16xi8>, !pl.tensor<16xi8> -> !pl.tensor<16xi16>
  return
}

// -----

func.func @expand_clone_rank(%s: !pl.tensor<1x64xf32>, %t: !pl.tensor<16x64xf32>) {
  // expected-error @+1 {{'pl.tensor.expand_clone' op source and target must be rank 3, got !pl.tensor<1x64xf32> and !pl.tensor<16x64xf32>}}
  %r = pl.tensor.expand_clone %s into %t : !pl.tensor<1x64xf32>, !pl.tensor<16x64xf32>
  return
}

// -----

func.func @expand_clone_extent(%s: !pl.tensor<4x2x64xf32>, %t: !pl.tensor<4x16x64xf32>) {
  // expected-error @+1 {{'pl.tensor.expand_clone' op source dimension 1 (2) must be the target's (16) or 1}}
  %r = pl.tensor.expand_clone %s into %t : !pl.tensor<4x2x64xf32>, !pl.tensor<4x16x64xf32>
  return
}

// -----

func.func @expand_clone_two_axes(%s: !pl.tensor<1x1x64xf32>, %t: !pl.tensor<4x16x64xf32>) {
  // expected-error @+1 {{'pl.tensor.expand_clone' op broadcasts !pl.tensor<1x1x64xf32> to !pl.tensor<4x16x64xf32> in 2 dimensions; at most one may be broadcast}}
  %r = pl.tensor.expand_clone %s into %t : !pl.tensor<1x1x64xf32>, !pl.tensor<4x16x64xf32>
  return
}

// -----

func.func @expand_clone_element(%s: !pl.tensor<4x1x64xf16>, %t: !pl.tensor<4x16x64xf32>) {
  // expected-error @+1 {{'pl.tensor.expand_clone' op source !pl.tensor<4x1x64xf16> and target !pl.tensor<4x16x64xf32> must have one element type}}
  %r = pl.tensor.expand_clone %s into %t : !pl.tensor<4x1x64xf16>, !pl.tensor<4x16x64xf32>
  return
}

// -----

func.func @create_l1_rank() attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{'pl.tensor.create_l1' op an L1 tensor has a static 2-D shape, got 4x16x64}}
  %t = pl.tensor.create_l1 : !pl.tensor<4x16x64xf16>
  return
}

// -----

func.func @create_l1_vector() attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{'pl.tensor.create_l1' op an L1 tensor lives on the cube core: it belongs in an incore or aic kernel, not in a function of kind aiv}}
  %t = pl.tensor.create_l1 : !pl.tensor<64x128xf16>
  return
}
