// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-program-to-emitc='entry=main runtime=pto2' | FileCheck %s
// RUN: pto-opt %s --split-input-file --pass-pipeline='builtin.module(convert-pl-program-to-emitc{entry=main runtime=pto2}, canonicalize, cse, arith-expand, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)' | mlir-translate --split-input-file --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// runtime=pto2 (docs/passes/convert-pl-program-to-emitc.md): an entry
// orchestration run the device's way. Every kernel file is included with
// its kernel_entry renamed after its pto2.func_id (in func_id order, a
// kernel no host drives too) and registered; the orchestration's PTO2 C++
// is included; the parameter, then the result, are ChipTensors of the
// entry's arguments.

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/runtime.hpp"
// CHECK-NEXT: emitc.verbatim "#define kernel_entry pto_kernel_entry_0"
// CHECK-NEXT: emitc.include "bias.cpp"
// CHECK-NEXT: emitc.verbatim "#undef kernel_entry"
// CHECK-NEXT: emitc.verbatim "#define kernel_entry pto_kernel_entry_1"
// CHECK-NEXT: emitc.include "scale.cpp"
// CHECK-NEXT: emitc.verbatim "#undef kernel_entry"
// CHECK-NEXT: emitc.include "main_orchestration.cpp"
// CHECK-NEXT: emitc.func @main(
// CHECK-NOT: emitc.func
// CPP-LABEL: #include "pto/sim/runtime.hpp"
// CPP: int32_t main(int32_t v1, char** v2) {
// CPP-NEXT: pto::sim::Args v3 = pto::sim::parse_args(v1, v2);
// CPP-NEXT: pto::sim::Buffer<float> v4 = pto::sim::input<float>(v3, "arg0", {64});
// CPP-NEXT: ChipTensor v5 = pto::sim::runtime::describe(v4);
// CPP-NEXT: pto::sim::Buffer<float> v6 = pto::sim::output<float>(v3, "result0", {64});
// CPP-NEXT: ChipTensor v7 = pto::sim::runtime::describe(v6);
// CPP-NEXT: pto::sim::runtime::register_kernel(0, pto_kernel_entry_0);
// CPP-NEXT: pto::sim::runtime::register_kernel(1, pto_kernel_entry_1);
// CPP-NEXT: ChipTaskArgs v8 = pto::sim::runtime::task_args(v5, v7);
// CPP-NEXT: PTO2OrchestrationConfig v9 = aicpu_orchestration_config(v8);
// CPP-NEXT: pto::sim::runtime::check_config(v9, v8);
// CPP-NEXT: aicpu_orchestration_entry(v8);
// CPP-NEXT: pto::sim::finish(v3, v4);
// CPP-NEXT: pto::sim::finish(v3, v6);
// CPP-NEXT: int32_t v10 = pto::sim::exit_code(v3);
// CPP-NEXT: return v10;
func.func @main(%x: !pl.tensor<64xf32>) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.tensor.create() : !pl.tensor<64xf32>
  %r = pl.call @scale(%x, %y) : (!pl.tensor<64xf32>, !pl.tensor<64xf32>) -> !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}
func.func @scale(%x: !pl.tensor<64xf32>, %y: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<aiv>, pto2.func_id = 1 : i64} {
  return %y : !pl.tensor<64xf32>
}
func.func @bias(%s: f32) attributes {pl.kind = #pl.kind<aiv>, pto2.func_id = 0 : i64} {
  return
}


// -----

