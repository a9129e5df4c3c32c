// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-plan-memory))' | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-plan-memory{reuse=false}))' | FileCheck %s --check-prefix=NOREUSE
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-plan-memory))' | FileCheck %s

!V = !pl.tile<16x64xf32, vec>
!T = !pl.tensor<16x64xf32>

// Elementwise ops write over an operand that dies at them (exp keeps %a
// alive for the add, so it goes elsewhere); recip is not in-place safe.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: pl.memory = {vec = 8192 : i64}
// CHECK: %[[A:.*]] = pl.tile.load {{.*}} {pl.addresses = array<i64: 0>}
// CHECK-NEXT: %[[B:.*]] = pl.tile.exp %[[A]] {pl.addresses = array<i64: 4096>}
// CHECK-NEXT: %[[C:.*]] = pl.tile.add %[[B]], %[[A]] {pl.addresses = array<i64: 0>}
// CHECK-NEXT: pl.tile.recip %[[C]] {pl.addresses = array<i64: 4096>}
// Without reuse, every tile has its own 4 KiB.
// NOREUSE-LABEL: func.func @chain
// NOREUSE-SAME: pl.memory = {vec = 16384 : i64}
// NOREUSE: pl.tile.load {{.*}} {pl.addresses = array<i64: 0>}
// NOREUSE-NEXT: pl.tile.exp {{.*}} {pl.addresses = array<i64: 4096>}
// NOREUSE-NEXT: pl.tile.add {{.*}} {pl.addresses = array<i64: 8192>}
// NOREUSE-NEXT: pl.tile.recip {{.*}} {pl.addresses = array<i64: 12288>}
func.func @chain(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !T -> !V
  %b = pl.tile.exp %a : !V
  %c = pl.tile.add %b, %a : !V, !V -> !V
  %d = pl.tile.recip %c : !V
  %r = pl.tile.store %d, %out[%c0, %c0] : !V, !T
  return %r : !T
}

// A loop-carried accumulator is updated in place: init, iteration argument,
// the yielded sum and the loop's result are one buffer; the loaded tile,
// live only inside an iteration, has its own.
// CHECK-LABEL: func.func @carried
// CHECK: pl.tile.full {{.*}} {pl.addresses = array<i64: 0>}
// CHECK: scf.for
// CHECK-NEXT: pl.tile.load {{.*}} {pl.addresses = array<i64: 4096>}
// CHECK-NEXT: pl.tile.add {{.*}} {pl.addresses = array<i64: 0>}
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {pl.addresses = array<i64: 0>}
// CHECK-NOT: pl.tile.move
func.func @carried(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %init = pl.tile.full %zero : f32 -> !V
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (!V) {
    %t = pl.tile.load %x[%c0, %c0] : !T -> !V
    %next = pl.tile.add %acc, %t : !V, !V -> !V
    scf.yield %next : !V
  }
  %r = pl.tile.store %sum, %out[%c0, %c0] : !V, !T
  return %r : !T
}

// Copies where sharing would clobber: the init is still read after the
// loop (copied before it), and the yielded value cannot be computed in the
// carried buffer because the iteration argument is read after it (copied
// before the yield).
// CHECK-LABEL: func.func @copies
// CHECK: %[[INIT:.*]] = pl.tile.load {{.*}} {pl.addresses = array<i64: 0>}
// CHECK-NEXT: %[[COPY:.*]] = pl.tile.move %[[INIT]] {pl.addresses = array<i64: 4096>}
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[COPY]])
// CHECK: %[[AGAIN:.*]] = pl.tile.add %[[ACC]]
// CHECK: pl.tile.mul %[[ACC]], %[[AGAIN]]
// CHECK-NEXT: %[[YIELDED:.*]] = pl.tile.move %[[AGAIN]] {pl.addresses = array<i64: 4096>}
// CHECK-NEXT: scf.yield %[[YIELDED]]
// CHECK-NEXT: } {pl.addresses = array<i64: 4096>}
// CHECK-NEXT: pl.tile.add %{{.*}}, %[[INIT]] {pl.addresses = array<i64: 0>}
func.func @copies(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %init = pl.tile.load %x[%c0, %c0] : !T -> !V
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (!V) {
    %next = pl.tile.exp %acc : !V
    %again = pl.tile.add %acc, %next : !V, !V -> !V
    %keep = pl.tile.mul %acc, %again : !V, !V -> !V
    scf.yield %again : !V
  }
  %both = pl.tile.add %sum, %init : !V, !V -> !V
  %r = pl.tile.store %both, %out[%c0, %c0] : !V, !T
  return %r : !T
}

