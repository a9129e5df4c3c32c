// pto-run's pl.tensor.gather along any axis, against numpy's
// take_along_axis; an index outside the input is an error at the op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(7); np.save('%t/x.npy', r.standard_normal((4, 8, 16)).astype(np.float32)); np.save('%t/i.npy', r.integers(0, 4, (2, 8, 16)).astype(np.int32)); np.save('%t/y.npy', r.standard_normal((16, 64)).astype(np.float32)); np.save('%t/j.npy', r.integers(0, 64, (16, 8)).astype(np.int32))"
// RUN: pto-run %s --entry main --input x=%t/x.npy --input i=%t/i.npy --input y=%t/y.npy --input j=%t/j.npy -o %t/out
// RUN: /usr/bin/python3 -c "import numpy as np; t = lambda n: np.load('%t/' + n + '.npy'); a = np.load('%t/out/result0.npy'); b = np.load('%t/out/result1.npy'); assert np.array_equal(a, np.take_along_axis(t('x'), t('i'), 0)); assert np.array_equal(b, np.take_along_axis(t('y'), t('j'), 1)); print('gathered')" | FileCheck %s
// CHECK: gathered
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/bad.npy', np.full((2, 8, 16), 4, np.int32))"
// RUN: not pto-run %s --entry main --input x=%t/x.npy --input i=%t/bad.npy --input y=%t/y.npy --input j=%t/j.npy 2>&1 | FileCheck %s --check-prefix=OUTSIDE

!X = !pl.tensor<4x8x16xf32>
!I = !pl.tensor<2x8x16xi32>
!Y = !pl.tensor<16x64xf32>
!J = !pl.tensor<16x8xi32>
!G = !pl.tensor<2x8x16xf32>
!H = !pl.tensor<16x8xf32>
func.func @main(%x: !X, %i: !I, %y: !Y, %j: !J) -> (!G, !H) attributes {pl.kind = #pl.kind<orchestration>} {
  // OUTSIDE: gather.mlir:[[@LINE+1]]:8: error: gather index 4 is outside the input's 4 elements on axis 0
  %a = pl.tensor.gather %x, %i dim 0 : !X, !I -> !G
  %b = pl.tensor.gather %y, %j dim 1 : !Y, !J -> !H
  return %a, %b : !G, !H
}
