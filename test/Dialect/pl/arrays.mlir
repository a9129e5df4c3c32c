// Arrays round-trip (custom and generic form), in pto-opt and in stock
// mlir-opt with the plugin. A create is storage of its own: equal creates
// stay two, an unused one goes; element reads are pure.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s
// RUN: pto-opt %s --cse --canonicalize | FileCheck %s --check-prefix=CSE

// CHECK-LABEL: func.func @counters
// CHECK: %[[A:.*]] = pl.array.create : !pl.array<i32, 8>
// CHECK: %[[N:.*]] = pl.array.get_element %[[A]][%{{.*}}] : !pl.array<i32, 8> -> i32
// CHECK: pl.array.update_element %[[A]][%{{.*}}], %{{.*}} : !pl.array<i32, 8>, i32
// CSE-LABEL: func.func @counters
// CSE-COUNT-2: pl.array.create : !pl.array<i32, 8>
// CSE-NOT: pl.array.create
// CSE-COUNT-3: pl.array.get_element
// CSE-NOT: pl.array.get_element
func.func @counters(%i: index) -> (i32, i32, i32) attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.array.create : !pl.array<i32, 8>
  %b = pl.array.create : !pl.array<i32, 8>
  %unused = pl.array.create : !pl.array<index, 2>
  %n = pl.array.get_element %a[%i] : !pl.array<i32, 8> -> i32
  %again = pl.array.get_element %a[%i] : !pl.array<i32, 8> -> i32
  %one = arith.constant 1 : i32
  %n1 = arith.addi %n, %one : i32
  %a2 = pl.array.update_element %a[%i], %n1 : !pl.array<i32, 8>, i32
  %m = pl.array.get_element %b[%i] : !pl.array<i32, 8> -> i32
  %r = pl.array.get_element %a2[%i] : !pl.array<i32, 8> -> i32
  return %again, %m, %r : i32, i32, i32
}

// CSE-LABEL: func.func @task_ids
// CHECK-LABEL: func.func @task_ids
// CHECK: pl.array.create : !pl.array<!pl.task_id, 4>
// CHECK: pl.array.update_element %{{.*}}[%{{.*}}], %{{.*}} : !pl.array<!pl.task_id, 4>, !pl.task_id
func.func @task_ids(%t: !pl.task_id, %i: index) -> !pl.task_id attributes {pl.kind = #pl.kind<orchestration>} {
  %ids = pl.array.create : !pl.array<!pl.task_id, 4>
  %ids2 = pl.array.update_element %ids[%i], %t : !pl.array<!pl.task_id, 4>, !pl.task_id
  %r = pl.array.get_element %ids2[%i] : !pl.array<!pl.task_id, 4> -> !pl.task_id
  return %r : !pl.task_id
}
