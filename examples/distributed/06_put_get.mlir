// Step 06 — bulk put and get between global memory and peers' windows.
//
// Each rank puts its local input (a plain GM tensor) into its row of the
// next rank's `inbox`, waits at a barrier, then gets from the previous
// rank's `inbox` the row that rank received into its own row of `copy`
// (one row per rank: the devices never write the same bytes). Transfers
// bounce through a vector staging tile; the whole-tensor put of a dynamic
// row count needs a static `chunk` of rows.

!Box = !pld.dtensor<?x256xf32>
!Sig = !pld.dtensor<?x1xi32>

func.func @main(%input: !pl.tensor<1x256xf32>, %copy: !pl.tensor<?x256xf32>)
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 1024 : i64
  %i32_bytes = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %box_bytes = arith.muli %world, %row_bytes : i64
  %sig_bytes = arith.muli %world, %i32_bytes : i64
  %box_buf = pld.tensor.alloc_window_buffer %box_bytes name "inbox" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %box = pld.tensor.window %box_buf : !pl.ptr -> !Box
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%input, %copy, %box, %sig) on %device : (!pl.tensor<1x256xf32>, !pl.tensor<?x256xf32>, !Box, !Sig) -> ()
  }
  return
}

func.func @chip(%input: !pl.tensor<1x256xf32>, %copy: !pl.tensor<?x256xf32>, %box: !Box, %sig: !Sig)
    attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @ring_copy(%input, %copy, %box, %sig) : (!pl.tensor<1x256xf32>, !pl.tensor<?x256xf32>, !Box, !Sig) -> ()
  return
}

func.func @ring_copy(%input: !pl.tensor<1x256xf32>, %copy: !pl.tensor<?x256xf32> {pl.direction = #pl.direction<out>},
                     %box: !Box, %sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %box : !Box
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %next = arith.addi %me, %one : i32
  %right = arith.remsi %next, %n : i32
  %back = arith.addi %me, %n : i32
  %back1 = arith.subi %back, %one : i32
  %left = arith.remsi %back1, %n : i32
  %row = arith.index_cast %me : i32 to index
  pld.tensor.put %box to %right from %input region [%row, %c0] [%c0, %c0] [%c1, %c256] none chunk 0, 0 : !Box, !pl.tensor<1x256xf32>
  %s = pld.tensor.barrier %sig : !Sig
  // The row the left neighbour received: (left - 1) mod n.
  %left_back = arith.addi %left, %n : i32
  %left_back1 = arith.subi %left_back, %one : i32
  %left_left = arith.remsi %left_back1, %n : i32
  %received = arith.index_cast %left_left : i32 to index
  pld.tensor.get %copy to %left from %box region [%row, %c0] [%received, %c0] [%c1, %c256] chunk 1, 256 : !pl.tensor<?x256xf32>, !Box
  return
}
