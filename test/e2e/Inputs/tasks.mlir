// Tasks with explicit dependencies, an SPMD block count and a synchronised
// start (the simulator and pto-run run the 4 blocks in turn; each writes
// the same result).
!M = !pl.tensor<64x64xf32>
!Whole = !pl.tile<64x64xf32, vec>
func.func @chain(%x: !M) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  %c4 = arith.constant 4 : index
  %tmp = pl.tensor.create() : !M
  %t1, %task1 = pl.submit @twice(%x, %tmp) : (!M, !M) -> !M
  %out = pl.tensor.create() : !M
  %o, %task2 = pl.submit @twice(%t1, %out) deps(%task1) blocks %c4 sync_start : (!M, !M) -> !M
  return %o : !M
}
func.func @twice(%a: !M, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %a[%c0, %c0] : !M -> !Whole
  %d = pl.tile.add %t, %t : !Whole, !Whole -> !Whole
  %r = pl.tile.store %d, %y[%c0, %c0] : !Whole, !M
  return %r : !M
}
