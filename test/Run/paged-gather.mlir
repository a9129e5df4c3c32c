// pto-run's pl.tensor.paged_gather and pl.tensor.gather_row: rows through
// a block table (numpy's fancy indexing the golden), and the errors a
// program's data can cause at the op: a position whose page is outside
// the table, a window leaving the source.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(5); np.save('%t/c.npy', r.standard_normal((32, 16)).astype(np.float32)); np.save('%t/i.npy', np.array([7, 0, 15, 8, 3, 12], np.int32)); np.save('%t/t.npy', np.array([[3, 1, 0, 2]], np.int32))"
// RUN: pto-run %s --entry paged --input c=%t/c.npy --input i=%t/i.npy --input t=%t/t.npy -o %t/out
// RUN: /usr/bin/python3 -c "import numpy as np; c = np.load('%t/c.npy'); i = np.load('%t/i.npy'); t = np.load('%t/t.npy')[0]; g = np.load('%t/out/result0.npy'); p = t[i // 4] * 4 + i % 4; assert np.array_equal(g[:6], c[p, 4:12]), (g, p); print('paged', [int(x) for x in p])" | FileCheck %s
// CHECK: paged [7, 12, 11, 0, 15, 8]
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/far.npy', np.array([7, 0, 16, 8, 3, 12], np.int32))"
// RUN: not pto-run %s --entry paged --input c=%t/c.npy --input i=%t/far.npy --input t=%t/t.npy 2>&1 | FileCheck %s --check-prefix=PAGE
// PAGE: paged-gather.mlir:[[# @LINE + 9]]:8: error: paged_gather: position 16 (index 2) is on page 4, outside the table's 4
// RUN: not pto-run %s --entry window --input c=%t/c.npy 2>&1 | FileCheck %s --check-prefix=WINDOW
// WINDOW: paged-gather.mlir:[[# @LINE + 15]]:8: error: reads element [32, 0] of a tensor of shape [32, 16], out of bounds

!C = !pl.tensor<32x16xf32>
!I = !pl.tensor<6xi32>
!T = !pl.tensor<1x4xi32>

func.func @paged(%c: !C, %i: !I, %t: !T) -> !pl.tensor<8x8xf32> {
  %k = pl.tensor.paged_gather %c, %i, %t block_size 4 col_off 4 : !C, !I, !T -> !pl.tensor<8x8xf32>
  return %k : !pl.tensor<8x8xf32>
}

func.func @window(%c: !C) -> !pl.tensor<4x16xf32> {
  %c0 = arith.constant 0 : index
  %c30 = arith.constant 30 : index
  %z = pl.tensor.create() : !pl.tensor<4x16xf32>
  %g = pl.tensor.gather_row %c[%c30, %c0] into %z[%c0, %c0] shape [4, 16] : !C, !pl.tensor<4x16xf32>
  return %g : !pl.tensor<4x16xf32>
}
