// RUN: pto-opt --verify-roundtrip %s --arith-signed-index-to-i64 | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(arith-signed-index-to-i64)' | FileCheck %s
// corpus/72_signed_index runs negative values through the C++.

// Each signed op of index operands is computed on i64, between casts; the
// unsigned ones, and signed ones of other types, stay as they are.
// CHECK-LABEL: func.func @signed
// CHECK-SAME: (%[[N:.*]]: index, %[[D:.*]]: index, %[[W:.*]]: i32)
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT: %[[D64:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK-NEXT: %[[Q64:.*]] = arith.divsi %[[N64]], %[[D64]] : i64
// CHECK-NEXT: %[[Q:.*]] = arith.index_cast %[[Q64]] : i64 to index
// CHECK: arith.remsi {{.*}} : i64
// CHECK: arith.shrsi {{.*}} : i64
// CHECK: arith.floordivsi {{.*}} : i64
// CHECK: arith.ceildivsi {{.*}} : i64
// CHECK: arith.divui %[[N]], %[[D]] : index
// CHECK-NEXT: arith.divsi %[[W]], %[[W]] : i32
// CHECK-NEXT: arith.addi %[[Q]], %{{.*}} : index
func.func @signed(%n: index, %d: index, %w: i32) -> (index, index, index, index, index, index, i32) {
  %q = arith.divsi %n, %d : index
  %r = arith.remsi %n, %d : index
  %s = arith.shrsi %n, %d : index
  %f = arith.floordivsi %n, %d : index
  %c = arith.ceildivsi %n, %d : index
  %u = arith.divui %n, %d : index
  %x = arith.divsi %w, %w : i32
  %sum = arith.addi %q, %r : index
  return %sum, %s, %f, %c, %u, %q, %x : index, index, index, index, index, index, i32
}