// A host program with runtime=pto2: the kernels are included renamed and
// registered, each chip's PTO2 C++ is included with its entry and config
// renamed after it, and the dispatch launches the chip's entry with its
// ordering tokens (pto2.ordering_tokens) on the device's thread.

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/runtime.hpp"
// CHECK-NEXT: emitc.verbatim "#define kernel_entry pto_kernel_entry_0"
// CHECK-NEXT: emitc.include "put.cpp"
// CHECK-NEXT: emitc.verbatim "#undef kernel_entry"
// CHECK-NEXT: emitc.verbatim "#define aicpu_orchestration_entry pto_chip_entry_chip"
// CHECK-NEXT: emitc.verbatim "#define aicpu_orchestration_config pto_chip_config_chip"
// CHECK-NEXT: emitc.include "chip_orchestration.cpp"
// CHECK-NEXT: emitc.verbatim "#undef aicpu_orchestration_entry"
// CHECK-NEXT: emitc.verbatim "#undef aicpu_orchestration_config"
// CHECK-NEXT: emitc.include "pto/sim/comm.hpp"
// CHECK-NEXT: emitc.func @main(
// CHECK: call_opaque "pto::sim::runtime::register_kernel"() {args = [#emitc.opaque<"0">, #emitc.opaque<"pto_kernel_entry_0">]}
// CHECK: emitc.call_opaque "pto::sim::runtime::launch_chip"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"pto_chip_entry_chip">, #emitc.opaque<"pto_chip_config_chip">, #emitc.opaque<"1">, 2 : index, 3 : index]}
// CHECK-NOT: emitc.func
// CPP-LABEL: #include "pto/sim/runtime.hpp"
// CPP: pto::sim::runtime::register_kernel(0, pto_kernel_entry_0);
// CPP: pto::sim::runtime::launch_chip(v7, v20, pto_chip_entry_chip, pto_chip_config_chip, 1, v14, v18);
// CPP: pto::sim::join(v7);
// CPP-NEXT: pto::sim::finish_window(v6, v14, "data");

func.func @main() attributes {pl.level = #pl.level<host>} {
  pld.comm_domain "comm_d0" devices [] slots ["data"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024_i64 = arith.constant 1024 : i64
    %world = pld.system.world_size : i64
    %bytes = arith.muli %world, %c1024_i64 : i64
    %data = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %w = pld.tensor.window %data : !pl.ptr -> !pld.dtensor<?x256xf32>
    %n = arith.index_cast %world : i64 to index
    scf.for %rank = %c0 to %n step %c1 {
      %ctx = pld.system.get_comm_ctx %w : !pld.dtensor<?x256xf32>
      pld.dispatch @chip(%w, %ctx) on %rank : (!pld.dtensor<?x256xf32>, !pld.comm_ctx) -> ()
    }
  }
  return
}
func.func @chip(%w: !pld.dtensor<?x256xf32>, %c: !pld.comm_ctx) attributes {pl.kind = #pl.kind<orchestration>, pto2.ordering_tokens = 1 : i64} {
  pl.call @put(%w, %c) : (!pld.dtensor<?x256xf32>, !pld.comm_ctx) -> ()
  return
}
func.func @put(%w: !pld.dtensor<?x256xf32> {pl.direction = #pl.direction<inout>}, %c: !pld.comm_ctx) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// Scalar parameters of the entry orchestration are read from one-element
// .npy files and passed after the tensors as 64-bit payloads.

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/runtime.hpp"
// CHECK-NEXT: emitc.verbatim "#define kernel_entry pto_kernel_entry_0"
// CHECK-NEXT: emitc.include "offset.cpp"
// CPP-LABEL: #include "offset.cpp"
// CPP: pto::sim::Buffer<float> [[X:v[0-9]+]] = pto::sim::input<float>([[ARGS:v[0-9]+]], "arg0", {64});
// CPP-NEXT: ChipTensor [[XD:v[0-9]+]] = pto::sim::runtime::describe([[X]]);
// CPP-NEXT: size_t [[N:v[0-9]+]] = pto::sim::scalar<size_t>([[ARGS]], "arg1");
// CPP-NEXT: float [[S:v[0-9]+]] = pto::sim::scalar<float>([[ARGS]], "arg2");
// CPP: ChipTaskArgs [[TA:v[0-9]+]] = pto::sim::runtime::task_args([[XD]], {{v[0-9]+}});
// CPP-NEXT: pto::sim::runtime::add_scalar([[TA]], [[N]]);
// CPP-NEXT: pto::sim::runtime::add_scalar([[TA]], [[S]]);
// CPP-NEXT: PTO2OrchestrationConfig {{v[0-9]+}} = aicpu_orchestration_config([[TA]]);
func.func @main(%x: !pl.tensor<64xf32>, %n: index, %s: f32) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.tensor.create() : !pl.tensor<64xf32>
  %r = pl.call @offset(%x, %n, %s, %y) : (!pl.tensor<64xf32>, index, f32, !pl.tensor<64xf32>) -> !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}
func.func @offset(%x: !pl.tensor<64xf32>, %n: index, %s: f32, %y: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !pl.tensor<64xf32>
}
