// Cross-core pipes and the boundaries of mixed kernels round-trip; no
// pass drops or merges a push, pop or free (they change the pipe).
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s
// RUN: pto-opt %s --cse --canonicalize --symbol-dce | FileCheck %s --check-prefix=KEPT

!Acc = !pl.tile<16x32xf32, acc>
!Half = !pl.tile<8x32xf32, vec>
!VHalf = !pl.tile<8x32xf16, vec>
!Mat = !pl.tile<16x32xf16, mat>

// CHECK-LABEL: func.func @cube
// CHECK: %[[V2C:.*]] = pl.system.reserve_buffer "k_v2c" size 2048 : i32
// CHECK: %[[C2V:.*]] = pl.system.import_peer_buffer "k_c2v" from @vector : i32
// CHECK: pl.system.aic_initialize_pipe both c2v %[[C2V]] v2c %[[V2C]] slot_size 2048 slots 2{{$}}
// CHECK: pl.tile.tpush_to_aiv %{{.*}} up_down : !pl.tile<16x32xf32, acc>
// CHECK: pl.tile.tpush_to_aiv %{{.*}} left_right id 1 : !pl.tile<16x32xf32, acc>
// CHECK: %[[M:.*]] = pl.tile.tpop_from_aiv up_down : !pl.tile<16x32xf16, mat>
// CHECK: pl.system.tfree_to_aiv %[[M]] : !pl.tile<16x32xf16, mat>
// KEPT-LABEL: func.func @cube
// KEPT-COUNT-2: pl.tile.tpush_to_aiv
// KEPT: pl.tile.tpop_from_aiv
// KEPT: pl.system.tfree_to_aiv
func.func @cube(%acc: !pl.tensor<16x32xf32>) attributes {pl.kind = #pl.kind<aic>} {
  %v2c = pl.system.reserve_buffer "k_v2c" size 2048 : i32
  %c2v = pl.system.import_peer_buffer "k_c2v" from @vector : i32
  pl.system.aic_initialize_pipe both c2v %c2v v2c %v2c slot_size 2048 slots 2
  pl.system.aic_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2 id 1
  %a = pl.tile.create : !Acc
  pl.tile.tpush_to_aiv %a up_down : !Acc
  pl.tile.tpush_to_aiv %a left_right id 1 : !Acc
  %m = pl.tile.tpop_from_aiv up_down : !Mat
  pl.system.tfree_to_aiv %m : !Mat
  return
}

// CHECK-LABEL: func.func @vector
// CHECK: pl.system.aiv_initialize_pipe both c2v %{{.*}} v2c %{{.*}} slot_size 2048 slots 2 local 1{{$}}
// CHECK: %[[H:.*]] = pl.tile.tpop_from_aic up_down : !pl.tile<8x32xf32, vec>
// CHECK: pl.system.tfree_to_aic %[[H]] : !pl.tile<8x32xf32, vec>
// CHECK: pl.tile.tpush_to_aic %{{.*}} up_down : !pl.tile<8x32xf16, vec>
func.func @vector() attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "k_c2v" size 4096 base 0 : i32
  %v2c = pl.system.import_peer_buffer "k_v2c" from @cube : i32
  pl.system.aiv_initialize_pipe both c2v %c2v v2c %v2c slot_size 2048 slots 2 local 1
  pl.system.aiv_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2 id 1
  %h = pl.tile.tpop_from_aic up_down : !Half
  %f = pl.tile.cast %h round : !Half -> !VHalf
  pl.system.tfree_to_aic %h : !Half
  pl.tile.tpush_to_aic %f up_down : !VHalf
  %w = pl.tile.tpop_from_aic left_right id 1 : !pl.tile<16x16xf32, vec>
  pl.system.tfree_to_aic %w : !pl.tile<16x16xf32, vec>
  return
}

// CHECK-LABEL: func.func @group
// CHECK: pl.call @cube
// CHECK: pl.call @vector
func.func @group(%acc: !pl.tensor<16x32xf32>) attributes {pl.kind = #pl.kind<group>} {
  pl.call @cube(%acc) : (!pl.tensor<16x32xf32>) -> ()
  pl.call @vector() : () -> ()
  return
}

// CHECK-LABEL: func.func @boundaries
// CHECK: pl.tile.aiv_shard %{{.*}} up_down : !pl.tile<16x32xf32, acc> -> !pl.tile<8x32xf32, vec>
// CHECK: pl.tile.aic_gather %{{.*}} left_right : !pl.tile<16x16xf16, vec> -> !pl.tile<16x32xf16, mat>
// CHECK: pl.tensor.aiv_shard %{{.*}} none : !pl.tensor<16x32xf32> -> !pl.tensor<16x32xf32>
// CHECK: pl.tensor.aic_gather %{{.*}} up_down : !pl.tensor<8x32xf16> -> !pl.tensor<16x32xf16>
func.func @boundaries(%a: !Acc, %v: !pl.tile<16x16xf16, vec>, %t: !pl.tensor<16x32xf32>, %h: !pl.tensor<8x32xf16>)
    -> (!Half, !Mat, !pl.tensor<16x32xf32>, !pl.tensor<16x32xf16>) {
  %0 = pl.tile.aiv_shard %a up_down : !Acc -> !Half
  %1 = pl.tile.aic_gather %v left_right : !pl.tile<16x16xf16, vec> -> !Mat
  %2 = pl.tensor.aiv_shard %t none : !pl.tensor<16x32xf32> -> !pl.tensor<16x32xf32>
  %3 = pl.tensor.aic_gather %h up_down : !pl.tensor<8x32xf16> -> !pl.tensor<16x32xf16>
  return %0, %1, %2, %3 : !Half, !Mat, !pl.tensor<16x32xf32>, !pl.tensor<16x32xf16>
}

// A pipe's gm slot buffer: a parameter of each half; the group makes it
// and passes the same buffer to both.
// CHECK-LABEL: func.func @gm_cube
// CHECK: pl.system.aic_initialize_pipe c2v c2v %{{.*}} gm %{{.*}} : !pl.tensor<4096xi8> slot_size 2048 slots 2{{$}}
func.func @gm_cube(%gm: !pl.tensor<4096xi8>) attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "g_c2v" from @gm_vector : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<4096xi8> slot_size 2048 slots 2
  return
}
// CHECK-LABEL: func.func @gm_vector
// CHECK: pl.system.aiv_initialize_pipe c2v c2v %{{.*}} gm %{{.*}} : !pl.tensor<4096xi8> slot_size 2048 slots 2 local 1{{$}}
func.func @gm_vector(%x: f32, %gm: !pl.tensor<4096xi8>) attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "g_c2v" size 2048 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<4096xi8> slot_size 2048 slots 2 local 1
  return
}
// CHECK-LABEL: func.func @gm_group
// CHECK: %[[GM:.*]] = pl.tensor.create() : !pl.tensor<4096xi8>
// CHECK: pl.call @gm_cube(%[[GM]])
// CHECK: pl.call @gm_vector(%{{.*}}, %[[GM]])
func.func @gm_group(%x: f32) attributes {pl.kind = #pl.kind<group>} {
  %gm = pl.tensor.create() : !pl.tensor<4096xi8>
  pl.call @gm_cube(%gm) : (!pl.tensor<4096xi8>) -> ()
  pl.call @gm_vector(%x, %gm) : (f32, !pl.tensor<4096xi8>) -> ()
  return
}
