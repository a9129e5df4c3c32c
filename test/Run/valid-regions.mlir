// pto-run's valid regions of tensors against numpy: a pad fills outside
// the valid extents a type gives (constants) or pl.tensor.set_validshape
// sets at run time (pl.tensor.fillpad printed the source unchanged here
// once); fillpad_expand places the valid region in a larger tensor; a
// slice sees the part of the valid region it covers; an assemble writes
// only the valid region (the target's other elements kept). A pad of a
// tensor whose valid extent is a `?` nothing gave is an error at the op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(5); np.save('%t/x.npy', r.uniform(-1, 1, (4, 8)).astype(np.float32)); np.save('%t/o.npy', np.full((4, 8), 7, np.float32)); np.save('%t/n5.npy', np.array(5, np.int64)); np.save('%t/n6.npy', np.array(6, np.int64))"
// RUN: pto-run %s --entry typed --input x=%t/x.npy -o %t/typed
// RUN: /usr/bin/python3 -c "import numpy as np; x = np.load('%t/x.npy'); g = np.load('%t/typed/result0.npy'); w = np.zeros((4, 8), np.float32); w[:, :5] = x[:, :5]; assert np.array_equal(g, w), g; print('typed pad ok')" | FileCheck %s --check-prefix=TYPED
// TYPED: typed pad ok
// RUN: pto-run %s --entry runtime --input x=%t/x.npy --input n=%t/n5.npy -o %t/runtime
// RUN: /usr/bin/python3 -c "import numpy as np; x = np.load('%t/x.npy'); g = np.load('%t/runtime/result0.npy'); w = np.full((6, 10), -np.inf, np.float32); w[:2, :3] = x[1:3, 2:5]; assert np.array_equal(g, w), g; print('runtime pad ok')" | FileCheck %s --check-prefix=RUNTIME
// RUNTIME: runtime pad ok
// RUN: pto-run %s --entry store --input x=%t/x.npy --input o=%t/o.npy --input n=%t/n6.npy -o %t/store
// RUN: /usr/bin/python3 -c "import numpy as np; x = np.load('%t/x.npy'); g = np.load('%t/store/o.npy'); w = np.full((4, 8), 7, np.float32); w[:2, :6] = x[:2, :6]; assert np.array_equal(g, w), g; print('store ok')" | FileCheck %s --check-prefix=STORE
// STORE: store ok
// RUN: not pto-run %s --entry unknown --input x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: valid-regions.mlir:[[# @LINE + 31]]:8: error: cannot fill the padding of a tensor whose valid extents [4, ?] are unknown here
// UNKNOWN-NOT: internal error

func.func @typed(%x: !pl.tensor<4x8xf32>) -> !pl.tensor<4x8xf32, pad = zero> {
  %v = pl.tensor.view %x : !pl.tensor<4x8xf32> -> !pl.tensor<4x8xf32, valid = 4x5>
  %f = pl.tensor.fillpad %v zero : !pl.tensor<4x8xf32, valid = 4x5> -> !pl.tensor<4x8xf32, pad = zero>
  return %f : !pl.tensor<4x8xf32, pad = zero>
}

func.func @runtime(%x: !pl.tensor<4x8xf32>, %n: index) -> !pl.tensor<6x10xf32, pad = min> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  // Valid: rows 0..3 and columns 0..n of x; the window [1.., 2..] sees
  // rows 1..3 and columns 2..n of it.
  %v = pl.tensor.set_validshape %x, %c3, %n : !pl.tensor<4x8xf32> -> !pl.tensor<4x8xf32, valid = 3x?>
  %s = pl.tensor.slice %v[%c1, %c2] : !pl.tensor<4x8xf32, valid = 3x?> -> !pl.tensor<3x6xf32, valid = ?x?>
  %e = pl.tensor.fillpad_expand %s min : !pl.tensor<3x6xf32, valid = ?x?> -> !pl.tensor<6x10xf32, pad = min>
  return %e : !pl.tensor<6x10xf32, pad = min>
}

func.func @store(%x: !pl.tensor<4x8xf32>, %o: !pl.tensor<4x8xf32> {pl.direction = #pl.direction<inout>}, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %v = pl.tensor.set_validshape %x, %c2, %n : !pl.tensor<4x8xf32> -> !pl.tensor<4x8xf32, valid = 2x?>
  %r = pl.tensor.assemble %v into %o[%c0, %c0] : !pl.tensor<4x8xf32, valid = 2x?>, !pl.tensor<4x8xf32>
  return
}

func.func @unknown(%x: !pl.tensor<4x8xf32>) -> !pl.tensor<4x8xf32, pad = zero> {
  %v = pl.tensor.view %x : !pl.tensor<4x8xf32> -> !pl.tensor<4x8xf32, valid = 4x?>
  %f = pl.tensor.fillpad %v zero : !pl.tensor<4x8xf32, valid = 4x?> -> !pl.tensor<4x8xf32, pad = zero>
  return %f : !pl.tensor<4x8xf32, pad = zero>
}
