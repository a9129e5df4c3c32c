// Not a valid program: the tile add mixes shapes.
func.func @f() attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.tile.create : !pl.tile<4x8xf32, vec>
  %b = pl.tile.create : !pl.tile<3x8xf32, vec>
  %c = pl.tile.add %a, %b : !pl.tile<4x8xf32, vec>, !pl.tile<3x8xf32, vec> -> !pl.tile<4x8xf32, vec>
  return
}
