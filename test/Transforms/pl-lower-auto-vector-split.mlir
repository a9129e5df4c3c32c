// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space,pl-lower-auto-vector-split))' | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space,pl-lower-auto-vector-split))' | FileCheck %s
// The split computes what the kernel does whole: pto-run as written and
// after the a2a3 pipeline (each vector core on its half), against numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(7); [np.save('%t/' + n + '.npy', r.uniform(-1, 1, s).astype(t)) for n, s, t in [('x', (16, 32), np.float16), ('w', (32, 64), np.float16), ('b', (1, 64), np.float32), ('c', (16, 1), np.float32), ('v', (64, 32), np.float16)]]"
// RUN: pto-opt %s --pass-pipeline='builtin.module(pto-a2a3-pipeline,pl-verify-sync)' -o %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t/lowered.mlir
// RUN: pto-run %s --entry rows --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy -o %t/rows-written
// RUN: pto-run %t/lowered.mlir --entry rows --input arg0=%t/x.npy --input arg1=%t/w.npy --input arg2=%t/b.npy -o %t/rows-lowered
// RUN: pto-run %s --entry columns --input x=%t/x.npy --input w=%t/w.npy --input c=%t/c.npy -o %t/columns-written
// RUN: pto-run %t/lowered.mlir --entry columns --input arg0=%t/x.npy --input arg1=%t/w.npy --input arg2=%t/c.npy -o %t/columns-lowered
// RUN: pto-run %s --entry looped --input x=%t/x.npy --input w=%t/w.npy --input v=%t/v.npy -o %t/looped-written
// RUN: pto-run %t/lowered.mlir --entry looped --input arg0=%t/x.npy --input arg1=%t/w.npy --input arg2=%t/v.npy -o %t/looped-lowered
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(8); [np.save('%t/' + n + '.npy', r.uniform(-1, 1, s).astype(np.float16)) for n, s in [('ga', (64, 64)), ('gb', (64, 16))]]"
// RUN: pto-run %s --entry gathered --input a=%t/ga.npy --input b=%t/gb.npy -o %t/gathered-written
// RUN: pto-run %t/lowered.mlir --entry gathered --input arg0=%t/ga.npy --input arg1=%t/gb.npy -o %t/gathered-lowered
// RUN: /usr/bin/python3 %S/Inputs/lower-auto-vector-split-golden.py %t | FileCheck %s --check-prefix=NUMPY

// NUMPY: rows: written and split match numpy
// NUMPY: columns: written and split match numpy
// NUMPY: looped: written and split match numpy
// NUMPY: gathered: written and split match numpy

!X = !pl.tensor<16x32xf16>
!W = !pl.tensor<32x64xf16>
!Y = !pl.tensor<16x64xf32>
!B = !pl.tensor<1x64xf32>
!Cl = !pl.tensor<16x1xf32>

// By rows: the product's rows shared, a bias row whole on both vector
// cores, a softmax along the rows on each half, each half stored at its
// rows.
// CHECK-LABEL: func.func @rows_kernel
// CHECK-SAME: attributes {pl.kind = #pl.kind<incore>}
// CHECK-NEXT: %[[LANE:.*]] = pl.tile.get_subblock_idx
// CHECK: %[[BIAS:.*]] = pl.tile.load %arg2[%{{.*}}, %{{.*}}] : !pl.tensor<1x64xf32> -> !pl.tile<1x64xf32, vec>
// CHECK: %[[P:.*]] = pl.tile.matmul
// CHECK-NEXT: %[[H:.*]] = pl.tile.aiv_shard %[[P]] up_down : !pl.tile<16x64xf32, acc> -> !pl.tile<8x64xf32, vec>
// CHECK-NEXT: %[[PB:.*]] = pl.tile.col_expand_add %[[H]], %[[BIAS]] : !pl.tile<8x64xf32, vec>, !pl.tile<1x64xf32, vec> -> !pl.tile<8x64xf32, vec>
// CHECK-NEXT: %[[TMP:.*]] = pl.tile.create : !pl.tile<8x64xf32, vec>
// CHECK-NEXT: %[[M:.*]] = pl.tile.row_max %[[PB]], %[[TMP]] : !pl.tile<8x64xf32, vec>, !pl.tile<8x64xf32, vec> -> !pl.tile<8x1xf32, vec>
// CHECK-NEXT: pl.tile.row_expand_sub %[[PB]], %[[M]] : !pl.tile<8x64xf32, vec>, !pl.tile<8x1xf32, vec> -> !pl.tile<8x64xf32, vec>
// CHECK: %[[E:.*]] = pl.tile.exp
// CHECK-NEXT: %[[HALF:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[STEP:.*]] = arith.muli %[[LANE]], %[[HALF]] : index
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %{{.*}}, %[[STEP]] : index
// CHECK-NEXT: pl.tile.store %[[E]], %arg3[%[[ROW]], %{{.*}}] : !pl.tile<8x64xf32, vec>, !pl.tensor<16x64xf32>
// LOWERED-LABEL: func.func @rows_kernel_aiv
// LOWERED: pl.tile.tpop_from_aic up_down {{.*}}: !pl.tile<8x64xf32, vec>
// LOWERED-LABEL: func.func @rows_kernel_aic
// LOWERED: pl.tile.tpush_to_aiv %{{.*}} up_down : !pl.tile<16x64xf32, acc>
func.func @rows_kernel(%x: !X, %w: !W, %b: !B, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  %c0 = arith.constant 0 : index
  %xt = pl.tile.load %x[%c0, %c0] : !X -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !W -> !pl.tile<32x64xf16>
  %bt = pl.tile.load %b[%c0, %c0] : !B -> !pl.tile<1x64xf32>
  %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
  %pb = pl.tile.col_expand_add %p, %bt : !pl.tile<16x64xf32>, !pl.tile<1x64xf32> -> !pl.tile<16x64xf32>
  %tmp = pl.tile.create : !pl.tile<16x64xf32, vec>
  %m = pl.tile.row_max %pb, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x1xf32, vec>
  %d = pl.tile.row_expand_sub %pb, %m : !pl.tile<16x64xf32>, !pl.tile<16x1xf32, vec> -> !pl.tile<16x64xf32>
  %e = pl.tile.exp %d : !pl.tile<16x64xf32>
  %s = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<16x64xf32>, !Y
  return %s : !Y
}

