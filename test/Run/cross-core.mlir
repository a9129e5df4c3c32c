// A core group in pto-run: its aic kernel runs on the cube core and its
// aiv kernel on both vector cores at once, exchanging tiles through pipes
// that block as a2a3's do (a ring of 2 slots for 4 tiles: the cube waits
// for the vector cores to free slots). Errors: a deadlock (a slot never
// freed), a tile never popped, a push outside a group.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(7); [np.save('%t/' + n + '.npy', r.uniform(-1, 1, s).astype(t)) for n, s, t in [('a', (64, 32), np.float32), ('b', (32, 32), np.float32), ('x', (64, 32), np.float16), ('w', (32, 16), np.float16)]]"
// RUN: pto-run %s --entry pair --input a=%t/a.npy --input b=%t/b.npy --input x=%t/x.npy --input w=%t/w.npy -o %t
// RUN: /usr/bin/python3 -c "import numpy as np; l = lambda n: np.load('%t/' + n + '.npy').astype(np.float64); a, b, x, w = l('a'), l('b'), l('x'), l('w'); c, o = l('result0'), l('result1'); assert np.allclose(c, a @ b + 1, rtol=1e-5, atol=1e-5), abs(c - (a @ b + 1)).max(); y = (2 * x).astype(np.float16).astype(np.float64); assert all(np.allclose(o[16*i:16*i+16], y[16*i:16*i+16] @ w, rtol=1e-3, atol=1e-3) for i in range(4)), abs(o - 0).max(); print('both ways match')" | FileCheck %s --check-prefix=PAIR
// RUN: not pto-run %s --entry unfreed --random-inputs 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: not pto-run %s --entry unpopped --random-inputs 2>&1 | FileCheck %s --check-prefix=LEFTOVER
// RUN: not pto-run %s --entry alone --random-inputs 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: pto-run %s --entry one_lane --input a=%t/a.npy --input b=%t/b.npy -o %t/lanes
// RUN: /usr/bin/python3 -c "import numpy as np; a, b, c = np.load('%t/a.npy').astype(np.float64), np.load('%t/b.npy').astype(np.float64), np.load('%t/lanes/result0.npy'); assert np.allclose(c[:16], a[:16] @ b, rtol=1e-5, atol=1e-5) and not c[16:].any(); print('only vector core 0 ran')" | FileCheck %s --check-prefix=LANES

!A = !pl.tensor<64x32xf32>
!B = !pl.tensor<32x32xf32>
!X = !pl.tensor<64x32xf16>
!W = !pl.tensor<32x16xf16>
!O = !pl.tensor<64x16xf32>
!Acc = !pl.tile<16x32xf32, acc>
!Half = !pl.tile<8x32xf32, vec>
!XHalf = !pl.tile<8x32xf16, vec>
!XMat = !pl.tile<16x32xf16, mat>

// The cube: four products a[16i:16i+16] @ b pushed, each row-split
// between the vector cores; four tiles of 2x popped (joined), each times w
// stored.
func.func @cube(%a: !A, %b: !B, %w: !W, %o: !O {pl.direction = #pl.direction<out>}) -> !O attributes {pl.kind = #pl.kind<aic>} {
  %v2c = pl.system.reserve_buffer "pair_v2c" size 2048 : i32
  %c2v = pl.system.import_peer_buffer "pair_c2v" from @vector : i32
  pl.system.aic_initialize_pipe both c2v %c2v v2c %v2c slot_size 2048 slots 2
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %bt = pl.tile.load %b[%c0, %c0] : !B -> !pl.tile<32x32xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %r = arith.muli %i, %c16 : index
    %at = pl.tile.load %a[%r, %c0] : !A -> !pl.tile<16x32xf32>
    %p = pl.tile.matmul %at, %bt : !pl.tile<16x32xf32>, !pl.tile<32x32xf32> -> !Acc
    pl.tile.tpush_to_aiv %p up_down : !Acc
  }
  %wt = pl.tile.load %w[%c0, %c0] : !W -> !pl.tile<32x16xf16>
  %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%out = %o) -> (!O) {
    %r = arith.muli %i, %c16 : index
    %m = pl.tile.tpop_from_aiv up_down : !XMat
    %q = pl.tile.matmul %m, %wt : !XMat, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32, acc>
    pl.system.tfree_to_aiv %m : !XMat
    %s = pl.tile.store %q, %out[%r, %c0] : !pl.tile<16x16xf32, acc>, !O
    scf.yield %s : !O
  }
  return %res : !O
}

// Each vector core: its half of each product plus 1 stored; its half of
// each block of x, doubled, pushed.
func.func @vector(%x: !X, %c: !A {pl.direction = #pl.direction<out>}) -> !A attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "pair_c2v" size 4096 : i32
  %v2c = pl.system.import_peer_buffer "pair_v2c" from @cube : i32
  pl.system.aiv_initialize_pipe both c2v %c2v v2c %v2c slot_size 2048 slots 2
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f16
  %lane = pl.tile.get_subblock_idx
  %half = arith.muli %lane, %c8 : index
  %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%out = %c) -> (!A) {
    %r = arith.muli %i, %c16 : index
    %row = arith.addi %r, %half : index
    %h = pl.tile.tpop_from_aic up_down : !Half
    %p = pl.tile.adds %h, %one : !Half, f32
    pl.system.tfree_to_aic %h : !Half
    %s = pl.tile.store %p, %out[%row, %c0] : !Half, !A
    scf.yield %s : !A
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %r = arith.muli %i, %c16 : index
    %row = arith.addi %r, %half : index
    %xt = pl.tile.load %x[%row, %c0] : !X -> !XHalf
    %d = pl.tile.muls %xt, %two : !XHalf, f16
    pl.tile.tpush_to_aic %d up_down : !XHalf
  }
  return %res : !A
}

