// Every builtin collective, called by the host between dispatches (the
// builtin kernels of pto_builtin_collectives.hpp on the simulator): each
// device stages rows 4·rank .. 4·rank+3 of `input` into five windows, then
// the host runs a max allreduce (mesh), a sum allreduce (ring), a broadcast
// from rank 2, a reduce-scatter, an allgather of each rank's first row, an
// all-to-all, an all-to-all-v (`spread`'s two rows per destination, how
// many of them count given by `counts`), and a barrier. Static shapes: four
// ranks.
!Data = !pld.dtensor<4x256xf32>
!Row = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<4xi32>
!Ring = !pld.dtensor<7x4xi32>
!Block = !pl.tile<4x256xf32, vec>
!Spread = !pld.dtensor<8x256xf32>
!Counts = !pld.dtensor<4x1xi32>
!RecvCounts = !pld.dtensor<4x1xi32>

func.func @main(%input: !pl.tensor<16x256xf32>, %spread: !pl.tensor<32x256xf32>, %counts: !pl.tensor<16x1xi32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 4096 : i64
  %row_bytes = arith.constant 1024 : i64
  %sig_bytes = arith.constant 16 : i64
  %ring_bytes = arith.constant 112 : i64
  %spread_bytes = arith.constant 8192 : i64
  %count_bytes = arith.constant 16 : i64
  %world = pld.system.world_size : i64
  %a_buf = pld.tensor.alloc_window_buffer %bytes name "maxed" : i64 -> !pl.ptr
  %b_buf = pld.tensor.alloc_window_buffer %bytes name "summed" : i64 -> !pl.ptr
  %c_buf = pld.tensor.alloc_window_buffer %bytes name "broadcast" : i64 -> !pl.ptr
  %d_buf = pld.tensor.alloc_window_buffer %bytes name "scattered" : i64 -> !pl.ptr
  %g_buf = pld.tensor.alloc_window_buffer %bytes name "gathered" : i64 -> !pl.ptr
  %s_buf = pld.tensor.alloc_window_buffer %bytes name "swapped" : i64 -> !pl.ptr
  %r_buf = pld.tensor.alloc_window_buffer %row_bytes name "first_row" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %ring_buf = pld.tensor.alloc_window_buffer %ring_bytes name "ring_signal" : i64 -> !pl.ptr
  %to_send_buf = pld.tensor.alloc_window_buffer %spread_bytes name "to_send" : i64 -> !pl.ptr
  %received_buf = pld.tensor.alloc_window_buffer %spread_bytes name "received" : i64 -> !pl.ptr
  %send_buf = pld.tensor.alloc_window_buffer %count_bytes name "send_counts" : i64 -> !pl.ptr
  %recv_buf = pld.tensor.alloc_window_buffer %count_bytes name "recv_counts" : i64 -> !pl.ptr
  %vsig_buf = pld.tensor.alloc_window_buffer %count_bytes name "v_signal" : i64 -> !pl.ptr
  %a = pld.tensor.window %a_buf : !pl.ptr -> !Data
  %b = pld.tensor.window %b_buf : !pl.ptr -> !Data
  %c = pld.tensor.window %c_buf : !pl.ptr -> !Data
  %d = pld.tensor.window %d_buf : !pl.ptr -> !Data
  %g = pld.tensor.window %g_buf : !pl.ptr -> !Data
  %s = pld.tensor.window %s_buf : !pl.ptr -> !Data
  %r = pld.tensor.window %r_buf : !pl.ptr -> !Row
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %ring = pld.tensor.window %ring_buf : !pl.ptr -> !Ring
  %to_send = pld.tensor.window %to_send_buf : !pl.ptr -> !Spread
  %received = pld.tensor.window %received_buf : !pl.ptr -> !Spread
  %send = pld.tensor.window %send_buf : !pl.ptr -> !Counts
  %recv = pld.tensor.window %recv_buf : !pl.ptr -> !RecvCounts
  %vsig = pld.tensor.window %vsig_buf : !pl.ptr -> !RecvCounts
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @stage(%input, %a, %b, %c, %d, %s, %g, %r, %sig, %ring, %spread, %counts, %to_send, %received, %send, %recv, %vsig) on %device : (!pl.tensor<16x256xf32>, !Data, !Data, !Data, !Data, !Data, !Data, !Row, !Sig, !Ring, !pl.tensor<32x256xf32>, !pl.tensor<16x1xi32>, !Spread, !Spread, !Counts, !RecvCounts, !RecvCounts) -> ()
  }
  %a2 = pld.tensor.allreduce %a max mesh cores 1 : !Data
  %b2 = pld.tensor.allreduce %b, %ring sum ring cores 1 : !Data, !Ring
  %c2 = pld.tensor.broadcast %c, %sig root 2 : !Data, !Sig
  %d2 = pld.tensor.reduce_scatter %d, %sig sum : !Data, !Sig
  %g2 = pld.tensor.allgather %r, %g, %sig : !Row, !Data, !Sig
  %s2 = pld.tensor.all_to_all %d, %s, %sig : !Data, !Data, !Sig
  %v2 = pld.tensor.all_to_all_v %to_send, %received, %vsig, %send, %recv : !Spread, !Spread, !RecvCounts, !Counts, !RecvCounts
  %done = pld.tensor.barrier %sig : !Sig
  return
}

