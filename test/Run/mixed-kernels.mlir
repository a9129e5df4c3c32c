// Kernels that need the cube and the vector cores, written at the tensor
// level: flash attention (q kᵀ, an online softmax with its running max and
// sum, p v; head_dim 128, four key blocks of 64), paged attention (the same
// over the blocks a block table names in a key cache stored transposed and
// a value cache) and a linear layer with SwiGLU (silu(x wg) * (x wu)). pto-run runs each as written and after the
// whole a2a3 pipeline, which splits it into a core group (an aic and an
// aiv kernel joined by a cross-core pipe); both against numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(11); [np.save('%t/' + n + '.npy', r.uniform(-1, 1, s).astype(np.float16)) for n, s in [('q', (64, 128)), ('k', (256, 128)), ('v', (256, 128)), ('x', (64, 128)), ('wg', (128, 128)), ('wu', (128, 128))]]"
// RUN: pto-run %s --entry attention --input q=%t/q.npy --input k=%t/k.npy --input v=%t/v.npy -o %t/written
// RUN: pto-opt %s --pass-pipeline='builtin.module(pto-a2a3-pipeline,pl-verify-sync)' -o %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=SPLIT < %t/lowered.mlir
// RUN: pto-run %t/lowered.mlir --entry attention --input arg0=%t/q.npy --input arg1=%t/k.npy --input arg2=%t/v.npy -o %t/lowered
// RUN: /usr/bin/python3 %S/Inputs/mixed-kernels-golden.py attention %t | FileCheck %s --check-prefix=ATTENTION
// Upstream passes keep the split program's result.
// RUN: pto-opt %t/lowered.mlir --canonicalize --cse --loop-invariant-code-motion --sccp --inline --symbol-dce -o %t/upstream.mlir
// RUN: pto-run %t/upstream.mlir --entry attention --input arg0=%t/q.npy --input arg1=%t/k.npy --input arg2=%t/v.npy -o %t/upstream
// RUN: /usr/bin/python3 -c "import numpy as np; assert np.array_equal(np.load('%t/upstream/result0.npy'), np.load('%t/lowered/result0.npy')); print('upstream passes keep it')" | FileCheck %s --check-prefix=UPSTREAM
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(12); np.save('%t/kt.npy', r.uniform(-1, 1, (128, 512)).astype(np.float16)); np.save('%t/vc.npy', r.uniform(-1, 1, (512, 128)).astype(np.float16)); np.save('%t/bt.npy', np.array([5, 2, 7, 0], dtype=np.int32))"
// RUN: pto-run %s --entry paged_attention --input q=%t/q.npy --input kt=%t/kt.npy --input vc=%t/vc.npy --input bt=%t/bt.npy -o %t/written
// RUN: pto-run %t/lowered.mlir --entry paged_attention --input arg0=%t/q.npy --input arg1=%t/kt.npy --input arg2=%t/vc.npy --input arg3=%t/bt.npy -o %t/lowered
// RUN: /usr/bin/python3 %S/Inputs/mixed-kernels-golden.py paged %t | FileCheck %s --check-prefix=PAGED
// RUN: pto-run %s --entry mlp --input x=%t/x.npy --input wg=%t/wg.npy --input wu=%t/wu.npy -o %t/written
// RUN: pto-run %t/lowered.mlir --entry mlp --input arg0=%t/x.npy --input arg1=%t/wg.npy --input arg2=%t/wu.npy -o %t/lowered
// RUN: /usr/bin/python3 %S/Inputs/mixed-kernels-golden.py mlp %t | FileCheck %s --check-prefix=MLP
// The same kernels with their vector work shared by the two vector cores
// (pl.split: the attentions by rows, SwiGLU by columns; each vector core
// computes half of every vector tile) compute the same, bit for bit.
// RUN: sed -e '/func.func @flash(/s/#pl.kind<incore>}/#pl.kind<incore>, pl.split = #pl.split<up_down>}/' -e '/func.func @paged(/s/#pl.kind<incore>}/#pl.kind<incore>, pl.split = #pl.split<up_down>}/' -e '/func.func @swiglu(/s/#pl.kind<incore>}/#pl.kind<incore>, pl.split = #pl.split<left_right>}/' %s > %t/shared.mlir
// RUN: pto-opt %t/shared.mlir --pass-pipeline='builtin.module(pto-a2a3-pipeline,pl-verify-sync)' -o %t/shared-lowered.mlir
// RUN: FileCheck %s --check-prefix=SHARED < %t/shared-lowered.mlir
// RUN: pto-run %t/shared-lowered.mlir --entry attention --input arg0=%t/q.npy --input arg1=%t/k.npy --input arg2=%t/v.npy -o %t/shared-attention
// RUN: pto-run %t/shared-lowered.mlir --entry paged_attention --input arg0=%t/q.npy --input arg1=%t/kt.npy --input arg2=%t/vc.npy --input arg3=%t/bt.npy -o %t/shared-paged
// RUN: pto-run %t/shared-lowered.mlir --entry mlp --input arg0=%t/x.npy --input arg1=%t/wg.npy --input arg2=%t/wu.npy -o %t/shared-mlp
// RUN: pto-run %t/lowered.mlir --entry attention --input arg0=%t/q.npy --input arg1=%t/k.npy --input arg2=%t/v.npy -o %t/whole-attention
// RUN: pto-run %t/lowered.mlir --entry paged_attention --input arg0=%t/q.npy --input arg1=%t/kt.npy --input arg2=%t/vc.npy --input arg3=%t/bt.npy -o %t/whole-paged
// RUN: /usr/bin/python3 -c "import numpy as np; l = lambda d: np.load('%t/' + d + '/result0.npy'); assert all(np.array_equal(l('shared-' + a), l(b)) for a, b in [('attention', 'whole-attention'), ('paged', 'whole-paged'), ('mlp', 'lowered')]); print('shared halves match')" | FileCheck %s --check-prefix=HALVES
// HALVES: shared halves match
// SHARED-LABEL: func.func @flash_aiv
// SHARED: pl.tile.tpop_from_aic up_down {{.*}}: !pl.tile<32x64xf32, vec>
// SHARED: pl.tile.tpush_to_aic %{{.*}} up_down : !pl.tile<32x64xf16, vec>
// SHARED-LABEL: func.func @swiglu_aiv
// SHARED: pl.tile.tpop_from_aic left_right {{.*}}: !pl.tile<64x64xf32, vec>
// For the runtime (a2a3) each group is one mixed task of its two kernels
// over the pipe's slot buffer; test/Sim/cross-core*.test run them.
// RUN: pto-translate %t/lowered.mlir --mlir-to-cce --target=a2a3 -o %t/cce
// RUN: FileCheck %s --check-prefix=TRANSLATE < %t/cce/attention_orchestration.cpp
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/cce/manifest.json

