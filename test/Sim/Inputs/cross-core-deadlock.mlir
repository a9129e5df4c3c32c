// A core group whose vector core pops a tile its cube never pushes: the
// launch deadlocks (test/Sim/cross-core.test).
func.func @stuck_aic(%x: !pl.tensor<16x32xf32>, %gm: !pl.tensor<4096xi8>) attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "stuck_c2v" from @stuck_aiv : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<4096xi8> slot_size 2048 slots 2
  return
}
func.func @stuck_aiv(%x: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>}, %gm: !pl.tensor<4096xi8>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2v = pl.system.reserve_buffer "stuck_c2v" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<4096xi8> slot_size 2048 slots 2
  %t = pl.tile.tpop_from_aic none : !pl.tile<16x32xf32, vec>
  %o = pl.tile.store %t, %x[%c0, %c0] : !pl.tile<16x32xf32, vec>, !pl.tensor<16x32xf32>
  pl.system.tfree_to_aic %t : !pl.tile<16x32xf32, vec>
  return
}
