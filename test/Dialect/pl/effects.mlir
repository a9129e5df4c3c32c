// RUN: pto-opt %s --loop-invariant-code-motion --cse --canonicalize | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s --loop-invariant-code-motion --cse --canonicalize | FileCheck %s
// RUN: rm -rf %t && pto-run %s --random-inputs --seed 1 -o %t
// RUN: pto-run %s --random-inputs --seed 1 --pass-pipeline='builtin.module(func.func(loop-invariant-code-motion),cse,canonicalize)' --golden %t --rtol 0 --atol 0 | FileCheck %s --check-prefix=SAME

// A tensor computation reads its operands' memory and makes a tensor of its
// own: the loop stores into %x, so the sum of %x and 1 stays in the loop
// (LICM hoisted it, and %x grew by 1 instead of 3); two equal sums stay two
// tensors (a store into one must not reach the other); an unused one is
// dead.

// CHECK-LABEL: func.func @main(
// CHECK: scf.for
// CHECK-NEXT: pl.tensor.adds
// CHECK-NEXT: pl.tensor.adds
// CHECK-NOT: pl.tensor.muls
// CHECK: pl.tile.store
// CHECK: pl.tile.store
// SAME: x: ok: 0 of 8 elements differ
// SAME: y: ok: 0 of 8 elements differ
func.func @main(%x: !pl.tensor<8xf32>, %y: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<opaque>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c3 step %c1 {
    %a = pl.tensor.adds %x, %one : !pl.tensor<8xf32>, f32
    %b = pl.tensor.adds %x, %one : !pl.tensor<8xf32>, f32
    %unused = pl.tensor.muls %x, %one : !pl.tensor<8xf32>, f32
    %t = pl.tile.load %a[%c0] : !pl.tensor<8xf32> -> !pl.tile<8xf32, vec>
    %s = pl.tile.store %t, %x[%c0] : !pl.tile<8xf32, vec>, !pl.tensor<8xf32>
    %u = pl.tile.load %b[%c0] : !pl.tensor<8xf32> -> !pl.tile<8xf32, vec>
    %w = pl.tile.store %u, %y[%c0] : !pl.tile<8xf32, vec>, !pl.tensor<8xf32>
  }
  return
}
