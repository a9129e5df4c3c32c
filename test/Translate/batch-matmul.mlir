// A batched matmul in a kernel (2 batches of 16x32 by 32x16 f32): one
// TMATMUL per batch, each batch's operands loaded from the matrix at its
// offset (batch stride 512 and 512 elements) and each product stored into
// its matrix of the result (batch stride 256), as one window of the rank-3
// tensor.
// RUN: rm -rf %t && pto-translate --mlir-to-cce --target=a2a3sim %s -o %t
// RUN: FileCheck %s < %t/bmm.cpp
// RUN: FileCheck %s --check-prefix=SIM < %t/run_main.cpp

// CHECK: void bmm(__gm__ float* [[A:v[0-9]+]], __gm__ float* [[B:v[0-9]+]], __gm__ float* [[C:v[0-9]+]])
// CHECK-DAG: int64_t [[PRODUCT:v[0-9]+]] = 256;
// CHECK-DAG: int64_t [[MATRIX:v[0-9]+]] = 512;
// CHECK-DAG: int64_t [[ZERO:v[0-9]+]] = 0;
// CHECK: = [[A]] + [[ZERO]];
// CHECK: GlobalTensor<float, pto::Shape<1, 1, 1, 16, 32>, pto::Stride<1024, 1024, 512, 32, 1>, pto::Layout::ND>
// CHECK: = [[B]] + [[ZERO]];
// CHECK: GlobalTensor<float, pto::Shape<1, 1, 1, 32, 16>, pto::Stride<1024, 1024, 512, 16, 1>, pto::Layout::ND>
// CHECK: TMATMUL(
// CHECK: = [[C]] + [[ZERO]];
// CHECK: GlobalTensor<float, pto::Shape<1, 1, 1, 16, 16>, pto::Stride<512, 512, 256, 16, 1>, pto::Layout::ND>
// CHECK: TSTORE(
// CHECK: = [[A]] + [[MATRIX]];
// CHECK: = [[B]] + [[MATRIX]];
// CHECK: TMATMUL(
// CHECK: = [[C]] + [[PRODUCT]];
// CHECK: TSTORE(
// CHECK-NOT: TMATMUL(

// The simulator's program gives the kernel the result as a tensor of its
// own (the new out parameter) and writes it as the result.
// SIM: bmm(
// SIM: "result0"
func.func @bmm(%a: !pl.tensor<2x16x32xf32>, %b: !pl.tensor<2x32x16xf32>) -> !pl.tensor<2x16x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c = pl.tensor.matmul %a, %b : !pl.tensor<2x16x32xf32>, !pl.tensor<2x32x16xf32> -> !pl.tensor<2x16x16xf32>
  return %c : !pl.tensor<2x16x16xf32>
}
func.func @main(%a: !pl.tensor<2x16x32xf32>, %b: !pl.tensor<2x32x16xf32>) -> !pl.tensor<2x16x16xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c = pl.call @bmm(%a, %b) : (!pl.tensor<2x16x32xf32>, !pl.tensor<2x32x16xf32>) -> !pl.tensor<2x16x16xf32>
  return %c : !pl.tensor<2x16x16xf32>
}
