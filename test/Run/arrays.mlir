// pto-run's arrays: made zeroed (task ids invalid), read and updated as
// values (an update leaves the array it was given alone); an index
// outside the array when the program runs is an error at the op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pto-run %s -o %t
// RUN: /usr/bin/python3 -c "import numpy as np; y = np.load('%t/result0.npy'); assert y.tolist() == [[0, 7, 0, 9, 0, 1, 0, 0]], y; print('arrays')" | FileCheck %s
// CHECK: arrays
// RUN: not pto-run %s --entry outside 2>&1 | FileCheck %s --check-prefix=OUTSIDE

!V = !pl.tensor<1x8xi32>
func.func @main() -> !V attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.tensor.create() : !V
  %r = pl.call @fill(%o) : (!V) -> !V
  return %r : !V
}

func.func @fill(%out: !V {pl.direction = #pl.direction<inout>}) -> !V attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %seven = arith.constant 7 : i32
  %nine = arith.constant 9 : index
  %a = pl.array.create : !pl.array<i32, 4>
  %a1 = pl.array.update_element %a[%c1], %seven : !pl.array<i32, 4>, i32
  // An index array: element 3 is 9.
  %b = pl.array.create : !pl.array<index, 4>
  %b1 = pl.array.update_element %b[%c3], %nine : !pl.array<index, 4>, index
  %w = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %out) -> (!V) {
    %v = pl.array.get_element %a1[%k] : !pl.array<i32, 4> -> i32
    %t1 = pl.tensor.write %t[%c0, %k], %v : !V, i32
    scf.yield %t1 : !V
  }
  %n = pl.array.get_element %b1[%c3] : !pl.array<index, 4> -> index
  %ni = arith.index_cast %n : index to i32
  %w1 = pl.tensor.write %w[%c0, %c3], %ni : !V, i32
  // The array before its update is still all zeros.
  %z = pl.array.get_element %a[%c1] : !pl.array<i32, 4> -> i32
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %one = arith.constant 1 : i32
  %zz = arith.addi %z, %one : i32
  %w2 = pl.tensor.write %w1[%c0, %c5], %zz : !V, i32
  %zero = arith.constant 0 : i32
  %w3 = pl.tensor.write %w2[%c0, %c4], %zero : !V, i32
  %w4 = pl.tensor.write %w3[%c0, %c6], %zero : !V, i32
  %w5 = pl.tensor.write %w4[%c0, %c7], %zero : !V, i32
  return %w5 : !V
}

// OUTSIDE: arrays.mlir:[[@LINE+6]]:8: error: array index 4 is outside the array's 4 elements
func.func @outside() -> i32 attributes {pl.kind = #pl.kind<aiv>} {
  %c2 = arith.constant 2 : index
  %a = pl.array.create : !pl.array<i32, 4>
  // An index computed when the program runs (constants are checked before).
  %i = arith.muli %c2, %c2 : index
  %n = pl.array.get_element %a[%i] : !pl.array<i32, 4> -> i32
  return %n : i32
}
