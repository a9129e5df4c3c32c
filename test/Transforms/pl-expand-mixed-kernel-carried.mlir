// A popped tile the vector cores carry out of its loop (the last block's
// product) leaves the loop as a copy, its slot freed before the yield; the
// split, lowered program matches numpy and passes pl-verify-sync's slot
// protocol.
// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space),pl-expand-mixed-kernel)' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: pto-opt %s --pass-pipeline='builtin.module(pto-a2a3-pipeline,pl-verify-sync)' -o %t/lowered.mlir
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(6); np.save('%t/x.npy', r.uniform(-1, 1, (64, 32)).astype(np.float16)); np.save('%t/w.npy', r.uniform(-1, 1, (32, 32)).astype(np.float16))"
// RUN: pto-run %t/lowered.mlir --input arg0=%t/x.npy --input arg1=%t/w.npy -o %t
// RUN: /usr/bin/python3 -c "import numpy as np; x, w, y = [np.load('%t/' + n + '.npy').astype(np.float64) for n in ('x', 'w', 'result0')]; g = x[48:] @ w; assert np.allclose(y, g, rtol=1e-3, atol=1e-3), abs(y - g).max(); print('last block kept')" | FileCheck %s --check-prefix=NUMPY

// CHECK-LABEL: func.func @last_aiv
// CHECK: scf.for
// CHECK: %[[T:.*]] = pl.tile.tpop_from_aic none : !pl.tile<16x32xf32, vec>
// CHECK-NEXT: %[[C:.*]] = pl.tile.move %[[T]] : !pl.tile<16x32xf32, vec> -> !pl.tile<16x32xf32, vec>
// CHECK-NEXT: pl.system.tfree_to_aic %[[T]]
// CHECK-NEXT: scf.yield %[[C]]
// NUMPY: last block kept
!X = !pl.tensor<64x32xf16>
!W = !pl.tensor<32x32xf16>
!Y = !pl.tensor<16x32xf32>

func.func @last(%x: !X, %w: !W, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %wt = pl.tile.load %w[%c0, %c0] : !W -> !pl.tile<32x32xf16>
  %init = pl.tile.full %zero : f32 -> !pl.tile<16x32xf32, vec>
  %kept = scf.for %i = %c0 to %c4 step %c1 iter_args(%k = %init) -> (!pl.tile<16x32xf32, vec>) {
    %row = arith.muli %i, %c16 : index
    %xt = pl.tile.load %x[%row, %c0] : !X -> !pl.tile<16x32xf16>
    %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x32xf16> -> !pl.tile<16x32xf32>
    %v = pl.tile.aiv_shard %p none : !pl.tile<16x32xf32> -> !pl.tile<16x32xf32, vec>
    scf.yield %v : !pl.tile<16x32xf32, vec>
  }
  %s = pl.tile.store %kept, %y[%c0, %c0] : !pl.tile<16x32xf32, vec>, !Y
  return %s : !Y
}

func.func @main(%x: !X, %w: !W) -> !Y attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.tensor.create() : !Y
  %r = pl.call @last(%x, %w, %y) : (!X, !W, !Y) -> !Y
  return %r : !Y
}
