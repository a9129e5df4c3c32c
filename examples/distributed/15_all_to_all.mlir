// Step 15 — all_to_all.
//
// The host holds P rows per rank (P * P rows in all) and gives rank s its
// block: row d of it is meant for rank d. Hand-rolled: put each row into
// row `me` of its destination's target, barrier. Builtin:
// pld.tensor.all_to_all — out of place: input and target are different
// buffers. Either way rank d ends with row s = the host's row s * P + d.

!Input = !pl.tensor<?x256xf32>
!Block = !pl.tensor<?x256xf32>
!Data = !pld.dtensor<?x256xf32>
!Sig = !pld.dtensor<?x1xi32>
!Row = !pl.tile<1x256xf32, vec>

func.func @main(%input: !Input) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %world = pld.system.world_size : i64
  %row_1024 = arith.constant 1024 : i64
  %bytes_1024 = arith.muli %world, %row_1024 : i64
  %target_buf = pld.tensor.alloc_window_buffer %bytes_1024 name "target" : i64 -> !pl.ptr
  %target = pld.tensor.window %target_buf : !pl.ptr -> !Data
  %swapped_buf = pld.tensor.alloc_window_buffer %bytes_1024 name "swapped" : i64 -> !pl.ptr
  %swapped = pld.tensor.window %swapped_buf : !pl.ptr -> !Data
  %row_4 = arith.constant 4 : i64
  %bytes_4 = arith.muli %world, %row_4 : i64
  %signal_buf = pld.tensor.alloc_window_buffer %bytes_4 name "signal" : i64 -> !pl.ptr
  %signal = pld.tensor.window %signal_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    %first = arith.muli %device, %devices : index
    %block = pl.tensor.slice %input[%first, %c0] sizes(%devices) : !Input -> !Block
    pld.dispatch @chip(%block, %target, %swapped, %signal) on %device : (!Block, !Data, !Data, !Sig) -> ()
  }
  return
}

func.func @chip(%input: !Block, %target: !Data, %swapped: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @all_to_all_by_hand(%input, %target, %signal) : (!Block, !Data, !Sig) -> ()
  pl.call @all_to_all_builtin(%input, %swapped, %signal) : (!Block, !Data, !Sig) -> ()
  return
}

func.func @all_to_all_by_hand(%input: !Block, %target: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %signal : !Sig
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %row = arith.index_cast %me : i32 to index
  %peers = arith.index_cast %n : i32 to index
  scf.for %d = %c0 to %peers step %c1 {
    %dest = arith.index_cast %d : index to i32
    %slice = pl.tile.load %input[%d, %c0] : !Block -> !Row
    pld.tile.remote_store %slice, %target[%row, %c0] to %dest none : !Row, !Data
  }
  %s = pld.tensor.barrier %signal : !Sig
  return
}

func.func @all_to_all_builtin(%input: !Block, %swapped: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.all_to_all %input, %swapped, %signal : !Block, !Data, !Sig
  return
}
