// ub.poison (which upstream passes such as remove-dead-values put where a
// result is never used) passes through pto-run as it is: yielded out of a
// scope nobody reads, it is fine; read by an op, it is an error there.
// RUN: rm -rf %t.out && pto-run %s --entry yielded --random-inputs -o %t.out
// RUN: ls %t.out | FileCheck %s --check-prefix=YIELDED
// RUN: not pto-run %s --entry read --random-inputs 2>&1 | FileCheck %s --check-prefix=READ

// YIELDED: x.npy
func.func @yielded(%x: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %unused = pl.runtime_scope -> !pl.tensor<8xf32> {
    %p = ub.poison : !pl.tensor<8xf32>
    pl.yield %p : !pl.tensor<8xf32>
  }
  return
}

// READ: poison.mlir:[[# @LINE + 4]]:8: error: expected a tensor, got a poison value (ub.poison)
func.func @read(%x: !pl.tensor<8xf32>) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<opaque>} {
  %p = ub.poison : !pl.tensor<8xf32>
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %p[%c0] : !pl.tensor<8xf32> -> !pl.tile<8xf32, vec>
  %r = pl.tile.store %t, %x[%c0] : !pl.tile<8xf32, vec>, !pl.tensor<8xf32>
  return %r : !pl.tensor<8xf32>
}
