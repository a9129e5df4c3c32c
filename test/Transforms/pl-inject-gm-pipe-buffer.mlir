// pl-inject-gm-pipe-buffer: each pipe of a core group gets a slot buffer in
// global memory, made by the group and passed to both halves.
// RUN: pto-opt %s --pl-inject-gm-pipe-buffer | FileCheck %s
// RUN: pto-opt %s --pl-inject-gm-pipe-buffer --pl-inject-gm-pipe-buffer | FileCheck %s --check-prefix=TWICE

!Acc = !pl.tile<16x32xf32, acc>
!Vec = !pl.tile<16x32xf32, vec>
!Mat = !pl.tile<16x32xf16, mat>
!VecH = !pl.tile<16x32xf16, vec>

// Two pipes: 0 both ways (2 × 2048 bytes), 1 cube to vector (4 × 1024).
// CHECK-LABEL: func.func @k(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<16x32xf32>)
// CHECK-NEXT: %[[B0:.*]] = pl.tensor.create() : !pl.tensor<4096xi8>
// CHECK-NEXT: %[[B1:.*]] = pl.tensor.create() : !pl.tensor<4096xi8>
// CHECK-NEXT: pl.call @k_aic(%[[X]], %[[B0]], %[[B1]])
// CHECK-NEXT: pl.call @k_aiv(%[[X]], %[[B0]], %[[B1]])
// TWICE-LABEL: func.func @k(
// TWICE-COUNT-2: pl.tensor.create
// TWICE-NOT: pl.tensor.create
// TWICE: return
func.func @k(%x: !pl.tensor<16x32xf32>) attributes {pl.kind = #pl.kind<group>} {
  pl.call @k_aic(%x) : (!pl.tensor<16x32xf32>) -> ()
  pl.call @k_aiv(%x) : (!pl.tensor<16x32xf32>) -> ()
  return
}

// CHECK-LABEL: func.func @k_aic(
// CHECK-SAME: %{{.*}}: !pl.tensor<16x32xf32>, %[[G0:.*]]: !pl.tensor<4096xi8> {pl.direction = #pl.direction<inout>}, %[[G1:.*]]: !pl.tensor<4096xi8> {pl.direction = #pl.direction<inout>})
// CHECK: pl.system.aic_initialize_pipe both c2v %{{.*}} v2c %{{.*}} gm %[[G0]] : !pl.tensor<4096xi8> slot_size 2048 slots 2{{$}}
// CHECK: pl.system.aic_initialize_pipe c2v c2v %{{.*}} gm %[[G1]] : !pl.tensor<4096xi8> slot_size 1024 slots 4 id 1
func.func @k_aic(%x: !pl.tensor<16x32xf32>) attributes {pl.kind = #pl.kind<aic>} {
  %v2c = pl.system.reserve_buffer "k_v2c" size 4096 : i32
  %c2v = pl.system.import_peer_buffer "k_c2v" from @k_aiv : i32
  %c2v1 = pl.system.import_peer_buffer "k_c2v1" from @k_aiv : i32
  pl.system.aic_initialize_pipe both c2v %c2v v2c %v2c slot_size 2048 slots 2
  pl.system.aic_initialize_pipe c2v c2v %c2v1 slot_size 1024 slots 4 id 1
  %a = pl.tile.create : !Acc
  pl.tile.tpush_to_aiv %a none : !Acc
  %m = pl.tile.tpop_from_aiv none : !Mat
  pl.system.tfree_to_aiv %m : !Mat
  return
}

// CHECK-LABEL: func.func @k_aiv(
// CHECK-SAME: %[[H0:[^:]*]]: !pl.tensor<4096xi8> {pl.direction = #pl.direction<inout>}, %[[H1:[^:]*]]: !pl.tensor<4096xi8> {pl.direction = #pl.direction<inout>})
// CHECK: pl.system.aiv_initialize_pipe both c2v %{{.*}} v2c %{{.*}} gm %[[H0]] : !pl.tensor<4096xi8>
// CHECK: pl.system.aiv_initialize_pipe c2v c2v %{{.*}} gm %[[H1]] : !pl.tensor<4096xi8> slot_size 1024 slots 4 id 1
func.func @k_aiv(%x: !pl.tensor<16x32xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "k_c2v" size 4096 : i32
  %c2v1 = pl.system.reserve_buffer "k_c2v1" size 4096 : i32
  %v2c = pl.system.import_peer_buffer "k_v2c" from @k_aic : i32
  pl.system.aiv_initialize_pipe both c2v %c2v v2c %v2c slot_size 2048 slots 2
  pl.system.aiv_initialize_pipe c2v c2v %c2v1 slot_size 1024 slots 4 id 1
  %t = pl.tile.tpop_from_aic none : !Vec
  %h = pl.tile.cast %t round : !Vec -> !VecH
  pl.system.tfree_to_aic %t : !Vec
  pl.tile.tpush_to_aic %h none : !VecH
  return
}

// A kernel with pipes that no group launches is left as it is.
// CHECK-LABEL: func.func @alone(
// CHECK-SAME: %{{[^:]*}}: !pl.tensor<16x32xf32>)
// CHECK: pl.system.aiv_initialize_pipe c2v c2v %{{.*}} slot_size 2048 slots 2{{$}}
func.func @alone(%x: !pl.tensor<16x32xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "a_c2v" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  return
}
