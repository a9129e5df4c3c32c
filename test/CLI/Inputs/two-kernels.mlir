// Two kernels in two parts (translate-conventions.mlir).
func.func @a(%x: !pl.tensor<64xf32>, %o: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0] : !pl.tensor<64xf32> -> !pl.tile<64xf32, vec>
  %r = pl.tile.store %t, %o[%c0] : !pl.tile<64xf32, vec>, !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}
// -----
// ====
func.func @b(%x: !pl.tensor<64xf32>, %o: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0] : !pl.tensor<64xf32> -> !pl.tile<64xf32, vec>
  %e = pl.tile.exp %t : !pl.tile<64xf32, vec>
  %r = pl.tile.store %e, %o[%c0] : !pl.tile<64xf32, vec>, !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}
