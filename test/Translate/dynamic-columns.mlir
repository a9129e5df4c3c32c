// A kernel of a dynamic non-leading extent (`16x?`, run in blocks of
// columns by pl-convert-tensor-to-tile): each dynamic extent of a tensor
// parameter is one more size_t parameter, in parameter and axis order, and
// its GlobalTensor windows take their row stride at run time
// (pto::Stride<-1, …>). The simulator's program passes `pto::sim::dim(t,
// 1)` and writes an index result as a 0-d .npy; the runtime's orchestration
// has nowhere to return a scalar and says so.
// RUN: pto-opt --pto-a2a3-pipeline %s -o %t.mlir
// RUN: rm -rf %t.sim && pto-translate --mlir-to-cce --target=a2a3sim %t.mlir -o %t.sim
// RUN: FileCheck %s < %t.sim/twice.cpp
// RUN: FileCheck %s --check-prefix=SIM < %t.sim/run_main.cpp
// RUN: not pto-translate --mlir-to-cce %t.mlir -o %t.rt 2>&1 | FileCheck %s --check-prefix=RUNTIME

// CHECK: void twice(__gm__ float* [[X:v[0-9]+]], __gm__ float* [[Y:v[0-9]+]], size_t [[XC:v[0-9]+]], size_t [[YC:v[0-9]+]])
// The loop over column blocks is double-buffered (pl-double-buffer): its
// bound, raised to its start when below it, ends a loop of two blocks an
// iteration and then a loop of the block left over.
// CHECK: size_t [[UB:v[0-9]+]] = {{v[0-9]+}} ? {{v[0-9]+}} : [[XC]];
// CHECK: for (size_t [[J:i[0-9]+]] = {{v[0-9]+}}; [[J]] < {{v[0-9]+}};
// CHECK: pto::Stride<-1, -1, -1, -1, -1> [[S:v[0-9]+]] = pto::Stride<-1, -1, -1, -1, -1>([[C:v[0-9]+]], [[C]], [[C]], [[C]], {{v[0-9]+}});
// CHECK: GlobalTensor<float, pto::Shape<1, 1, 1, 16, -1>, pto::Stride<-1, -1, -1, -1, -1>, pto::Layout::ND> {{v[0-9]+}} = GlobalTensor<float, pto::Shape<1, 1, 1, 16, -1>, pto::Stride<-1, -1, -1, -1, -1>, pto::Layout::ND>({{v[0-9]+}}, {{v[0-9]+}}, [[S]]);
// CHECK: TLOAD(
// CHECK: TMULS(
// CHECK: TSTORE(
// CHECK: for (size_t [[K:i[0-9]+]] = {{v[0-9]+}}; [[K]] < [[UB]];

// SIM: pto::sim::Buffer<float> [[XB:v[0-9]+]] = pto::sim::input<float>({{v[0-9]+}}, "arg0", {16, -1});
// SIM: float* {{v[0-9]+}} = pto::sim::data([[XB]]);
// SIM-NEXT: size_t [[XC:v[0-9]+]] = pto::sim::dim([[XB]], 1);
// SIM-NEXT: float* {{v[0-9]+}} = pto::sim::data([[YB:v[0-9]+]]);
// SIM-NEXT: size_t [[YC:v[0-9]+]] = pto::sim::dim([[YB]], 1);
// SIM-NEXT: twice({{v[0-9]+}}, {{v[0-9]+}}, [[XC]], [[YC]]);
// SIM: size_t [[N:v[0-9]+]] = pto::sim::dim([[XB]], 1);
// SIM: pto::sim::finish({{v[0-9]+}}, [[YB]], "result0");
// SIM-NEXT: pto::sim::finish({{v[0-9]+}}, [[N]], "result1");

// RUNTIME: error: 'func.func' op pto-translate: result #1 is a scalar (index); a runtime orchestration returns nothing (its outputs are tensors handed in as arguments), so a scalar result has nowhere to go

!X = !pl.tensor<16x?xf32>
func.func @twice(%x: !X) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %two = arith.constant 2.0 : f32
  %y = pl.tensor.muls %x, %two : !X, f32
  return %y : !X
}
func.func @main(%x: !X) -> (!X, index) attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.call @twice(%x) : (!X) -> !X
  %cols = pl.tensor.dim %x, 1 : !X
  return %y, %cols : !X, index
}
