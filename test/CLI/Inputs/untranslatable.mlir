// A kernel with an op the translator has no lowering for yet.
func.func @atomic(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %r = pl.tile.store %t, %y[%c0, %c0] atomic_add : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  return %r : !pl.tensor<16x64xf32>
}
