// Kernels whose tensors are far larger than a2a3's vector buffer (184 KB),
// written as if they fitted: a row softmax of 512x512 f32 (1 MB; its rows
// are independent, so it runs in blocks of rows) and a column
// normalisation of 16x8192 f32 (512 KB; its column sums need every row, so
// it runs in blocks of columns), scaled by a runtime scalar.
// pl-convert-tensor-to-tile writes the loops over blocks.
!X = !pl.tensor<512x512xf32>
!C = !pl.tensor<512x1xf32>
!Y = !pl.tensor<16x8192xf32>
!R = !pl.tensor<1x8192xf32>

func.func @softmax(%x: !X) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %m = pl.tensor.row_max %x : !X -> !C
  %d = pl.tensor.sub %x, %m : !X, !C -> !X
  %e = pl.tensor.exp %d : !X
  %s = pl.tensor.row_sum %e : !X -> !C
  %p = pl.tensor.div %e, %s : !X, !C -> !X
  return %p : !X
}

func.func @colnorm(%y: !Y, %scale: f32) -> (!Y, !R) attributes {pl.kind = #pl.kind<incore>} {
  %a = pl.tensor.abs %y : !Y
  %s = pl.tensor.col_sum %a : !Y -> !R
  %n = pl.tensor.div %y, %s : !Y, !R -> !Y
  %z = pl.tensor.muls %n, %scale : !Y, f32
  return %z, %s : !Y, !R
}

func.func @main(%x: !X, %y: !Y, %scale: f32) -> (!X, !Y, !R) attributes {pl.kind = #pl.kind<orchestration>} {
  %p, %t0 = pl.submit @softmax(%x) : (!X) -> !X
  %z, %s, %t1 = pl.submit @colnorm(%y, %scale) : (!Y, f32) -> (!Y, !R)
  return %p, %z, %s : !X, !Y, !R
}