// SPLIT-DAG: func.func @flash(%{{.*}} attributes {pl.kind = #pl.kind<group>}
// SPLIT-DAG: func.func @flash_aic(%{{.*}} attributes {pl.kind = #pl.kind<aic>
// SPLIT-DAG: func.func @flash_aiv(%{{.*}} attributes {pl.kind = #pl.kind<aiv>
// SPLIT-DAG: func.func @swiglu(%{{.*}} attributes {pl.kind = #pl.kind<group>}
// SPLIT-DAG: func.func @paged(%{{.*}} attributes {pl.kind = #pl.kind<group>}
// ATTENTION: attention: written and lowered match numpy
// MLP: mlp: written and lowered match numpy
// PAGED: paged: written and lowered match numpy
// UPSTREAM: upstream passes keep it
// TRANSLATE: TaskOutputTensors [[SLOTS:v[0-9]+]] = pto_orch_alloc(DataType::INT8, 65536);
// TRANSLATE: CoreTaskArgs [[ARGS:v[0-9]+]] = CoreTaskArgs();
// TRANSLATE: [[ARGS]].add_inout(
// TRANSLATE: MixedKernels [[MIXED:v[0-9]+]] = pto_orch_mixed(1, 0, INVALID_KERNEL_ID);
// TRANSLATE-NEXT: rt_submit_task([[MIXED]], [[ARGS]]);
// TRANSLATE-NOT: rt_submit_
// MANIFEST: {"func_id": 0, "name": "flash_aiv", "core_type": "aiv", "source": "flash_aiv.cpp"}
// MANIFEST: {"func_id": 1, "name": "flash_aic", "core_type": "aic", "source": "flash_aic.cpp"}

!Q = !pl.tensor<64x128xf16>
!KV = !pl.tensor<256x128xf16>
!Kb = !pl.tensor<64x128xf16>
!S = !pl.tensor<64x64xf32>
!Sh = !pl.tensor<64x64xf16>
!O = !pl.tensor<64x128xf32>
!C = !pl.tensor<64x1xf32>

func.func @flash(%q: !Q, %k: !KV, %v: !KV) -> !O attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831845 : f32
  %m0 = pl.tensor.full %ninf() : f32 -> !C
  %l0 = pl.tensor.full %zero() : f32 -> !C
  %o0 = pl.tensor.full %zero() : f32 -> !O
  %o, %m, %l = scf.for %j = %c0 to %c4 step %c1 iter_args(%oi = %o0, %mi = %m0, %li = %l0) -> (!O, !C, !C) {
    %r = arith.muli %j, %c64 : index
    %kj = pl.tensor.slice %k[%r, %c0] : !KV -> !Kb
    %vj = pl.tensor.slice %v[%r, %c0] : !KV -> !Kb
    %s = pl.tensor.matmul %q, %kj {b_trans} : !Q, !Kb -> !S
    %ss = pl.tensor.muls %s, %scale : !S, f32
    %bm = pl.tensor.row_max %ss : !S -> !C
    %mn = pl.tensor.maximum %mi, %bm : !C, !C -> !C
    %sd = pl.tensor.sub %ss, %mn : !S, !C -> !S
    %p = pl.tensor.exp %sd : !S
    %md = pl.tensor.sub %mi, %mn : !C, !C -> !C
    %alpha = pl.tensor.exp %md : !C
    %ps = pl.tensor.row_sum %p : !S -> !C
    %la = pl.tensor.mul %li, %alpha : !C, !C -> !C
    %ln = pl.tensor.add %la, %ps : !C, !C -> !C
    %ph = pl.tensor.cast %p round : !S -> !Sh
    %pv = pl.tensor.matmul %ph, %vj : !Sh, !Kb -> !O
    %oa = pl.tensor.mul %oi, %alpha : !O, !C -> !O
    %on = pl.tensor.add %oa, %pv : !O, !O -> !O
    scf.yield %on, %mn, %ln : !O, !C, !C
  }
  %out = pl.tensor.div %o, %l : !O, !C -> !O
  return %out : !O
}