func.func @rows(%x: !X, %w: !W, %b: !B) -> !Y attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.tensor.create() : !Y
  %r = pl.call @rows_kernel(%x, %w, %b, %y) : (!X, !W, !B, !Y) -> !Y
  return %r : !Y
}

// By columns: a column scale whole on both vector cores, sums down the
// columns of each half.
// CHECK-LABEL: func.func @columns_kernel
// CHECK: pl.tile.aiv_shard %{{.*}} left_right : !pl.tile<16x64xf32, acc> -> !pl.tile<16x32xf32, vec>
// CHECK: pl.tile.row_expand_mul %{{.*}}, %{{.*}} : !pl.tile<16x32xf32, vec>, !pl.tile<16x1xf32, vec> -> !pl.tile<16x32xf32, vec>
// CHECK: pl.tile.col_sum %{{.*}}, %{{.*}} : !pl.tile<16x32xf32, vec>, !pl.tile<16x32xf32, vec> -> !pl.tile<1x32xf32, vec>
// CHECK: %[[HALF:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[STEP:.*]] = arith.muli %{{.*}}, %[[HALF]] : index
// CHECK-NEXT: %[[COL:.*]] = arith.addi %{{.*}}, %[[STEP]] : index
// CHECK-NEXT: pl.tile.store %{{.*}}, %arg3[%{{.*}}, %[[COL]]] : !pl.tile<1x32xf32, vec>, !pl.tensor<1x64xf32>
func.func @columns_kernel(%x: !X, %w: !W, %c: !Cl, %y: !B {pl.direction = #pl.direction<out>}) -> !B attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<left_right>} {
  %c0 = arith.constant 0 : index
  %xt = pl.tile.load %x[%c0, %c0] : !X -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !W -> !pl.tile<32x64xf16>
  %ct = pl.tile.load %c[%c0, %c0] : !Cl -> !pl.tile<16x1xf32>
  %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
  %sc = pl.tile.row_expand_mul %p, %ct : !pl.tile<16x64xf32>, !pl.tile<16x1xf32> -> !pl.tile<16x64xf32>
  %tmp = pl.tile.create : !pl.tile<16x64xf32, vec>
  %s = pl.tile.col_sum %sc, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x64xf32, vec> -> !pl.tile<1x64xf32>
  %st = pl.tile.store %s, %y[%c0, %c0] : !pl.tile<1x64xf32>, !B
  return %st : !B
}

func.func @columns(%x: !X, %w: !W, %c: !Cl) -> !B attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.tensor.create() : !B
  %r = pl.call @columns_kernel(%x, %w, %c, %y) : (!X, !W, !Cl, !B) -> !B
  return %r : !B
}

!V = !pl.tensor<64x32xf16>
!O = !pl.tensor<16x32xf32>

