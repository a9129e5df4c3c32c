// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space),pl-expand-mixed-kernel)' | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space),pl-expand-mixed-kernel)' | FileCheck %s
// The split computes what the mixed kernel does: pto-run before and
// after, against numpy.
// RUN: rm -rf %t && mkdir -p %t/before %t/after
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(5); [np.save('%t/' + n + '.npy', r.uniform(-1, 1, s).astype(np.float16)) for n, s in [('x', (16, 32)), ('w', (32, 64)), ('q', (16, 64)), ('k', (64, 64)), ('v', (64, 64))]]"
// RUN: pto-run %s --entry linear --input x=%t/x.npy --input w=%t/w.npy -o %t/before
// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space),pl-expand-mixed-kernel)' -o %t/split.mlir
// RUN: pto-run %t/split.mlir --entry linear --input arg0=%t/x.npy --input arg1=%t/w.npy -o %t/after
// RUN: pto-run %t/split.mlir --entry attention --input arg0=%t/q.npy --input arg1=%t/k.npy --input arg2=%t/v.npy -o %t/attention
// The whole a2a3 pipeline keeps it too (its synchronisation checked).
// RUN: pto-opt %s --pass-pipeline='builtin.module(pto-a2a3-pipeline,pl-verify-sync)' -o %t/lowered.mlir
// RUN: pto-run %t/lowered.mlir --entry attention --input arg0=%t/q.npy --input arg1=%t/k.npy --input arg2=%t/v.npy -o %t/lowered
// RUN: /usr/bin/python3 -c "import numpy as np; a, b = np.load('%t/attention/result1.npy'), np.load('%t/lowered/result1.npy'); assert np.array_equal(a, b); print('lowered matches')" | FileCheck %s --check-prefix=LOWERED
// RUN: /usr/bin/python3 -c "import numpy as np; l = lambda p: np.load('%t/' + p + '.npy').astype(np.float64); x, w, b, a = l('x'), l('w'), l('before/result0'), l('after/result0'); g = np.exp(x @ w); assert np.allclose(b, g, rtol=1e-5) and np.array_equal(a, b), (abs(b - g).max(), abs(a - b).max()); print('linear matches')" | FileCheck %s --check-prefix=LINEAR
// RUN: /usr/bin/python3 -c "import numpy as np; l = lambda p: np.load('%t/' + p + '.npy').astype(np.float64); q, k, v, o = l('q'), l('k'), l('v'), l('attention/result1'); s = [np.exp(q @ k[16*j:16*j+16].T) for j in range(4)]; g = sum(si.astype(np.float16).astype(np.float64) @ v[16*j:16*j+16] for j, si in enumerate(s)); d = sum(si.sum(axis=1, keepdims=True) for si in s); assert np.allclose(o, g / d, rtol=2e-3, atol=1e-4), abs(o - g / d).max(); print('attention matches')" | FileCheck %s --check-prefix=ATTENTION

!X = !pl.tensor<16x32xf16>
!W = !pl.tensor<32x64xf16>
!Y = !pl.tensor<16x64xf32>

// A product and its activation: one way, cube to vector.
// CHECK-LABEL: func.func @linear_kernel
// CHECK-SAME: pl.kind = #pl.kind<group>
// CHECK-NEXT: pl.call @linear_kernel_aic(%arg0, %arg1, %arg2)
// CHECK-NEXT: %[[Y:.*]] = pl.call @linear_kernel_aiv(%arg0, %arg1, %arg2)
// CHECK-NEXT: return %[[Y]]
// CHECK-LABEL: func.func @linear_kernel_aiv
// CHECK-SAME: pl.kind = #pl.kind<aiv>
// CHECK: %[[RING:.*]] = pl.system.reserve_buffer "linear_kernel_c2v" size 8192 : i32
// CHECK-NEXT: pl.system.aiv_initialize_pipe c2v c2v %[[RING]] slot_size 4096 slots 2
// CHECK-NOT: pl.tile.matmul
// CHECK: %[[T:.*]] = pl.tile.tpop_from_aic none : !pl.tile<16x64xf32, vec>
// CHECK-NEXT: %[[E:.*]] = pl.tile.exp %[[T]]
// CHECK-NEXT: pl.system.tfree_to_aic %[[T]]
// CHECK-NEXT: pl.tile.store %[[E]]
// CHECK-LABEL: func.func @linear_kernel_aic
// CHECK-SAME: pl.kind = #pl.kind<aic>
// CHECK: %[[PEER:.*]] = pl.system.import_peer_buffer "linear_kernel_c2v" from @linear_kernel_aiv : i32
// CHECK-NEXT: pl.system.aic_initialize_pipe c2v c2v %[[PEER]] slot_size 4096 slots 2
// CHECK: %[[P:.*]] = pl.tile.matmul
// CHECK-NEXT: pl.tile.tpush_to_aiv %[[P]] none : !pl.tile<16x64xf32, acc>
// CHECK-NOT: pl.tile.exp
// CHECK: return %arg2
func.func @linear_kernel(%x: !X, %w: !W, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %xt = pl.tile.load %x[%c0, %c0] : !X -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !W -> !pl.tile<32x64xf16>
  %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
  %e = pl.tile.exp %p : !pl.tile<16x64xf32>
  %s = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<16x64xf32>, !Y
  return %s : !Y
}

// LINEAR: linear matches
func.func @linear(%x: !X, %w: !W) -> !Y attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.tensor.create() : !Y
  %r = pl.call @linear_kernel(%x, %w, %y) : (!X, !W, !Y) -> !Y
  return %r : !Y
}

