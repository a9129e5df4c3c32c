// A view to a `dn` type reads its source's memory column-major: element
// (i, j) of the 3x2 view of a row-major 2x3 tensor is source[j, i] (the
// view is the transpose). pto-run once read it row-major, as a reshape.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/x.npy', np.arange(6, dtype=np.float32).reshape(2, 3))"
// RUN: pto-run %s --input x=%t/x.npy -o %t/out
// RUN: /usr/bin/python3 -c "import numpy as np; x = np.load('%t/x.npy'); y = [float(np.load('%t/out/result%d.npy' % i)) for i in range(3)]; assert y == [x[0, 1], x[1, 0], x[1, 2]], y; print('transposed')" | FileCheck %s
// CHECK: transposed
// Explicit strides are refused, not read as a packed view.
// RUN: not pto-run %s --entry strided --input x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=STRIDES
// STRIDES: dn-view.mlir:[[@LINE+14]]:8: error: pto-run does not model views with explicit strides

func.func @main(%x: !pl.tensor<2x3xf32>) -> (f32, f32, f32) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = pl.tensor.view %x : !pl.tensor<2x3xf32> -> !pl.tensor<3x2xf32, dn>
  %a = pl.tensor.read %v[%c1, %c0] : !pl.tensor<3x2xf32, dn> -> f32
  %b = pl.tensor.read %v[%c0, %c1] : !pl.tensor<3x2xf32, dn> -> f32
  %c = pl.tensor.read %v[%c2, %c1] : !pl.tensor<3x2xf32, dn> -> f32
  return %a, %b, %c : f32, f32, f32
}

func.func @strided(%x: !pl.tensor<2x3xf32>) -> !pl.tensor<2x3xf32, strides = [3, 1]> attributes {pl.kind = #pl.kind<orchestration>} {
  %v = pl.tensor.view %x : !pl.tensor<2x3xf32> -> !pl.tensor<2x3xf32, strides = [3, 1]>
  return %v : !pl.tensor<2x3xf32, strides = [3, 1]>
}
