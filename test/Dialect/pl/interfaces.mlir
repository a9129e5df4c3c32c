// RUN: pto-opt %s --sccp | FileCheck %s --check-prefix=SCCP
// RUN: mlir-opt --load-dialect-plugin=%plugin %s --sccp | FileCheck %s --check-prefix=SCCP
// RUN: pto-opt %s --inline | FileCheck %s --check-prefix=INLINE

// pl.call, pl.submit and pld.dispatch are calls (CallOpInterface): sccp
// sees every call of a private kernel pass 0 for %n and propagates it into
// the kernel. They are tasks, so `inline` leaves them. Scopes are region
// branches (RegionBranchOpInterface): the constant a scope yields is its
// result.

// SCCP-LABEL: func.func private @k(
// SCCP: %[[C0:.*]] = arith.constant 0 : index
// SCCP: pl.tile.load %{{.*}}[%[[C0]]]
// SCCP: pl.tile.store %{{.*}}, %{{.*}}[%[[C0]]]
func.func private @k(%x: !pl.tensor<64xf32>, %n: index, %o: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %t = pl.tile.load %x[%n] : !pl.tensor<64xf32> -> !pl.tile<64xf32, vec>
  %r = pl.tile.store %t, %o[%n] : !pl.tile<64xf32, vec>, !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}

// SCCP-LABEL: func.func @main(
// SCCP: %[[C4:.*]] = arith.constant 4 : index
// SCCP: %[[R:.*]] = pl.call @k(
// SCCP: %[[S:.*]], %{{.*}} = pl.submit @k(
// SCCP: return %[[R]], %[[S]], %[[C4]]
// INLINE-LABEL: func.func @main(
// INLINE: pl.call @k(
// INLINE: pl.submit @k(
func.func @main(%x: !pl.tensor<64xf32>) -> (!pl.tensor<64xf32>, !pl.tensor<64xf32>, index) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %o = pl.tensor.create() : !pl.tensor<64xf32>
  %r = pl.call @k(%x, %c0, %o) : (!pl.tensor<64xf32>, index, !pl.tensor<64xf32>) -> !pl.tensor<64xf32>
  %s, %task = pl.submit @k(%x, %c0, %o) : (!pl.tensor<64xf32>, index, !pl.tensor<64xf32>) -> !pl.tensor<64xf32>
  %n = pl.runtime_scope -> index {
    %c4 = arith.constant 4 : index
    pl.yield %c4 : index
  }
  return %r, %s, %n : !pl.tensor<64xf32>, !pl.tensor<64xf32>, index
}
