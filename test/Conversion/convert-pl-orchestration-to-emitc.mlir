// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-orchestration-to-emitc=runtime=pto2 | FileCheck %s
// RUN: pto-opt %s --split-input-file --pass-pipeline='builtin.module(convert-pl-orchestration-to-emitc{runtime=pto2}, canonicalize, cse, arith-expand, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)' | mlir-translate --split-input-file --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// The PTO2 runtime's orchestration (docs/translate.md, "What the runtime
// gets"): parameters read from the argument array (tensors, then scalars,
// each counted from 0), a temporary from alloc_tensors, a returned tensor
// handed in after the parameters, one task per kernel call (tensors by
// direction, then scalars) to the kernel's func_id (its position among the
// module's kernels). The kernels are erased.
// CHECK: emitc.include <"stddef.h">
// CHECK-NEXT: emitc.include <"stdint.h">
// CHECK-NEXT: emitc.include "pto_orchestration_api.h"
// CHECK-NEXT: emitc.verbatim "#ifndef PTO_ORCHESTRATION_HELPERS
// CHECK-LABEL: emitc.func @aicpu_orchestration_config(
// CHECK-SAME: specifiers = ["extern \22C\22", "__attribute__((visibility(\22default\22)))"]
// CHECK-NEXT: literal "PTO2OrchestrationConfig{ .expected_arg_count = 3 }"
// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK-SAME: %[[ARGS:.*]]: !emitc.opaque<"const ChipTaskArgs&">)
// CHECK-NEXT: %[[X:.*]] = call_opaque "pto_orch_tensor"(%[[ARGS]]) {args = [0 : index, #emitc.opaque<"0">]}
// CHECK-NEXT: %[[S:.*]] = call_opaque "pto_orch_scalar<float>"(%[[ARGS]]) {args = [0 : index, #emitc.opaque<"0">]} {{.*}} -> f32
// CHECK-NEXT: verbatim "PTO2_SCOPE() {"
// CHECK: %[[ALLOC:.*]] = call_opaque "pto_orch_alloc"() {args = [#emitc.opaque<"DataType::FLOAT32">, #emitc.opaque<"64">, #emitc.opaque<"64">]}
// CHECK-NEXT: %[[TMP:.*]] = call_opaque "pto_orch_ref"(%[[ALLOC]])
// CHECK-NEXT: scf.for %[[ROW:.*]] = {{.*}} {
// CHECK-NEXT: %[[T0:.*]] = emitc.call_opaque "CoreTaskArgs"()
// CHECK-NEXT: emitc.verbatim "{}.add_input({});" args %[[T0]], %[[X]]
// CHECK-NEXT: emitc.verbatim "{}.add_output({});" args %[[T0]], %[[TMP]]
// CHECK-NEXT: %[[ROWS:.*]] = builtin.unrealized_conversion_cast %[[ROW]] : index to !emitc.size_t
// CHECK-NEXT: %[[ROWP:.*]] = emitc.call_opaque "pto_orch_payload"(%[[ROWS]])
// CHECK-NEXT: emitc.verbatim "{}.add_scalar({});" args %[[T0]], %[[ROWP]]
// CHECK-NEXT: %[[SP:.*]] = emitc.call_opaque "pto_orch_payload"(%[[S]])
// CHECK-NEXT: emitc.verbatim "{}.add_scalar({});" args %[[T0]], %[[SP]]
// CHECK-NEXT: emitc.call_opaque "rt_submit_aiv_task"(%[[T0]]) {args = [#emitc.opaque<"0">, 0 : index]}
// CHECK-NEXT: }
// CHECK-NEXT: %[[OUT:.*]] = call_opaque "pto_orch_tensor"(%[[ARGS]]) {args = [0 : index, #emitc.opaque<"1">]}
// CHECK-NEXT: %[[T1:.*]] = call_opaque "CoreTaskArgs"()
// CHECK-NEXT: verbatim "{}.add_input({});" args %[[T1]], %[[TMP]]
// CHECK-NEXT: verbatim "{}.add_input({});" args %[[T1]], %[[X]]
// CHECK-NEXT: verbatim "{}.add_output({});" args %[[T1]], %[[OUT]]
// CHECK-NEXT: call_opaque "rt_submit_aiv_task"(%[[T1]]) {args = [#emitc.opaque<"1">, 0 : index]}
// CHECK-NEXT: verbatim "}"
// CHECK-NEXT: return
// CHECK-NOT: func.func
// CPP-LABEL: PTO2OrchestrationConfig aicpu_orchestration_config(
// CPP-NEXT: return PTO2OrchestrationConfig{ .expected_arg_count = 3 };
// CPP-LABEL: void aicpu_orchestration_entry(
// CPP-SAME: const ChipTaskArgs& [[ARGS:v[0-9]+]]) {
// CPP: const ChipTensor& [[X:v[0-9]+]] = pto_orch_tensor([[ARGS]], 0);
// CPP-NEXT: float [[S:v[0-9]+]] = pto_orch_scalar<float>([[ARGS]], 0);
// CPP-NEXT: PTO2_SCOPE() {
// CPP: TaskOutputTensors [[ALLOC:v[0-9]+]] = pto_orch_alloc(DataType::FLOAT32, 64, 64);
// CPP: rt_submit_aiv_task(0, {{v[0-9]+}});
// CPP: const ChipTensor& [[OUT:v[0-9]+]] = pto_orch_tensor([[ARGS]], 1);
// CPP: rt_submit_aiv_task(1, {{v[0-9]+}});
// CPP-NEXT: {{^  }}}
// CPP-NEXT: return;

