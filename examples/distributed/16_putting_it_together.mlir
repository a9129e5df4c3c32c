// Step 16 — putting it together: one kernel composing broadcast, a mesh
// allreduce and an allgather, one signal per collective (a teaching
// choice: the self-clearing barrier lets collectives share a signal).

!Data = !pld.dtensor<?x256xf32>
!Vec = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<?x1xi32>

func.func @main(%local: !pl.tensor<1x256xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %world = pld.system.world_size : i64
  %row_1024 = arith.constant 1024 : i64
  %bytes_1024 = arith.muli %world, %row_1024 : i64
  %params_buf = pld.tensor.alloc_window_buffer %row_1024 name "params" : i64 -> !pl.ptr
  %params = pld.tensor.window %params_buf : !pl.ptr -> !Vec
  %grad_buf = pld.tensor.alloc_window_buffer %bytes_1024 name "grad" : i64 -> !pl.ptr
  %grad = pld.tensor.window %grad_buf : !pl.ptr -> !Vec
  %gathered_buf = pld.tensor.alloc_window_buffer %bytes_1024 name "gathered" : i64 -> !pl.ptr
  %gathered = pld.tensor.window %gathered_buf : !pl.ptr -> !Data
  %row_4 = arith.constant 4 : i64
  %bytes_4 = arith.muli %world, %row_4 : i64
  %bcast_signal_buf = pld.tensor.alloc_window_buffer %bytes_4 name "bcast_signal" : i64 -> !pl.ptr
  %bcast_signal = pld.tensor.window %bcast_signal_buf : !pl.ptr -> !Sig
  %reduce_signal_buf = pld.tensor.alloc_window_buffer %bytes_4 name "reduce_signal" : i64 -> !pl.ptr
  %reduce_signal = pld.tensor.window %reduce_signal_buf : !pl.ptr -> !Sig
  %gather_signal_buf = pld.tensor.alloc_window_buffer %bytes_4 name "gather_signal" : i64 -> !pl.ptr
  %gather_signal = pld.tensor.window %gather_signal_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%local, %params, %grad, %gathered, %bcast_signal, %reduce_signal, %gather_signal) on %device : (!pl.tensor<1x256xf32>, !Vec, !Vec, !Data, !Sig, !Sig, !Sig) -> ()
  }
  return
}

func.func @chip(%local: !pl.tensor<1x256xf32>, %params: !Vec, %grad: !Vec, %gathered: !Data, %bcast_signal: !Sig, %reduce_signal: !Sig, %gather_signal: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @step(%local, %params, %grad, %gathered, %bcast_signal, %reduce_signal, %gather_signal) : (!pl.tensor<1x256xf32>, !Vec, !Vec, !Data, !Sig, !Sig, !Sig) -> ()
  return
}

func.func @step(%local: !pl.tensor<1x256xf32>, %params: !Vec, %grad: !Vec, %gathered: !Data, %bcast_signal: !Sig, %reduce_signal: !Sig, %gather_signal: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  // Everyone starts from rank 0's parameters ...
  %p = pld.tensor.broadcast %params, %bcast_signal root 0 : !Vec, !Sig
  // ... sums the gradients ...
  %g = pld.tensor.allreduce %grad, %reduce_signal sum mesh cores 1 : !Vec, !Sig
  // ... and shares its local result with every rank.
  %all = pld.tensor.allgather %local, %gathered, %gather_signal : !pl.tensor<1x256xf32>, !Data, !Sig
  return
}
