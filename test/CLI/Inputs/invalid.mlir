func.func @f(%l: !pl.tile<16x16xi32, left>) {
  %r = pl.tile.move %l : !pl.tile<16x16xi32, left> -> !pl.tile<16x16xi32, right>
  return
}
