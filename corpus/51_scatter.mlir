// Scatters, as PyPTO's cache updates write rows' slots: a tensor-level
// kernel sets each row's 4 chosen slots of a 8x16 table to new values
// (pl.tensor.scatter on the last axis; the other slots keep theirs,
// and of two writes to one slot the later wins), and a tile-level
// kernel spreads a 2x8 tile over flat positions of a zeroed 4x8 tile
// (pl.tile.scatter, a2a3's TSCATTER).
!T = !pl.tensor<8x16xf32>
!K = !pl.tensor<8x4xi32>
!V = !pl.tensor<8x4xf32>
!X = !pl.tensor<2x8xf32>
!XI = !pl.tensor<2x8xi32>
!Y = !pl.tensor<4x8xf32>

func.func @update(%table: !T, %slots: !K, %values: !V) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.scatter %table, %slots, %values dim 1 : !T, !K, !V
  return %r : !T
}

func.func @spread(%x: !X, %at: !XI, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !X -> !pl.tile<2x8xf32, vec>
  %i = pl.tile.load %at[%c0, %c0] : !XI -> !pl.tile<2x8xi32, vec>
  %s = pl.tile.scatter %t, %i : !pl.tile<2x8xf32, vec>, !pl.tile<2x8xi32, vec> -> !pl.tile<4x8xf32, vec>
  %o = pl.tile.store %s, %y[%c0, %c0] : !pl.tile<4x8xf32, vec>, !Y
  return %o : !Y
}

func.func @main(%table: !T, %slots: !K, %values: !V, %x: !X, %at: !XI) -> (!T, !Y) attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.call @update(%table, %slots, %values) : (!T, !K, !V) -> !T
  %y = pl.tensor.create() : !Y
  %s = pl.call @spread(%x, %at, %y) : (!X, !XI, !Y) -> !Y
  return %r, %s : !T, !Y
}
