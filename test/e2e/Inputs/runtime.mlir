// An orchestration for the runtime path: a temporary filled row by row by
// one kernel (the row index and a scale as scalar task arguments), then
// added to the input by another into the output the runtime hands in.
!M = !pl.tensor<64x64xf32>
!Row = !pl.tile<1x64xf32, vec>
!Whole = !pl.tile<64x64xf32, vec>

func.func @rows(%x: !M) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant 3.0 : f32
  %tmp = pl.tensor.create() : !M
  %scaled = scf.for %row = %c0 to %c64 step %c1 iter_args(%t = %tmp) -> (!M) {
    %t2 = pl.call @scale_row(%x, %row, %s, %t) : (!M, index, f32, !M) -> !M
    scf.yield %t2 : !M
  }
  %out = pl.tensor.create() : !M
  %sum = pl.call @subtract(%scaled, %x, %out) : (!M, !M, !M) -> !M
  return %sum : !M
}

func.func @scale_row(%x: !M, %row: index, %s: f32, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%row, %c0] : !M -> !Row
  %d = pl.tile.muls %t, %s : !Row, f32
  %r = pl.tile.store %d, %y[%row, %c0] : !Row, !M
  return %r : !M
}

func.func @subtract(%a: !M, %b: !M, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %ta = pl.tile.load %a[%c0, %c0] : !M -> !Whole
  %tb = pl.tile.load %b[%c0, %c0] : !M -> !Whole
  %d = pl.tile.sub %ta, %tb : !Whole, !Whole -> !Whole
  %r = pl.tile.store %d, %y[%c0, %c0] : !Whole, !M
  return %r : !M
}
