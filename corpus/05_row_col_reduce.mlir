// Row and column reductions of a 48x64 f32 tensor in one tensor-level
// InCore kernel with three results: row sums [48, 1], column maxima [1, 64]
// and column minima [1, 64]; a second kernel reduces the row sums to a [1, 1]
// column sum (a reduction of a reduction, across a kernel boundary).
!X = !pl.tensor<48x64xf32>
!R = !pl.tensor<48x1xf32>
!Cl = !pl.tensor<1x64xf32>
!S = !pl.tensor<1x1xf32>

func.func @reduce(%x: !X) -> (!R, !Cl, !Cl) attributes {pl.kind = #pl.kind<incore>} {
  %rs = pl.tensor.row_sum %x : !X -> !R
  %cm = pl.tensor.col_max %x : !X -> !Cl
  %cn = pl.tensor.col_min %x : !X -> !Cl
  return %rs, %cm, %cn : !R, !Cl, !Cl
}

func.func @total(%rs: !R) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %t = pl.tensor.col_sum %rs : !R -> !S
  return %t : !S
}

func.func @main(%x: !X) -> (!R, !Cl, !Cl, !S) attributes {pl.kind = #pl.kind<orchestration>} {
  %rs, %cm, %cn = pl.call @reduce(%x) : (!X) -> (!R, !Cl, !Cl)
  %t = pl.call @total(%rs) : (!R) -> !S
  return %rs, %cm, %cn, %t : !R, !Cl, !Cl, !S
}
