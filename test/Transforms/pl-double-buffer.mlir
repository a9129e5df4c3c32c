// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-double-buffer))' | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-double-buffer{factor=3}))' | FileCheck %s --check-prefix=THREE
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-double-buffer, pl-plan-memory))' | FileCheck %s --check-prefix=PLAN
// Synchronised, the result passes the independent checker.
// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-double-buffer, pl-plan-memory), pl-insert-sync, pl-verify-sync)' -o /dev/null
// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-double-buffer{min-overlap=0}))' | FileCheck %s --check-prefix=ANY
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-double-buffer))' | FileCheck %s

!V = !pl.tile<16x64xf32, vec>
!T = !pl.tensor<64x64xf32>
!W = !pl.tile<128x128xf32, vec>
!WT = !pl.tensor<512x128xf32>

// Four iterations: two of two copies, each copy's ops marked; the second
// copy's index is the first's plus the step (computed unmarked). Planned, the copies get
// different buffers, and the marks are gone.
// CHECK-LABEL: func.func @even
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[C32]]
// CHECK-NEXT: pl.tile.load %{{.*}}[%[[I]], %{{.*}}] {pl.buffer_set = 0 : i64}
// CHECK-NEXT: pl.tile.exp {{.*}} {pl.buffer_set = 0 : i64}
// CHECK-NEXT: pl.tile.store {{.*}} {pl.buffer_set = 0 : i64}
// CHECK: %[[J:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT: pl.tile.load %{{.*}}[%[[J]], %{{.*}}] {pl.buffer_set = 1 : i64}
// CHECK-NEXT: pl.tile.exp {{.*}} {pl.buffer_set = 1 : i64}
// CHECK-NEXT: pl.tile.store {{.*}} {pl.buffer_set = 1 : i64}
// CHECK-NEXT: scf.yield
// CHECK-NOT: scf.for
// CHECK: return
// With factor=3, four iterations are one of three copies and one left.
// THREE-LABEL: func.func @even
// THREE: scf.for
// THREE: pl.tile.load {{.*}} {pl.buffer_set = 0 : i64}
// THREE: pl.tile.load {{.*}} {pl.buffer_set = 1 : i64}
// THREE: pl.tile.load {{.*}} {pl.buffer_set = 2 : i64}
// THREE: scf.yield
// THREE: pl.tile.load
// THREE-NOT: pl.buffer_set
// THREE: return
// PLAN-LABEL: func.func @even
// PLAN-SAME: pl.memory = {vec = 8192 : i64}
// PLAN: pl.tile.load {{.*}} {pl.addresses = array<i64: 0>}
// PLAN-NEXT: pl.tile.exp {{.*}} {pl.addresses = array<i64: 0>}
// PLAN: pl.tile.load {{.*}} {pl.addresses = array<i64: 4096>}
// PLAN-NEXT: pl.tile.exp {{.*}} {pl.addresses = array<i64: 4096>}
// PLAN-NOT: pl.buffer_set
// PLAN: return
func.func @even(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%o = %out) -> (!T) {
    %a = pl.tile.load %x[%i, %c0] : !T -> !V
    %e = pl.tile.exp %a : !V
    %s = pl.tile.store %e, %o[%i, %c0] : !V, !T
    scf.yield %s : !T
  }
  return %r : !T
}

// Three iterations: the unrolled loop runs once (so it is inlined), and the
// iteration left over is unmarked.
// CHECK-LABEL: func.func @odd
// CHECK-NOT: scf.for
// CHECK: pl.tile.load {{.*}} {pl.buffer_set = 0 : i64}
// CHECK: pl.tile.load {{.*}} {pl.buffer_set = 1 : i64}
// CHECK: pl.tile.load
// CHECK-NOT: pl.buffer_set
// CHECK: return
func.func @odd(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %r = scf.for %i = %c0 to %c48 step %c16 iter_args(%o = %out) -> (!T) {
    %a = pl.tile.load %x[%i, %c0] : !T -> !V
    %e = pl.tile.exp %a : !V
    %s = pl.tile.store %e, %o[%i, %c0] : !V, !T
    scf.yield %s : !T
  }
  return %r : !T
}

