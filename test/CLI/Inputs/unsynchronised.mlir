// A planned kernel whose synchronisation misses the MTE2 -> V edge.
func.func @racy(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 8192 : i64}} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %e = pl.tile.exp %t {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
  pl.system.sync_src set v wait mte3 event 0
  pl.system.sync_dst set v wait mte3 event 0
  %r = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  pl.system.pipe_barrier all
  return %r : !pl.tensor<16x64xf32>
}
