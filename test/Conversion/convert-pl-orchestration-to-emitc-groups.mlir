// A call of a core group in a runtime orchestration (docs/translate.md,
// "Core groups"): its slot buffer from alloc_tensors, then one mixed task
// (MixedKernels: the aic kernel, the aiv kernel on vector core 0, and on
// vector core 1 when a pipe splits tiles) with the kernels' one argument
// list. The group and its kernels are erased.
// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-orchestration-to-emitc=runtime=pto2 | FileCheck %s
// RUN: pto-opt %s --split-input-file --pass-pipeline='builtin.module(convert-pl-orchestration-to-emitc{runtime=pto2}, canonicalize, cse, arith-expand, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)' | mlir-translate --split-input-file --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: call_opaque "pto_orch_alloc"() {args = [#emitc.opaque<"DataType::INT8">, #emitc.opaque<"4096">]}
// CHECK: %[[K:.*]] = call_opaque "pto_orch_mixed"() {args = [#emitc.opaque<"1">, #emitc.opaque<"0">, #emitc.opaque<"INVALID_KERNEL_ID">]}
// CHECK-NEXT: verbatim "rt_submit_task({}, {});" args %[[K]], %{{.*}}
// CHECK-NOT: rt_submit_a
// CHECK-NOT: func.func
// CPP: v{{[0-9]+}}.add_input(
// CPP-NEXT: v{{[0-9]+}}.add_output(
// CPP-NEXT: v{{[0-9]+}}.add_inout(
// CPP-NEXT: MixedKernels [[K:v[0-9]+]] = pto_orch_mixed(1, 0, INVALID_KERNEL_ID);
// CPP-NEXT: rt_submit_task([[K]], v{{[0-9]+}});
!X = !pl.tensor<16x32xf32>
!G = !pl.tensor<4096xi8>
func.func @main(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.tensor.create() : !X
  %r = pl.call @k(%x, %o) : (!X, !X) -> !X
  return %r : !X
}
func.func @k(%x: !X, %o: !X) -> !X attributes {pl.kind = #pl.kind<group>} {
  %gm = pl.tensor.create() : !G
  %a = pl.call @k_aic(%x, %o, %gm) : (!X, !X, !G) -> !X
  %v = pl.call @k_aiv(%x, %o, %gm) : (!X, !X, !G) -> !X
  return %v : !X
}
func.func @k_aiv(%x: !X, %o: !X {pl.direction = #pl.direction<out>}, %gm: !G {pl.direction = #pl.direction<inout>}) -> !X attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "k_c2v" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !G slot_size 2048 slots 2
  return %o : !X
}
func.func @k_aic(%x: !X, %o: !X {pl.direction = #pl.direction<out>}, %gm: !G {pl.direction = #pl.direction<inout>}) -> !X attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "k_c2v" from @k_aiv : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v gm %gm : !G slot_size 2048 slots 2
  return %o : !X
}

// -----

// Split pipes: both vector cores run the aiv kernel.
// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: call_opaque "pto_orch_mixed"() {args = [#emitc.opaque<"1">, #emitc.opaque<"0">, #emitc.opaque<"0">]}
!X = !pl.tensor<16x32xf32>
!G = !pl.tensor<4096xi8>
func.func @main(%x: !X) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @k(%x) : (!X) -> ()
  return
}
func.func @k(%x: !X) attributes {pl.kind = #pl.kind<group>} {
  %gm = pl.tensor.create() : !G
  pl.call @k_aic(%x, %gm) : (!X, !G) -> ()
  pl.call @k_aiv(%x, %gm) : (!X, !G) -> ()
  return
}
func.func @k_aiv(%x: !X, %gm: !G {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "k_c2v" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !G slot_size 2048 slots 2
  %t = pl.tile.tpop_from_aic up_down : !pl.tile<8x32xf32, vec>
  pl.system.tfree_to_aic %t : !pl.tile<8x32xf32, vec>
  return
}
func.func @k_aic(%x: !X, %gm: !G {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "k_c2v" from @k_aiv : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v gm %gm : !G slot_size 2048 slots 2
  %a = pl.tile.create : !pl.tile<16x32xf32, acc>
  pl.tile.tpush_to_aiv %a up_down : !pl.tile<16x32xf32, acc>
  return
}