// Both ways in a loop: the halves of exp(x w) go back to the cube gathered
// (pl.tile.aic_gather) for a product with v, in two iterations; a carried row sum
// stays on the vector cores, halved with the rows.
// CHECK-LABEL: func.func @looped_kernel
// CHECK: scf.for {{.*}} -> (!pl.tile<16x32xf32, acc>, !pl.tile<8x1xf32, vec>)
// CHECK: pl.tile.aiv_shard %{{.*}} up_down : !pl.tile<16x64xf32, acc> -> !pl.tile<8x64xf32, vec>
// CHECK: pl.tile.aic_gather %{{.*}} up_down : !pl.tile<8x64xf16, vec> -> !pl.tile<16x64xf16, mat>
// CHECK: scf.yield %{{.*}}, %{{.*}} : !pl.tile<16x32xf32, acc>, !pl.tile<8x1xf32, vec>
func.func @looped_kernel(%x: !X, %w: !W, %v: !V, %o: !O {pl.direction = #pl.direction<out>}, %l: !Cl {pl.direction = #pl.direction<out>}) -> (!O, !Cl) attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %xt = pl.tile.load %x[%c0, %c0] : !X -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !W -> !pl.tile<32x64xf16>
  %vt = pl.tile.load %v[%c0, %c0] : !V -> !pl.tile<64x32xf16>
  %tmp = pl.tile.create : !pl.tile<16x64xf32, vec>
  // Iteration 0 starts both accumulators.
  %p0 = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
  %e0 = pl.tile.exp %p0 : !pl.tile<16x64xf32>
  %s0 = pl.tile.row_sum %e0, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x1xf32, vec>
  %e0h = pl.tile.cast %e0 round : !pl.tile<16x64xf32> -> !pl.tile<16x64xf16>
  %acc0 = pl.tile.matmul %e0h, %vt : !pl.tile<16x64xf16>, !pl.tile<64x32xf16> -> !pl.tile<16x32xf32>
  %acc, %sum = scf.for %i = %c1 to %c2 step %c1 iter_args(%a = %acc0, %s = %s0) -> (!pl.tile<16x32xf32>, !pl.tile<16x1xf32, vec>) {
    %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
    %e = pl.tile.exp %p : !pl.tile<16x64xf32>
    %rs = pl.tile.row_sum %e, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x1xf32, vec>
    %s2 = pl.tile.add %s, %rs : !pl.tile<16x1xf32, vec>, !pl.tile<16x1xf32, vec> -> !pl.tile<16x1xf32, vec>
    %eh = pl.tile.cast %e round : !pl.tile<16x64xf32> -> !pl.tile<16x64xf16>
    %a2 = pl.tile.matmul_acc %a, %eh, %vt : !pl.tile<16x32xf32>, !pl.tile<16x64xf16>, !pl.tile<64x32xf16>
    scf.yield %a2, %s2 : !pl.tile<16x32xf32>, !pl.tile<16x1xf32, vec>
  }
  %os = pl.tile.store %acc, %o[%c0, %c0] : !pl.tile<16x32xf32>, !O
  %ls = pl.tile.store %sum, %l[%c0, %c0] : !pl.tile<16x1xf32, vec>, !Cl
  return %os, %ls : !O, !Cl
}

func.func @looped(%x: !X, %w: !W, %v: !V) -> (!O, !Cl) attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.tensor.create() : !O
  %l = pl.tensor.create() : !Cl
  %r:2 = pl.call @looped_kernel(%x, %w, %v, %o, %l) : (!X, !W, !V, !O, !Cl) -> (!O, !Cl)
  return %r#0, %r#1 : !O, !Cl
}

!GA = !pl.tensor<64x64xf16>
!GB = !pl.tensor<64x16xf16>
!GO = !pl.tensor<64x16xf32>

// The vector cores' halves of exp(a) gathered for the cube: the pipe's
// slot holds the whole gathered tile (64x64 f16, 8 KiB), not a half.
// LOWERED-LABEL: func.func @gathered_kernel_aiv
// LOWERED: pl.system.aiv_initialize_pipe v2c v2c %{{.*}} slot_size 8192 slots 2
// LOWERED: pl.tile.tpush_to_aic %{{.*}} up_down : !pl.tile<32x64xf16, vec>
// LOWERED-LABEL: func.func @gathered_kernel_aic
// LOWERED: pl.tile.tpop_from_aiv up_down {{.*}}: !pl.tile<64x64xf16, mat>
func.func @gathered_kernel(%a: !GA, %b: !GB, %o: !GO {pl.direction = #pl.direction<out>}) -> !GO attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  %c0 = arith.constant 0 : index
  %at = pl.tile.load %a[%c0, %c0] : !GA -> !pl.tile<64x64xf16>
  %e = pl.tile.exp %at : !pl.tile<64x64xf16>
  %bt = pl.tile.load %b[%c0, %c0] : !GB -> !pl.tile<64x16xf16>
  %p = pl.tile.matmul %e, %bt : !pl.tile<64x64xf16>, !pl.tile<64x16xf16> -> !pl.tile<64x16xf32>
  %s = pl.tile.store %p, %o[%c0, %c0] : !pl.tile<64x16xf32>, !GO
  return %s : !GO
}

func.func @gathered(%a: !GA, %b: !GB) -> !GO attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.tensor.create() : !GO
  %r = pl.call @gathered_kernel(%a, %b, %o) : (!GA, !GB, !GO) -> !GO
  return %r : !GO
}
