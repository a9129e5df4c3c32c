// A loop bound read from memory: the orchestration reads n = meta[0] (i32),
// loops over the first n 16-row blocks passing slices of %x and of the inout
// %y to a sigmoid kernel (its out parameter is the slice of %y; later rows
// keep their values), and writes the row count back: meta[1] = 16 * n.
!X = !pl.tensor<128x32xf32>
!B = !pl.tensor<16x32xf32>
!M = !pl.tensor<2xi32>

func.func @sigmoid(%x: !B, %out: !B {pl.direction = #pl.direction<out>}) -> !B attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %n = pl.tensor.neg %x : !B
  %e = pl.tensor.exp %n : !B
  %d = pl.tensor.adds %e, %one : !B, f32
  %s = pl.tensor.recip %d : !B
  %o = pl.tensor.assemble %s into %out[%c0, %c0] : !B, !B
  return %o : !B
}

func.func @main(%x: !X, %y: !X {pl.direction = #pl.direction<inout>}, %meta: !M {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %n32 = pl.tensor.read %meta[%c0] : !M -> i32
  %n = arith.index_cast %n32 : i32 to index
  scf.for %i = %c0 to %n step %c1 {
    %row = arith.muli %i, %c16 : index
    %xs = pl.tensor.slice %x[%row, %c0] : !X -> !B
    %ys = pl.tensor.slice %y[%row, %c0] : !X -> !B
    %r = pl.call @sigmoid(%xs, %ys) : (!B, !B) -> !B
  }
  %c16i = arith.constant 16 : i32
  %done = arith.muli %n32, %c16i : i32
  %meta2 = pl.tensor.write %meta[%c1], %done : !M, i32
  return
}
