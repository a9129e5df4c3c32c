// pto-run's pl.tile.mgather against numpy: rows of a table by index and
// elements by flat index, each out-of-bounds mode (clamp, wrap, zero) on
// indices past the table and negative ones (read as unsigned 32-bit);
// without a mode an index past the table is an error at the op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(3); np.save('%t/t.npy', r.standard_normal((6, 16)).astype(np.float32)); np.save('%t/i.npy', np.array([[5, 0, 7, -1, 2, 12, 3, 6]], np.int32)); np.save('%t/e.npy', np.array([[0, 95, 96, 200, -2, 17, 40, 1]], np.int32))"
// RUN: pto-run %s --entry gathers --input t=%t/t.npy --input i=%t/i.npy --input e=%t/e.npy -o %t/out
// RUN: /usr/bin/python3 %S/Inputs/mgather_golden.py %t | FileCheck %s
// CHECK: mgather: clamp wrap zero rows, clamp wrap zero elements
// RUN: not pto-run %s --entry unchecked --input t=%t/t.npy --input i=%t/i.npy 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: mgather.mlir:[[# @LINE + 33]]:8: error: mgather: index 7 at (0, 2) is past the table's 6 rows

!T = !pl.tensor<6x16xf32>
!I = !pl.tensor<1x8xi32>

func.func @gathers(%t: !T, %i: !I, %e: !I) -> (!pl.tensor<8x16xf32>, !pl.tensor<8x16xf32>, !pl.tensor<8x16xf32>, !pl.tensor<1x8xf32>, !pl.tensor<1x8xf32>, !pl.tensor<1x8xf32>) {
  %c0 = arith.constant 0 : index
  %ti = pl.tile.load %i[%c0, %c0] : !I -> !pl.tile<1x8xi32, vec>
  %te = pl.tile.load %e[%c0, %c0] : !I -> !pl.tile<1x8xi32, vec>
  %rc = pl.tile.mgather %t[%ti] row oob clamp : !T, !pl.tile<1x8xi32, vec> -> !pl.tile<8x16xf32, vec>
  %rw = pl.tile.mgather %t[%ti] row oob wrap : !T, !pl.tile<1x8xi32, vec> -> !pl.tile<8x16xf32, vec>
  %rz = pl.tile.mgather %t[%ti] row oob zero : !T, !pl.tile<1x8xi32, vec> -> !pl.tile<8x16xf32, vec>
  %ec = pl.tile.mgather %t[%te] elem oob clamp : !T, !pl.tile<1x8xi32, vec> -> !pl.tile<1x8xf32, vec>
  %ew = pl.tile.mgather %t[%te] elem oob wrap : !T, !pl.tile<1x8xi32, vec> -> !pl.tile<1x8xf32, vec>
  %ez = pl.tile.mgather %t[%te] elem oob zero : !T, !pl.tile<1x8xi32, vec> -> !pl.tile<1x8xf32, vec>
  %o0 = pl.tensor.create() : !pl.tensor<8x16xf32>
  %o1 = pl.tensor.create() : !pl.tensor<8x16xf32>
  %o2 = pl.tensor.create() : !pl.tensor<8x16xf32>
  %o3 = pl.tensor.create() : !pl.tensor<1x8xf32>
  %o4 = pl.tensor.create() : !pl.tensor<1x8xf32>
  %o5 = pl.tensor.create() : !pl.tensor<1x8xf32>
  %s0 = pl.tile.store %rc, %o0[%c0, %c0] : !pl.tile<8x16xf32, vec>, !pl.tensor<8x16xf32>
  %s1 = pl.tile.store %rw, %o1[%c0, %c0] : !pl.tile<8x16xf32, vec>, !pl.tensor<8x16xf32>
  %s2 = pl.tile.store %rz, %o2[%c0, %c0] : !pl.tile<8x16xf32, vec>, !pl.tensor<8x16xf32>
  %s3 = pl.tile.store %ec, %o3[%c0, %c0] : !pl.tile<1x8xf32, vec>, !pl.tensor<1x8xf32>
  %s4 = pl.tile.store %ew, %o4[%c0, %c0] : !pl.tile<1x8xf32, vec>, !pl.tensor<1x8xf32>
  %s5 = pl.tile.store %ez, %o5[%c0, %c0] : !pl.tile<1x8xf32, vec>, !pl.tensor<1x8xf32>
  return %s0, %s1, %s2, %s3, %s4, %s5 : !pl.tensor<8x16xf32>, !pl.tensor<8x16xf32>, !pl.tensor<8x16xf32>, !pl.tensor<1x8xf32>, !pl.tensor<1x8xf32>, !pl.tensor<1x8xf32>
}

func.func @unchecked(%t: !T, %i: !I) -> !pl.tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %ti = pl.tile.load %i[%c0, %c0] : !I -> !pl.tile<1x8xi32, vec>
  %r = pl.tile.mgather %t[%ti] row : !T, !pl.tile<1x8xi32, vec> -> !pl.tile<8x16xf32, vec>
  %o = pl.tensor.create() : !pl.tensor<8x16xf32>
  %s = pl.tile.store %r, %o[%c0, %c0] : !pl.tile<8x16xf32, vec>, !pl.tensor<8x16xf32>
  return %s : !pl.tensor<8x16xf32>
}