!Q = !pl.tensor<16x64xf16>
!K = !pl.tensor<64x64xf16>
!O = !pl.tensor<16x64xf32>

// Both ways in one loop, each side carrying its own accumulator: the
// cube's scores go to the vector cores, their exponentials come back for
// the cube's product with v; the vector cores keep the row sums and
// scale the product at the end (softmax(q kᵀ) v without the running max).
// CHECK-LABEL: func.func @attention_kernel_aiv
// CHECK: pl.system.aiv_initialize_pipe both c2v %{{.*}} v2c %{{.*}} slot_size 4096 slots 2
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!pl.tile<16x1xf32, vec>)
// CHECK: pl.tile.tpop_from_aic none : !pl.tile<16x16xf32, vec>
// CHECK: pl.tile.tpush_to_aic %{{.*}} none : !pl.tile<16x16xf16, vec>
// CHECK: pl.tile.tpop_from_aic none : !pl.tile<16x64xf32, vec>
// CHECK-LABEL: func.func @attention_kernel_aic
// CHECK: pl.system.aic_initialize_pipe both c2v %{{.*}} v2c %{{.*}} slot_size 4096 slots 2
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!pl.tile<16x64xf32, acc>)
// CHECK: pl.tile.tpush_to_aiv %{{.*}} none : !pl.tile<16x16xf32, acc>
// CHECK: %[[PM:.*]] = pl.tile.tpop_from_aiv none : !pl.tile<16x16xf16, mat>
// CHECK: pl.system.tfree_to_aiv %[[PM]]
// CHECK: pl.tile.tpush_to_aiv %{{.*}} none : !pl.tile<16x64xf32, acc>
func.func @attention_kernel(%q: !Q, %k: !K, %v: !K, %o: !O {pl.direction = #pl.direction<out>}) -> !O attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %qt = pl.tile.load %q[%c0, %c0] : !Q -> !pl.tile<16x64xf16>
  %tmp = pl.tile.create : !pl.tile<16x16xf32, vec>
  // Block 0 starts both accumulators.
  %k0 = pl.tile.load %k[%c0, %c0] : !K -> !pl.tile<16x64xf16>
  %k0t = pl.tile.transpose_view %k0 : !pl.tile<16x64xf16> -> !pl.tile<64x16xf16, blayout = col_major>
  %s0 = pl.tile.matmul %qt, %k0t : !pl.tile<16x64xf16>, !pl.tile<64x16xf16, blayout = col_major> -> !pl.tile<16x16xf32>
  %p0 = pl.tile.exp %s0 : !pl.tile<16x16xf32>
  %sum0 = pl.tile.row_sum %p0, %tmp : !pl.tile<16x16xf32>, !pl.tile<16x16xf32, vec> -> !pl.tile<16x1xf32, vec>
  %p0h = pl.tile.cast %p0 round : !pl.tile<16x16xf32> -> !pl.tile<16x16xf16>
  %v0 = pl.tile.load %v[%c0, %c0] : !K -> !pl.tile<16x64xf16>
  %acc0 = pl.tile.matmul %p0h, %v0 : !pl.tile<16x16xf16>, !pl.tile<16x64xf16> -> !pl.tile<16x64xf32>
  %acc, %sum = scf.for %j = %c1 to %c4 step %c1 iter_args(%a = %acc0, %l = %sum0) -> (!pl.tile<16x64xf32>, !pl.tile<16x1xf32, vec>) {
    %r = arith.muli %j, %c16 : index
    %kt = pl.tile.load %k[%r, %c0] : !K -> !pl.tile<16x64xf16>
    %ktt = pl.tile.transpose_view %kt : !pl.tile<16x64xf16> -> !pl.tile<64x16xf16, blayout = col_major>
    %s = pl.tile.matmul %qt, %ktt : !pl.tile<16x64xf16>, !pl.tile<64x16xf16, blayout = col_major> -> !pl.tile<16x16xf32>
    %p = pl.tile.exp %s : !pl.tile<16x16xf32>
    %rs = pl.tile.row_sum %p, %tmp : !pl.tile<16x16xf32>, !pl.tile<16x16xf32, vec> -> !pl.tile<16x1xf32, vec>
    %l2 = pl.tile.add %l, %rs : !pl.tile<16x1xf32, vec>, !pl.tile<16x1xf32, vec> -> !pl.tile<16x1xf32, vec>
    %ph = pl.tile.cast %p round : !pl.tile<16x16xf32> -> !pl.tile<16x16xf16>
    %vt = pl.tile.load %v[%r, %c0] : !K -> !pl.tile<16x64xf16>
    %a2 = pl.tile.matmul_acc %a, %ph, %vt : !pl.tile<16x64xf32>, !pl.tile<16x16xf16>, !pl.tile<16x64xf16>
    scf.yield %a2, %l2 : !pl.tile<16x64xf32>, !pl.tile<16x1xf32, vec>
  }
  %n = pl.tile.row_expand_div %acc, %sum : !pl.tile<16x64xf32>, !pl.tile<16x1xf32, vec> -> !pl.tile<16x64xf32>
  %st = pl.tile.store %n, %o[%c0, %c0] : !pl.tile<16x64xf32>, !O
  return %st : !O
}

// ATTENTION: attention matches
// LOWERED: lowered matches
func.func @attention(%q: !Q, %k: !K, %v: !K) -> (!Y, !O) attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.tensor.create() : !Y
  %o = pl.tensor.create() : !O
  %r = pl.call @attention_kernel(%q, %k, %v, %o) : (!Q, !K, !K, !O) -> !O
  return %y, %r : !Y, !O
}
