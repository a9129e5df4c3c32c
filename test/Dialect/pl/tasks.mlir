// Task ids and launch sizes round-trip (custom and generic form), in
// pto-opt and in stock mlir-opt with the plugin; they are pure: an unused
// one goes, equal ones are one.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s
// RUN: pto-opt %s --cse --canonicalize | FileCheck %s --check-prefix=PURE

// CHECK-LABEL: func.func @tasks
// CHECK: %[[NONE:.*]] = pl.system.task_invalid
// CHECK: %[[ALL:.*]] = pl.system.task_dummy deps(%{{.*}}, %[[NONE]])
// CHECK: pl.system.task_dummy{{$}}
// CHECK: pl.system.task_is_valid %[[ALL]]
// CHECK: pl.system.available_cluster_count
// CHECK: pl.system.available_aiv_count
// PURE-LABEL: func.func @tasks
// PURE-COUNT-1: pl.system.available_cluster_count
// PURE-NOT: pl.system.available_aiv_count
func.func @tasks(%t: !pl.task_id) -> (i1, i32, i32) attributes {pl.kind = #pl.kind<orchestration>} {
  %none = pl.system.task_invalid
  %all = pl.system.task_dummy deps(%t, %none)
  %ready = pl.system.task_dummy
  %ok = pl.system.task_is_valid %all
  %n = pl.system.available_cluster_count
  %m = pl.system.available_cluster_count
  %v = pl.system.available_aiv_count
  return %ok, %n, %m : i1, i32, i32
}
