// Random bits from a key and a counter, as dropout masks and sampling
// draw them: pl.tensor.random (a 4x256 ui32 block, ten rounds) and, at
// the tile level, an i32 tile with a partial valid region and seven rounds
// whose counter's low words carry into the high ones, both from seeds the
// orchestration passes. a2a3 has no TRANDOM: pl-lower-math-ops computes
// each element's Philox-4x32 on the scalar pipe.
!U = !pl.tensor<4x256xui32>
!I = !pl.tensor<3x40xi32>

func.func @block(%k0: i32, %k1: i32, %c0: i32, %c1: i32) -> !U attributes {pl.kind = #pl.kind<incore>} {
  %c2 = arith.constant 3 : i32
  %c3 = arith.constant 4 : i32
  %r = pl.tensor.random key(%k0, %k1) counter(%c0, %c1, %c2, %c3) : !U
  return %r : !U
}

func.func @carry(%k0: i32, %k1: i32, %o: !I {pl.direction = #pl.direction<out>}) -> !I attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %lo = arith.constant -16 : i32
  %hi = arith.constant -1 : i32
  %two = arith.constant 5 : i32
  %zero = arith.constant 0 : i32
  %r = pl.tile.random key(%k0, %k1) counter(%lo, %hi, %two, %zero) rounds 7 : !pl.tile<3x40xi32, vec, valid = 3x33>
  %w = pl.tile.store %r, %o[%c0, %c0] : !pl.tile<3x40xi32, vec, valid = 3x33>, !I
  return %w : !I
}

func.func @main(%k0: i32, %k1: i32, %c0: i32, %c1: i32) -> (!U, !I) attributes {pl.kind = #pl.kind<orchestration>} {
  %u = pl.call @block(%k0, %k1, %c0, %c1) : (i32, i32, i32, i32) -> !U
  %o = pl.tensor.create() : !I
  %i = pl.call @carry(%k0, %k1, %o) : (i32, i32, !I) -> !I
  return %u, %i : !U, !I
}
