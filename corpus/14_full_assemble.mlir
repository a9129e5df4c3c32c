// pl.tensor.full with pl.tensor.assemble as a concatenation: a kernel fills a
// 16x64 tensor with the entry's f32 %fill, assembles x (16x48) over its left
// columns ([x | fill]) and multiplies by w; the orchestration places that
// block under 16 rows of zeros of a pl.tensor.full 32x64 result.
!X = !pl.tensor<16x48xf32>
!W = !pl.tensor<16x64xf32>
!Y = !pl.tensor<32x64xf32>

func.func @widen(%x: !X, %w: !W, %fill: f32) -> !W attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %pad = pl.tensor.full %fill() : f32 -> !W
  %c = pl.tensor.assemble %x into %pad[%c0, %c0] : !X, !W
  %r = pl.tensor.mul %c, %w : !W, !W -> !W
  return %r : !W
}

func.func @main(%x: !X, %w: !W, %fill: f32) -> !Y attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %zeros = pl.tensor.full %zero() : f32 -> !Y
  %r = pl.call @widen(%x, %w, %fill) : (!X, !W, f32) -> !W
  %y = pl.tensor.assemble %r into %zeros[%c16, %c0] : !W, !Y
  return %y : !Y
}