// A trip count not known here: the upper bound is first raised to the
// lower one when below it (the trip count the unrolling computes divides
// without sign), then a loop of two copies runs up to the last even
// iteration and a loop of the original body does the rest.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: %[[N:[^:]*]]: index
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[BELOW:.*]] = arith.cmpi slt, %[[N]], %[[C0]] : index
// CHECK-NEXT: %[[UB:.*]] = arith.select %[[BELOW]], %[[C0]], %[[N]] : index
// CHECK: %[[MAIN:.*]] = arith.addi %[[C0]], %{{.*}} : index
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %[[C0]] to %[[MAIN]] step
// CHECK: pl.buffer_set = 1
// CHECK: scf.for %{{.*}} = %[[MAIN]] to %[[UB]] step %{{.*}} iter_args(%{{.*}} = %[[R]])
// CHECK-NOT: pl.buffer_set
// CHECK: return
func.func @dynamic(%x: !T, %out: !T {pl.direction = #pl.direction<out>}, %n: index) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %n step %c16 iter_args(%o = %out) -> (!T) {
    %a = pl.tile.load %x[%i, %c0] : !T -> !V
    %e = pl.tile.exp %a : !V
    %s = pl.tile.store %e, %o[%i, %c0] : !V, !T
    scf.yield %s : !T
  }
  return %r : !T
}

// Loops left alone: one iteration; an outer loop (its inner loop is
// unrolled instead: its two iterations become one of two copies, inlined);
// a loop whose work is all on one pipe; a loop with synchronisation of its
// own; a function that is no kernel.
// CHECK-LABEL: func.func @left_alone
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for
// CHECK-NOT: pl.buffer_set
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %{{.*}} step %[[C32]]
// CHECK-NOT: scf.for
// CHECK: pl.tile.load {{.*}} {pl.buffer_set = 0 : i64}
// CHECK: pl.tile.load {{.*}} {pl.buffer_set = 1 : i64}
// CHECK: scf.yield
// CHECK-NOT: pl.buffer_set
// CHECK: return
func.func @left_alone(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %once = scf.for %i = %c0 to %c16 step %c16 iter_args(%o = %out) -> (!T) {
    %a = pl.tile.load %x[%i, %c0] : !T -> !V
    %e = pl.tile.exp %a : !V
    %s = pl.tile.store %e, %o[%i, %c0] : !V, !T
    scf.yield %s : !T
  }
  %outer = scf.for %i = %c0 to %c64 step %c32 iter_args(%o = %once) -> (!T) {
    %inner = scf.for %j = %c0 to %c32 step %c16 iter_args(%p = %o) -> (!T) {
      %row = arith.addi %i, %j : index
      %a = pl.tile.load %x[%row, %c0] : !T -> !V
      %e = pl.tile.exp %a : !V
      %s = pl.tile.store %e, %p[%row, %c0] : !V, !T
      scf.yield %s : !T
    }
    scf.yield %inner : !T
  }
  %t = pl.tile.load %x[%c0, %c0] : !T -> !V
  %sum = scf.for %i = %c0 to %c64 step %c16 iter_args(%a = %t) -> (!V) {
    %e = pl.tile.add %a, %t : !V, !V -> !V
    scf.yield %e : !V
  }
  %compute = pl.tile.store %sum, %outer[%c0, %c0] : !V, !T
  %synced = scf.for %i = %c0 to %c64 step %c16 iter_args(%o = %compute) -> (!T) {
    %a = pl.tile.load %x[%i, %c0] : !T -> !V
    pl.system.pipe_barrier all
    %e = pl.tile.exp %a : !V
    %s = pl.tile.store %e, %o[%i, %c0] : !V, !T
    scf.yield %s : !T
  }
  return %synced : !T
}

