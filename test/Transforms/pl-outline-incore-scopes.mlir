// RUN: pto-opt --verify-roundtrip %s --pl-outline-incore-scopes | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pl-outline-incore-scopes)' | FileCheck %s

!T = !pl.tensor<16x64xf32>

// The scope becomes @add_kernel (its name), called with the live-ins in
// order of first use.
// CHECK-LABEL: func.func @add(
// CHECK-SAME: %[[A:.*]]: !pl.tensor<16x64xf32>, %[[B:.*]]: !pl.tensor<16x64xf32>)
// CHECK-NEXT: %[[R:.*]] = pl.call @add_kernel(%[[B]], %[[A]]) : (!pl.tensor<16x64xf32>, !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32>
// CHECK-NEXT: return %[[R]]
// CHECK: func.func @add_kernel(%[[X:.*]]: !pl.tensor<16x64xf32>, %[[Y:.*]]: !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>}
// CHECK-NEXT: %[[E:.*]] = pl.tensor.exp %[[X]]
// CHECK-NEXT: %[[S:.*]] = pl.tensor.add %[[E]], %[[Y]]
// CHECK-NEXT: return %[[S]]
func.func @add(%a: !T, %b: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %sum = pl.incore_scope name "add_kernel" -> !T {
    %e = pl.tensor.exp %b : !T
    %s = pl.tensor.add %e, %a : !T, !T -> !T
    pl.yield %s : !T
  }
  return %sum : !T
}

// Unnamed scopes are named after their function and index; names stay
// unique; a tensor the body only stores into is `out`; a function without
// a kind that now calls kernels becomes an orchestration.
// CHECK-LABEL: func.func @two(
// CHECK-SAME: attributes {pl.kind = #pl.kind<orchestration>}
// CHECK: pl.call @two_incore_0(
// CHECK: pl.call @add_kernel_1(
// CHECK-DAG: func.func @two_incore_0(%{{.*}}: !pl.tensor<16x64xf32>, %{{.*}}: index, %{{.*}}: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>}
// CHECK-DAG: func.func @add_kernel_1(
func.func @two(%x: !T, %out: !T) -> !T {
  %c0 = arith.constant 0 : index
  %first = pl.incore_scope -> !T {
    %t = pl.tile.load %x[%c0, %c0] : !T -> !pl.tile<16x64xf32, vec>
    %stored = pl.tile.store %t, %out[%c0, %c0] : !pl.tile<16x64xf32, vec>, !T
    pl.yield %stored : !T
  }
  %second = pl.incore_scope name "add_kernel" -> !T {
    %n = pl.tensor.neg %first : !T
    pl.yield %n : !T
  }
  return %second : !T
}

// A tensor written through a loop's iteration argument is written: `out`
// when only stores reach it, `inout` when the body also reads it.
// CHECK-LABEL: func.func @loop_carried(
// CHECK-DAG: func.func @loop_carried_incore_0(%{{.*}}: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}, %{{.*}}: !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32>
// CHECK-DAG: func.func @loop_carried_incore_1(%{{.*}}: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<inout>}) -> !pl.tensor<16x64xf32>
func.func @loop_carried(%x: !T, %out: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %written = pl.incore_scope -> !T {
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%o = %out) -> (!T) {
      %t = pl.tile.load %x[%c0, %c0] : !T -> !pl.tile<16x64xf32, vec>
      %o2 = pl.tile.store %t, %o[%c0, %c0] : !pl.tile<16x64xf32, vec>, !T
      scf.yield %o2 : !T
    }
    pl.yield %r : !T
  }
  %updated = pl.incore_scope -> !T {
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%o = %written) -> (!T) {
      %t = pl.tile.load %o[%c0, %c0] : !T -> !pl.tile<16x64xf32, vec>
      %o2 = pl.tile.store %t, %o[%c0, %c0] : !pl.tile<16x64xf32, vec>, !T
      scf.yield %o2 : !T
    }
    pl.yield %r : !T
  }
  return %updated : !T
}

// An atomic add reads what it adds into: its target is inout, not out.
// CHECK-LABEL: func.func @accumulates(
// CHECK: func.func @accumulates_incore_0(%{{.*}}: !pl.tensor<16x64xf32>, %{{.*}}: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<inout>}) -> !pl.tensor<16x64xf32>
func.func @accumulates(%x: !T, %acc: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %r = pl.incore_scope -> !T {
    %t = pl.tile.load %x[%c0, %c0] : !T -> !pl.tile<16x64xf32, vec>
    %a = pl.tile.store %t, %acc[%c0, %c0] atomic_add : !pl.tile<16x64xf32, vec>, !T
    pl.yield %a : !T
  }
  return %r : !T
}

// An SPMD scope becomes a kernel launched on its blocks, keeping
// sync_start: a submit (its task id unused) in place of a call.
// CHECK-LABEL: func.func @spmd(
// CHECK-SAME: %[[X:[^:]*]]: !pl.tensor<16x64xf32>, %[[N:[^:]*]]: index)
// CHECK: %[[O:.*]] = pl.tensor.create() : !pl.tensor<16x64xf32>
// CHECK-NEXT: %[[R:.*]], %{{.*}} = pl.submit @spmd_spmd_0(%[[X]], %[[O]]) blocks %[[N]] sync_start : (!pl.tensor<16x64xf32>, !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func.func @spmd_spmd_0(
// CHECK-SAME: %{{[^:]*}}: !pl.tensor<16x64xf32>, %{{[^:]*}}: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>}
// CHECK: pl.tensor.get_block_idx
func.func @spmd(%x: !T, %n: index) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.tensor.create() : !T
  %r = pl.spmd_scope blocks %n sync_start -> !T {
    %c0 = arith.constant 0 : index
    %b = pl.tensor.get_block_idx
    %row = pl.tensor.slice %x[%b, %c0] : !T -> !pl.tensor<1x64xf32>
    %e = pl.tensor.exp %row : !pl.tensor<1x64xf32>
    %s = pl.tensor.assemble %e into %o[%b, %c0] : !pl.tensor<1x64xf32>, !T
    pl.yield %s : !T
  }
  return %r : !T
}

// A scope whose vector work the two vector cores share (PyPTO's pl.split):
// the kernel carries it as pl.split for pl-lower-auto-vector-split.
// CHECK-LABEL: func.func @shared(
// CHECK: pl.call @shared_kernel(
// CHECK: func.func @shared_kernel({{.*}} attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>}
func.func @shared(%a: !T, %w: !pl.tensor<64x64xf32>) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.incore_scope name "shared_kernel" split up_down -> !T {
    %p = pl.tensor.matmul %a, %w : !T, !pl.tensor<64x64xf32> -> !T
    %e = pl.tensor.exp %p : !T
    pl.yield %e : !T
  }
  return %r : !T
}
