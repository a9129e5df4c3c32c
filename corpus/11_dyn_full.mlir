// A fully dynamic `?x?` kernel: y = relu(x) * 2 and the row maxima of y
// ([?, 1]); the kernel runs in blocks of rows and, inside them, of columns
// (the last of each short), the row maxima accumulating across the column
// blocks. The orchestration passes the tensor on unsliced.
!X = !pl.tensor<?x?xf32>
!Col = !pl.tensor<?x1xf32>

func.func @relu2(%x: !X) -> (!X, !Col) attributes {pl.kind = #pl.kind<incore>} {
  %two = arith.constant 2.0 : f32
  %r = pl.tensor.relu %x : !X
  %y = pl.tensor.muls %r, %two : !X, f32
  %m = pl.tensor.row_max %y : !X -> !Col
  return %y, %m : !X, !Col
}

func.func @main(%x: !X) -> (!X, !Col) attributes {pl.kind = #pl.kind<orchestration>} {
  %y, %m = pl.call @relu2(%x) : (!X) -> (!X, !Col)
  return %y, %m : !X, !Col
}
