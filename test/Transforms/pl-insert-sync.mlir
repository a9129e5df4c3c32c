// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-plan-memory), pl-insert-sync)' | FileCheck %s
// Whatever the inserter placed, the independent checker accepts it.
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-plan-memory), pl-insert-sync, pl-verify-sync)' -o /dev/null
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-plan-memory), pl-insert-sync)' | FileCheck %s

!V = !pl.tile<16x64xf32, vec>
!T = !pl.tensor<16x64xf32>

// Straight-line vector code: the load (MTE2) feeds the vector pipe, which
// orders its dependent ops with pipe barriers, and feeds the store (MTE3);
// the kernel ends with a full barrier.
// CHECK-LABEL: func.func @chain
// CHECK: pl.tile.load
// CHECK-NEXT: pl.system.sync_src set mte2 wait v event 0
// CHECK-NEXT: pl.system.sync_dst set mte2 wait v event 0
// CHECK-NEXT: pl.tile.exp
// CHECK-NEXT: pl.system.pipe_barrier v
// CHECK-NEXT: pl.tile.add
// CHECK-NEXT: pl.system.pipe_barrier v
// CHECK-NEXT: pl.tile.recip
// CHECK-NEXT: pl.system.sync_src set v wait mte3 event 0
// CHECK-NEXT: pl.system.sync_dst set v wait mte3 event 0
// CHECK-NEXT: pl.tile.store
// CHECK-NEXT: pl.system.pipe_barrier all
// CHECK-NEXT: return
func.func @chain(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !T -> !V
  %b = pl.tile.exp %a : !V
  %c = pl.tile.add %b, %a : !V, !V -> !V
  %d = pl.tile.recip %c : !V
  %r = pl.tile.store %d, %out[%c0, %c0] : !V, !T
  return %r : !T
}

