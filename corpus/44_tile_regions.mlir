// A kernel written with tile ops whose meaning is their valid regions, as
// PyPTO's attention and RoPE kernels use them: scores masked causally with
// a triangular mask (pl.tile.tri) and a bias carried in (pl.tile.addc),
// the halves of a row swapped (pl.tile.concat), the first 8 rows of a
// second tile added where they hold data (pl.tile.part_add), and those 8
// rows grown to a 32-row tile padded with the minimum
// (pl.tile.fillpad_expand); the orchestration also multiplies two tensors
// with pl.tensor.part_mul.
!S = !pl.tensor<16x32xf32>
!T = !pl.tile<16x32xf32, vec>
!Top = !pl.tile<16x32xf32, vec, valid = 8x32>
!G = !pl.tensor<32x32xf32>

func.func @regions(%s: !S, %t: !S, %bias: !S,
    %masked: !S {pl.direction = #pl.direction<out>}, %swapped: !S {pl.direction = #pl.direction<out>},
    %summed: !S {pl.direction = #pl.direction<out>}, %grown: !G {pl.direction = #pl.direction<out>})
    -> (!S, !S, !S, !G) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %diag = arith.constant 0 : i32
  %minus = arith.constant -1.0 : f32
  %big = arith.constant 100.0 : f32
  %ts = pl.tile.load %s[%c0, %c0] : !S -> !T
  %tt = pl.tile.load %t[%c0, %c0] : !S -> !T
  %tb = pl.tile.load %bias[%c0, %c0] : !S -> !T
  %mask = pl.tile.tri %diag : i32 -> !T
  %kept = pl.tile.mul %ts, %mask : !T, !T -> !T
  %off = pl.tile.adds %mask, %minus : !T, f32
  %penalty = pl.tile.muls %off, %big : !T, f32
  %m = pl.tile.addc %kept, %penalty, %tb : !T, !T
  %left = pl.tile.slice %ts[%c0, %c0] : !T -> !pl.tile<16x16xf32, vec>
  %right = pl.tile.slice %ts[%c0, %c16] : !T -> !pl.tile<16x16xf32, vec>
  %sw = pl.tile.concat %right, %left : !pl.tile<16x16xf32, vec>, !pl.tile<16x16xf32, vec> -> !T
  %top = pl.tile.set_validshape %tt, %c8, %c32 : !T -> !Top
  %sum = pl.tile.part_add %ts, %top : !T, !Top
  %g = pl.tile.fillpad_expand %top min : !Top -> !pl.tile<32x32xf32, vec, pad = min>
  %r0 = pl.tile.store %m, %masked[%c0, %c0] : !T, !S
  %r1 = pl.tile.store %sw, %swapped[%c0, %c0] : !T, !S
  %r2 = pl.tile.store %sum, %summed[%c0, %c0] : !T, !S
  %r3 = pl.tile.store %g, %grown[%c0, %c0] : !pl.tile<32x32xf32, vec, pad = min>, !G
  return %r0, %r1, %r2, %r3 : !S, !S, !S, !G
}

func.func @products(%a: !S, %b: !S) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.part_mul %a, %b : !S
  return %p : !S
}

func.func @main(%s: !S, %t: !S, %bias: !S) -> (!S, !S, !S, !G, !S) attributes {pl.kind = #pl.kind<orchestration>} {
  %o0 = pl.tensor.create() : !S
  %o1 = pl.tensor.create() : !S
  %o2 = pl.tensor.create() : !S
  %o3 = pl.tensor.create() : !G
  %m, %sw, %sum, %g = pl.call @regions(%s, %t, %bias, %o0, %o1, %o2, %o3) : (!S, !S, !S, !S, !S, !S, !G) -> (!S, !S, !S, !G)
  %p = pl.call @products(%s, %t) : (!S, !S) -> !S
  return %m, %sw, %sum, %g, %p : !S, !S, !S, !G, !S
}
