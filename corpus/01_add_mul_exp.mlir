// Elementwise chain y = exp((a + b) * b) over 64x64 f32, split over two
// tensor-level InCore kernels (add+mul, then exp) that an orchestration calls
// in turn; the second kernel assembles into the entry's out parameter %y.
!T = !pl.tensor<64x64xf32>

func.func @add_mul(%a: !T, %b: !T) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.add %a, %b : !T, !T -> !T
  %p = pl.tensor.mul %s, %b : !T, !T -> !T
  return %p : !T
}

func.func @exp_into(%t: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %e = pl.tensor.exp %t : !T
  %o = pl.tensor.assemble %e into %out[%c0, %c0] : !T, !T
  return %o : !T
}

func.func @main(%a: !T, %b: !T, %y: !T {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %t = pl.call @add_mul(%a, %b) : (!T, !T) -> !T
  %y2 = pl.call @exp_into(%t, %y) : (!T, !T) -> !T
  return
}
