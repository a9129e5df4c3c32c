// Function kinds, directions, kernel dispatch and InCore scopes round-trip
// (custom and generic form), in pto-opt and in stock mlir-opt.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s

!T = !pl.tensor<64x64xf32>

// CHECK-LABEL: func.func @add_kernel
// CHECK-SAME: %{{.*}}: !pl.tensor<64x64xf32> {pl.direction = #pl.direction<out>}
// CHECK-SAME: attributes {pl.kind = #pl.kind<incore>}
func.func @add_kernel(%a: !T, %b: !T, %o: !T {pl.direction = #pl.direction<out>}) -> !T
    attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %ta = pl.tile.load %a[%c0, %c0] : !T -> !pl.tile<64x64xf32, vec>
  %tb = pl.tile.load %b[%c0, %c0] : !T -> !pl.tile<64x64xf32, vec>
  %s = pl.tile.add %ta, %tb : !pl.tile<64x64xf32, vec>, !pl.tile<64x64xf32, vec> -> !pl.tile<64x64xf32, vec>
  %o2 = pl.tile.store %s, %o[%c0, %c0] : !pl.tile<64x64xf32, vec>, !T
  return %o2 : !T
}

// A kernel whose vector work the two vector cores share by rows.
// CHECK-LABEL: func.func @shared
// CHECK-SAME: attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>}
func.func @shared(%a: !T) attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  return
}

// CHECK-LABEL: func.func @cube
// CHECK-SAME: attributes {pl.kind = #pl.kind<aic>, pl.level = #pl.level<aic>, pl.role = #pl.role<subworker>}
func.func @cube(%a: !T) attributes {pl.kind = #pl.kind<aic>, pl.level = #pl.level<aic>, pl.role = #pl.role<subworker>} {
  return
}

// CHECK-LABEL: func.func @main
// CHECK: pl.call @add_kernel(%{{.*}}, %{{.*}}, %{{.*}}) : (!pl.tensor<64x64xf32>, !pl.tensor<64x64xf32>, !pl.tensor<64x64xf32>) -> !pl.tensor<64x64xf32>
// CHECK: %{{.*}}, %[[T:.*]] = pl.submit @add_kernel(%{{.*}}, %{{.*}}, %{{.*}}) : (
// CHECK: pl.submit @add_kernel(%{{.*}}, %{{.*}}, %{{.*}}) deps(%[[T]]) blocks %{{.*}} sync_start : (
// CHECK: pl.incore_scope name "fused" split up_down -> !pl.tensor<64x64xf32> {
// CHECK: pl.yield %{{.*}} : !pl.tensor<64x64xf32>
func.func @main(%a: !T, %b: !T, %o: !T {pl.direction = #pl.direction<inout>}, %n: index) -> !T
    attributes {pl.kind = #pl.kind<orchestration>} {
  %0 = pl.call @add_kernel(%a, %b, %o) : (!T, !T, !T) -> !T
  %1, %t = pl.submit @add_kernel(%a, %b, %0) : (!T, !T, !T) -> !T
  %2, %t2 = pl.submit @add_kernel(%a, %b, %1) deps(%t) blocks %n sync_start : (!T, !T, !T) -> !T
  %3 = pl.incore_scope name "fused" split up_down -> !T {
    %c0 = arith.constant 0 : index
    %ta = pl.tile.load %2[%c0, %c0] : !T -> !pl.tile<64x64xf32, vec>
    %e = pl.tile.exp %ta : !pl.tile<64x64xf32, vec>
    %w = pl.tile.store %e, %2[%c0, %c0] : !pl.tile<64x64xf32, vec>, !T
    pl.yield %w : !T
  }
  return %3 : !T
}

// CHECK-LABEL: func.func @scopes
// CHECK: pl.runtime_scope manual {
// CHECK: pl.cluster_scope {
// CHECK: pl.spmd_scope blocks %{{.*}} sync_start -> index {
// CHECK: pl.yield %{{.*}} : index
func.func @scopes(%n: index) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.runtime_scope manual {
    pl.cluster_scope {
      pl.yield
    }
    %i = pl.spmd_scope blocks %n sync_start -> index {
      %b = pl.tile.get_block_idx
      pl.yield %b : index
    }
    pl.yield
  }
  return
}

// The host orchestrator of a distributed program.
// CHECK-LABEL: func.func @host
// CHECK-SAME: attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>}
func.func @host() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  return
}
