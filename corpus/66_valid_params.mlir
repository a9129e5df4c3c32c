// Valid regions set by the orchestration and read by the kernels: the
// kernels' parameters are typed with runtime valid extents
// (`valid = 16x?`, `valid = ?x?`), which pl-materialize-valid-shapes turns
// into index parameters their callers pass (the extents of the
// orchestration's pl.tensor.set_validshape). Attention's masked softmax
// over the first `len` keys of each row, and a block of `rows` x `cols`
// placed in the corner of a larger tensor padded with zeros.
!S = !pl.tensor<16x64xf32>
!SV = !pl.tensor<16x64xf32, valid = 16x?>
!C = !pl.tensor<16x1xf32>
!X = !pl.tensor<8x32xf16>
!XV = !pl.tensor<8x32xf16, valid = ?x?>
!E = !pl.tensor<16x48xf16, pad = zero>

func.func @masked_softmax(%s: !SV) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %f = pl.tensor.fillpad %s min : !SV -> !pl.tensor<16x64xf32, pad = min>
  %m = pl.tensor.row_max %f : !pl.tensor<16x64xf32, pad = min> -> !C
  %d = pl.tensor.sub %f, %m : !pl.tensor<16x64xf32, pad = min>, !C -> !S
  %e = pl.tensor.exp %d : !S
  %t = pl.tensor.row_sum %e : !S -> !C
  %p = pl.tensor.div %e, %t : !S, !C -> !S
  return %p : !S
}

func.func @corner(%x: !XV) -> !E attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.fillpad_expand %x zero : !XV -> !E
  return %e : !E
}

func.func @main(%s: !S, %len: i32, %x: !X, %rows: i32, %cols: i32) -> (!S, !E) attributes {pl.kind = #pl.kind<orchestration>} {
  %c16 = arith.constant 16 : index
  %n = arith.index_cast %len : i32 to index
  %sv = pl.tensor.set_validshape %s, %c16, %n : !S -> !SV
  %r = arith.index_cast %rows : i32 to index
  %c = arith.index_cast %cols : i32 to index
  %xv = pl.tensor.set_validshape %x, %r, %c : !X -> !XV
  %p, %t0 = pl.submit @masked_softmax(%sv) : (!SV) -> !S
  %e = pl.call @corner(%xv) : (!XV) -> !E
  return %p, %e : !S, !E
}
