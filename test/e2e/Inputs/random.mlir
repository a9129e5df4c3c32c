// Random tiles for random-vs-pto-isa.test: the seeds, shapes, valid
// extents and rounds of Inputs/trandom.cpp.
!W = !pl.tensor<4x256xui32>
!C = !pl.tensor<3x40xi32>
!T = !pl.tensor<2x520xui32>

func.func @random(%w: !W {pl.direction = #pl.direction<out>}, %c: !C {pl.direction = #pl.direction<out>}, %t: !T {pl.direction = #pl.direction<out>}) -> (!W, !C, !T) attributes {pl.kind = #pl.kind<aiv>} {
  %i0 = arith.constant 0 : index
  %k0 = arith.constant 4660 : i32
  %k1 = arith.constant 22136 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %four = arith.constant 4 : i32
  %wide = pl.tile.random key(%k0, %k1) counter(%one, %two, %three, %four) : !pl.tile<4x256xui32, vec>
  %w2 = pl.tile.store %wide, %w[%i0, %i0] : !pl.tile<4x256xui32, vec>, !W
  %seven = arith.constant 7 : i32
  %minus9 = arith.constant -9 : i32
  %lo = arith.constant -16 : i32
  %hi = arith.constant -1 : i32
  %five = arith.constant 5 : i32
  %zero = arith.constant 0 : i32
  %carry = pl.tile.random key(%seven, %minus9) counter(%lo, %hi, %five, %zero) rounds 7 : !pl.tile<3x40xi32, vec, valid = 3x33>
  %c2 = pl.tile.store %carry, %c[%i0, %i0] : !pl.tile<3x40xi32, vec, valid = 3x33>, !C
  %m1 = arith.constant -1 : i32
  %near = arith.constant -256 : i32
  %tall = pl.tile.random key(%m1, %m1) counter(%near, %zero, %zero, %zero) : !pl.tile<2x520xui32, vec>
  %t2 = pl.tile.store %tall, %t[%i0, %i0] : !pl.tile<2x520xui32, vec>, !T
  return %w2, %c2, %t2 : !W, !C, !T
}
