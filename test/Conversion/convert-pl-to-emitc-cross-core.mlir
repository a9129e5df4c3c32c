// Cross-core pipes on pto-isa's API: a set-up is a TPipe over the pipe's
// gm slot buffer and the rings' planned addresses (an import reads its
// peer's reservation), pushes, pops and frees call TPUSH/TPOP/TFREE of
// their split, a popped tile taking the next local slot of its ring.
// RUN: pto-opt --verify-roundtrip %s --convert-pl-to-emitc | FileCheck %s
// RUN: pto-opt %s --pass-pipeline='builtin.module(convert-pl-to-emitc, canonicalize, cse, arith-expand, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)' | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=CPP

!Acc = !pl.tile<16x32xf32, acc>
!Vec = !pl.tile<16x32xf32, vec>
!Gm = !pl.tensor<4096xi8>

// CHECK-LABEL: emitc.func @k_aic(
// CHECK-SAME: %[[X:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ float">>, %[[GM:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ int8_t">>)
// CHECK-DAG: %[[RING:.*]] = arith.constant 1024 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[PIPE:.*]] = call_opaque "pto_pipe"(%[[GM]], %[[RING]], %[[ZERO]], %[[ZERO]]) {template_args = [#emitc.opaque<"TPipe<0, 1, 2048, 2, 2>">]}
// CHECK: call_opaque "pto_tpush"(%[[PIPE]], %{{.*}}) {template_args = [#emitc.opaque<"TileSplitAxis::TILE_UP_DOWN">]}
// CPP: template <typename Pipe> struct PtoPipe {
// CPP: PtoPipe<TPipe<0, 1, 2048, 2, 2>> [[P:v[0-9]+]] = pto_pipe<TPipe<0, 1, 2048, 2, 2>>(
// CPP: pto_tpush<TileSplitAxis::TILE_UP_DOWN>([[P]], {{v[0-9]+}});
func.func @k_aic(%x: !pl.tensor<16x32xf32>, %gm: !Gm {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "k_c2v" from @k_aiv : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v gm %gm : !Gm slot_size 2048 slots 2
  %a = pl.tile.create {pl.addresses = array<i64: 0>} : !Acc
  pl.tile.tpush_to_aiv %a up_down : !Acc
  return
}

// CHECK-LABEL: emitc.func @k_aiv(
// CHECK: %[[RING2:.*]] = arith.constant 1024 : i32
// CHECK: %[[PIPE2:.*]] = call_opaque "pto_pipe"(%{{.*}}, %[[RING2]], %{{.*}}, %[[RING2]])
// CHECK: %[[T:.*]] = call_opaque "Tile<TileType::Vec, float, 8, 32
// CHECK: call_opaque "pto_tpop"(%[[PIPE2]], %[[T]]) {template_args = [#emitc.opaque<"TileSplitAxis::TILE_UP_DOWN">]}
// CHECK: call_opaque "TSTORE"
// CHECK: call_opaque "pto_tfree"(%[[PIPE2]]) {template_args = [#emitc.opaque<"TileSplitAxis::TILE_UP_DOWN">]}
// CPP: pto_tpop<TileSplitAxis::TILE_UP_DOWN>(
// CPP: pto_tfree<TileSplitAxis::TILE_UP_DOWN>(
func.func @k_aiv(%x: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>}, %gm: !Gm {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2v = pl.system.reserve_buffer "k_c2v" size 4096 base 1024 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !Gm slot_size 2048 slots 2
  %t = pl.tile.tpop_from_aic up_down : !pl.tile<8x32xf32, vec>
  pl.system.sync_src set mte2 wait mte3 event 0
  pl.system.sync_dst set mte2 wait mte3 event 0
  %o = pl.tile.store %t, %x[%c0, %c0] : !pl.tile<8x32xf32, vec>, !pl.tensor<16x32xf32>
  pl.system.tfree_to_aic %t : !pl.tile<8x32xf32, vec>
  return
}