!M = !pl.tensor<64x64xf32>
!Row = !pl.tile<1x64xf32, vec>
!Whole = !pl.tile<64x64xf32, vec>

func.func @rows(%x: !M, %s: f32) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %tmp = pl.tensor.create() : !M
  %scaled = scf.for %row = %c0 to %c64 step %c1 iter_args(%t = %tmp) -> (!M) {
    %t2 = pl.call @double_row(%x, %row, %s, %t) : (!M, index, f32, !M) -> !M
    scf.yield %t2 : !M
  }
  %out = pl.tensor.create() : !M
  %sum = pl.call @add_rows(%scaled, %x, %out) : (!M, !M, !M) -> !M
  return %sum : !M
}

func.func @double_row(%x: !M, %row: index, %s: f32, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%row, %c0] : !M -> !Row
  %d = pl.tile.muls %t, %s : !Row, f32
  %r = pl.tile.store %d, %y[%row, %c0] : !Row, !M
  return %r : !M
}

// The direction of %y comes from what the body writes.
func.func @add_rows(%a: !M, %b: !M, %y: !M) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %ta = pl.tile.load %a[%c0, %c0] : !M -> !Whole
  %tb = pl.tile.load %b[%c0, %c0] : !M -> !Whole
  %s = pl.tile.add %ta, %tb : !Whole, !Whole -> !Whole
  %r = pl.tile.store %s, %y[%c0, %c0] : !Whole, !M
  return %r : !M
}

// -----

