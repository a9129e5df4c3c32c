// RUN: pto-opt %s --sccp | FileCheck %s --check-prefix=SCCP
// RUN: mlir-opt --load-dialect-plugin=%plugin %s --sccp | FileCheck %s --check-prefix=SCCP
// RUN: pto-opt %s --inline | FileCheck %s --check-prefix=INLINE
// RUN: pto-opt %s --remove-dead-values | FileCheck %s --check-prefix=DEAD

// pl.call and pld.dispatch are calls (CallOpInterface): sccp sees every
// call of the private kernel @k pass 0 for %n and propagates it into the
// kernel. pl.submit is no call (its results are the callee's and a task
// id): @k2, which it submits, keeps its argument. Task calls are never
// inlined. Scopes are region branches (RegionBranchOpInterface): the
// constant a scope yields is its result. remove-dead-values drops the
// unused result of @k and of its call (the store into %o stays), and
// leaves @k2 alone.

// SCCP-LABEL: func.func private @k(
// SCCP: %[[C0:.*]] = arith.constant 0 : index
// SCCP: pl.tile.load %{{.*}}[%[[C0]]]
// SCCP: pl.tile.store %{{.*}}, %{{.*}}[%[[C0]]]
// DEAD-LABEL: func.func private @k(
// DEAD-SAME: {pl.direction = #pl.direction<out>}) attributes
// DEAD: pl.tile.store
// DEAD: return{{$}}
func.func private @k(%x: !pl.tensor<64xf32>, %n: index, %o: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %t = pl.tile.load %x[%n] : !pl.tensor<64xf32> -> !pl.tile<64xf32, vec>
  %r = pl.tile.store %t, %o[%n] : !pl.tile<64xf32, vec>, !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}

// SCCP-LABEL: func.func private @k2(
// SCCP-SAME: %[[X:[^:]*]]: !pl.tensor<64xf32>, %[[N:[^:]*]]: index
// SCCP: pl.tile.load %[[X]][%[[N]]]
// DEAD-LABEL: func.func private @k2(
// DEAD: return %{{.*}} : !pl.tensor<64xf32>
func.func private @k2(%x: !pl.tensor<64xf32>, %n: index, %o: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %t = pl.tile.load %x[%n] : !pl.tensor<64xf32> -> !pl.tile<64xf32, vec>
  %r = pl.tile.store %t, %o[%n] : !pl.tile<64xf32, vec>, !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}

// SCCP-LABEL: func.func @main(
// SCCP: %[[C4:.*]] = arith.constant 4 : index
// SCCP: pl.call @k(
// SCCP: %[[S:.*]], %{{.*}} = pl.submit @k2(
// SCCP: return %[[S]], %[[C4]]
// INLINE-LABEL: func.func @main(
// INLINE: pl.call @k(
// INLINE: pl.submit @k2(
// DEAD-LABEL: func.func @main(
// DEAD: pl.call @k({{.*}}) -> (){{$}}
// DEAD: %{{.*}}, %{{.*}} = pl.submit @k2(
func.func @main(%x: !pl.tensor<64xf32>) -> (!pl.tensor<64xf32>, index) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %o = pl.tensor.create() : !pl.tensor<64xf32>
  %r = pl.call @k(%x, %c0, %o) : (!pl.tensor<64xf32>, index, !pl.tensor<64xf32>) -> !pl.tensor<64xf32>
  %s, %task = pl.submit @k2(%x, %c0, %o) : (!pl.tensor<64xf32>, index, !pl.tensor<64xf32>) -> !pl.tensor<64xf32>
  %n = pl.runtime_scope -> index {
    %c4 = arith.constant 4 : index
    pl.yield %c4 : index
  }
  return %s, %n : !pl.tensor<64xf32>, index
}