func.func @attention(%q: !Q, %k: !KV, %v: !KV) -> !O attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.call @flash(%q, %k, %v) : (!Q, !KV, !KV) -> !O
  return %o : !O
}

!KT = !pl.tensor<128x512xf16>
!VC = !pl.tensor<512x128xf16>
!BT = !pl.tensor<4xi32>
!KTb = !pl.tensor<128x64xf16>

// Paged attention: block j of the sequence is cache block bt[j], read in
// the kernel; its keys are the columns of the transposed key cache, its
// values the rows of the value cache.
func.func @paged(%q: !Q, %kt: !KT, %vc: !VC, %bt: !BT) -> !O attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831845 : f32
  %m0 = pl.tensor.full %ninf() : f32 -> !C
  %l0 = pl.tensor.full %zero() : f32 -> !C
  %o0 = pl.tensor.full %zero() : f32 -> !O
  %o, %m, %l = scf.for %j = %c0 to %c4 step %c1 iter_args(%oi = %o0, %mi = %m0, %li = %l0) -> (!O, !C, !C) {
    %block = pl.tensor.read %bt[%j] : !BT -> i32
    %b = arith.index_cast %block : i32 to index
    %r = arith.muli %b, %c64 : index
    %kj = pl.tensor.slice %kt[%c0, %r] : !KT -> !KTb
    %vj = pl.tensor.slice %vc[%r, %c0] : !VC -> !Kb
    %s = pl.tensor.matmul %q, %kj : !Q, !KTb -> !S
    %ss = pl.tensor.muls %s, %scale : !S, f32
    %bm = pl.tensor.row_max %ss : !S -> !C
    %mn = pl.tensor.maximum %mi, %bm : !C, !C -> !C
    %sd = pl.tensor.sub %ss, %mn : !S, !C -> !S
    %p = pl.tensor.exp %sd : !S
    %md = pl.tensor.sub %mi, %mn : !C, !C -> !C
    %alpha = pl.tensor.exp %md : !C
    %ps = pl.tensor.row_sum %p : !S -> !C
    %la = pl.tensor.mul %li, %alpha : !C, !C -> !C
    %ln = pl.tensor.add %la, %ps : !C, !C -> !C
    %ph = pl.tensor.cast %p round : !S -> !Sh
    %pv = pl.tensor.matmul %ph, %vj : !Sh, !Kb -> !O
    %oa = pl.tensor.mul %oi, %alpha : !O, !C -> !O
    %on = pl.tensor.add %oa, %pv : !O, !O -> !O
    scf.yield %on, %mn, %ln : !O, !C, !C
  }
  %out = pl.tensor.div %o, %l : !O, !C -> !O
  return %out : !O
}

func.func @paged_attention(%q: !Q, %kt: !KT, %vc: !VC, %bt: !BT) -> !O attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.call @paged(%q, %kt, %vc, %bt) : (!Q, !KT, !VC, !BT) -> !O
  return %o : !O
}

!X = !pl.tensor<64x128xf16>
!W = !pl.tensor<128x128xf16>
!H = !pl.tensor<64x128xf32>

func.func @swiglu(%x: !X, %wg: !W, %wu: !W) -> !H attributes {pl.kind = #pl.kind<incore>} {
  %g = pl.tensor.matmul %x, %wg : !X, !W -> !H
  %u = pl.tensor.matmul %x, %wu : !X, !W -> !H
  %n = pl.tensor.neg %g : !H
  %e = pl.tensor.exp %n : !H
  %one = arith.constant 1.0 : f32
  %d = pl.tensor.adds %e, %one : !H, f32
  %s = pl.tensor.div %g, %d : !H, !H -> !H
  %h = pl.tensor.mul %s, %u : !H, !H -> !H
  return %h : !H
}

func.func @mlp(%x: !X, %wg: !W, %wu: !W) -> !H attributes {pl.kind = #pl.kind<orchestration>} {
  %h = pl.call @swiglu(%x, %wg, %wu) : (!X, !W, !W) -> !H
  return %h : !H
}
