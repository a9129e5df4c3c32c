// pl.tensor.concat joins its inputs along the axis in row-major order:
// along the last axis each row is the inputs' rows in turn, along an outer
// axis each input's block follows the one before. The golden is numpy's
// concatenate over the same inputs, at rank 2 and 3.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(7); [np.save('%t/' + n + '.npy', r.uniform(-1, 1, s).astype(np.float32)) for n, s in [('a', (3, 2)), ('b', (3, 4)), ('c', (2, 3, 2)), ('d', (2, 1, 2))]]"
// RUN: pto-run %s --input a=%t/a.npy --input b=%t/b.npy --input c=%t/c.npy --input d=%t/d.npy -o %t/out
// RUN: /usr/bin/python3 -c "import numpy as np; a, b, c, d = (np.load('%t/' + n + '.npy') for n in 'abcd'); g = [np.concatenate([a, b], 1), np.concatenate([c, d], 1), np.concatenate([c, c], 0)]; y = [np.load('%t/out/result' + str(i) + '.npy') for i in range(3)]; assert all(np.array_equal(p, q) for p, q in zip(y, g)), (y, g); print('joined')" | FileCheck %s
// CHECK: joined

func.func @main(%a: !pl.tensor<3x2xf32>, %b: !pl.tensor<3x4xf32>, %c: !pl.tensor<2x3x2xf32>, %d: !pl.tensor<2x1x2xf32>) -> (!pl.tensor<3x6xf32>, !pl.tensor<2x4x2xf32>, !pl.tensor<4x3x2xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %ab = pl.tensor.concat %a, %b axis 1 : !pl.tensor<3x2xf32>, !pl.tensor<3x4xf32> -> !pl.tensor<3x6xf32>
  %cd = pl.tensor.concat %c, %d axis 1 : !pl.tensor<2x3x2xf32>, !pl.tensor<2x1x2xf32> -> !pl.tensor<2x4x2xf32>
  %cc = pl.tensor.concat %c, %c axis 0 : !pl.tensor<2x3x2xf32>, !pl.tensor<2x3x2xf32> -> !pl.tensor<4x3x2xf32>
  return %ab, %cd, %cc : !pl.tensor<3x6xf32>, !pl.tensor<2x4x2xf32>, !pl.tensor<4x3x2xf32>
}
