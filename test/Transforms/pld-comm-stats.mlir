// The traffic each collective's lowering must have, per rank, for P = 2, 4, 8:
// mesh allreduce receives (P-1)·N, ring allreduce 2(P-1)/P·N, allgather and all_to_all send (P-1)·SIZE,
// reduce_scatter receives (P-1)·SIZE; barrier rounds = waits / (P-1).
// RUN: pto-opt --verify-roundtrip %s --pld-lower-composite-ops --pld-comm-stats=nranks=2 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=P2
// RUN: pto-opt --verify-roundtrip %s --pld-lower-composite-ops --pld-comm-stats=nranks=4 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=P4
// RUN: pto-opt --verify-roundtrip %s --pld-lower-composite-ops --pld-comm-stats=nranks=8 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=P8
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-lower-composite-ops, pld-comm-stats{nranks=4})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=P4

!Sig = !pld.dtensor<?x1xi32>

// P2: @barrier rank 0 of 2: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 2, waits 1
// P2: @barrier rank 1 of 2: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 2, waits 1
// P4: @barrier rank 0 of 4: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 6, waits 3
// P4: @barrier rank 1 of 4: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 6, waits 3
// P4: @barrier rank 2 of 4: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 6, waits 3
// P4: @barrier rank 3 of 4: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 6, waits 3
// P8: @barrier rank 0 of 8: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @barrier rank 1 of 8: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @barrier rank 2 of 8: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @barrier rank 3 of 8: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @barrier rank 4 of 8: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @barrier rank 5 of 8: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @barrier rank 6 of 8: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @barrier rank 7 of 8: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
func.func @barrier(%s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.barrier %s : !Sig
  return
}

// P2: @broadcast rank 0 of 2: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 2, waits 1
// P2: @broadcast rank 1 of 2: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 2, waits 1
// P4: @broadcast rank 0 of 4: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 6, waits 3
// P4: @broadcast rank 1 of 4: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 6, waits 3
// P4: @broadcast rank 2 of 4: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 6, waits 3
// P4: @broadcast rank 3 of 4: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 6, waits 3
// P8: @broadcast rank 0 of 8: sent 0, received 0, puts 0, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @broadcast rank 1 of 8: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @broadcast rank 2 of 8: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @broadcast rank 3 of 8: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @broadcast rank 4 of 8: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @broadcast rank 5 of 8: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @broadcast rank 6 of 8: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
// P8: @broadcast rank 7 of 8: sent 0, received 1024, puts 0, gets 1, remote_loads 0, remote_stores 0, local 0, notifies 14, waits 7
func.func @broadcast(%d: !pld.dtensor<1x1024xf32>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.broadcast %d, %s root 0 : !pld.dtensor<1x1024xf32>, !Sig
  return
}

// P2: @allgather rank 0 of 2: sent 256, received 0, puts 1, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 2, waits 1
// P2: @allgather rank 1 of 2: sent 256, received 0, puts 1, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 2, waits 1
// P4: @allgather rank 0 of 4: sent 768, received 0, puts 3, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 6, waits 3
// P4: @allgather rank 1 of 4: sent 768, received 0, puts 3, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 6, waits 3
// P4: @allgather rank 2 of 4: sent 768, received 0, puts 3, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 6, waits 3
// P4: @allgather rank 3 of 4: sent 768, received 0, puts 3, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 6, waits 3
// P8: @allgather rank 0 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @allgather rank 1 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @allgather rank 2 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @allgather rank 3 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @allgather rank 4 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @allgather rank 5 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @allgather rank 6 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @allgather rank 7 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
func.func @allgather(%i: !pl.tensor<1x256xf32>, %d: !pld.dtensor<?x256xf32>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x256xf32>, !pld.dtensor<?x256xf32>, !Sig
  return
}