func.func @group(%a: !A, %b: !B, %x: !X, %w: !W, %c: !A {pl.direction = #pl.direction<out>}, %o: !O {pl.direction = #pl.direction<out>}) -> (!A, !O) attributes {pl.kind = #pl.kind<group>} {
  %o2 = pl.call @cube(%a, %b, %w, %o) : (!A, !B, !W, !O) -> !O
  %c2 = pl.call @vector(%x, %c) : (!X, !A) -> !A
  return %c2, %o2 : !A, !O
}

// PAIR: both ways match
func.func @pair(%a: !A, %b: !B, %x: !X, %w: !W) -> (!A, !O) attributes {pl.kind = #pl.kind<orchestration>} {
  %c = pl.tensor.create() : !A
  %o = pl.tensor.create() : !O
  %c2, %o2 = pl.call @group(%a, %b, %x, %w, %c, %o) : (!A, !B, !X, !W, !A, !O) -> (!A, !O)
  return %c2, %o2 : !A, !O
}

// The vector cores never free what they pop: the cube waits for a third
// slot that never frees.
// DEADLOCK: error: the core group deadlocks: the cube core (@push_four) waits for a free slot of pipe 0 at {{.*}}cross-core.mlir:{{[0-9]+}}:{{[0-9]+}}
func.func @push_four() attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "ring" from @pop_four : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = pl.tile.create : !Acc
  scf.for %i = %c0 to %c4 step %c1 {
    pl.tile.tpush_to_aiv %t up_down : !Acc
  }
  return
}
func.func @pop_four() attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "ring" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %h = pl.tile.tpop_from_aic up_down : !Half
  }
  return
}
func.func @unfreed_group() attributes {pl.kind = #pl.kind<group>} {
  pl.call @push_four() : () -> ()
  pl.call @pop_four() : () -> ()
  return
}
func.func @unfreed() attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @unfreed_group() : () -> ()
  return
}

// LEFTOVER: error: pipe 0 (cube-to-vector): 1 tile(s) pushed were never popped when the core group ended
func.func @push_one() attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "ring" from @pop_none : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  %t = pl.tile.create : !Acc
  pl.tile.tpush_to_aiv %t none : !Acc
  return
}
func.func @pop_none() attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "ring" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  return
}
func.func @unpopped_group() attributes {pl.kind = #pl.kind<group>} {
  pl.call @push_one() : () -> ()
  pl.call @pop_none() : () -> ()
  return
}
func.func @unpopped() attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @unpopped_group() : () -> ()
  return
}

// ALONE: cross-core.mlir:{{[0-9]+}}:3: error: pl.system.aic_initialize_pipe outside a core group: the other core is not running (call the kernels through a function of kind group)
func.func @alone() attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @push_one() : () -> ()
  return
}

// Every pipe `none`: the aiv kernel runs on vector core 0 alone (a2a3's
// one-to-one mode, as pto-isa's TILE_NO_SPLIT): only lane 0's rows of the
// output are written.
// LANES: only vector core 0 ran
func.func @push_whole(%a: !A, %b: !B) attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "whole" from @store_lane : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  %c0 = arith.constant 0 : index
  %at = pl.tile.load %a[%c0, %c0] : !A -> !pl.tile<16x32xf32>
  %bt = pl.tile.load %b[%c0, %c0] : !B -> !pl.tile<32x32xf32>
  %acc = pl.tile.matmul %at, %bt : !pl.tile<16x32xf32>, !pl.tile<32x32xf32> -> !Acc
  pl.tile.tpush_to_aiv %acc none : !Acc
  return
}
func.func @store_lane(%c: !A {pl.direction = #pl.direction<out>}) -> !A attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "whole" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = pl.tile.get_subblock_idx
  %row = arith.muli %lane, %c16 : index
  %t = pl.tile.tpop_from_aic none : !pl.tile<16x32xf32, vec>
  %s = pl.tile.store %t, %c[%row, %c0] : !pl.tile<16x32xf32, vec>, !A
  pl.system.tfree_to_aic %t : !pl.tile<16x32xf32, vec>
  return %s : !A
}
func.func @whole_group(%a: !A, %b: !B, %c: !A {pl.direction = #pl.direction<out>}) -> !A attributes {pl.kind = #pl.kind<group>} {
  pl.call @push_whole(%a, %b) : (!A, !B) -> ()
  %s = pl.call @store_lane(%c) : (!A) -> !A
  return %s : !A
}
func.func @one_lane(%a: !A, %b: !B) -> !A attributes {pl.kind = #pl.kind<orchestration>} {
  %c = pl.tensor.create() : !A
  %s = pl.call @whole_group(%a, %b, %c) : (!A, !B, !A) -> !A
  return %s : !A
}