// A scratch tile is written by its instruction (TROWSUM here): planned
// into the buffer the store has just read, it waits for MTE3.
// CHECK-LABEL: func.func @scratch_after_store
// CHECK: pl.tile.store
// CHECK-NEXT: pl.system.sync_src set mte3 wait v event 0
// CHECK-NEXT: pl.tile.create {pl.addresses = array<i64: 0>}
// CHECK-NEXT: pl.system.sync_dst set mte3 wait v event 0
// CHECK: pl.tile.row_sum
func.func @scratch_after_store(%x: !T, %y: !T, %out: !T {pl.direction = #pl.direction<out>}, %rows: !pl.tensor<16x1xf32> {pl.direction = #pl.direction<out>}) -> (!T, !pl.tensor<16x1xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !T -> !V
  %b = pl.tile.load %y[%c0, %c0] : !T -> !V
  %e = pl.tile.exp %a : !V
  %r = pl.tile.store %e, %out[%c0, %c0] : !V, !T
  %tmp = pl.tile.create : !V
  %s = pl.tile.row_sum %b, %tmp : !V, !V -> !pl.tile<16x1xf32, vec>
  %r2 = pl.tile.store %s, %rows[%c0, %c0] : !pl.tile<16x1xf32, vec>, !pl.tensor<16x1xf32>
  return %r, %r2 : !T, !pl.tensor<16x1xf32>
}

// Two loads in flight at once: the first's set is placed right after it
// (so MTE2 goes on loading) and the two MTE2->V events get ids 0 and 1.
// Loop-carried write-after-read (the next iteration reloads the buffer the
// last store reads) is a pair whose set follows that store, for the next
// iteration; the first iteration's wait takes a set made before the loop,
// and the last iteration's set is taken after it (a zero-trip loop takes
// its own). V's earlier reads are ordered through V->MTE3 then MTE3->MTE2.
// CHECK-LABEL: func.func @pingpong
// CHECK: pl.system.sync_src set mte3 wait mte2 event 0
// CHECK-NEXT: scf.for
// CHECK-NEXT: pl.system.sync_dst set mte3 wait mte2 event 0
// CHECK-NEXT: %[[A:.*]] = pl.tile.load
// CHECK-NEXT: pl.system.sync_src set mte2 wait v event 0
// CHECK: %[[B:.*]] = pl.tile.load
// CHECK-NEXT: pl.system.sync_src set mte2 wait v event 1
// CHECK-NEXT: pl.system.sync_dst set mte2 wait v event 0
// CHECK-NEXT: pl.tile.exp %[[A]]
// CHECK: pl.system.sync_dst set mte2 wait v event 1
// CHECK-NEXT: pl.tile.exp %[[B]]
// CHECK: pl.tile.store
// CHECK-NEXT: pl.system.sync_src set mte3 wait mte2 event 0
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: pl.system.sync_dst set mte3 wait mte2 event 0
// CHECK-NEXT: pl.system.pipe_barrier all
func.func @pingpong(%x: !pl.tensor<64x64xf32>, %out: !pl.tensor<64x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %r = scf.for %i = %c0 to %c64 step %c32 iter_args(%o = %out) -> (!pl.tensor<64x64xf32>) {
    %a = pl.tile.load %x[%i, %c0] : !pl.tensor<64x64xf32> -> !V
    %j = arith.addi %i, %c16 : index
    %b = pl.tile.load %x[%j, %c0] : !pl.tensor<64x64xf32> -> !V
    %ea = pl.tile.exp %a : !V
    %o1 = pl.tile.store %ea, %o[%i, %c0] : !V, !pl.tensor<64x64xf32>
    %eb = pl.tile.exp %b : !V
    %o2 = pl.tile.store %eb, %o1[%j, %c0] : !V, !pl.tensor<64x64xf32>
    scf.yield %o2 : !pl.tensor<64x64xf32>
  }
  return %r : !pl.tensor<64x64xf32>
}

// The cube path: L1 loads (MTE2), L1->L0 moves (MTE1), the matmul (M)
// accumulating over K in place, and the fix-pipe store of L0C (FIX).
// CHECK-LABEL: func.func @matmul
// The next iteration's L1 loads wait for this one's L1->L0 moves, and its
// moves for this one's matmul (write-after-read, carried): each set right
// after the op it follows, armed once before the loop, taken after it.
// CHECK: pl.system.sync_src set mte1 wait mte2 event 0
// CHECK-NEXT: pl.system.sync_src set mte1 wait mte2 event 1
// CHECK-NEXT: pl.system.sync_src set m wait mte1 event 0
// CHECK-NEXT: scf.for
// CHECK-NEXT: pl.system.sync_dst set mte1 wait mte2 event 0
// CHECK-NEXT: pl.tile.load {{.*}} -> !pl.tile<16x32xf16, mat>
// CHECK-NEXT: pl.system.sync_src set mte2 wait mte1 event 0
// CHECK-NEXT: pl.system.sync_dst set mte1 wait mte2 event 1
// CHECK-NEXT: pl.tile.load {{.*}} -> !pl.tile<32x16xf16, mat>
// CHECK-NEXT: pl.system.sync_src set mte2 wait mte1 event 1
// CHECK-NEXT: pl.system.sync_dst set mte2 wait mte1 event 0
// L0A is refilled only after the previous matmul read it.
// CHECK-NEXT: pl.system.sync_dst set m wait mte1 event 0
// CHECK-NEXT: pl.tile.move {{.*}} -> !pl.tile<16x32xf16, left>
// CHECK-NEXT: pl.system.sync_src set mte1 wait mte2 event 0
// CHECK-NEXT: pl.system.sync_dst set mte2 wait mte1 event 1
// CHECK-NEXT: pl.tile.move {{.*}} -> !pl.tile<32x16xf16, right>
// CHECK-NEXT: pl.system.sync_src set mte1 wait m event 0
// CHECK-NEXT: pl.system.sync_src set mte1 wait mte2 event 1
// CHECK-NEXT: arith.cmpi
// CHECK-NEXT: pl.system.sync_dst set mte1 wait m event 0
// CHECK-NEXT: pl.tile.matmul_acc
// CHECK-NEXT: pl.system.sync_src set m wait mte1 event 0
// CHECK-NEXT: scf.yield
// CHECK: pl.system.sync_src set m wait fix event 0
// CHECK-NEXT: pl.system.sync_dst set m wait mte1 event 0
// CHECK-NEXT: pl.system.sync_dst set mte1 wait mte2 event 1
// CHECK-NEXT: pl.system.sync_dst set mte1 wait mte2 event 0
// CHECK-NEXT: pl.system.sync_dst set m wait fix event 0
// CHECK-NEXT: pl.tile.store
func.func @matmul(%a: !pl.tensor<16x64xf16>, %b: !pl.tensor<64x16xf16>, %c: !pl.tensor<16x16xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x16xf32> attributes {pl.kind = #pl.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %init = pl.tile.create : !pl.tile<16x16xf32, acc>
  %acc = scf.for %k = %c0 to %c64 step %c32 iter_args(%partial = %init) -> (!pl.tile<16x16xf32, acc>) {
    %am = pl.tile.load %a[%c0, %k] : !pl.tensor<16x64xf16> -> !pl.tile<16x32xf16, mat>
    %bm = pl.tile.load %b[%k, %c0] : !pl.tensor<64x16xf16> -> !pl.tile<32x16xf16, mat>
    %al = pl.tile.move %am : !pl.tile<16x32xf16, mat> -> !pl.tile<16x32xf16, left>
    %br = pl.tile.move %bm : !pl.tile<32x16xf16, mat> -> !pl.tile<32x16xf16, right>
    %first = arith.cmpi eq, %k, %c0 : index
    %next = pl.tile.matmul_acc %partial, %al, %br init %first : !pl.tile<16x16xf32, acc>, !pl.tile<16x32xf16, left>, !pl.tile<32x16xf16, right>
    scf.yield %next : !pl.tile<16x16xf32, acc>
  }
  %r = pl.tile.store %acc, %c[%c0, %c0] : !pl.tile<16x16xf32, acc>, !pl.tensor<16x16xf32>
  return %r : !pl.tensor<16x16xf32>
}

// A transfer reads on MTE2 and writes on MTE3: its staging tile, written
// by a vector op before, needs V->MTE2 ordering only (the library orders
// its own two steps); the fence after it waits for the MTE3 write.
// CHECK-LABEL: func.func @put
// CHECK: pl.tile.full
// CHECK-NEXT: pl.system.sync_src set v wait mte2 event 0
// CHECK-NEXT: pl.system.sync_dst set v wait mte2 event 0
// CHECK-NEXT: pld.tile.put
// CHECK-NEXT: pl.system.sync_src set mte3 wait s event 0
// CHECK-NEXT: pl.system.sync_dst set mte3 wait s event 0
// CHECK-NEXT: pl.system.fence
func.func @put(%d: !pld.dtensor<1x64xf32>, %src: !pl.tensor<1x64xf32>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %zero = arith.constant 0.0 : f32
  %stage = pl.tile.full %zero : f32 -> !pl.tile<1x64xf32, vec>
  pld.tile.put %d to %peer from %src stage %stage none : !pld.dtensor<1x64xf32>, !pl.tensor<1x64xf32>, !pl.tile<1x64xf32, vec>
  pl.system.fence
  return
}

// Parameters a call passes one tensor to are one buffer: the store through
// %out and the load through %a touch the same memory when @main passes %x
// to both, so the load waits for the store (MTE3 -> MTE2). Called with two
// tensors, the same kernel needs no such pair.
// CHECK-LABEL: func.func @aliased
// CHECK: pl.tile.store
// CHECK-NEXT: pl.system.sync_src set mte3 wait mte2
// CHECK-NEXT: pl.system.sync_dst set mte3 wait mte2
// CHECK-NEXT: pl.tile.load
// CHECK-LABEL: func.func @distinct
// CHECK: pl.tile.store
// CHECK-NOT: set mte3 wait mte2
// CHECK: pl.tile.add
func.func @aliased(%a: !T, %out: !T {pl.direction = #pl.direction<inout>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t1 = pl.tile.load %a[%c0, %c0] : !T -> !V
  %o1 = pl.tile.store %t1, %out[%c0, %c0] : !V, !T
  %t2 = pl.tile.load %a[%c0, %c0] : !T -> !V
  %s = pl.tile.add %t1, %t2 : !V, !V -> !V
  %o2 = pl.tile.store %s, %o1[%c0, %c0] : !V, !T
  return %o2 : !T
}
func.func @distinct(%a: !T, %out: !T {pl.direction = #pl.direction<inout>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t1 = pl.tile.load %a[%c0, %c0] : !T -> !V
  %o1 = pl.tile.store %t1, %out[%c0, %c0] : !V, !T
  %t2 = pl.tile.load %a[%c0, %c0] : !T -> !V
  %s = pl.tile.add %t1, %t2 : !V, !V -> !V
  %o2 = pl.tile.store %s, %o1[%c0, %c0] : !V, !T
  return %o2 : !T
}
func.func @callers(%x: !T, %y: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %v = pl.tensor.view %x : !T -> !T
  %r = pl.call @aliased(%v, %x) : (!T, !T) -> !T
  %q = pl.call @distinct(%y, %r) : (!T, !T) -> !T
  return %q : !T
}
