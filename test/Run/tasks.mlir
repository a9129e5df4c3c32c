// pto-run's task ids: a submit's is valid, task_invalid's is not, a dummy
// task's is unless dependencies are given and none of them is valid (a
// dummy without any is valid); the device's size is a2a3's, 24 core groups
// of 2 vector cores. Each answer is written into the output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pto-run %s -o %t
// RUN: /usr/bin/python3 -c "import numpy as np; y = np.load('%t/result0.npy'); assert y.tolist() == [[1, 0, 1, 0, 1, 1, 24, 48]], y; print('valid')" | FileCheck %s
// CHECK: valid

!V = !pl.tensor<1x8xi32>
!S = !pl.tensor<1x8xf32>
func.func @main() -> !V attributes {pl.kind = #pl.kind<orchestration>} {
  %scratch = pl.tensor.create() : !S
  %o, %t = pl.submit @nothing(%scratch) : (!S) -> !S
  %none = pl.system.task_invalid
  %after = pl.system.task_dummy deps(%t, %none)
  %never = pl.system.task_dummy deps(%none, %none)
  %ready = pl.system.task_dummy
  %join = pl.system.task_dummy deps(%never, %ready)
  %c0 = arith.constant 0 : index
  %out0 = pl.tensor.create() : !V
  %v0 = pl.system.task_is_valid %t
  %v1 = pl.system.task_is_valid %none
  %v2 = pl.system.task_is_valid %after
  %v3 = pl.system.task_is_valid %never
  %v4 = pl.system.task_is_valid %ready
  %v5 = pl.system.task_is_valid %join
  %i0 = arith.extui %v0 : i1 to i32
  %i1 = arith.extui %v1 : i1 to i32
  %i2 = arith.extui %v2 : i1 to i32
  %i3 = arith.extui %v3 : i1 to i32
  %i4 = arith.extui %v4 : i1 to i32
  %i5 = arith.extui %v5 : i1 to i32
  %n = pl.system.available_cluster_count
  %m = pl.system.available_aiv_count
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %w0 = pl.tensor.write %out0[%c0, %c0], %i0 : !V, i32
  %w1 = pl.tensor.write %w0[%c0, %c1], %i1 : !V, i32
  %w2 = pl.tensor.write %w1[%c0, %c2], %i2 : !V, i32
  %w3 = pl.tensor.write %w2[%c0, %c3], %i3 : !V, i32
  %w4 = pl.tensor.write %w3[%c0, %c4], %i4 : !V, i32
  %w5 = pl.tensor.write %w4[%c0, %c5], %i5 : !V, i32
  %w6 = pl.tensor.write %w5[%c0, %c6], %n : !V, i32
  %w7 = pl.tensor.write %w6[%c0, %c7], %m : !V, i32
  return %w7 : !V
}
func.func @nothing(%s: !S {pl.direction = #pl.direction<out>}) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %z = arith.constant 0.0 : f32
  %f = pl.tensor.full %z() : f32 -> !S
  %c0 = arith.constant 0 : index
  %r = pl.tensor.assemble %f into %s[%c0, %c0] : !S, !S
  return %r : !S
}
