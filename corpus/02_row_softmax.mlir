// Row softmax of a 32x128 f32 tensor: one tensor-level InCore kernel
// (row_max, broadcast sub, exp, row_sum, broadcast div) submitted as a task
// from the orchestration; the result is the entry's result0.
!X = !pl.tensor<32x128xf32>
!C = !pl.tensor<32x1xf32>

func.func @softmax(%x: !X) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %m = pl.tensor.row_max %x : !X -> !C
  %d = pl.tensor.sub %x, %m : !X, !C -> !X
  %e = pl.tensor.exp %d : !X
  %s = pl.tensor.row_sum %e : !X -> !C
  %p = pl.tensor.div %e, %s : !X, !C -> !X
  return %p : !X
}

func.func @main(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %y, %task = pl.submit @softmax(%x) : (!X) -> !X
  return %y : !X
}