// A branch's yielded tiles and its result share a buffer.
// CHECK-LABEL: func.func @branch
// CHECK: scf.if
// CHECK-NEXT: pl.tile.exp {{.*}} {pl.addresses = array<i64: [[R:[0-9]+]]>}
// CHECK: } else {
// CHECK-NEXT: pl.tile.neg {{.*}} {pl.addresses = array<i64: [[R]]>}
// CHECK: } {pl.addresses = array<i64: [[R]]>}
func.func @branch(%x: !T, %out: !T {pl.direction = #pl.direction<out>}, %flag: i1) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !T -> !V
  %b = scf.if %flag -> (!V) {
    %e = pl.tile.exp %a : !V
    scf.yield %e : !V
  } else {
    %n = pl.tile.neg %a : !V
    scf.yield %n : !V
  }
  %r = pl.tile.store %b, %out[%c0, %c0] : !V, !T
  return %r : !T
}

// Spaces are planned independently, each from address 0; the two L1 tiles
// sit side by side, each stored in whole fractal boxes: the 20x16 f16 tile
// as 32x16 (16-row by 32-byte boxes, 1024 B), the 16x8 one as 16x16
// (512 B); the left and right copies likewise; the f32 accumulator's
// 20x8 as 32x16 (16 by 16 boxes): 32 x 16 x 4 B.
// CHECK-LABEL: func.func @cube
// CHECK-SAME: pl.memory = {acc = 2048 : i64, left = 1024 : i64, mat = 1536 : i64, right = 512 : i64}
// CHECK: pl.tile.load {{.*}} {pl.addresses = array<i64: 0>} {{.*}} -> !pl.tile<20x16xf16, mat>
// CHECK-NEXT: pl.tile.load {{.*}} {pl.addresses = array<i64: 1024>} {{.*}} -> !pl.tile<16x8xf16, mat>
// CHECK-NEXT: pl.tile.move {{.*}} {pl.addresses = array<i64: 0>} {{.*}} -> !pl.tile<20x16xf16, left>
// CHECK-NEXT: pl.tile.move {{.*}} {pl.addresses = array<i64: 0>} {{.*}} -> !pl.tile<16x8xf16, right>
// CHECK-NEXT: pl.tile.matmul {{.*}} {pl.addresses = array<i64: 0>}
func.func @cube(%a: !pl.tensor<20x16xf16>, %b: !pl.tensor<16x8xf16>, %c: !pl.tensor<20x8xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<20x8xf32> attributes {pl.kind = #pl.kind<aic>} {
  %c0 = arith.constant 0 : index
  %am = pl.tile.load %a[%c0, %c0] : !pl.tensor<20x16xf16> -> !pl.tile<20x16xf16, mat>
  %bm = pl.tile.load %b[%c0, %c0] : !pl.tensor<16x8xf16> -> !pl.tile<16x8xf16, mat>
  %al = pl.tile.move %am : !pl.tile<20x16xf16, mat> -> !pl.tile<20x16xf16, left>
  %br = pl.tile.move %bm : !pl.tile<16x8xf16, mat> -> !pl.tile<16x8xf16, right>
  %p = pl.tile.matmul %al, %br : !pl.tile<20x16xf16, left>, !pl.tile<16x8xf16, right> -> !pl.tile<20x8xf32, acc>
  %r = pl.tile.store %p, %c[%c0, %c0] : !pl.tile<20x8xf32, acc>, !pl.tensor<20x8xf32>
  return %r : !pl.tensor<20x8xf32>
}

// Orchestrations hold no tiles: nothing to plan.
// CHECK-LABEL: func.func @orchestration
// CHECK-NOT: pl.memory
func.func @orchestration(%x: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  return %x : !T
}

// A vector core's ring of pipe slots: held for the whole kernel, placed
// first; every tile its pipe's pops take lives in it, and the reservation
// gets the ring's address. A ring given a base stays there.
// CHECK-LABEL: func.func @ring
// CHECK: pl.system.reserve_buffer "r" size 8192 base 0 : i32
// CHECK: pl.tile.tpop_from_aic none {pl.addresses = array<i64: 0>}
// CHECK: pl.tile.exp %{{.*}} {pl.addresses = array<i64: 8192>}
// CHECK: pl.tile.tpop_from_aic none {pl.addresses = array<i64: 0>}
// CHECK-LABEL: func.func @ring_at
// CHECK: pl.system.reserve_buffer "r" size 4096 base 4096 : i32
// CHECK: pl.tile.load {{.*}} {pl.addresses = array<i64: 0>}
// CHECK: pl.tile.tpop_from_aiv none {pl.addresses = array<i64: 4096>}
func.func @ring(%o: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "r" size 8192 : i32
  pl.system.aiv_initialize_pipe c2v c2v %r slot_size 4096 slots 2
  %c0 = arith.constant 0 : index
  %a = pl.tile.tpop_from_aic none : !V
  %e = pl.tile.exp %a : !V
  pl.system.tfree_to_aic %a : !V
  %b = pl.tile.tpop_from_aic none : !V
  %s = pl.tile.add %e, %b : !V, !V -> !V
  pl.system.tfree_to_aic %b : !V
  %o2 = pl.tile.store %s, %o[%c0, %c0] : !V, !pl.tensor<16x64xf32>
  return %o2 : !pl.tensor<16x64xf32>
}
func.func @ring_at(%x: !pl.tensor<16x32xf16>) attributes {pl.kind = #pl.kind<aic>} {
  %r = pl.system.reserve_buffer "r" size 4096 base 4096 : i32
  %p = pl.system.import_peer_buffer "r" from @ring : i32
  pl.system.aic_initialize_pipe both c2v %p v2c %r slot_size 2048 slots 2
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16, mat>
  %m = pl.tile.tpop_from_aiv none : !pl.tile<16x32xf16, mat>
  pl.system.tfree_to_aiv %m : !pl.tile<16x32xf16, mat>
  return
}
