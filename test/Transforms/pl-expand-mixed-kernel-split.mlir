// A kernel that shares a product between the vector cores by rows
// (pl.tile.aiv_shard up_down: each vector core takes its half, at the rows
// get_subblock_idx says) and gathers their halves back for the cube
// (pl.tile.aic_gather up_down): the split keeps the boundaries' split on
// the pushes and pops, and pto-run's core group computes what numpy does.
// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space),pl-expand-mixed-kernel)' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(4); [np.save('%t/' + n + '.npy', r.uniform(-1, 1, s).astype(np.float16)) for n, s in [('x', (16, 32)), ('w', (32, 32)), ('v', (32, 16))]]"
// RUN: pto-opt %s --pass-pipeline='builtin.module(pto-a2a3-pipeline,pl-verify-sync)' -o %t/lowered.mlir
// RUN: pto-run %t/lowered.mlir --input arg0=%t/x.npy --input arg1=%t/w.npy --input arg2=%t/v.npy -o %t
// RUN: /usr/bin/python3 -c "import numpy as np; x, w, v, h, o = [np.load('%t/' + n + '.npy').astype(np.float64) for n in ('x', 'w', 'v', 'result0', 'result1')]; e = np.exp(x @ w); assert np.allclose(h, e, rtol=1e-4), abs(h - e).max(); g = e.astype(np.float16).astype(np.float64) @ v; assert np.allclose(o, g, rtol=2e-3, atol=2e-3), abs(o - g).max(); print('halves match')" | FileCheck %s --check-prefix=NUMPY

// CHECK-LABEL: func.func @halves_aiv
// CHECK: %[[H:.*]] = pl.tile.tpop_from_aic up_down : !pl.tile<8x32xf32, vec>
// CHECK: pl.tile.tpush_to_aic %{{.*}} up_down : !pl.tile<8x32xf16, vec>
// CHECK-LABEL: func.func @halves_aic
// CHECK: pl.tile.tpush_to_aiv %{{.*}} up_down : !pl.tile<16x32xf32, acc>
// CHECK: pl.tile.tpop_from_aiv up_down : !pl.tile<16x32xf16, mat>
// NUMPY: halves match
!X = !pl.tensor<16x32xf16>
!W = !pl.tensor<32x32xf16>
!V = !pl.tensor<32x16xf16>
!E = !pl.tensor<16x32xf32>
!O = !pl.tensor<16x16xf32>

func.func @halves(%x: !X, %w: !W, %v: !V, %e: !E {pl.direction = #pl.direction<out>}, %o: !O {pl.direction = #pl.direction<out>}) -> (!E, !O) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %xt = pl.tile.load %x[%c0, %c0] : !X -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !W -> !pl.tile<32x32xf16>
  %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x32xf16> -> !pl.tile<16x32xf32>
  // Each vector core: exp of its half of the rows, stored at its rows.
  %h = pl.tile.aiv_shard %p up_down : !pl.tile<16x32xf32> -> !pl.tile<8x32xf32>
  %lane = pl.tile.get_subblock_idx
  %row = arith.muli %lane, %c8 : index
  %eh = pl.tile.exp %h : !pl.tile<8x32xf32>
  %es = pl.tile.store %eh, %e[%row, %c0] : !pl.tile<8x32xf32>, !E
  // The halves, rounded to f16, back to the cube: times v.
  %fh = pl.tile.cast %eh round : !pl.tile<8x32xf32> -> !pl.tile<8x32xf16>
  %f = pl.tile.aic_gather %fh up_down : !pl.tile<8x32xf16> -> !pl.tile<16x32xf16>
  %vt = pl.tile.load %v[%c0, %c0] : !V -> !pl.tile<32x16xf16>
  %q = pl.tile.matmul %f, %vt : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
  %os = pl.tile.store %q, %o[%c0, %c0] : !pl.tile<16x16xf32>, !O
  return %es, %os : !E, !O
}

func.func @main(%x: !X, %w: !W, %v: !V) -> (!E, !O) attributes {pl.kind = #pl.kind<orchestration>} {
  %e = pl.tensor.create() : !E
  %o = pl.tensor.create() : !O
  %r:2 = pl.call @halves(%x, %w, %v, %e, %o) : (!X, !W, !V, !E, !O) -> (!E, !O)
  return %r#0, %r#1 : !E, !O
}
