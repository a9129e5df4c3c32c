// RUN: pto-opt --verify-roundtrip %s --convert-pl-to-emitc=kernel-entry=true | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(convert-pl-to-emitc{kernel-entry=true}, canonicalize, cse, arith-expand, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)' | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// The runtime's packed arguments (docs/translate.md): every tensor descriptor
// first (in parameter order), then the scalars' 64-bit payloads; a dynamic
// extent is read from its tensor's descriptor.
// CHECK: emitc.include "pto/pto-inst.hpp"
// CHECK-NEXT: emitc.include "tensor.h"
// CHECK-NEXT: emitc.verbatim "using namespace pto;"
// CHECK-NEXT: emitc.verbatim "#ifndef __aicore__
// CHECK-LABEL: emitc.func @scale_rows(
// CHECK-SAME: specifiers = ["static", "__aicore__"]
// CHECK-LABEL: emitc.func @kernel_entry(
// CHECK-SAME: %[[ARGS:.*]]: !emitc.ptr<!emitc.opaque<"__gm__ int64_t">>)
// CHECK-SAME: specifiers = ["extern \22C\22", "__aicore__", "__attribute__((always_inline))"]
// CHECK-NEXT: call_opaque "pto_entry_prologue"()
// CHECK-NEXT: %[[X:.*]] = {{.*}}call_opaque "pto_tensor_arg"(%[[ARGS]]) {args = [0 : index, 0 : i32], template_args = [#emitc.opaque<"float">]}
// CHECK-NEXT: %[[S:.*]] = {{.*}}call_opaque "pto_scalar_arg"(%[[ARGS]]) {args = [0 : index, 2 : i32], template_args = [#emitc.opaque<"float">]} {{.*}} -> f32
// CHECK-NEXT: %[[Y:.*]] = {{.*}}call_opaque "pto_tensor_arg"(%[[ARGS]]) {args = [0 : index, 1 : i32], template_args = [#emitc.opaque<"float">]}
// CHECK-NEXT: %[[N:.*]] = {{.*}}call_opaque "pto_scalar_arg"(%[[ARGS]]) {args = [0 : index, 3 : i32], template_args = [#emitc.opaque<"size_t">]}
// CHECK-NEXT: %[[XR:.*]] = {{.*}}call_opaque "pto_tensor_extent"(%[[ARGS]]) {args = [0 : index, 0 : i32, 0 : i32]}
// CHECK-NEXT: %[[YR:.*]] = {{.*}}call_opaque "pto_tensor_extent"(%[[ARGS]]) {args = [0 : index, 1 : i32, 0 : i32]}
// CHECK-NEXT: {{.*}}call @scale_rows(%[[X]], %[[S]], %[[Y]], %[[N]], %[[XR]], %[[YR]])
// CHECK-NEXT: return
// CPP: static __aicore__ void scale_rows(__gm__ float* {{v[0-9]+}}, float {{v[0-9]+}}, __gm__ float* {{v[0-9]+}}, size_t {{v[0-9]+}}, size_t {{v[0-9]+}}, size_t {{v[0-9]+}}) {
// CPP: extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t* [[ARGS:v[0-9]+]]) {
// CPP-NEXT: pto_entry_prologue();
// CPP-NEXT: __gm__ float* [[X:v[0-9]+]] = pto_tensor_arg<float>([[ARGS]], 0);
// CPP-NEXT: float [[S:v[0-9]+]] = pto_scalar_arg<float>([[ARGS]], 2);
func.func @scale_rows(%x: !pl.tensor<?x64xf32>, %s: f32, %y: !pl.tensor<?x64xf32> {pl.direction = #pl.direction<out>}, %rows: index) -> !pl.tensor<?x64xf32> attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 8192 : i64}} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] valid(%rows) clamp {pl.addresses = array<i64: 0>} : !pl.tensor<?x64xf32> -> !pl.tile<16x64xf32, vec, valid = ?x64>
  pl.system.sync_src set mte2 wait v event 0
  pl.system.sync_dst set mte2 wait v event 0
  %e = pl.tile.muls %t, %s {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec, valid = ?x64>, f32
  pl.system.sync_src set v wait mte3 event 0
  pl.system.sync_dst set v wait mte3 event 0
  %r = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<16x64xf32, vec, valid = ?x64>, !pl.tensor<?x64xf32>
  pl.system.pipe_barrier all
  return %r : !pl.tensor<?x64xf32>
}

