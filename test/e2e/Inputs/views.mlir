// Views and padding: a row block with a runtime number of valid columns is
// padded with -inf and reduced; a reshape reads the same bytes as 2 rows.
func.func @pad_max(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x1xf32> {pl.direction = #pl.direction<out>}, %z: !pl.tensor<2x512xf32> {pl.direction = #pl.direction<out>}) -> (!pl.tensor<16x1xf32>, !pl.tensor<2x512xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %cols = arith.constant 37 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %v = pl.tile.set_validshape %t, %c16, %cols : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec, valid = 16x37>
  %f = pl.tile.fillpad %v min : !pl.tile<16x64xf32, vec, valid = 16x37> -> !pl.tile<16x64xf32, vec, pad = min>
  %tmp = pl.tile.create : !pl.tile<16x64xf32, vec>
  %m = pl.tile.row_max %f, %tmp : !pl.tile<16x64xf32, vec, pad = min>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x1xf32, vec>
  %y2 = pl.tile.store %m, %y[%c0, %c0] : !pl.tile<16x1xf32, vec>, !pl.tensor<16x1xf32>
  %r = pl.tile.reshape %t : !pl.tile<16x64xf32, vec> -> !pl.tile<2x512xf32, vec>
  %z2 = pl.tile.store %r, %z[%c0, %c0] : !pl.tile<2x512xf32, vec>, !pl.tensor<2x512xf32>
  return %y2, %z2 : !pl.tensor<16x1xf32>, !pl.tensor<2x512xf32>
}
