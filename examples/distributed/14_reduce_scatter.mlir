// Step 14 — reduce_scatter.
//
// Hand-rolled: stage all chunks (row c of `data` is this rank's chunk c),
// barrier, sum chunk `me` over every peer, a second barrier (no rank may
// overwrite its rows while others still read them), store into row `me`.
// Builtin: pld.tensor.reduce_scatter (sum only) — the reduce-scatter half
// of a two-phase allreduce.

!Data = !pld.dtensor<?x256xf32>
!Sig = !pld.dtensor<?x1xi32>
!Row = !pl.tile<1x256xf32, vec>

func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %world = pld.system.world_size : i64
  %row_1024 = arith.constant 1024 : i64
  %bytes_1024 = arith.muli %world, %row_1024 : i64
  %data_buf = pld.tensor.alloc_window_buffer %bytes_1024 name "data" : i64 -> !pl.ptr
  %data = pld.tensor.window %data_buf : !pl.ptr -> !Data
  %row_4 = arith.constant 4 : i64
  %bytes_4 = arith.muli %world, %row_4 : i64
  %signal_buf = pld.tensor.alloc_window_buffer %bytes_4 name "signal" : i64 -> !pl.ptr
  %signal = pld.tensor.window %signal_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%data, %signal) on %device : (!Data, !Sig) -> ()
  }
  return
}

func.func @chip(%data: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @reduce_scatter_by_hand(%data, %signal) : (!Data, !Sig) -> ()
  pl.call @reduce_scatter_builtin(%data, %signal) : (!Data, !Sig) -> ()
  return
}

func.func @reduce_scatter_by_hand(%data: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !Sig
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %row = arith.index_cast %me : i32 to index
  %peers = arith.index_cast %n : i32 to index
  %s1 = pld.tensor.barrier %signal : !Sig
  %zero = arith.constant 0.0 : f32
  %init = pl.tile.full %zero : f32 -> !Row
  %sum = scf.for %p = %c0 to %peers step %c1 iter_args(%acc = %init) -> (!Row) {
    %peer = arith.index_cast %p : index to i32
    %chunk = pld.tile.remote_load %data[%row, %c0] from %peer : !Data -> !Row
    %acc2 = pl.tile.add %acc, %chunk : !Row, !Row -> !Row
    scf.yield %acc2 : !Row
  }
  %s2 = pld.tensor.barrier %signal : !Sig
  pld.tile.remote_store %sum, %data[%row, %c0] to %me none : !Row, !Data
  return
}

func.func @reduce_scatter_builtin(%data: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.reduce_scatter %data, %signal sum : !Data, !Sig
  return
}
