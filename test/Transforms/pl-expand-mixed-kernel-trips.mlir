// A split kernel's pushes and pops sit in the same loops on both cores, so
// every push has its pop at any trip count: a loop bound read at run time
// (pl.tensor.read, which both cores run), at 0, 1 and 4 trips, matches
// numpy after the whole a2a3 pipeline, with no deadlock.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pto-opt %s --pass-pipeline='builtin.module(pto-a2a3-pipeline,pl-verify-sync)' -o %t/lowered.mlir
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(2); np.save('%t/x.npy', r.uniform(-1, 1, (64, 32)).astype(np.float16)); np.save('%t/w.npy', r.uniform(-1, 1, (32, 64)).astype(np.float16)); [np.save('%t/n%d.npy' % n, np.array([n], dtype=np.int32)) for n in (0, 1, 4)]"
// RUN: pto-run %t/lowered.mlir --input arg0=%t/x.npy --input arg1=%t/w.npy --input arg2=%t/n0.npy -o %t/0
// RUN: pto-run %t/lowered.mlir --input arg0=%t/x.npy --input arg1=%t/w.npy --input arg2=%t/n1.npy -o %t/1
// RUN: pto-run %t/lowered.mlir --input arg0=%t/x.npy --input arg1=%t/w.npy --input arg2=%t/n4.npy -o %t/4
// RUN: /usr/bin/python3 -c "import numpy as np; x, w = [np.load('%t/' + n + '.npy').astype(np.float64) for n in ('x', 'w')]; g = np.exp(x @ w); ok = [np.allclose(np.load('%t/%d/result0.npy' % n)[:16 * n], g[:16 * n], rtol=1e-4) and not np.load('%t/%d/result0.npy' % n)[16 * n:].any() for n in (0, 1, 4)]; assert all(ok), ok; print('0, 1 and 4 trips match')" | FileCheck %s

// CHECK: 0, 1 and 4 trips match
!X = !pl.tensor<64x32xf16>
!W = !pl.tensor<32x64xf16>
!Y = !pl.tensor<64x64xf32>
!N = !pl.tensor<1xi32>

func.func @blocks(%x: !X, %w: !W, %count: !N, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %nv = pl.tensor.read %count[%c0] : !N -> i32
  %n = arith.index_cast %nv : i32 to index
  %wt = pl.tile.load %w[%c0, %c0] : !W -> !pl.tile<32x64xf16>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %y) -> (!Y) {
    %row = arith.muli %i, %c16 : index
    %xt = pl.tile.load %x[%row, %c0] : !X -> !pl.tile<16x32xf16>
    %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
    %e = pl.tile.exp %p : !pl.tile<16x64xf32>
    %s = pl.tile.store %e, %t[%row, %c0] : !pl.tile<16x64xf32>, !Y
    scf.yield %s : !Y
  }
  return %r : !Y
}

func.func @main(%x: !X, %w: !W, %count: !N) -> !Y attributes {pl.kind = #pl.kind<orchestration>} {
  %zero = arith.constant 0.0 : f32
  %y = pl.tensor.full %zero() : f32 -> !Y
  %r = pl.call @blocks(%x, %w, %count, %y) : (!X, !W, !N, !Y) -> !Y
  return %r : !Y
}
