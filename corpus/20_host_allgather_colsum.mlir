// Host builtin allgather: each device reduces its slice x[r] (16x64) to its
// column sums (a [1, 64] window), the host gathers every device's row into a
// [W, 64] window, and device r writes out[r] = colsum[(r+1) % W] - colsum[r].
// PyPTO: host allgather on a [W] signal; kernels index rows by their rank.

!X = !pl.tensor<?x16x64xf32>
!Slice3 = !pl.tensor<1x16x64xf32>
!Local = !pl.tensor<16x64xf32>
!O = !pl.tensor<?x64xf32>
!ORow = !pl.tensor<1x64xf32>
!Row = !pld.dtensor<1x64xf32>
!All = !pld.dtensor<?x64xf32>
!Sig = !pld.dtensor<?xi32>
!T = !pl.tile<16x64xf32, vec>
!R = !pl.tile<1x64xf32, vec>

func.func @main(%x: !X, %out: !O {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 256 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %all_bytes = arith.muli %world, %row_bytes : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %rbuf = pld.tensor.alloc_window_buffer %row_bytes name "colsum" : i64 -> !pl.ptr
  %gbuf = pld.tensor.alloc_window_buffer %all_bytes name "gathered" : i64 -> !pl.ptr
  %sbuf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %row = pld.tensor.window %rbuf : !pl.ptr -> !Row
  %all = pld.tensor.window %gbuf : !pl.ptr -> !All
  %sig = pld.tensor.window %sbuf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    pld.dispatch @stage(%xr, %row) on %r : (!Local, !Row) -> ()
  }
  %gathered = pld.tensor.allgather %row, %all, %sig : !Row, !All, !Sig
  scf.for %r = %c0 to %devices step %c1 {
    %orow = pl.tensor.slice %out[%r, %c0] : !O -> !ORow
    pld.dispatch @finish(%gathered, %orow) on %r : (!All, !ORow) -> ()
  }
  return
}

func.func @stage(%x: !Local, %row: !Row) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @colsum(%x, %row) : (!Local, !Row) -> ()
  return
}

func.func @colsum(%x: !Local, %row: !Row {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %s = pl.tile.col_sum %t : !T -> !R
  %st = pl.tile.store %s, %row[%c0, %c0] : !R, !Row
  return
}

func.func @finish(%all: !All, %out: !ORow) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @neighbour_diff(%all, %out) : (!All, !ORow) -> ()
  return
}

func.func @neighbour_diff(%all: !All, %out: !ORow {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %all : !All
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %next = arith.addi %me, %one : i32
  %right = arith.remsi %next, %n : i32
  %mine_row = arith.index_cast %me : i32 to index
  %right_row = arith.index_cast %right : i32 to index
  %a = pl.tile.load %all[%right_row, %c0] : !All -> !R
  %b = pl.tile.load %all[%mine_row, %c0] : !All -> !R
  %d = pl.tile.sub %a, %b : !R, !R -> !R
  %st = pl.tile.store %d, %out[%c0, %c0] : !R, !ORow
  return
}
