// A kernel with an op the translator has no lowering for yet.
func.func @slice(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x32xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %u = pl.tile.slice %t[%c0, %c0] : !pl.tile<16x64xf32, vec> -> !pl.tile<16x32xf32, vec>
  %r = pl.tile.store %u, %y[%c0, %c0] : !pl.tile<16x32xf32, vec>, !pl.tensor<16x32xf32>
  return %r : !pl.tensor<16x32xf32>
}
