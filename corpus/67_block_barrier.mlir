// Two phases across the blocks of one launch, split by a barrier: each of
// 4 blocks (started together: sync_start) stores its row of x squared,
// waits at pl.system.syncall until every block has, then reads all four
// rows back and stores the sum of the other blocks' squares. Without the
// barrier a block could read rows not written yet.
!X = !pl.tensor<4x64xf32>
!Row = !pl.tile<1x64xf32, vec>
!All = !pl.tile<4x64xf32, vec>

func.func @others(%x: !X, %sq: !X {pl.direction = #pl.direction<inout>},
                  %out: !X {pl.direction = #pl.direction<out>}) -> (!X, !X) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %b = pl.tile.get_block_idx
  %t = pl.tile.load %x[%b, %c0] : !X -> !Row
  %s = pl.tile.mul %t, %t : !Row, !Row -> !Row
  %stored = pl.tile.store %s, %sq[%b, %c0] : !Row, !X
  pl.system.syncall hard aiv_only
  %all = pl.tile.load %stored[%c0, %c0] : !X -> !All
  %total = pl.tile.col_sum %all : !All -> !Row
  %rest = pl.tile.sub %total, %s : !Row, !Row -> !Row
  %o = pl.tile.store %rest, %out[%b, %c0] : !Row, !X
  return %stored, %o : !X, !X
}

func.func @main(%x: !X) -> (!X, !X) attributes {pl.kind = #pl.kind<orchestration>} {
  %c4 = arith.constant 4 : index
  %sq = pl.tensor.create() : !X
  %out = pl.tensor.create() : !X
  %s, %o, %t = pl.submit @others(%x, %sq, %out) blocks %c4 sync_start : (!X, !X, !X) -> (!X, !X)
  return %s, %o : !X, !X
}