// A loop that loads nothing: the vector op of one copy writes a tile
// while the store of the other copy reads its own (the V and MTE3 pipes
// overlap as load and compute do).
// CHECK-LABEL: func.func @compute_then_store
// CHECK: scf.for %{{.*}} step %c32
// CHECK: pl.tile.exp {{.*}} {pl.buffer_set = 0 : i64}
// CHECK: pl.tile.store {{.*}} {pl.buffer_set = 0 : i64}
// CHECK: pl.tile.exp {{.*}} {pl.buffer_set = 1 : i64}
// CHECK: pl.tile.store {{.*}} {pl.buffer_set = 1 : i64}
func.func @compute_then_store(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %t = pl.tile.load %x[%c0, %c0] : !T -> !V
  %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%o = %out) -> (!T) {
    %e = pl.tile.exp %t : !V
    %s = pl.tile.store %e, %o[%i, %c0] : !V, !T
    scf.yield %s : !T
  }
  return %r : !T
}

// CHECK-LABEL: func.func @orchestrated
// CHECK-NOT: pl.buffer_set
// CHECK: return
func.func @orchestrated(%x: !T, %out: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%o = %out) -> (!T) {
    %w = pl.tensor.slice %x[%i, %c0] : !T -> !pl.tensor<16x64xf32>
    %u = pl.tensor.assemble %w into %o[%i, %c0] : !pl.tensor<16x64xf32>, !T
    scf.yield %u : !T
  }
  return %r : !T
}

// Two copies of two 64 KiB tiles do not fit the 184 KiB of UB: the plan is
// made as without the marks (the copies share), and they are removed.
// PLAN-LABEL: func.func @too_large
// PLAN-SAME: pl.memory = {vec = 131072 : i64}
// PLAN: pl.tile.load {{.*}} {pl.addresses = array<i64: 0>}
// PLAN-NEXT: pl.tile.load {{.*}} {pl.addresses = array<i64: 65536>}
// PLAN: pl.tile.load {{.*}} {pl.addresses = array<i64: 0>}
// PLAN-NEXT: pl.tile.load {{.*}} {pl.addresses = array<i64: 65536>}
// PLAN-NOT: pl.buffer_set
// PLAN: return
func.func @too_large(%x: !WT, %y: !WT, %out: !WT {pl.direction = #pl.direction<out>}) -> !WT attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %r = scf.for %i = %c0 to %c512 step %c128 iter_args(%o = %out) -> (!WT) {
    %a = pl.tile.load %x[%i, %c0] : !WT -> !W
    %b = pl.tile.load %y[%i, %c0] : !WT -> !W
    %s = pl.tile.add %a, %b : !W, !W -> !W
    %u = pl.tile.store %s, %o[%i, %c0] : !W, !WT
    scf.yield %u : !WT
  }
  return %r : !WT
}

// One 16x64 f32 load (70 cycles on MTE2) and twelve exps of it (63 cycles
// each, 756 on V): overlapping them could save at most 70 of 826 cycles an
// iteration, under the 10% the pass asks by default; with min-overlap=0
// the loop is unrolled.
// CHECK-LABEL: func.func @compute_bound
// CHECK-NOT: pl.buffer_set
// CHECK: return
// ANY-LABEL: func.func @compute_bound
// ANY: pl.tile.load {{.*}} {pl.buffer_set = 0 : i64}
// ANY: pl.tile.load {{.*}} {pl.buffer_set = 1 : i64}
func.func @compute_bound(%x: !T, %out: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%o = %out) -> (!T) {
    %a = pl.tile.load %x[%i, %c0] : !T -> !V
    %e0 = pl.tile.exp %a : !V
    %e1 = pl.tile.exp %e0 : !V
    %e2 = pl.tile.exp %e1 : !V
    %e3 = pl.tile.exp %e2 : !V
    %e4 = pl.tile.exp %e3 : !V
    %e5 = pl.tile.exp %e4 : !V
    %e6 = pl.tile.exp %e5 : !V
    %e7 = pl.tile.exp %e6 : !V
    %e8 = pl.tile.exp %e7 : !V
    %e9 = pl.tile.exp %e8 : !V
    %e10 = pl.tile.exp %e9 : !V
    %e11 = pl.tile.exp %e10 : !V
    %s = pl.tile.store %e11, %o[%i, %c0] : !V, !T
    scf.yield %s : !T
  }
  return %r : !T
}