// Submits: a dependency array, the block count and a synchronised start on
// the task's launch spec; a task id kept where a later task depends on it.
// The func_id is the kernel's pto2.func_id, the core its kind; the
// ordering tokens (pto2.ordering_tokens) count in expected_arg_count.
// CHECK-LABEL: emitc.func @aicpu_orchestration_config(
// CHECK-NEXT: literal "PTO2OrchestrationConfig{ .expected_arg_count = 3 }"
// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[T0:.*]] = call_opaque "CoreTaskArgs"()
// CHECK: %[[OUTS:.*]] = call_opaque "rt_submit_aic_task"(%[[T0]]) {args = [#emitc.opaque<"7">, 0 : index]} {{.*}} -> !emitc.opaque<"TaskOutputTensors">
// CHECK-NEXT: %[[ID:.*]] = call_opaque "pto_orch_task_id"(%[[OUTS]]) {{.*}} -> !emitc.opaque<"PTO2TaskId">
// CHECK: %[[T1:.*]] = call_opaque "CoreTaskArgs"()
// CHECK: verbatim "PTO2TaskId pto_deps_1[] = {{.*}}" args %[[ID]]
// CHECK-NEXT: verbatim "{}.set_dependencies(pto_deps_1, 1);" args %[[T1]]
// CHECK-NEXT: %[[BLOCKS:.*]] = builtin.unrealized_conversion_cast
// CHECK-NEXT: verbatim "{}.launch_spec.set_block_num({});" args %[[T1]], %[[BLOCKS]]
// CHECK-NEXT: verbatim "{}.launch_spec.set_require_sync_start(true);" args %[[T1]]
// CHECK-NEXT: call_opaque "rt_submit_aic_task"(%[[T1]]) {args = [#emitc.opaque<"7">, 0 : index]} : (!emitc.opaque<"CoreTaskArgs">) -> ()
// CPP-LABEL: void aicpu_orchestration_entry(
// CPP: TaskOutputTensors [[OUTS:v[0-9]+]] = rt_submit_aic_task(7, {{v[0-9]+}});
// CPP-NEXT: PTO2TaskId [[ID:v[0-9]+]] = pto_orch_task_id([[OUTS]]);
// CPP: PTO2TaskId pto_deps_1[] = {[[ID]]};
// CPP-NEXT: [[T1:v[0-9]+]].set_dependencies(pto_deps_1, 1);
// CPP-NEXT: [[T1]].launch_spec.set_block_num({{v[0-9]+}});
// CPP-NEXT: [[T1]].launch_spec.set_require_sync_start(true);
// CPP-NEXT: rt_submit_aic_task(7, [[T1]]);

!M = !pl.tensor<64x64xf32>
func.func @chain(%x: !M) -> !M attributes {pl.kind = #pl.kind<orchestration>, pto2.ordering_tokens = 1 : i64} {
  %c4 = arith.constant 4 : index
  %tmp = pl.tensor.create() : !M
  %t1, %task1 = pl.submit @twice(%x, %tmp) : (!M, !M) -> !M
  %out = pl.tensor.create() : !M
  %o, %task2 = pl.submit @twice(%t1, %out) deps(%task1) blocks %c4 sync_start : (!M, !M) -> !M
  return %o : !M
}
func.func @twice(%a: !M, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aic>, pto2.func_id = 7 : i64} {
  return %y : !M
}

// -----

// A dynamic extent: pl.tensor.dim reads the descriptor, the allocation
// takes it as an operand. The func_id counts every kernel of the module.
// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[X:.*]] = call_opaque "pto_orch_tensor"
// CHECK: %[[ROWS:.*]] = call_opaque "pto_orch_extent"(%[[X]]) {args = [0 : index, #emitc.opaque<"0">]} {{.*}} -> !emitc.size_t
// CHECK: %[[EXTENT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : index to !emitc.size_t
// CHECK-NEXT: call_opaque "pto_orch_alloc"(%[[EXTENT]]) {args = [#emitc.opaque<"DataType::FLOAT32">, 0 : index, #emitc.opaque<"64">]}
// CHECK: call_opaque "rt_submit_aiv_task"({{.*}}) {args = [#emitc.opaque<"1">, 0 : index]}
// CPP-LABEL: void aicpu_orchestration_entry(
// CPP: size_t [[ROWS:v[0-9]+]] = pto_orch_extent({{v[0-9]+}}, 0);
// CPP-NEXT: TaskOutputTensors {{v[0-9]+}} = pto_orch_alloc(DataType::FLOAT32, [[ROWS]], 64);

