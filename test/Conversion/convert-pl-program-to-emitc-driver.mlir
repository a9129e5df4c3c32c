// RUN: pto-opt --verify-roundtrip %s --convert-pl-program-to-emitc=entry=scale | FileCheck %s
// RUN: pto-opt %s --convert-pl-program-to-emitc=entry=scale | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=CPP
// RUN: pto-opt %s --convert-pl-program-to-emitc=entry=scalars | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=SCALARS

// A kernel's driver (docs/passes/convert-pl-program-to-emitc.md): each
// parameter a buffer read (an output of static shape made), passed as its
// data, the dynamic leading extents after all of them; the outputs and
// inouts written and compared. Only the entry's file is included.

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/host.hpp"
// CHECK-NEXT: emitc.include "scale.cpp"
// CHECK-NEXT: emitc.func @main(
// CHECK-NOT: @other
// CPP-LABEL: #include "pto/sim/host.hpp"
// CPP-NEXT: #include "scale.cpp"
// CPP-NEXT: int32_t main(int32_t v1, char** v2) {
// CPP-NEXT: pto::sim::Args v3 = pto::sim::parse_args(v1, v2);
// CPP-NEXT: pto::sim::Buffer<float> v4 = pto::sim::input<float>(v3, "arg0", {-1, 64});
// CPP-NEXT: float* v5 = pto::sim::data(v4);
// CPP-NEXT: pto::sim::Buffer<float> v6 = pto::sim::input<float>(v3, "arg1", {-1, 64});
// CPP-NEXT: float* v7 = pto::sim::data(v6);
// CPP-NEXT: pto::sim::Buffer<int32_t> v8 = pto::sim::output<int32_t>(v3, "arg2", {8});
// CPP-NEXT: int32_t* v9 = pto::sim::data(v8);
// CPP-NEXT: pto::sim::Buffer<int32_t> v10 = pto::sim::input<int32_t>(v3, "arg3", {8});
// CPP-NEXT: int32_t* v11 = pto::sim::data(v10);
// CPP-NEXT: size_t v12 = pto::sim::dim(v4, 0);
// CPP-NEXT: size_t v13 = pto::sim::dim(v6, 0);
// CPP-NEXT: scale(v5, v7, v9, v11, v12, v13);
// CPP-NEXT: pto::sim::finish(v3, v6);
// CPP-NEXT: pto::sim::finish(v3, v8);
// CPP-NEXT: pto::sim::finish(v3, v10);
// CPP-NEXT: int32_t v14 = pto::sim::exit_code(v3);
// CPP-NEXT: return v14;
func.func @scale(%x: !pl.tensor<?x64xf32>, %y: !pl.tensor<?x64xf32> {pl.direction = #pl.direction<out>}, %z: !pl.tensor<8xi32> {pl.direction = #pl.direction<out>}, %w: !pl.tensor<8xi32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// Scalar parameters are read from one-element .npy files and passed by
// value, in their places (an index as the kernel's size_t).
// SCALARS-LABEL: int32_t main(int32_t v1, char** v2) {
// SCALARS-NEXT: pto::sim::Args v3 = pto::sim::parse_args(v1, v2);
// SCALARS-NEXT: pto::sim::Buffer<float> v4 = pto::sim::input<float>(v3, "arg0", {8});
// SCALARS-NEXT: float* v5 = pto::sim::data(v4);
// SCALARS-NEXT: float v6 = pto::sim::scalar<float>(v3, "arg1");
// SCALARS-NEXT: size_t v7 = pto::sim::scalar<size_t>(v3, "arg2");
// SCALARS-NEXT: int32_t v8 = pto::sim::scalar<int32_t>(v3, "arg3");
// SCALARS-NEXT: pto::sim::Buffer<float> v9 = pto::sim::output<float>(v3, "arg4", {8});
// SCALARS-NEXT: float* v10 = pto::sim::data(v9);
// SCALARS-NEXT: scalars(v5, v6, v7, v8, v10);
// SCALARS-NEXT: pto::sim::finish(v3, v9);
func.func @scalars(%x: !pl.tensor<8xf32>, %s: f32, %n: index, %k: i32, %y: !pl.tensor<8xf32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @other(%x: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
