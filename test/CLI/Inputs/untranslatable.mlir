// A kernel with an op the translator has no lowering for yet.
func.func @raw_alloc(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %a = pl.tile.alloc vec, 64 : !pl.ptr
  return
}
