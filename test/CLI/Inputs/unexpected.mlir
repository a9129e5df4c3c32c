// A diagnostic no comment expects, and an expected one that never comes
// (translate-conventions.mlir).

func.func @b(%l: !pl.tile<4x4xi32, left>) {
  %r = pl.tile.move %l : !pl.tile<4x4xi32, left> -> !pl.tile<4x4xi32, right>
  return
}
// expected-warning @+1 {{never emitted}}
func.func private @c()
