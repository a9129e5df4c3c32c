// A non-leading dynamic dimension `16x?`: a kernel subtracts each column's
// mean (col_sum [1, ?] scaled by 1/16, broadcast back over the rows), and a
// second kernel takes the column maxima of the result.
!X = !pl.tensor<16x?xf32>
!Row = !pl.tensor<1x?xf32>

func.func @center_cols(%x: !X) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %inv = arith.constant 0.0625 : f32
  %s = pl.tensor.col_sum %x : !X -> !Row
  %m = pl.tensor.muls %s, %inv : !Row, f32
  %r = pl.tensor.sub %x, %m : !X, !Row -> !X
  return %r : !X
}

func.func @col_max(%x: !X) -> !Row attributes {pl.kind = #pl.kind<incore>} {
  %m = pl.tensor.col_max %x : !X -> !Row
  return %m : !Row
}

func.func @main(%x: !X) -> (!X, !Row) attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.call @center_cols(%x) : (!X) -> !X
  %m = pl.call @col_max(%y) : (!X) -> !Row
  return %y, %m : !X, !Row
}
