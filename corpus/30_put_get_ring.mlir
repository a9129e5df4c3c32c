// Bulk put/get around a ring: rank r puts x[r] into its right neighbour's
// "inbox" (pld.tensor.put), barriers, stores pair = inbox + x[r] in its
// window, barriers, and gets the right neighbour's pair (x[r] + x[r+1]) into
// out[r] (pld.tensor.get, chunked, pipelined). PyPTO: explicit put/get.

!X = !pl.tensor<?x4x64xf32>
!Slice3 = !pl.tensor<1x4x64xf32>
!Local = !pl.tensor<4x64xf32>
!Win = !pld.dtensor<4x64xf32>
!Sig = !pld.dtensor<?x1xi32>
!T = !pl.tile<4x64xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %inbox_buf = pld.tensor.alloc_window_buffer %bytes name "inbox" : i64 -> !pl.ptr
  %pair_buf = pld.tensor.alloc_window_buffer %bytes name "pair" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %inbox = pld.tensor.window %inbox_buf : !pl.ptr -> !Win
  %pair = pld.tensor.window %pair_buf : !pl.ptr -> !Win
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @chip(%xr, %or, %inbox, %pair, %sig) on %r : (!Local, !Local, !Win, !Win, !Sig) -> ()
  }
  return
}

func.func @chip(%x: !Local, %out: !Local, %inbox: !Win, %pair: !Win, %sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @ring_pairs(%x, %out, %inbox, %pair, %sig) : (!Local, !Local, !Win, !Win, !Sig) -> ()
  return
}

func.func @ring_pairs(%x: !Local, %out: !Local {pl.direction = #pl.direction<out>}, %inbox: !Win, %pair: !Win, %sig: !Sig)
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %inbox : !Win
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %next = arith.addi %me, %one : i32
  %right = arith.remsi %next, %n : i32
  pld.tensor.put %inbox to %right from %x none chunk 0, 0 : !Win, !Local
  %s1 = pld.tensor.barrier %sig : !Sig
  %got = pl.tile.load %inbox[%c0, %c0] : !Win -> !T
  %mine = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %sum = pl.tile.add %got, %mine : !T, !T -> !T
  %st = pl.tile.store %sum, %pair[%c0, %c0] : !T, !Win
  %s2 = pld.tensor.barrier %sig : !Sig
  pld.tensor.get %out to %right from %pair chunk 2, 32 pipeline : !Local, !Win
  return
}
