// A kernel's SPMD identity (docs/translate.md, "SPMD launches"): the block
// queries it reads are trailing int32_t parameters, in the order block
// index, block count, sub-block index, only those it reads; the runtime's
// kernel entry passes them from its arguments (the runtime's intrinsic.h).
// RUN: pto-opt --verify-roundtrip %s --convert-pl-to-emitc | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s --convert-pl-to-emitc=kernel-entry=true | FileCheck %s --check-prefix=ENTRY
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(convert-pl-to-emitc{kernel-entry=true}, canonicalize, cse, arith-expand, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)' | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// CHECK-LABEL: emitc.func @rows(
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ float">>, %[[IDX:[^:]*]]: i32, %[[SUB:[^:]*]]: i32)
// CHECK: arith.index_cast %[[IDX]] : i32 to index
// CHECK: arith.index_cast %[[SUB]] : i32 to index
// ENTRY: emitc.include "tensor.h"
// ENTRY-NEXT: emitc.include "intrinsic.h"
// ENTRY-LABEL: emitc.func @kernel_entry(
// ENTRY-SAME: %[[ARGS:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ int64_t">>)
// ENTRY: %[[X:.*]] = {{.*}}call_opaque "pto_tensor_arg"(%[[ARGS]])
// ENTRY-NEXT: %[[B:.*]] = {{.*}}call_opaque "get_block_idx"(%[[ARGS]]) : (!emitc.ptr<!emitc.opaque<"__gm__ int64_t">>) -> i32
// ENTRY-NEXT: %[[S:.*]] = {{.*}}call_opaque "get_sub_block_id"(%[[ARGS]]) : (!emitc.ptr<!emitc.opaque<"__gm__ int64_t">>) -> i32
// ENTRY-NEXT: {{.*}}call @rows(%[[X]], %[[B]], %[[S]])
// CPP: static __aicore__ void rows(__gm__ float* {{v[0-9]+}}, int32_t {{v[0-9]+}}, int32_t {{v[0-9]+}}) {
// CPP: get_block_idx(
// CPP: get_sub_block_id(
func.func @rows(%y: !pl.tensor<64x64xf32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 4096 : i64}} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %i = pl.tile.get_block_idx
  %s = pl.tile.get_subblock_idx
  %r = arith.muli %i, %c16 : index
  %row = arith.addi %r, %s : index
  %one = arith.constant 1.0 : f32
  %t = pl.tile.full %one {pl.addresses = array<i64: 0>} : f32 -> !pl.tile<16x64xf32, vec>
  pl.system.sync_src set v wait mte3 event 0
  pl.system.sync_dst set v wait mte3 event 0
  %o = pl.tile.store %t, %y[%row, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<64x64xf32>
  return
}
