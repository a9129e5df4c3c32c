// Step 12 — broadcast.
//
// Hand-rolled: the root (rank 0) stages its data in its window, a barrier,
// then every rank reads the root's copy. Builtin: pld.tensor.broadcast, whose
// target is each rank's own [1, 256] slice (static: it is pulled whole).

!Data = !pld.dtensor<?x256xf32>
!Slice = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<?x1xi32>
!Row = !pl.tile<1x256xf32, vec>

func.func @main(%input: !pl.tensor<1x256xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %world = pld.system.world_size : i64
  %row_1024 = arith.constant 1024 : i64
  %bytes_1024 = arith.muli %world, %row_1024 : i64
  %data_buf = pld.tensor.alloc_window_buffer %bytes_1024 name "data" : i64 -> !pl.ptr
  %data = pld.tensor.window %data_buf : !pl.ptr -> !Data
  %slice_buf = pld.tensor.alloc_window_buffer %row_1024 name "slice" : i64 -> !pl.ptr
  %slice = pld.tensor.window %slice_buf : !pl.ptr -> !Slice
  %row_4 = arith.constant 4 : i64
  %bytes_4 = arith.muli %world, %row_4 : i64
  %signal_buf = pld.tensor.alloc_window_buffer %bytes_4 name "signal" : i64 -> !pl.ptr
  %signal = pld.tensor.window %signal_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%input, %data, %slice, %signal) on %device : (!pl.tensor<1x256xf32>, !Data, !Slice, !Sig) -> ()
  }
  return
}

func.func @chip(%input: !pl.tensor<1x256xf32>, %data: !Data, %slice: !Slice, %signal: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @broadcast_by_hand(%input, %data, %signal) : (!pl.tensor<1x256xf32>, !Data, !Sig) -> ()
  pl.call @broadcast_builtin(%slice, %signal) : (!Slice, !Sig) -> ()
  return
}

func.func @broadcast_by_hand(%input: !pl.tensor<1x256xf32>, %data: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !Sig
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %row = arith.index_cast %me : i32 to index
  %peers = arith.index_cast %n : i32 to index
  %c0_i32 = arith.constant 0 : i32
  %is_root = arith.cmpi eq, %me, %c0_i32 : i32
  scf.if %is_root {
    %mine = pl.tile.load %input[%c0, %c0] : !pl.tensor<1x256xf32> -> !Row
    pld.tile.remote_store %mine, %data[%c0, %c0] to %me none : !Row, !Data
  }
  %s = pld.tensor.barrier %signal : !Sig
  %root = pld.tile.remote_load %data[%c0, %c0] from %c0_i32 : !Data -> !Row
  pld.tile.remote_store %root, %data[%row, %c0] to %me none : !Row, !Data
  return
}

func.func @broadcast_builtin(%slice: !Slice, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.broadcast %slice, %signal root 0 : !Slice, !Sig
  return
}
