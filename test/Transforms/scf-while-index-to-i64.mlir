// scf-while-index-to-i64: each index an scf.while carries (operand, region
// arguments, condition argument, yield, result) becomes an i64, with casts
// back to index wherever it is used; other carries are left alone. The
// second RUN line is what the pass is for: upstream convert-scf-to-emitc
// takes its output (it fails on index carries).
// RUN: pto-opt --verify-roundtrip %s --scf-while-index-to-i64 | FileCheck %s
// RUN: pto-opt %s --scf-while-index-to-i64 --convert-arith-to-emitc --convert-scf-to-emitc --reconcile-unrealized-casts | FileCheck %s --check-prefix=EMITC

// CHECK-LABEL: func.func @counter(
// CHECK-SAME: %[[N:[^:]*]]: index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[W:.*]] = arith.index_cast %[[C1]] : index to i64
// CHECK-NEXT: %[[R:.*]]:2 = scf.while (%[[A:.*]] = %[[W]], %[[F:.*]] = %{{.*}}) : (i64, f32) -> (i64, f32) {
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[A]] : i64 to index
// CHECK-NEXT: %[[GO:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: scf.condition(%[[GO]]) %[[I64]], %[[F]] : i64, f32
// CHECK: ^bb0(%[[B:.*]]: i64, %[[G:.*]]: f32):
// CHECK-NEXT: %[[J:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[J]], %[[J]] : index
// CHECK: %[[NEXT64:.*]] = arith.index_cast %[[NEXT]] : index to i64
// CHECK-NEXT: scf.yield %[[NEXT64]], %{{.*}} : i64, f32
// CHECK: %[[OUT:.*]] = arith.index_cast %[[R]]#0 : i64 to index
// CHECK-NEXT: return %[[OUT]], %[[R]]#1 : index, f32

// EMITC-LABEL: func.func @counter(
// EMITC: emitc.do {
// EMITC: } while {
// EMITC-NOT: scf.while
func.func @counter(%n: index, %x: f32) -> (index, f32) {
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%i = %c1, %f = %x) : (index, f32) -> (index, f32) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i, %f : index, f32
  } do {
  ^bb0(%j: index, %g: f32):
    %next = arith.addi %j, %j : index
    %h = arith.addf %g, %g : f32
    scf.yield %next, %h : index, f32
  }
  return %r#0, %r#1 : index, f32
}

// A while whose results differ from its carries: the before region's
// argument and the after region's follow the operands and the results.

// CHECK-LABEL: func.func @results_differ(
// CHECK: scf.while (%[[A:.*]] = %{{.*}}) : (i32) -> i64 {
// CHECK-NEXT: %[[Z:.*]] = arith.index_cast %[[A]] : i32 to index
// CHECK: %[[Z64:.*]] = arith.index_cast %[[Z]] : index to i64
// CHECK-NEXT: scf.condition(%{{.*}}) %[[Z64]] : i64
// CHECK: ^bb0(%[[B:.*]]: i64):
// CHECK-NEXT: %[[J:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK-NEXT: %[[K:.*]] = arith.index_cast %[[J]] : index to i32
func.func @results_differ(%n: i32) -> index {
  %c0 = arith.constant 0 : i32
  %r = scf.while (%i = %c0) : (i32) -> index {
    %z = arith.index_cast %i : i32 to index
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %z : index
  } do {
  ^bb0(%j: index):
    %k = arith.index_cast %j : index to i32
    scf.yield %k : i32
  }
  return %r : index
}
