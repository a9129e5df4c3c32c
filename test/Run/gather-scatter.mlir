// pto-run's pl.tensor.gather and pl.tensor.scatter along any axis,
// pl.tensor.scatter_update's rows, pl.tensor.scatter_mask's columns,
// against numpy's take_along_axis and put_along_axis (and a loop where
// indices repeat: the later write wins), and pl.tile.scatter (zeros where
// no index points); an index outside the input is an error at the op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(7); np.save('%t/x.npy', r.standard_normal((4, 8, 16)).astype(np.float32)); np.save('%t/i.npy', r.integers(0, 4, (2, 8, 16)).astype(np.int32)); np.save('%t/y.npy', r.standard_normal((16, 64)).astype(np.float32)); np.save('%t/j.npy', r.integers(0, 64, (16, 8)).astype(np.int32))"
// RUN: pto-run %s --entry main --input x=%t/x.npy --input i=%t/i.npy --input y=%t/y.npy --input j=%t/j.npy -o %t/out
// RUN: /usr/bin/python3 -c "import numpy as np; t = lambda n: np.load('%t/' + n + '.npy'); a = np.load('%t/out/result0.npy'); b = np.load('%t/out/result1.npy'); assert np.array_equal(a, np.take_along_axis(t('x'), t('i'), 0)); assert np.array_equal(b, np.take_along_axis(t('y'), t('j'), 1)); print('gathered')" | FileCheck %s
// CHECK: gathered
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(8); np.save('%t/b.npy', r.standard_normal((4, 16)).astype(np.float32)); np.save('%t/k.npy', r.integers(0, 16, (4, 6)).astype(np.int32)); np.save('%t/v.npy', r.standard_normal((4, 6)).astype(np.float32)); np.save('%t/z.npy', r.standard_normal((3, 8, 4)).astype(np.float32)); np.save('%t/zk.npy', r.integers(0, 3, (2, 8, 4)).astype(np.int32)); np.save('%t/zv.npy', r.standard_normal((2, 8, 4)).astype(np.float32)); np.save('%t/f.npy', r.standard_normal((1, 8)).astype(np.float32)); np.save('%t/fk.npy', np.array([[9, 0, 31, 9, 4, 17, 2, 30]], np.int32)); np.save('%t/uk.npy', np.array([[2, 0], [2, 3]], np.int32)); np.save('%t/ur.npy', r.standard_normal((4, 16)).astype(np.float32)); np.save('%t/k2.npy', r.integers(-9, 9, (4, 24)).astype(np.int32))"
// RUN: pto-run %s --entry scatters --input b=%t/b.npy --input k=%t/k.npy --input v=%t/v.npy --input z=%t/z.npy --input zk=%t/zk.npy --input zv=%t/zv.npy --input f=%t/f.npy --input fk=%t/fk.npy --input uk=%t/uk.npy --input ur=%t/ur.npy --input k2=%t/k2.npy -o %t/sout
// RUN: /usr/bin/python3 %S/Inputs/scatter_golden.py %t | FileCheck %s --check-prefix=SCATTERED
// SCATTERED: scattered
// A source whose running rows are not one per index position: an error at
// the op, not a read past the source.
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/mc.npy', np.zeros((4, 8), np.float32)); np.save('%t/mi.npy', np.arange(4, dtype=np.int32).reshape(1, 4)); np.save('%t/mr.npy', np.ones((2, 8), np.float32))"
// RUN: not pto-run %s --entry rows --input c=%t/mc.npy --input i=%t/mi.npy --input r=%t/mr.npy 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS-NOT: internal error
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/bad.npy', np.full((2, 8, 16), 4, np.int32))"
// RUN: not pto-run %s --entry main --input x=%t/x.npy --input i=%t/bad.npy --input y=%t/y.npy --input j=%t/j.npy 2>&1 | FileCheck %s --check-prefix=OUTSIDE

!X = !pl.tensor<4x8x16xf32>
!I = !pl.tensor<2x8x16xi32>
!Y = !pl.tensor<16x64xf32>
!J = !pl.tensor<16x8xi32>
!G = !pl.tensor<2x8x16xf32>
!H = !pl.tensor<16x8xf32>
func.func @main(%x: !X, %i: !I, %y: !Y, %j: !J) -> (!G, !H) attributes {pl.kind = #pl.kind<orchestration>} {
  // OUTSIDE: gather-scatter.mlir:[[@LINE+1]]:8: error: gather index 4 is outside the input's 4 elements on axis 0
  %a = pl.tensor.gather %x, %i dim 0 : !X, !I -> !G
  %b = pl.tensor.gather %y, %j dim 1 : !Y, !J -> !H
  return %a, %b : !G, !H
}

!B = !pl.tensor<4x16xf32>
!BK = !pl.tensor<4x6xi32>
!BV = !pl.tensor<4x6xf32>
!Z = !pl.tensor<3x8x4xf32>
!ZK = !pl.tensor<2x8x4xi32>
!F = !pl.tensor<1x8xf32>
!FK = !pl.tensor<1x8xi32>
!O = !pl.tensor<4x8xf32>
func.func @scatters(%b: !B, %k: !BK, %v: !BV, %z: !Z, %zk: !ZK, %zv: !pl.tensor<2x8x4xf32>, %f: !F, %fk: !FK,
                    %uk: !pl.tensor<2x2xi32>, %ur: !B, %k2: !pl.tensor<4x24xi32>) -> (!B, !Z, !O, !B, !pl.tensor<4x24xi32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.tensor.scatter %b, %k, %v dim 1 : !B, !BK, !BV
  %s = pl.tensor.scatter %z, %zk, %zv dim 0 : !Z, !ZK, !pl.tensor<2x8x4xf32>
  %o = pl.tensor.create() : !O
  %t = pl.call @spread(%f, %fk, %o) : (!F, !FK, !O) -> !O
  %u = pl.tensor.scatter_update %b, %uk, %ur : !B, !pl.tensor<2x2xi32>, !B
  %m = pl.tensor.scatter_mask %k into %k2 p0100 : !BK, !pl.tensor<4x24xi32>
  return %r, %s, %t, %u, %m : !B, !Z, !O, !B, !pl.tensor<4x24xi32>
}
func.func @spread(%f: !F, %fk: !FK, %o: !O {pl.direction = #pl.direction<out>}) -> !O attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %f[%c0, %c0] : !F -> !pl.tile<1x8xf32, vec>
  %i = pl.tile.load %fk[%c0, %c0] : !FK -> !pl.tile<1x8xi32, vec>
  %s = pl.tile.scatter %t, %i : !pl.tile<1x8xf32, vec>, !pl.tile<1x8xi32, vec> -> !pl.tile<4x8xf32, vec>
  %w = pl.tile.store %s, %o[%c0, %c0] : !pl.tile<4x8xf32, vec>, !O
  return %w : !O
}

func.func @rows(%c: !pl.tensor<4x8xf32>, %i: !pl.tensor<1x4xi32>, %r: !pl.tensor<?x8xf32>) -> !pl.tensor<4x8xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  // ROWS: gather-scatter.mlir:[[@LINE+1]]:8: error: scatter_update's source has 2x8 elements, not a row of the input's 8 columns for each of the index's 4 positions
  %u = pl.tensor.scatter_update %c, %i, %r : !pl.tensor<4x8xf32>, !pl.tensor<1x4xi32>, !pl.tensor<?x8xf32>
  return %u : !pl.tensor<4x8xf32>
}
