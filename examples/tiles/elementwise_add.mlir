// Elementwise add, at the two levels a program passes through.
//
// @add_tensors is what a frontend writes: an orchestration whose InCore
// scope adds two tensors. @add_kernel is the same computation after
// outlining and tensor-to-tile conversion: a kernel that loads both inputs
// into the unified buffer, adds the tiles and stores the sum into its out
// parameter; @main dispatches it.

!T = !pl.tensor<128x128xf32>
!V = !pl.tile<64x128xf32, vec>

func.func @add_tensors(%a: !T, %b: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %sum = pl.incore_scope name "add" -> !T {
    %s = pl.tensor.add %a, %b : !T, !T -> !T
    pl.yield %s : !T
  }
  return %sum : !T
}

// Two 64-row halves, one tile each.
func.func @add_kernel(%a: !T, %b: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %result = scf.for %row = %c0 to %c128 step %c64 iter_args(%o = %out) -> (!T) {
    %ta = pl.tile.load %a[%row, %c0] : !T -> !V
    %tb = pl.tile.load %b[%row, %c0] : !T -> !V
    %sum = pl.tile.add %ta, %tb : !V, !V -> !V
    %o2 = pl.tile.store %sum, %o[%row, %c0] : !V, !T
    scf.yield %o2 : !T
  }
  return %result : !T
}

func.func @main(%a: !T, %b: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %out = pl.tensor.create() : !T
  %sum = pl.call @add_kernel(%a, %b, %out) : (!T, !T, !T) -> !T
  return %sum : !T
}
