// Steps 08-11 — the allreduce ladder: a hand-rolled mesh allreduce, then
// the builtin.
//
// Hand-rolled (@allreduce_by_hand): stage the local vector in row `me` of
// the window, barrier, read every rank's row and sum, barrier again before
// anyone overwrites its row. Each rank moves (P-1)·N elements.
// Builtin (@allreduce_builtin): pld.tensor.allreduce on a [NR, 1] mesh
// signal; pld-lower-composite-ops expands it into the same protocol with
// the self-clearing credit barrier.
// Ring (@allreduce_ring): the same call in mode `ring` on a
// [2(P-1), P] signal (typed ?x? here: NR is the run-time rank count). A
// reduce-scatter pass then an allgather pass, each P-1 steps pulling one
// N/P segment from the left neighbour: 2(P-1)/P·N per rank instead of
// (P-1)·N, for 4(P-1) barrier rounds instead of 2.

!Data = !pld.dtensor<?x256xf32>
!Vec = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<?x1xi32>
!RingSig = !pld.dtensor<?x?xi32>
!Row = !pl.tile<1x256xf32, vec>

func.func @main(%input: !pl.tensor<1x256xf32>, %vec: !Vec) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
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
  // 2(W-1) rows of W i32 cells.
  %c1_i64 = arith.constant 1 : i64
  %c2_i64 = arith.constant 2 : i64
  %c8_i64 = arith.constant 8 : i64
  %others = arith.subi %world, %c1_i64 : i64
  %ring_cells = arith.muli %others, %world : i64
  %ring_bytes = arith.muli %ring_cells, %c8_i64 : i64
  %ring_buf = pld.tensor.alloc_window_buffer %ring_bytes name "ring_signal" : i64 -> !pl.ptr
  %ring_rows = arith.muli %others, %c2_i64 : i64
  %ring_rows_index = arith.index_cast %ring_rows : i64 to index
  %world_index = arith.index_cast %world : i64 to index
  %ring = pld.tensor.window %ring_buf sizes(%ring_rows_index, %world_index) : !pl.ptr -> !RingSig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%input, %vec, %data, %signal, %ring) on %device : (!pl.tensor<1x256xf32>, !Vec, !Data, !Sig, !RingSig) -> ()
  }
  return
}

func.func @chip(%input: !pl.tensor<1x256xf32>, %vec: !Vec, %data: !Data, %signal: !Sig, %ring: !RingSig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @allreduce_by_hand(%input, %vec, %data, %signal) : (!pl.tensor<1x256xf32>, !Vec, !Data, !Sig) -> ()
  pl.call @allreduce_builtin(%input, %vec, %data, %signal) : (!pl.tensor<1x256xf32>, !Vec, !Data, !Sig) -> ()
  pl.call @allreduce_ring(%vec, %ring) : (!Vec, !RingSig) -> ()
  return
}

func.func @allreduce_by_hand(%input: !pl.tensor<1x256xf32>, %vec: !Vec, %data: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
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
  %s1 = pld.tensor.barrier %signal : !Sig
  %zero = arith.constant 0.0 : f32
  %init = pl.tile.full %zero : f32 -> !Row
  %sum = scf.for %p = %c0 to %peers step %c1 iter_args(%acc = %init) -> (!Row) {
    %peer = arith.index_cast %p : index to i32
    %theirs = pld.tile.remote_load %data[%p, %c0] from %peer : !Data -> !Row
    %acc2 = pl.tile.add %acc, %theirs : !Row, !Row -> !Row
    scf.yield %acc2 : !Row
  }
  %s2 = pld.tensor.barrier %signal : !Sig
  pld.tile.remote_store %sum, %data[%row, %c0] to %me none : !Row, !Data
  return
}

func.func @allreduce_builtin(%input: !pl.tensor<1x256xf32>, %vec: !Vec, %data: !Data, %signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allreduce %vec, %signal sum mesh cores 1 : !Vec, !Sig
  return
}

func.func @allreduce_ring(%vec: !Vec, %ring: !RingSig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allreduce %vec, %ring sum ring cores 1 : !Vec, !RingSig
  return
}
