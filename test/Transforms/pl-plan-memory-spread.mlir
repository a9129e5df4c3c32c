// pl-plan-memory{spread=true}: every tile its own memory while all of them
// fit that way (no tile then waits for another's last reader to take over
// its memory), else the plan shares as with reuse.
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-plan-memory{spread=true}))' | FileCheck %s
// The pipeline spreads.
// RUN: pto-opt %s --pto-a2a3-pipeline | FileCheck %s --check-prefix=PIPELINE

!V = !pl.tile<16x64xf32, vec>
!T = !pl.tensor<16x64xf32>
!W = !pl.tile<128x128xf32, vec>
!U = !pl.tensor<128x128xf32>

// Four 4 KiB tiles fit: each has its own, none written over in place.
// CHECK-LABEL: func.func @fits
// CHECK-SAME: pl.memory = {vec = 16384 : i64}
// CHECK: pl.tile.load {{.*}} {pl.addresses = array<i64: 0>}
// CHECK-NEXT: pl.tile.exp {{.*}} {pl.addresses = array<i64: 4096>}
// CHECK-NEXT: pl.tile.add {{.*}} {pl.addresses = array<i64: 8192>}
// CHECK-NEXT: pl.tile.recip {{.*}} {pl.addresses = array<i64: 12288>}
// PIPELINE-LABEL: func.func @fits
// PIPELINE-SAME: pl.memory = {vec = 16384 : i64}
func.func @fits(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !T -> !V
  %b = pl.tile.exp %a : !V
  %c = pl.tile.add %b, %a : !V, !V -> !V
  %d = pl.tile.recip %c : !V
  %r = pl.tile.store %d, %out[%c0, %c0] : !V, !T
  return %r : !T
}

// Four 64 KiB tiles do not fit the 184 KiB of a2a3's UB each on its own:
// the tiles whose lifetimes do not overlap share (two at a time live).
// CHECK-LABEL: func.func @shares_when_needed
// CHECK-SAME: pl.memory = {vec = 131072 : i64}
// CHECK: %[[A:.*]] = pl.tile.load {{.*}} {pl.addresses = array<i64: 0>}
// CHECK-NEXT: %[[B:.*]] = pl.tile.exp %[[A]] {pl.addresses = array<i64: 65536>}
// CHECK-NEXT: %[[C:.*]] = pl.tile.add %[[B]], %[[A]] {pl.addresses = array<i64: 0>}
// CHECK-NEXT: pl.tile.recip %[[C]] {pl.addresses = array<i64: 65536>}
func.func @shares_when_needed(%x: !U, %out: !U {pl.direction = #pl.direction<out>}) -> !U attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !U -> !W
  %b = pl.tile.exp %a : !W
  %c = pl.tile.add %b, %a : !W, !W -> !W
  %d = pl.tile.recip %c : !W
  %r = pl.tile.store %d, %out[%c0, %c0] : !W, !U
  return %r : !U
}

// Each memory space takes the first plan that fits it: three 32 KiB left
// blocks do not fit L0A's 64 KiB each on its own and share, while the
// products keep an accumulator each (L0C has room).
// CHECK-LABEL: func.func @per_space
// CHECK-SAME: acc = 24576 : i64
// CHECK-SAME: left = 32768 : i64
// CHECK: pl.tile.extract {{.*}} {pl.addresses = array<i64: 0>} {{.*}} -> !pl.tile<128x128xf16, left>
// CHECK-NEXT: pl.tile.matmul {{.*}} {pl.addresses = array<i64: 0>}
// CHECK: pl.tile.extract {{.*}} {pl.addresses = array<i64: 0>} {{.*}} -> !pl.tile<128x128xf16, left>
// CHECK-NEXT: pl.tile.matmul {{.*}} {pl.addresses = array<i64: 8192>}
// CHECK: pl.tile.extract {{.*}} {pl.addresses = array<i64: 0>} {{.*}} -> !pl.tile<128x128xf16, left>
// CHECK-NEXT: pl.tile.matmul {{.*}} {pl.addresses = array<i64: 16384>}
func.func @per_space(%x: !pl.tensor<128x384xf16>, %y: !pl.tensor<128x16xf16>, %out: !pl.tensor<128x48xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<128x48xf32> attributes {pl.kind = #pl.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<128x384xf16> -> !pl.tile<128x384xf16, mat>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<128x16xf16> -> !pl.tile<128x16xf16, mat>
  %r = pl.tile.extract %b[%c0, %c0] : !pl.tile<128x16xf16, mat> -> !pl.tile<128x16xf16, right>
  %l0 = pl.tile.extract %a[%c0, %c0] : !pl.tile<128x384xf16, mat> -> !pl.tile<128x128xf16, left>
  %p0 = pl.tile.matmul %l0, %r : !pl.tile<128x128xf16, left>, !pl.tile<128x16xf16, right> -> !pl.tile<128x16xf32, acc>
  %s0 = pl.tile.store %p0, %out[%c0, %c0] : !pl.tile<128x16xf32, acc>, !pl.tensor<128x48xf32>
  %l1 = pl.tile.extract %a[%c0, %c128] : !pl.tile<128x384xf16, mat> -> !pl.tile<128x128xf16, left>
  %p1 = pl.tile.matmul %l1, %r : !pl.tile<128x128xf16, left>, !pl.tile<128x16xf16, right> -> !pl.tile<128x16xf32, acc>
  %s1 = pl.tile.store %p1, %s0[%c0, %c16] : !pl.tile<128x16xf32, acc>, !pl.tensor<128x48xf32>
  %l2 = pl.tile.extract %a[%c0, %c256] : !pl.tile<128x384xf16, mat> -> !pl.tile<128x128xf16, left>
  %p2 = pl.tile.matmul %l2, %r : !pl.tile<128x128xf16, left>, !pl.tile<128x16xf16, right> -> !pl.tile<128x16xf32, acc>
  %s2 = pl.tile.store %p2, %s1[%c0, %c32] : !pl.tile<128x16xf32, acc>, !pl.tensor<128x48xf32>
  return %s2 : !pl.tensor<128x48xf32>
}
