// Step 05 — remote load and store: read a peer's copy, write into a peer's.
//
// Every rank fills its own row of `data`, then (after a barrier) reads the
// row of its right neighbour and pushes it into its left neighbour's
// `echo` window. Rank arithmetic is modulo the dynamic rank count.

!Data = !pld.dtensor<?x256xf32>
!Sig = !pld.dtensor<?x1xi32>
!Row = !pl.tile<1x256xf32, vec>

func.func @main(%input: !pl.tensor<1x256xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 1024 : i64
  %i32_bytes = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %data_bytes = arith.muli %world, %row_bytes : i64
  %sig_bytes = arith.muli %world, %i32_bytes : i64
  %data_buf = pld.tensor.alloc_window_buffer %data_bytes name "data" : i64 -> !pl.ptr
  %echo_buf = pld.tensor.alloc_window_buffer %data_bytes name "echo" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %data = pld.tensor.window %data_buf : !pl.ptr -> !Data
  %echo = pld.tensor.window %echo_buf : !pl.ptr -> !Data
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%input, %data, %echo, %sig) on %device : (!pl.tensor<1x256xf32>, !Data, !Data, !Sig) -> ()
  }
  return
}

func.func @chip(%input: !pl.tensor<1x256xf32>, %data: !Data, %echo: !Data, %sig: !Sig)
    attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @exchange(%input, %data, %echo, %sig) : (!pl.tensor<1x256xf32>, !Data, !Data, !Sig) -> ()
  return
}

func.func @exchange(%input: !pl.tensor<1x256xf32>, %data: !Data, %echo: !Data, %sig: !Sig)
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %data : !Data
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %row = arith.index_cast %me : i32 to index
  // Publish our row locally.
  %mine = pl.tile.load %input[%c0, %c0] : !pl.tensor<1x256xf32> -> !Row
  pld.tile.remote_store %mine, %data[%row, %c0] to %me none : !Row, !Data
  %s = pld.tensor.barrier %sig : !Sig
  // right = (me + 1) % n, left = (me + n - 1) % n
  %next = arith.addi %me, %one : i32
  %right = arith.remsi %next, %n : i32
  %back = arith.addi %me, %n : i32
  %back1 = arith.subi %back, %one : i32
  %left = arith.remsi %back1, %n : i32
  %right_row = arith.index_cast %right : i32 to index
  %theirs = pld.tile.remote_load %data[%right_row, %c0] from %right : !Data -> !Row
  pld.tile.remote_store %theirs, %echo[%row, %c0] to %left none : !Row, !Data
  return
}