// P2: @reduce_scatter rank 0 of 2: sent 0, received 256, puts 0, gets 0, remote_loads 1, remote_stores 0, local 0, notifies 3, waits 2
// P2: @reduce_scatter rank 1 of 2: sent 0, received 256, puts 0, gets 0, remote_loads 1, remote_stores 0, local 0, notifies 3, waits 2
// P4: @reduce_scatter rank 0 of 4: sent 0, received 768, puts 0, gets 0, remote_loads 3, remote_stores 0, local 0, notifies 9, waits 6
// P4: @reduce_scatter rank 1 of 4: sent 0, received 768, puts 0, gets 0, remote_loads 3, remote_stores 0, local 0, notifies 9, waits 6
// P4: @reduce_scatter rank 2 of 4: sent 0, received 768, puts 0, gets 0, remote_loads 3, remote_stores 0, local 0, notifies 9, waits 6
// P4: @reduce_scatter rank 3 of 4: sent 0, received 768, puts 0, gets 0, remote_loads 3, remote_stores 0, local 0, notifies 9, waits 6
// P8: @reduce_scatter rank 0 of 8: sent 0, received 1792, puts 0, gets 0, remote_loads 7, remote_stores 0, local 0, notifies 21, waits 14
// P8: @reduce_scatter rank 1 of 8: sent 0, received 1792, puts 0, gets 0, remote_loads 7, remote_stores 0, local 0, notifies 21, waits 14
// P8: @reduce_scatter rank 2 of 8: sent 0, received 1792, puts 0, gets 0, remote_loads 7, remote_stores 0, local 0, notifies 21, waits 14
// P8: @reduce_scatter rank 3 of 8: sent 0, received 1792, puts 0, gets 0, remote_loads 7, remote_stores 0, local 0, notifies 21, waits 14
// P8: @reduce_scatter rank 4 of 8: sent 0, received 1792, puts 0, gets 0, remote_loads 7, remote_stores 0, local 0, notifies 21, waits 14
// P8: @reduce_scatter rank 5 of 8: sent 0, received 1792, puts 0, gets 0, remote_loads 7, remote_stores 0, local 0, notifies 21, waits 14
// P8: @reduce_scatter rank 6 of 8: sent 0, received 1792, puts 0, gets 0, remote_loads 7, remote_stores 0, local 0, notifies 21, waits 14
// P8: @reduce_scatter rank 7 of 8: sent 0, received 1792, puts 0, gets 0, remote_loads 7, remote_stores 0, local 0, notifies 21, waits 14
func.func @reduce_scatter(%d: !pld.dtensor<?x256xf32>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.reduce_scatter %d, %s sum : !pld.dtensor<?x256xf32>, !Sig
  return
}

// P2: @all_to_all rank 0 of 2: sent 256, received 0, puts 1, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 2, waits 1
// P2: @all_to_all rank 1 of 2: sent 256, received 0, puts 1, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 2, waits 1
// P4: @all_to_all rank 0 of 4: sent 768, received 0, puts 3, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 6, waits 3
// P4: @all_to_all rank 1 of 4: sent 768, received 0, puts 3, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 6, waits 3
// P4: @all_to_all rank 2 of 4: sent 768, received 0, puts 3, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 6, waits 3
// P4: @all_to_all rank 3 of 4: sent 768, received 0, puts 3, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 6, waits 3
// P8: @all_to_all rank 0 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @all_to_all rank 1 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @all_to_all rank 2 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @all_to_all rank 3 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @all_to_all rank 4 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @all_to_all rank 5 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @all_to_all rank 6 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
// P8: @all_to_all rank 7 of 8: sent 1792, received 0, puts 7, gets 0, remote_loads 0, remote_stores 0, local 1, notifies 14, waits 7
func.func @all_to_all(%i: !pl.tensor<8x256xf32>, %d: !pld.dtensor<8x256xf32>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.all_to_all %i, %d, %s : !pl.tensor<8x256xf32>, !pld.dtensor<8x256xf32>, !Sig
  return
}

// P2: @allreduce_mesh rank 0 of 2: sent 0, received 8192, puts 0, gets 0, remote_loads 2, remote_stores 0, local 0, notifies 4, waits 3
// P2: @allreduce_mesh rank 1 of 2: sent 0, received 8192, puts 0, gets 0, remote_loads 2, remote_stores 0, local 0, notifies 4, waits 3
// P4: @allreduce_mesh rank 0 of 4: sent 0, received 24576, puts 0, gets 0, remote_loads 6, remote_stores 0, local 0, notifies 12, waits 9
// P4: @allreduce_mesh rank 1 of 4: sent 0, received 24576, puts 0, gets 0, remote_loads 6, remote_stores 0, local 0, notifies 12, waits 9
// P4: @allreduce_mesh rank 2 of 4: sent 0, received 24576, puts 0, gets 0, remote_loads 6, remote_stores 0, local 0, notifies 12, waits 9
// P4: @allreduce_mesh rank 3 of 4: sent 0, received 24576, puts 0, gets 0, remote_loads 6, remote_stores 0, local 0, notifies 12, waits 9
// P8: @allreduce_mesh rank 0 of 8: sent 0, received 57344, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 28, waits 21
// P8: @allreduce_mesh rank 1 of 8: sent 0, received 57344, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 28, waits 21
// P8: @allreduce_mesh rank 2 of 8: sent 0, received 57344, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 28, waits 21
// P8: @allreduce_mesh rank 3 of 8: sent 0, received 57344, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 28, waits 21
// P8: @allreduce_mesh rank 4 of 8: sent 0, received 57344, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 28, waits 21
// P8: @allreduce_mesh rank 5 of 8: sent 0, received 57344, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 28, waits 21
// P8: @allreduce_mesh rank 6 of 8: sent 0, received 57344, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 28, waits 21
// P8: @allreduce_mesh rank 7 of 8: sent 0, received 57344, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 28, waits 21
func.func @allreduce_mesh(%d: !pld.dtensor<8x1024xf32>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allreduce %d, %s sum mesh cores 1 : !pld.dtensor<8x1024xf32>, !Sig
  return
}

