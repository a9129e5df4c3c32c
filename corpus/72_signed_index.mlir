// Signed index arithmetic on negative values, on the host and in a kernel:
// the orchestration reads n < 0 and d > 0 from memory, divides n by 4
// itself, and passes n, d and its quotient to a kernel that fills one row
// of %out per result: n / d (truncated), n % d, floor(n / d), ceil(n / d),
// n >> 1 (arithmetic) and the host's n / 4. C's size_t, which index
// becomes, would take each negative value for a huge one.
!O = !pl.tensor<6x64xf32>
!R = !pl.tile<1x64xf32, vec>
!M = !pl.tensor<2xi32>

func.func @rows(%out: !O {pl.direction = #pl.direction<out>}, %n: index, %d: index, %h: index) -> !O attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %q = arith.divsi %n, %d : index
  %r = arith.remsi %n, %d : index
  %f = arith.floordivsi %n, %d : index
  %c = arith.ceildivsi %n, %d : index
  %s = arith.shrsi %n, %c1 : index
  %base = pl.tile.full %zero : f32 -> !R
  %i0 = arith.index_cast %q : index to i64
  %v0 = arith.sitofp %i0 : i64 to f32
  %t0 = pl.tile.adds %base, %v0 : !R, f32
  %o0 = pl.tile.store %t0, %out[%c0, %c0] : !R, !O
  %i1 = arith.index_cast %r : index to i64
  %v1 = arith.sitofp %i1 : i64 to f32
  %t1 = pl.tile.adds %base, %v1 : !R, f32
  %o1 = pl.tile.store %t1, %o0[%c1, %c0] : !R, !O
  %i2 = arith.index_cast %f : index to i64
  %v2 = arith.sitofp %i2 : i64 to f32
  %t2 = pl.tile.adds %base, %v2 : !R, f32
  %o2 = pl.tile.store %t2, %o1[%c2, %c0] : !R, !O
  %i3 = arith.index_cast %c : index to i64
  %v3 = arith.sitofp %i3 : i64 to f32
  %t3 = pl.tile.adds %base, %v3 : !R, f32
  %o3 = pl.tile.store %t3, %o2[%c3, %c0] : !R, !O
  %i4 = arith.index_cast %s : index to i64
  %v4 = arith.sitofp %i4 : i64 to f32
  %t4 = pl.tile.adds %base, %v4 : !R, f32
  %o4 = pl.tile.store %t4, %o3[%c4, %c0] : !R, !O
  %i5 = arith.index_cast %h : index to i64
  %v5 = arith.sitofp %i5 : i64 to f32
  %t5 = pl.tile.adds %base, %v5 : !R, f32
  %o5 = pl.tile.store %t5, %o4[%c5, %c0] : !R, !O
  return %o5 : !O
}

func.func @main(%meta: !M) -> !O attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n32 = pl.tensor.read %meta[%c0] : !M -> i32
  %d32 = pl.tensor.read %meta[%c1] : !M -> i32
  %n = arith.index_cast %n32 : i32 to index
  %d = arith.index_cast %d32 : i32 to index
  %h = arith.divsi %n, %c4 : index
  %out = pl.tensor.create() : !O
  %r = pl.call @rows(%out, %n, %d, %h) : (!O, index, index, index) -> !O
  return %r : !O
}
