// Rows and elements of tiles written into tensors in global memory by
// index, as a paged cache's new rows reach their slots and a histogram's
// counts their bins: pl.tile.mscatter's row form (rows to the cache's
// slots, ui32 indices), its element form with atomic adds and skipped
// out-of-range bins (a histogram in a vector), and one with wrapped flat
// positions (a 2-D table), each updating its table in place.
// pl-lower-math-ops makes them stores.
!C = !pl.tensor<32x64xf16>
!R = !pl.tensor<8x64xf16>
!S = !pl.tensor<1x8xui32>
!V = !pl.tensor<4x16xf32>
!B = !pl.tensor<4x16xi32>
!H = !pl.tensor<40xf32>
!T = !pl.tensor<8x16xf32>

func.func @update(%rows: !R, %slots: !S, %cache: !C {pl.direction = #pl.direction<inout>}) -> !C attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %r = pl.tile.load %rows[%c0, %c0] : !R -> !pl.tile<8x64xf16, vec>
  %s = pl.tile.load %slots[%c0, %c0] : !S -> !pl.tile<1x8xui32, vec>
  %w = pl.tile.mscatter %r, %s into %cache row : !pl.tile<8x64xf16, vec>, !pl.tile<1x8xui32, vec>, !C
  return %w : !C
}

func.func @histogram(%v: !V, %b: !B, %h: !H {pl.direction = #pl.direction<inout>}, %t: !T {pl.direction = #pl.direction<inout>}) -> (!H, !T) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %x = pl.tile.load %v[%c0, %c0] : !V -> !pl.tile<4x16xf32, vec>
  %i = pl.tile.load %b[%c0, %c0] : !B -> !pl.tile<4x16xi32, vec>
  %h2 = pl.tile.mscatter %x, %i into %h elem oob skip atomic_add : !pl.tile<4x16xf32, vec>, !pl.tile<4x16xi32, vec>, !H
  %t2 = pl.tile.mscatter %x, %i into %t elem oob wrap : !pl.tile<4x16xf32, vec>, !pl.tile<4x16xi32, vec>, !T
  return %h2, %t2 : !H, !T
}

func.func @main(%rows: !R, %slots: !S, %cache: !C, %v: !V, %b: !B, %h: !H, %t: !T) attributes {pl.kind = #pl.kind<orchestration>} {
  %c = pl.call @update(%rows, %slots, %cache) : (!R, !S, !C) -> !C
  %h2, %t2 = pl.call @histogram(%v, %b, %h, %t) : (!V, !B, !H, !T) -> (!H, !T)
  return
}
