// Step 11 — the third execution path: a collective called by the host.
//
// 08 reduced inside a kernel, by hand and through the composite. Here the
// host orchestrator calls pld.tensor.allreduce itself, between two rounds
// of dispatches: every device stages its input into the `data` window,
// the host reduces the window across devices, and every device then copies
// the sum into its own row of `output`. The call names no signal: pld-synthesize-allreduce-signals
// allocates a [world_size, cores] one. pld-lower-distributed turns the call
// into a pld.builtin.allreduce kernel per device (the builtin collective
// library, docs/translate.md) inside the comm domain of `data`.

!Data = !pld.dtensor<1x256xf32>
!Row = !pl.tile<1x256xf32, vec>

func.func @main(%input: !pl.tensor<1x256xf32>, %output: !pl.tensor<?x256xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i64
  %world = pld.system.world_size : i64
  %data_buf = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
  %data = pld.tensor.window %data_buf : !pl.ptr -> !Data
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @stage(%input, %data) on %device : (!pl.tensor<1x256xf32>, !Data) -> ()
  }
  %sum = pld.tensor.allreduce %data sum mesh cores 1 : !Data
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @collect(%sum, %output) on %device : (!Data, !pl.tensor<?x256xf32>) -> ()
  }
  return
}

func.func @stage(%input: !pl.tensor<1x256xf32>, %data: !Data) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy_in(%input, %data) : (!pl.tensor<1x256xf32>, !Data) -> ()
  return
}

func.func @copy_in(%input: !pl.tensor<1x256xf32>, %data: !Data) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %row = pl.tile.load %input[%c0, %c0] : !pl.tensor<1x256xf32> -> !Row
  %stored = pl.tile.store %row, %data[%c0, %c0] : !Row, !Data
  return
}

func.func @collect(%data: !Data, %output: !pl.tensor<?x256xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy_out(%data, %output) : (!Data, !pl.tensor<?x256xf32>) -> ()
  return
}

func.func @copy_out(%data: !Data, %output: !pl.tensor<?x256xf32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %ctx = pld.system.get_comm_ctx %data : !Data
  %me = pld.system.rank %ctx : i32
  %mine = arith.index_cast %me : i32 to index
  %row = pl.tile.load %data[%c0, %c0] : !Data -> !Row
  %stored = pl.tile.store %row, %output[%mine, %c0] : !Row, !pl.tensor<?x256xf32>
  return
}
