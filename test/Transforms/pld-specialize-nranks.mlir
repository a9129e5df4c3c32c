// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pld-specialize-nranks{nranks=4}))' | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s -pld-specialize-nranks="nranks=4" | FileCheck %s
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pld-specialize-nranks{nranks=2}), canonicalize)' | FileCheck %s --check-prefix=FOLD
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pld-specialize-nranks{nranks=4}))' | FileCheck %s

// CHECK-LABEL: func.func @rank_count
// CHECK-NOT: pld.system.nranks
// CHECK: %[[N:.*]] = arith.constant 4 : i32
// CHECK: return %[[N]]
func.func @rank_count(%signal: !pld.dtensor<?x1xi32>) -> i32 {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?x1xi32>
  %n = pld.system.nranks %ctx : i32
  return %n : i32
}

// Every nranks in nested regions is replaced; the loop bound then folds.
// CHECK-LABEL: func.func @barrier_loop
// CHECK-NOT: pld.system.nranks
// CHECK: arith.constant 4 : i32
// FOLD-LABEL: func.func @barrier_loop
// FOLD: %[[C2:.*]] = arith.constant 2 : index
// FOLD: scf.for %{{.*}} = %{{.*}} to %[[C2]]
func.func @barrier_loop(%signal: !pld.dtensor<?x1xi32>, %one: i32) {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?x1xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %me = pld.system.rank %ctx : i32
  %me_index = arith.index_cast %me : i32 to index
  %n = pld.system.nranks %ctx : i32
  %n_index = arith.index_cast %n : i32 to index
  scf.for %peer = %c0 to %n_index step %c1 {
    %peer_i32 = arith.index_cast %peer : index to i32
    pld.system.notify %signal[%me_index, %c0] to %peer_i32, %one atomic_add : !pld.dtensor<?x1xi32>
  }
  return
}

// Functions without rank queries are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT: return
func.func @untouched() {
  return
}
