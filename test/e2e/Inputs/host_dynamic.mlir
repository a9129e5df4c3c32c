// Host collectives on windows sized by the rank count (`?x256`: P rows):
// each device stages rows P·rank .. P·rank + P - 1 of `input` into three
// windows, then the host runs a sum allreduce, a broadcast from rank 1, a
// reduce-scatter and an allgather of each rank's first row.
!Data = !pld.dtensor<?x256xf32>
!Row = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<?xi32>
!R = !pl.tile<1x256xf32, vec>

func.func @main(%input: !pl.tensor<?x256xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 1024 : i64
  %cell_bytes = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %bytes = arith.muli %world, %row_bytes : i64
  %sig_bytes = arith.muli %world, %cell_bytes : i64
  %a_buf = pld.tensor.alloc_window_buffer %bytes name "summed" : i64 -> !pl.ptr
  %c_buf = pld.tensor.alloc_window_buffer %bytes name "broadcast" : i64 -> !pl.ptr
  %d_buf = pld.tensor.alloc_window_buffer %bytes name "scattered" : i64 -> !pl.ptr
  %g_buf = pld.tensor.alloc_window_buffer %bytes name "gathered" : i64 -> !pl.ptr
  %r_buf = pld.tensor.alloc_window_buffer %row_bytes name "first_row" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %a = pld.tensor.window %a_buf : !pl.ptr -> !Data
  %c = pld.tensor.window %c_buf : !pl.ptr -> !Data
  %d = pld.tensor.window %d_buf : !pl.ptr -> !Data
  %g = pld.tensor.window %g_buf : !pl.ptr -> !Data
  %r = pld.tensor.window %r_buf : !pl.ptr -> !Row
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @stage(%input, %a, %c, %d, %g, %r, %sig) on %device : (!pl.tensor<?x256xf32>, !Data, !Data, !Data, !Data, !Row, !Sig) -> ()
  }
  %a2 = pld.tensor.allreduce %a sum mesh cores 1 : !Data
  %c2 = pld.tensor.broadcast %c, %sig root 1 : !Data, !Sig
  %d2 = pld.tensor.reduce_scatter %d, %sig sum : !Data, !Sig
  %g2 = pld.tensor.allgather %r, %g, %sig : !Row, !Data, !Sig
  return
}

func.func @stage(%input: !pl.tensor<?x256xf32>, %a: !Data, %c: !Data, %d: !Data, %g: !Data, %r: !Row, %sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy_in(%input, %a, %c, %d, %g, %r) : (!pl.tensor<?x256xf32>, !Data, !Data, !Data, !Data, !Row) -> ()
  return
}

func.func @copy_in(%input: !pl.tensor<?x256xf32>, %a: !Data, %c: !Data, %d: !Data, %g: !Data, %r: !Row) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %a : !Data
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %mine = arith.index_cast %me : i32 to index
  %ranks = arith.index_cast %n : i32 to index
  %first = arith.muli %mine, %ranks : index
  scf.for %i = %c0 to %ranks step %c1 {
    %at = arith.addi %first, %i : index
    %row = pl.tile.load %input[%at, %c0] : !pl.tensor<?x256xf32> -> !R
    %a1 = pl.tile.store %row, %a[%i, %c0] : !R, !Data
    %c1s = pl.tile.store %row, %c[%i, %c0] : !R, !Data
    %d1 = pl.tile.store %row, %d[%i, %c0] : !R, !Data
    %g1 = pl.tile.store %row, %g[%i, %c0] : !R, !Data
  }
  %lead = pl.tile.load %input[%first, %c0] : !pl.tensor<?x256xf32> -> !R
  %r1 = pl.tile.store %lead, %r[%c0, %c0] : !R, !Row
  return
}
