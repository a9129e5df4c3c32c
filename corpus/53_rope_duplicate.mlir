// Rotary cosines duplicated into interleaved columns, as PyPTO's rotary
// embeddings lay them out: each row's 16 cosines go to the even columns
// of a 32-column table whose odd columns keep the sines already there
// (pl.tensor.scatter_mask p0101 into the sines), and, at the tile level,
// the cosines spread into the odd columns of zeros (pl.tile.scatter_mask
// p1010, a2a3's TSCATTER mask form).
!H = !pl.tensor<8x16xf32>
!F = !pl.tensor<8x32xf32>

func.func @interleave(%cos: !H, %sin: !F) -> !F attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.scatter_mask %cos into %sin p0101 : !H, !F
  return %r : !F
}

func.func @spread(%cos: !H, %o: !F {pl.direction = #pl.direction<out>}) -> !F attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %cos[%c0, %c0] : !H -> !pl.tile<8x16xf32, vec>
  %s = pl.tile.scatter_mask %t p1010 : !pl.tile<8x16xf32, vec> -> !pl.tile<8x32xf32, vec>
  %w = pl.tile.store %s, %o[%c0, %c0] : !pl.tile<8x32xf32, vec>, !F
  return %w : !F
}

func.func @main(%cos: !H, %sin: !F) -> (!F, !F) attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.call @interleave(%cos, %sin) : (!H, !F) -> !F
  %o = pl.tensor.create() : !F
  %s = pl.call @spread(%cos, %o) : (!H, !F) -> !F
  return %r, %s : !F, !F
}
