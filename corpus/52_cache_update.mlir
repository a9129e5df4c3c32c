// A paged cache's slots updated with new rows, as PyPTO's attention
// decoders write each step's keys: 16 new rows (two blocks of 8 tokens)
// go to the cache rows their slot ids name (pl.tensor.scatter_update;
// the other rows keep theirs), and the kernel also returns the updated
// cache scaled by 2 (so the update is a value later ops read).
!C = !pl.tensor<32x64xf16>
!S = !pl.tensor<2x8xi32>
!R = !pl.tensor<16x64xf16>

func.func @update(%cache: !C, %slots: !S, %rows: !R) -> (!C, !C) attributes {pl.kind = #pl.kind<incore>} {
  %two = arith.constant 2.0 : f16
  %u = pl.tensor.scatter_update %cache, %slots, %rows : !C, !S, !R
  %d = pl.tensor.muls %u, %two : !C, f16
  return %u, %d : !C, !C
}

func.func @main(%cache: !C, %slots: !S, %rows: !R) -> (!C, !C) attributes {pl.kind = #pl.kind<orchestration>} {
  %u, %d = pl.call @update(%cache, %slots, %rows) : (!C, !S, !R) -> (!C, !C)
  return %u, %d : !C, !C
}
