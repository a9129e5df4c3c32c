// Step 15 — all_to_all.
//
// Hand-rolled: put a distinct row per destination (row d of the local
// input goes to row `me` of rank d's target), barrier, read back.
// Builtin: pld.tensor.all_to_all — out of place: input and target are
// different buffers.

!Data = !pld.dtensor<?x256xf32>
!Sig = !pld.dtensor<?x1xi32>
!Row = !pl.tile<1x256xf32, vec>
!Target4 = !pld.dtensor<4x256xf32>

func.func @main(%input: !pl.tensor<4x256xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %world = pld.system.world_size : i64
  %row_1024 = arith.constant 1024 : i64
  %bytes_1024 = arith.muli %world, %row_1024 : i64
  %target_buf = pld.tensor.alloc_window_buffer %bytes_1024 name "target" : i64 -> !pl.ptr
  %target = pld.tensor.window %target_buf : !pl.ptr -> !Data
  %target4_buf = pld.tensor.alloc_window_buffer %bytes_1024 name "target4" : i64 -> !pl.ptr
  %target4 = pld.tensor.window %target4_buf : !pl.ptr -> !Target4
  %row_4 = arith.constant 4 : i64
  %bytes_4 = arith.muli %world, %row_4 : i64
  %signal_buf = pld.tensor.alloc_window_buffer %bytes_4 name "signal" : i64 -> !pl.ptr
  %signal = pld.tensor.window %signal_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%input, %target, %target4, %signal) on %device : (!pl.tensor<4x256xf32>, !Data, !Target4, !Sig) -> ()
  }
  return
}

func.func @chip(%input: !pl.tensor<4x256xf32>, %target: !Data, %target4: !Target4, %signal: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @all_to_all_by_hand(%input, %target, %target4, %signal) : (!pl.tensor<4x256xf32>, !Data, !Target4, !Sig) -> ()
  pl.call @all_to_all_builtin(%input, %target, %target4, %signal) : (!pl.tensor<4x256xf32>, !Data, !Target4, !Sig) -> ()
  return
}

func.func @all_to_all_by_hand(%input: !pl.tensor<4x256xf32>, %target: !Data, %target4: !Target4, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !Sig
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %row = arith.index_cast %me : i32 to index
  %peers = arith.index_cast %n : i32 to index
  scf.for %d = %c0 to %peers step %c1 {
    %dest = arith.index_cast %d : index to i32
    %slice = pl.tile.load %input[%d, %c0] : !pl.tensor<4x256xf32> -> !Row
    pld.tile.remote_store %slice, %target[%row, %c0] to %dest none : !Row, !Data
  }
  %s = pld.tensor.barrier %signal : !Sig
  return
}

func.func @all_to_all_builtin(%input: !pl.tensor<4x256xf32>, %target: !Data, %target4: !Target4, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.all_to_all %input, %target4, %signal : !pl.tensor<4x256xf32>, !Target4, !Sig
  return
}
