// Loop-carried pairs on buffers planned by hand (pl.addresses), so each
// case shows one rule of pl-insert-sync's loops.
// RUN: pto-opt --verify-roundtrip %s --pl-insert-sync | FileCheck %s
// Whatever the inserter placed, the independent checker accepts it.
// RUN: pto-opt %s --pass-pipeline='builtin.module(pl-insert-sync, pl-verify-sync)' -o /dev/null

!V = !pl.tile<16x64xf32, vec>
!T = !pl.tensor<64x64xf32>

// The loop's load writes vec[0] (B), which the previous iteration's exp
// (V) and second store (MTE3) read, and which a vector op before the loop
// wrote. The store's pair covers the exp through MTE3's own wait for V
// in a later iteration, but in the first one its wait takes the set
// made before the loop, when MTE3 knew nothing of V: so V gets a
// loop-carried pair of its own, which also orders the write before the
// loop.
// CHECK-LABEL: func.func @entry_knowledge
// CHECK: pl.tile.exp {{.*}}array<i64: 0>
// CHECK: pl.system.sync_src set mte3 wait mte2 event 0
// CHECK-NEXT: pl.system.sync_src set v wait mte2 event 0
// CHECK-NEXT: scf.for
// CHECK-NEXT: pl.system.sync_dst set mte3 wait mte2 event 0
// CHECK-NEXT: pl.system.sync_dst set v wait mte2 event 0
// CHECK-NEXT: pl.tile.load
// CHECK: pl.tile.exp
// CHECK: pl.system.sync_src set v wait mte2 event 0
// CHECK: pl.tile.store
// CHECK: pl.tile.store
// CHECK-NEXT: pl.system.sync_src set mte3 wait mte2 event 0
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-DAG: pl.system.sync_dst set v wait mte2 event 0
// CHECK-DAG: pl.system.sync_dst set mte3 wait mte2 event 0
// CHECK: pl.system.pipe_barrier all
func.func @entry_knowledge(%x: !T, %out: !T {pl.direction = #pl.direction<out>}, %out2: !T {pl.direction = #pl.direction<out>}) -> (!T, !T) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %s = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 8192>} : !T -> !V
  %dead = pl.tile.exp %s {pl.addresses = array<i64: 0>} : !V
  %r:2 = scf.for %i = %c0 to %c64 step %c16 iter_args(%o = %out, %o2 = %out2) -> (!T, !T) {
    %a = pl.tile.load %x[%i, %c0] {pl.addresses = array<i64: 0>} : !T -> !V
    %e = pl.tile.exp %a {pl.addresses = array<i64: 4096>} : !V
    %o1 = pl.tile.store %e, %o[%i, %c0] : !V, !T
    %o3 = pl.tile.store %a, %o2[%i, %c0] : !V, !T
    scf.yield %o1, %o3 : !T, !T
  }
  return %r#0, %r#1 : !T, !T
}
