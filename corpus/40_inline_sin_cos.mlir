// y = sin(a) + cos(b) and z = sin(a) * b over 32x64 f32, written with an
// inline helper that an InCore scope of the orchestration calls:
// pl-inline-functions splices it, the scope becomes a kernel, and
// pl-lower-math-ops decomposes the sine and cosine (a2a3 has no instruction
// for them) into primitive tile ops.
!T = !pl.tensor<32x64xf32>

func.func private @wave(%x: !T, %y: !T) -> (!T, !T) attributes {pl.kind = #pl.kind<inline>} {
  %s = pl.tensor.sin %x : !T
  %c = pl.tensor.cos %y : !T
  %w = pl.tensor.add %s, %c : !T, !T -> !T
  return %s, %w : !T, !T
}

func.func @main(%a: !T, %b: !T, %y: !T {pl.direction = #pl.direction<out>}, %z: !T {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %y2, %z2 = pl.incore_scope name "wave_kernel" -> !T, !T {
    %s, %w = func.call @wave(%a, %b) : (!T, !T) -> (!T, !T)
    %p = pl.tensor.mul %s, %b : !T, !T -> !T
    %y1 = pl.tensor.assemble %w into %y[%c0, %c0] : !T, !T
    %z1 = pl.tensor.assemble %p into %z[%c0, %c0] : !T, !T
    pl.yield %y1, %z1 : !T, !T
  }
  return
}
