// Halo exchange by remote load: rank r holds rows 16r..16r+15 of a periodic
// (16W)x32 grid; after a barrier each row computes up + here + down, halo rows
// read from neighbours' windows (pld.tile.remote_load), and col_sum(y) is added
// into rank 0's "total" (pld.tile.remote_store ... add). PyPTO: explicit remote access.

!X = !pl.tensor<?x16x32xf32>
!Slice3 = !pl.tensor<1x16x32xf32>
!Local = !pl.tensor<16x32xf32>
!Blk = !pld.dtensor<16x32xf32>
!Tot = !pld.dtensor<1x32xf32>
!Sig = !pld.dtensor<?x1xi32>
!T = !pl.tile<16x32xf32, vec>
!R = !pl.tile<1x32xf32, vec>

func.func @main(%x: !X, %y: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %blk_bytes = arith.constant 2048 : i64
  %tot_bytes = arith.constant 128 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %blk_buf = pld.tensor.alloc_window_buffer %blk_bytes name "block" : i64 -> !pl.ptr
  %tot_buf = pld.tensor.alloc_window_buffer %tot_bytes name "total" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %blk = pld.tensor.window %blk_buf : !pl.ptr -> !Blk
  %tot = pld.tensor.window %tot_buf : !pl.ptr -> !Tot
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %ys = pl.tensor.slice %y[%r, %c0, %c0] : !X -> !Slice3
    %yr = pl.tensor.view %ys : !Slice3 -> !Local
    pld.dispatch @chip(%xr, %yr, %blk, %tot, %sig) on %r : (!Local, !Local, !Blk, !Tot, !Sig) -> ()
  }
  return
}

func.func @chip(%x: !Local, %y: !Local, %blk: !Blk, %tot: !Tot, %sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @stencil(%x, %y, %blk, %tot, %sig) : (!Local, !Local, !Blk, !Tot, !Sig) -> ()
  return
}

func.func @stencil(%x: !Local, %y: !Local {pl.direction = #pl.direction<out>}, %blk: !Blk, %tot: !Tot, %sig: !Sig)
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1 : i32
  %root = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ctx = pld.system.get_comm_ctx %blk : !Blk
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %next = arith.addi %me, %one : i32
  %right = arith.remsi %next, %n : i32
  %back = arith.addi %me, %n : i32
  %back1 = arith.subi %back, %one : i32
  %left = arith.remsi %back1, %n : i32
  %xt = pl.tile.load %x[%c0, %c0] : !Local -> !T
  pld.tile.remote_store %xt, %blk[%c0, %c0] to %me none : !T, !Blk
  %s = pld.tensor.barrier %sig : !Sig
  %init = pl.tile.full %zero : f32 -> !R
  %colsum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (!R) {
    %first = arith.cmpi eq, %i, %c0 : index
    %last = arith.cmpi eq, %i, %c15 : index
    %im1 = arith.subi %i, %c1 : index
    %ip1 = arith.addi %i, %c1 : index
    %up_rank = arith.select %first, %left, %me : i32
    %up_row = arith.select %first, %c15, %im1 : index
    %down_rank = arith.select %last, %right, %me : i32
    %down_row = arith.select %last, %c0, %ip1 : index
    %up = pld.tile.remote_load %blk[%up_row, %c0] from %up_rank : !Blk -> !R
    %down = pld.tile.remote_load %blk[%down_row, %c0] from %down_rank : !Blk -> !R
    %here = pl.tile.load %x[%i, %c0] : !Local -> !R
    %a = pl.tile.add %up, %here : !R, !R -> !R
    %b = pl.tile.add %a, %down : !R, !R -> !R
    %st = pl.tile.store %b, %y[%i, %c0] : !R, !Local
    %acc2 = pl.tile.add %acc, %b : !R, !R -> !R
    scf.yield %acc2 : !R
  }
  pld.tile.remote_store %colsum, %tot[%c0, %c0] to %root add : !R, !Tot
  return
}