!X = !pl.tensor<?x64xf32>
func.func @main(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %rows = pl.tensor.dim %x, 0 : !X
  %tmp = pl.tensor.create(%rows) : !X
  %t = pl.call @copy(%x, %tmp) : (!X, !X) -> !X
  %y = pl.tensor.create(%rows) : !X
  %r = pl.call @copy(%t, %y) : (!X, !X) -> !X
  return %r : !X
}
func.func @unused(%x: !X) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @copy(%x: !X, %y: !X {pl.direction = #pl.direction<out>}) -> !X attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !X
}

// -----

// Slices and views of tensors are descriptors of the same buffer: a slice
// moves the start offset and narrows the extents (offsets then sizes, as
// size_t), a view takes dense strides of its extents.

// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[X:.*]] = call_opaque "pto_orch_tensor"
// CHECK: %[[S:.*]] = {{.*}}call_opaque "pto_orch_slice"(%[[X]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!emitc.opaque<"const ChipTensor&">, {{.*}}) -> !emitc.opaque<"const ChipTensor&">
// CHECK: %[[V:.*]] = {{.*}}call_opaque "pto_orch_reshape"(%[[S]], %{{.*}}, %{{.*}})
// CPP-LABEL: void aicpu_orchestration_entry(
// CPP: const ChipTensor& [[S:v[0-9]+]] = pto_orch_slice(
// CPP: const ChipTensor& [[V:v[0-9]+]] = pto_orch_reshape([[S]],
// CPP: add_inout([[V]])
func.func @rows(%x: !pl.tensor<4x16x64xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %b = %c0 to %c4 step %c1 {
    %s = pl.tensor.slice %x[%b, %c0, %c0] : !pl.tensor<4x16x64xf32> -> !pl.tensor<1x16x64xf32>
    %v = pl.tensor.reshape %s : !pl.tensor<1x16x64xf32> -> !pl.tensor<16x64xf32>
    pl.call @bump(%v) : (!pl.tensor<16x64xf32>) -> ()
  }
  return
}
func.func @bump(%x: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// Element access on the AICPU through the descriptor, of tensors no task
// takes: a read (the loop bound), a write, and the fill of a result the
// runtime hands in (before the task that writes a window of it).
// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[META:.*]] = {{.*}}call_opaque "pto_orch_tensor"(%{{.*}}) {args = [0 : index, #emitc.opaque<"1">]}
// CHECK: %[[OUT:.*]] = {{.*}}call_opaque "pto_orch_tensor"(%{{.*}}) {args = [0 : index, #emitc.opaque<"2">]}
// CHECK: verbatim "pto_orch_fill<float>({}, {});" args %[[OUT]], %{{.*}}
// CHECK: %[[N:.*]] = {{.*}}call_opaque "pto_orch_element<int32_t>"(%[[META]], %{{.*}}) : (!emitc.opaque<"const ChipTensor&">, !emitc.size_t) -> i32
// CHECK: verbatim "pto_orch_element<int32_t>({}, {}) = {};" args %[[META]], %{{.*}}, %[[N]]
// CPP-LABEL: void aicpu_orchestration_entry(
// CPP: pto_orch_fill<float>(
// CPP: int32_t [[N:v[0-9]+]] = pto_orch_element<int32_t>(
// CPP: pto_orch_element<int32_t>({{.*}}) = [[N]];
func.func @access(%x: !pl.tensor<16x64xf32>, %meta: !pl.tensor<2xi32> {pl.direction = #pl.direction<inout>}) -> !pl.tensor<32x64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %out = pl.tensor.full %zero() : f32 -> !pl.tensor<32x64xf32>
  %n = pl.tensor.read %meta[%c0] : !pl.tensor<2xi32> -> i32
  %m = pl.tensor.write %meta[%c1], %n : !pl.tensor<2xi32>, i32
  %t = pl.tensor.create() : !pl.tensor<16x64xf32>
  %y = pl.call @fill(%x, %t) : (!pl.tensor<16x64xf32>, !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32>
  %o = pl.tensor.assemble %y into %out[%c16, %c0] : !pl.tensor<16x64xf32>, !pl.tensor<32x64xf32>
  return %o : !pl.tensor<32x64xf32>
}
func.func @fill(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !pl.tensor<16x64xf32>
}

// -----

// A created tensor with a dynamic extent fuses alike: the slice of the
// target takes the create's extent.
// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[O:.*]] = {{.*}}call_opaque "pto_orch_tensor"(%{{.*}}) {args = [0 : index, #emitc.opaque<"1">]}
// CHECK: %[[W:.*]] = {{.*}}call_opaque "pto_orch_slice"(%[[O]],
// CHECK: verbatim "{}.add_output({});" args %{{.*}}, %[[W]]
// CPP-LABEL: void aicpu_orchestration_entry(
// CPP: = pto_orch_slice(
// CPP-NEXT: const ChipTensor& [[W:v[0-9]+]] = pto_orch_slice(
// CPP: add_output([[W]]);
func.func @strips(%x: !pl.tensor<?x64xf32>, %out: !pl.tensor<?x64xf32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %n = pl.tensor.dim %x, 0 : !pl.tensor<?x64xf32>
  %r = scf.for %i = %c0 to %n step %c16 iter_args(%o = %out) -> (!pl.tensor<?x64xf32>) {
    %left = arith.subi %n, %i : index
    %rows = arith.minsi %left, %c16 : index
    %xs = pl.tensor.slice %x[%i, %c0] sizes(%rows) : !pl.tensor<?x64xf32> -> !pl.tensor<?x64xf32>
    %t = pl.tensor.create(%rows) : !pl.tensor<?x64xf32>
    %y = pl.call @fill(%xs, %t) : (!pl.tensor<?x64xf32>, !pl.tensor<?x64xf32>) -> !pl.tensor<?x64xf32>
    %o2 = pl.tensor.assemble %y into %o[%i, %c0] : !pl.tensor<?x64xf32>, !pl.tensor<?x64xf32>
    scf.yield %o2 : !pl.tensor<?x64xf32>
  }
  return
}
func.func @fill(%x: !pl.tensor<?x64xf32>, %y: !pl.tensor<?x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<?x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !pl.tensor<?x64xf32>
}

// -----

// A tensor created for a kernel to fill and then assembled into a window
// of another is that window: the create becomes a slice of the target
// (viewed with the create's shape), the kernel writes into it, and the
// assemble goes.

// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[O:.*]] = {{.*}}call_opaque "pto_orch_tensor"(%{{.*}}) {args = [0 : index, #emitc.opaque<"1">]}
// CHECK: %[[W:.*]] = {{.*}}call_opaque "pto_orch_slice"(%[[O]],
// CHECK: %[[V:.*]] = {{.*}}call_opaque "pto_orch_reshape"(%[[W]],
// CHECK: verbatim "{}.add_output({});" args %{{.*}}, %[[V]]
// CHECK-NOT: call_opaque "pto_orch_alloc"
// CPP-LABEL: void aicpu_orchestration_entry(
// CPP: const ChipTensor& [[W:v[0-9]+]] = pto_orch_slice(
// CPP: const ChipTensor& [[V:v[0-9]+]] = pto_orch_reshape([[W]],
// CPP: add_output([[V]]);
func.func @blocks(%x: !pl.tensor<16x64xf32>, %out: !pl.tensor<4x16x64xf32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %b = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pl.tensor<4x16x64xf32>) {
    %t = pl.tensor.create() : !pl.tensor<16x64xf32>
    %y = pl.call @fill(%x, %t) : (!pl.tensor<16x64xf32>, !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32>
    %y3 = pl.tensor.reshape %y : !pl.tensor<16x64xf32> -> !pl.tensor<1x16x64xf32>
    %o2 = pl.tensor.assemble %y3 into %o[%b, %c0, %c0] : !pl.tensor<1x16x64xf32>, !pl.tensor<4x16x64xf32>
    scf.yield %o2 : !pl.tensor<4x16x64xf32>
  }
  return
}
func.func @fill(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !pl.tensor<16x64xf32>
}


// -----

// A branch result assembled after the branch is assembled in each branch:
// each branch's kernel writes the window of the target, and the branch
// yields nothing.

// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[O:.*]] = {{.*}}call_opaque "pto_orch_tensor"(%{{.*}}) {args = [0 : index, #emitc.opaque<"1">]}
// CHECK: scf.if %{{.*}} {
// CHECK: %[[W:.*]] = emitc.call_opaque "pto_orch_slice"(%[[O]],
// CHECK: verbatim "{}.add_output({});" args %{{.*}}, %[[W]]
// CHECK: rt_submit_aiv_task"(%{{.*}}) {args = [#emitc.opaque<"1">, 0 : index]}
// CHECK: } else {
// CHECK: %[[W2:.*]] = emitc.call_opaque "pto_orch_slice"(%[[O]],
// CHECK: verbatim "{}.add_output({});" args %{{.*}}, %[[W2]]
// CHECK: rt_submit_aiv_task"(%{{.*}}) {args = [#emitc.opaque<"0">, 0 : index]}
// CHECK-NOT: call_opaque "pto_orch_alloc"
func.func @relu(%x: !pl.tensor<16x32xf32>, %out: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x32xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %out : !pl.tensor<16x32xf32>
}
func.func @square(%x: !pl.tensor<16x32xf32>, %out: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x32xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %out : !pl.tensor<16x32xf32>
}
func.func @choose(%x: !pl.tensor<64x32xf32>, %flag: i1) -> !pl.tensor<64x32xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %out = pl.tensor.create() : !pl.tensor<64x32xf32>
  %xs = pl.tensor.slice %x[%c16, %c0] : !pl.tensor<64x32xf32> -> !pl.tensor<16x32xf32>
  %r = scf.if %flag -> (!pl.tensor<16x32xf32>) {
    %t = pl.tensor.create() : !pl.tensor<16x32xf32>
    %a = pl.call @square(%xs, %t) : (!pl.tensor<16x32xf32>, !pl.tensor<16x32xf32>) -> !pl.tensor<16x32xf32>
    scf.yield %a : !pl.tensor<16x32xf32>
  } else {
    %t = pl.tensor.create() : !pl.tensor<16x32xf32>
    %b = pl.call @relu(%xs, %t) : (!pl.tensor<16x32xf32>, !pl.tensor<16x32xf32>) -> !pl.tensor<16x32xf32>
    scf.yield %b : !pl.tensor<16x32xf32>
  }
  %o = pl.tensor.assemble %r into %out[%c16, %c0] : !pl.tensor<16x32xf32>, !pl.tensor<64x32xf32>
  return %o : !pl.tensor<64x32xf32>
}

// -----

// A loop accumulating through a kernel that reads every element of the
// accumulator before it writes its output: the output is the accumulator,
// which the loop then updates in place.

// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[ACC:.*]] = {{.*}}call_opaque "pto_orch_tensor"(%{{.*}}) {args = [0 : index, #emitc.opaque<"1">]}
// CHECK: pto_orch_fill<float>({}, {});" args %[[ACC]]
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: verbatim "{}.add_input({});" args %{{.*}}, %[[ACC]]
// CHECK: verbatim "{}.add_output({});" args %{{.*}}, %[[ACC]]
// CHECK-NOT: call_opaque "pto_orch_alloc"
func.func @accumulate(%acc: !pl.tensor<16x64xf32>, %x: !pl.tensor<16x64xf32>, %out: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %acc[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %b = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %s = pl.tile.add %a, %b : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
  %r = pl.tile.store %s, %out[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  return %r : !pl.tensor<16x64xf32>
}
func.func @sum4(%x: !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %init = pl.tensor.full %zero() : f32 -> !pl.tensor<16x64xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (!pl.tensor<16x64xf32>) {
    %t = pl.tensor.create() : !pl.tensor<16x64xf32>
    %n = pl.call @accumulate(%acc, %x, %t) : (!pl.tensor<16x64xf32>, !pl.tensor<16x64xf32>, !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32>
    scf.yield %n : !pl.tensor<16x64xf32>
  }
  return %r : !pl.tensor<16x64xf32>
}

// -----

// Task ids: a dummy task joins the submits' and an invalid id (which may
// be invalid ones are added to the dependency array only when valid); its
// own id is the invalid one when dependencies are given and none is
// valid. The launch is sized to the device's core groups.
// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[N:.*]] = call_opaque "rt_available_cluster_count"() : () -> i32
// CHECK: %[[T1:.*]] = call_opaque "pto_orch_task_id"
// CHECK: %[[NONE:.*]] = call_opaque "pto_orch_invalid_task"() : () -> !emitc.opaque<"PTO2TaskId">
// CHECK: %[[P:.*]] = call_opaque "CoreTaskArgs"()
// CHECK-NEXT: verbatim "PTO2TaskId pto_deps_1[2];\0Auint32_t pto_deps_1_count = 0;"
// CHECK-NEXT: verbatim "if (pto_orch_task_valid({})) pto_deps_1[pto_deps_1_count++] = {};" args %[[T1]], %[[T1]]
// CHECK-NEXT: verbatim "if (pto_orch_task_valid({})) pto_deps_1[pto_deps_1_count++] = {};" args %[[NONE]], %[[NONE]]
// CHECK-NEXT: verbatim "{}.set_dependencies(pto_deps_1, pto_deps_1_count);" args %[[P]]
// CHECK-NEXT: %[[D:.*]] = call_opaque "pto_orch_dummy"(%[[P]]) {args = [0 : index, #emitc.opaque<"pto_deps_1_count">, #emitc.opaque<"2">]}
// CHECK: call_opaque "pto_orch_task_valid"(%[[D]]) : (!emitc.opaque<"PTO2TaskId">) -> i1
// CHECK: verbatim "if (pto_orch_task_valid({})) pto_deps_2[pto_deps_2_count++] = {};" args %[[D]], %[[D]]
// CPP-LABEL: void aicpu_orchestration_entry(
// CPP: PTO2TaskId [[D:v[0-9]+]] = pto_orch_dummy({{v[0-9]+}}, pto_deps_1_count, 2);
!M = !pl.tensor<64x64xf32>
func.func @joined(%x: !M) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  %n = pl.system.available_cluster_count
  %blocks = arith.index_cast %n : i32 to index
  %o1 = pl.tensor.create() : !M
  %a, %t1 = pl.submit @twice(%x, %o1) blocks %blocks : (!M, !M) -> !M
  %none = pl.system.task_invalid
  %both = pl.system.task_dummy deps(%t1, %none)
  %ok = pl.system.task_is_valid %both
  %o2 = pl.tensor.create() : !M
  %b, %t2 = pl.submit @twice(%a, %o2) deps(%both) : (!M, !M) -> !M
  %o3 = pl.tensor.create() : !M
  scf.if %ok {
    %c = pl.call @twice(%b, %o3) : (!M, !M) -> !M
  }
  return %b : !M
}
func.func @twice(%a: !M, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !M
}

// -----

// Task ids in an array and carried by a loop: the array is a C array of
// PTO2TaskId each set to the invalid id (not a zero), written in place;
// the carried id is a PTO2TaskId the loop carries; ids read from either
// are dependencies only when valid.
// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[IDS:.*]] = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> !emitc.array<2x!emitc.opaque<"PTO2TaskId">>
// CHECK-NEXT: {{.*}}call_opaque "pto_orch_invalidate"(%[[IDS]])
// CHECK: %[[LAST:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PREV:.*]] = %{{.*}}) -> (!emitc.opaque<"PTO2TaskId">) {
// CHECK: verbatim "if (pto_orch_task_valid({})) pto_deps_1[pto_deps_1_count++] = {};" args %[[PREV]], %[[PREV]]
// CHECK: %[[T:.*]] = {{.*}}call_opaque "pto_orch_task_id"
// CHECK: %[[CELL:.*]] = {{(emitc.)?}}subscript %[[IDS]][%{{.*}}] : (!emitc.array<2x!emitc.opaque<"PTO2TaskId">>, i64) -> !emitc.lvalue<!emitc.opaque<"PTO2TaskId">>
// CHECK-NEXT: {{(emitc.)?}}assign %[[T]] : !emitc.opaque<"PTO2TaskId"> to %[[CELL]]
// CHECK: scf.yield %[[T]]
// CHECK: %[[FIRST:.*]] = {{(emitc.)?}}load
// CHECK: verbatim "if (pto_orch_task_valid({})) pto_deps_2[pto_deps_2_count++] = {};" args %[[FIRST]], %[[FIRST]]
// CHECK: verbatim "if (pto_orch_task_valid({})) pto_deps_2[pto_deps_2_count++] = {};" args %[[LAST]], %[[LAST]]
// CPP: PTO2TaskId [[IDS:v[0-9]+]][2];
// CPP-NEXT: pto_orch_invalidate([[IDS]]);
// CPP: [[IDS]][{{v[0-9]+}}] = {{v[0-9]+}};
!M = !pl.tensor<64x64xf32>
func.func @kept(%x: !M) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %none = pl.system.task_invalid
  %empty = pl.array.create : !pl.array<!pl.task_id, 2>
  %o = pl.tensor.create() : !M
  %r, %ids, %last = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %o, %a = %empty, %prev = %none) -> (!M, !pl.array<!pl.task_id, 2>, !pl.task_id) {
    %t2, %id = pl.submit @twice(%x, %t) deps(%prev) : (!M, !M) -> !M
    %a2 = pl.array.update_element %a[%i], %id : !pl.array<!pl.task_id, 2>, !pl.task_id
    scf.yield %t2, %a2, %id : !M, !pl.array<!pl.task_id, 2>, !pl.task_id
  }
  %first = pl.array.get_element %ids[%c0] : !pl.array<!pl.task_id, 2> -> !pl.task_id
  %o2 = pl.tensor.create() : !M
  %b, %t3 = pl.submit @twice(%r, %o2) deps(%first, %last) : (!M, !M) -> !M
  return %b : !M
}
func.func @twice(%a: !M, %y: !M {pl.direction = #pl.direction<inout>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !M
}

// -----

// A loop rebinding a tensor (h = layer(h): each iteration's kernel writes
// a fresh tensor the next one reads) keeps the descriptor in a variable:
// the init and each iteration's tensor are copied into it, and the code
// after the loop reads the last one.
// CHECK-LABEL: emitc.func @aicpu_orchestration_entry(
// CHECK: %[[INIT:.*]] = call_opaque "ChipTensor"(%{{.*}}) : (!emitc.opaque<"const ChipTensor&">) -> !emitc.opaque<"ChipTensor">
// CHECK: scf.for {{.*}} iter_args(%[[H:.*]] = %[[INIT]]) -> (!emitc.opaque<"ChipTensor">)
// CHECK: {{(emitc.)?}}call_opaque "pto_orch_alloc"
// CHECK: verbatim "{}.add_input({});" args %{{.*}}, %[[H]]
// CHECK: %[[NEXT:.*]] = {{(emitc.)?}}call_opaque "ChipTensor"(%{{.*}}) : (!emitc.opaque<"const ChipTensor&">) -> !emitc.opaque<"ChipTensor">
// CHECK-NEXT: scf.yield %[[NEXT]]
// CPP: ChipTensor [[INIT:v[0-9]+]] = ChipTensor({{v[0-9]+}});
// CPP-NEXT: ChipTensor [[H:v[0-9]+]];
// CPP-NEXT: [[H]] = [[INIT]];
// CPP: [[H]] = {{v[0-9]+}};
!T = !pl.tensor<16x64xf32>
func.func @layers(%x: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %h = scf.for %i = %c0 to %c3 step %c1 iter_args(%cur = %x) -> (!T) {
    %t = pl.tensor.create() : !T
    %next = pl.call @layer(%cur, %t) : (!T, !T) -> !T
    scf.yield %next : !T
  }
  %o = pl.tensor.create() : !T
  %out = pl.call @layer(%h, %o) : (!T, !T) -> !T
  return %out : !T
}
func.func @layer(%x: !T, %y: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !T
}