func.func @stage(%input: !pl.tensor<16x256xf32>, %a: !Data, %b: !Data, %c: !Data, %d: !Data, %s: !Data, %g: !Data, %r: !Row, %sig: !Sig, %ring: !Ring, %spread: !pl.tensor<32x256xf32>, %counts: !pl.tensor<16x1xi32>, %to_send: !Spread, %received: !Spread, %send: !Counts, %recv: !RecvCounts, %vsig: !RecvCounts) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy_in(%input, %a, %b, %c, %d, %s, %g, %r) : (!pl.tensor<16x256xf32>, !Data, !Data, !Data, !Data, !Data, !Data, !Row) -> ()
  pl.call @spread_in(%spread, %counts, %to_send, %send) : (!pl.tensor<32x256xf32>, !pl.tensor<16x1xi32>, !Spread, !Counts) -> ()
  return
}

func.func @copy_in(%input: !pl.tensor<16x256xf32>, %a: !Data, %b: !Data, %c: !Data, %d: !Data, %s: !Data, %g: !Data, %r: !Row) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %ctx = pld.system.get_comm_ctx %a : !Data
  %me = pld.system.rank %ctx : i32
  %mine = arith.index_cast %me : i32 to index
  %first = arith.muli %mine, %c4 : index
  %block = pl.tile.load %input[%first, %c0] : !pl.tensor<16x256xf32> -> !Block
  %a1 = pl.tile.store %block, %a[%c0, %c0] : !Block, !Data
  %b1 = pl.tile.store %block, %b[%c0, %c0] : !Block, !Data
  %c1 = pl.tile.store %block, %c[%c0, %c0] : !Block, !Data
  %d1 = pl.tile.store %block, %d[%c0, %c0] : !Block, !Data
  %s1 = pl.tile.store %block, %s[%c0, %c0] : !Block, !Data
  %g1 = pl.tile.store %block, %g[%c0, %c0] : !Block, !Data
  %row = pl.tile.load %input[%first, %c0] : !pl.tensor<16x256xf32> -> !pl.tile<1x256xf32, vec>
  %r1 = pl.tile.store %row, %r[%c0, %c0] : !pl.tile<1x256xf32, vec>, !Row
  return
}

func.func @spread_in(%spread: !pl.tensor<32x256xf32>, %counts: !pl.tensor<16x1xi32>, %to_send: !Spread, %send: !Counts) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %ctx = pld.system.get_comm_ctx %to_send : !Spread
  %me = pld.system.rank %ctx : i32
  %mine = arith.index_cast %me : i32 to index
  %first = arith.muli %mine, %c8 : index
  %rows = pl.tile.load %spread[%first, %c0] : !pl.tensor<32x256xf32> -> !pl.tile<8x256xf32, vec>
  %t1 = pl.tile.store %rows, %to_send[%c0, %c0] : !pl.tile<8x256xf32, vec>, !Spread
  %c4 = arith.constant 4 : index
  %at = arith.muli %mine, %c4 : index
  %n = pl.tile.load %counts[%at, %c0] : !pl.tensor<16x1xi32> -> !pl.tile<4x1xi32, vec>
  %s1 = pl.tile.store %n, %send[%c0, %c0] : !pl.tile<4x1xi32, vec>, !Counts
  return
}
