func.func @k(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<index: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  return
}