// Ring allreduce of N = 8192 f32 with a `?x?` signal (segments from the
// run-time P): each rank receives 2(P-1)/P·N (P-1 reduce-scatter and P-1
// allgather steps of one N/P segment) in 2(P-1) remote loads, over
// 4(P-1) barrier rounds (one 4096-column sub-chunk per step).
// P2: @allreduce_ring rank 0 of 2: sent 0, received 8192, puts 0, gets 0, remote_loads 2, remote_stores 0, local 0, notifies 6, waits 4
// P2: @allreduce_ring rank 1 of 2: sent 0, received 8192, puts 0, gets 0, remote_loads 2, remote_stores 0, local 0, notifies 6, waits 4
// P4: @allreduce_ring rank 0 of 4: sent 0, received 12288, puts 0, gets 0, remote_loads 6, remote_stores 0, local 0, notifies 54, waits 36
// P4: @allreduce_ring rank 1 of 4: sent 0, received 12288, puts 0, gets 0, remote_loads 6, remote_stores 0, local 0, notifies 54, waits 36
// P4: @allreduce_ring rank 2 of 4: sent 0, received 12288, puts 0, gets 0, remote_loads 6, remote_stores 0, local 0, notifies 54, waits 36
// P4: @allreduce_ring rank 3 of 4: sent 0, received 12288, puts 0, gets 0, remote_loads 6, remote_stores 0, local 0, notifies 54, waits 36
// P8: @allreduce_ring rank 0 of 8: sent 0, received 14336, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 294, waits 196
// P8: @allreduce_ring rank 1 of 8: sent 0, received 14336, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 294, waits 196
// P8: @allreduce_ring rank 2 of 8: sent 0, received 14336, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 294, waits 196
// P8: @allreduce_ring rank 3 of 8: sent 0, received 14336, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 294, waits 196
// P8: @allreduce_ring rank 4 of 8: sent 0, received 14336, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 294, waits 196
// P8: @allreduce_ring rank 5 of 8: sent 0, received 14336, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 294, waits 196
// P8: @allreduce_ring rank 6 of 8: sent 0, received 14336, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 294, waits 196
// P8: @allreduce_ring rank 7 of 8: sent 0, received 14336, puts 0, gets 0, remote_loads 14, remote_stores 0, local 0, notifies 294, waits 196
func.func @allreduce_ring(%d: !pld.dtensor<8x1024xf32>, %s: !pld.dtensor<?x?xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allreduce %d, %s sum ring cores 1 : !pld.dtensor<8x1024xf32>, !pld.dtensor<?x?xi32>
  return
}

// A remote store names its peer last (it has one variadic group): here the
// right neighbour (me + 1) mod P.
// P2: @remote_store rank 0 of 2: sent 256, received 0, puts 0, gets 0, remote_loads 0, remote_stores 1, local 0, notifies 0, waits 0
// P4: @remote_store rank 3 of 4: sent 256, received 0, puts 0, gets 0, remote_loads 0, remote_stores 1, local 0, notifies 0, waits 0
func.func @remote_store(%d: !pld.dtensor<?x256xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %ctx = pld.system.get_comm_ctx %d : !pld.dtensor<?x256xf32>
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %one = arith.constant 1 : i32
  %next0 = arith.addi %me, %one : i32
  %next = arith.remsi %next0, %n : i32
  %t = pl.tile.load %d[%c0, %c0] : !pld.dtensor<?x256xf32> -> !pl.tile<1x256xf32, vec>
  pld.tile.remote_store %t, %d[%c0, %c0] to %next none : !pl.tile<1x256xf32, vec>, !pld.dtensor<?x256xf32>
  return
}

// A kernel that communicates nothing gets no report.
// P4-NOT: @quiet
func.func @quiet(%x: index) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
