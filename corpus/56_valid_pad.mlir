// Valid regions set at run time and padded: attention's masked softmax
// over the first `len` keys of each row (pl.tensor.set_validshape to the
// runtime length, pl.tensor.fillpad with min so the masked scores add
// nothing, then a row softmax), and a block of `rows` x `cols` placed in
// the corner of a larger tensor padded with zeros
// (pl.tensor.fillpad_expand). Both convert to tile set_validshape and
// fillpad on the loaded tile.
!S = !pl.tensor<16x64xf32>
!C = !pl.tensor<16x1xf32>
!X = !pl.tensor<8x32xf16>
!E = !pl.tensor<16x48xf16, pad = zero>

func.func @masked_softmax(%s: !S, %len: i32) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %c16 = arith.constant 16 : index
  %n = arith.index_cast %len : i32 to index
  %v = pl.tensor.set_validshape %s, %c16, %n : !S -> !pl.tensor<16x64xf32, valid = 16x?>
  %f = pl.tensor.fillpad %v min : !pl.tensor<16x64xf32, valid = 16x?> -> !pl.tensor<16x64xf32, pad = min>
  %m = pl.tensor.row_max %f : !pl.tensor<16x64xf32, pad = min> -> !C
  %d = pl.tensor.sub %f, %m : !pl.tensor<16x64xf32, pad = min>, !C -> !S
  %e = pl.tensor.exp %d : !S
  %t = pl.tensor.row_sum %e : !S -> !C
  %p = pl.tensor.div %e, %t : !S, !C -> !S
  return %p : !S
}

func.func @corner(%x: !X, %rows: i32, %cols: i32) -> !E attributes {pl.kind = #pl.kind<incore>} {
  %r = arith.index_cast %rows : i32 to index
  %c = arith.index_cast %cols : i32 to index
  %v = pl.tensor.set_validshape %x, %r, %c : !X -> !pl.tensor<8x32xf16, valid = ?x?>
  %e = pl.tensor.fillpad_expand %v zero : !pl.tensor<8x32xf16, valid = ?x?> -> !E
  return %e : !E
}

func.func @main(%s: !S, %len: i32, %x: !X, %rows: i32, %cols: i32) -> (!S, !E) attributes {pl.kind = #pl.kind<orchestration>} {
  %p, %t0 = pl.submit @masked_softmax(%s, %len) : (!S, i32) -> !S
  %e, %t1 = pl.submit @corner(%x, %rows, %cols) : (!X, i32, i32) -> !E
  return %p, %e : !S, !E
}
