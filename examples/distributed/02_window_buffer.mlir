// Step 02 — window buffers: symmetric memory sized at run time.
//
// One buffer per purpose, sized from the world size; a buffer can be viewed
// with several shapes (here a [NR, 1] signal and a flat [NR] view of the
// same cells). Buffer names are unique in the program; memory is
// zero-initialised.

func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i32_bytes = arith.constant 4 : i64
  %row_bytes = arith.constant 1024 : i64
  %world = pld.system.world_size : i64
  %signal_bytes = arith.muli %world, %i32_bytes : i64
  %data_bytes = arith.muli %world, %row_bytes : i64
  %signal_buf = pld.tensor.alloc_window_buffer %signal_bytes name "signal" : i64 -> !pl.ptr
  %data_buf = pld.tensor.alloc_window_buffer %data_bytes name "data" : i64 -> !pl.ptr
  %signal = pld.tensor.window %signal_buf : !pl.ptr -> !pld.dtensor<?x1xi32>
  %flat = pld.tensor.window %signal_buf : !pl.ptr -> !pld.dtensor<?xi32>
  %data = pld.tensor.window %data_buf : !pl.ptr -> !pld.dtensor<?x256xf32>
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%signal, %data) on %device : (!pld.dtensor<?x1xi32>, !pld.dtensor<?x256xf32>) -> ()
  }
  return
}

func.func @chip(%signal: !pld.dtensor<?x1xi32>, %data: !pld.dtensor<?x256xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
