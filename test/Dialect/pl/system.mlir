// System ops round-trip; barriers and syncs keep their place under CSE.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s
// RUN: pto-opt %s --cse --canonicalize | FileCheck %s --check-prefix=KEPT

// CHECK-LABEL: func.func @system
// CHECK: pl.system.bar_all
// CHECK: pl.system.bar_v
// CHECK: pl.system.bar_m
// CHECK: pl.system.fence
// CHECK: pl.system.cacheinvalid on %{{.*}} : !pl.tensor<64xf32>
// CHECK: pl.system.cacheinvalid
// CHECK: pl.system.pipe_barrier mte3
// CHECK: pl.system.sync_src set mte2 wait v event 0
// CHECK: pl.system.sync_dst set mte2 wait v event 0
// CHECK: pl.system.sync_set mte3 event 13
// CHECK: pl.system.sync_wait mte2 event 3
// CHECK: pl.tile.get_block_idx
// CHECK: pl.tile.get_block_num
// CHECK: pl.tile.get_subblock_idx
// KEPT-LABEL: func.func @system
// KEPT: pl.system.bar_all
// KEPT: pl.system.fence
// KEPT: pl.system.sync_wait
// KEPT: pl.system.bar_all
// KEPT-NEXT: pl.system.fence
func.func @system(%t: !pl.tensor<64xf32>) -> (index, index, index) {
  pl.system.bar_all
  pl.system.bar_v
  pl.system.bar_m
  pl.system.fence
  pl.system.cacheinvalid on %t : !pl.tensor<64xf32>
  pl.system.cacheinvalid
  pl.system.pipe_barrier mte3
  pl.system.sync_src set mte2 wait v event 0
  pl.system.sync_dst set mte2 wait v event 0
  pl.system.sync_set mte3 event 13
  pl.system.sync_wait mte2 event 3
  %i = pl.tile.get_block_idx
  %n = pl.tile.get_block_num
  %s = pl.tile.get_subblock_idx
  pl.system.bar_all
  pl.system.fence
  return %i, %n, %s : index, index, index
}

// A cacheinvalid without a tensor, followed by an op with a result, prints
// and parses back as itself (the next op's result is not taken for its
// operand).
// CHECK-LABEL: func.func @cacheinvalid_all
// CHECK: pl.system.cacheinvalid{{$}}
// CHECK-NEXT: %{{.*}} = pl.tile.get_block_idx
func.func @cacheinvalid_all() -> index {
  pl.system.cacheinvalid
  %i = pl.tile.get_block_idx
  return %i : index
}

// Cross-block barriers and the event base; a hard barrier followed by an
// op with a result parses back as itself (the `on` keyword introduces a
// soft one's workspace). CSE keeps both barriers.
// CHECK-LABEL: func.func @barriers
// CHECK: pl.system.set_ffts %{{.*}} : !pl.tensor<256xi64>
// CHECK-NEXT: pl.system.syncall hard aiv_only{{$}}
// CHECK-NEXT: %{{.*}} = pl.tile.get_block_idx
// CHECK-NEXT: pl.system.syncall soft aiv_only on %{{.*}} : !pl.tensor<16xi32> used %{{.*}}{{$}}
// CHECK-NEXT: pl.system.syncall soft aiv_only on %{{.*}} : !pl.tensor<1x16xi32>{{$}}
// KEPT-LABEL: func.func @barriers
// KEPT-COUNT-2: pl.system.syncall hard
func.func @barriers(%ffts: !pl.tensor<256xi64>, %ws: !pl.tensor<16xi32>, %ws2: !pl.tensor<1x16xi32>, %n: i32) -> index attributes {pl.kind = #pl.kind<aiv>} {
  pl.system.set_ffts %ffts : !pl.tensor<256xi64>
  pl.system.syncall hard aiv_only
  %i = pl.tile.get_block_idx
  pl.system.syncall soft aiv_only on %ws : !pl.tensor<16xi32> used %n
  pl.system.syncall soft aiv_only on %ws2 : !pl.tensor<1x16xi32>
  pl.system.syncall hard aiv_only
  return %i : index
}
