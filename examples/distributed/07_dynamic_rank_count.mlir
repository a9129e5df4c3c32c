// Step 07 — a dynamic rank count.
//
// Nothing in this program fixes P: the window is [NR, 256] with NR from
// the world size on the host and pld.system.nranks in the kernel, and the
// kernel loops over its peers. Only a *tile* shape would need a literal;
// signal [NR, 1] and window [NR, SIZE] shapes do not.
// `pto-opt --pld-specialize-nranks="nranks=4" --canonicalize` fixes P = 4.

!Data = !pld.dtensor<?x256xf32>
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
  %row_4 = arith.constant 4 : i64
  %bytes_4 = arith.muli %world, %row_4 : i64
  %signal_buf = pld.tensor.alloc_window_buffer %bytes_4 name "signal" : i64 -> !pl.ptr
  %signal = pld.tensor.window %signal_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%input, %data, %signal) on %device : (!pl.tensor<1x256xf32>, !Data, !Sig) -> ()
  }
  return
}

func.func @chip(%input: !pl.tensor<1x256xf32>, %data: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @sum_all(%input, %data, %signal) : (!pl.tensor<1x256xf32>, !Data, !Sig) -> ()
  return
}

func.func @sum_all(%input: !pl.tensor<1x256xf32>, %data: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !Sig
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %row = arith.index_cast %me : i32 to index
  %peers = arith.index_cast %n : i32 to index
  %mine = pl.tile.load %input[%c0, %c0] : !pl.tensor<1x256xf32> -> !Row
  pld.tile.remote_store %mine, %data[%row, %c0] to %me none : !Row, !Data
  %s = pld.tensor.barrier %signal : !Sig
  // Sum every rank's row, reading each peer's copy of its own row.
  %zero = arith.constant 0.0 : f32
  %init = pl.tile.full %zero : f32 -> !Row
  %sum = scf.for %p = %c0 to %peers step %c1 iter_args(%acc = %init) -> (!Row) {
    %peer = arith.index_cast %p : index to i32
    %theirs = pld.tile.remote_load %data[%p, %c0] from %peer : !Data -> !Row
    %acc2 = pl.tile.add %acc, %theirs : !Row, !Row -> !Row
    scf.yield %acc2 : !Row
  }
  // No rank overwrites its row before every peer has read it.
  %s2 = pld.tensor.barrier %signal : !Sig
  pld.tile.remote_store %sum, %data[%row, %c0] to %me none : !Row, !Data
  return
}
