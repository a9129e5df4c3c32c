// RUN: pto-opt --verify-roundtrip %s --pl-inline-functions | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pl-inline-functions)' | FileCheck %s

!T = !pl.tensor<64xf32>

// Inline functions are gone once spliced.
// CHECK-NOT: @scale
// CHECK-NOT: @scale_twice
// CHECK-NOT: func.call

func.func private @scale(%t: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<inline>} {
  %r = pl.tensor.muls %t, %s : !T, f32
  return %r : !T
}

// An inline function calling another: both bodies are spliced.
func.func private @scale_twice(%t: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<inline>} {
  %a = func.call @scale(%t, %s) : (!T, f32) -> !T
  %b = func.call @scale(%a, %s) : (!T, f32) -> !T
  return %b : !T
}

// A call inside a scope of an orchestration: the tensor ops go into the
// scope, with the arguments substituted.
// CHECK-LABEL: func.func @in_scope(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<64xf32>, %[[S:.*]]: f32)
// CHECK: pl.incore_scope
// CHECK-NEXT: %[[R:.*]] = pl.tensor.muls %[[X]], %[[S]]
// CHECK-NEXT: pl.yield %[[R]]
func.func @in_scope(%x: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.incore_scope -> !T {
    %v = func.call @scale(%x, %s) : (!T, f32) -> !T
    pl.yield %v : !T
  }
  return %y : !T
}

// A call in a kernel, through two levels.
// CHECK-LABEL: func.func @in_kernel(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<64xf32>, %[[S:.*]]: f32)
// CHECK-NEXT: %[[A:.*]] = pl.tensor.muls %[[X]], %[[S]]
// CHECK-NEXT: %[[B:.*]] = pl.tensor.muls %[[A]], %[[S]]
// CHECK-NEXT: return %[[B]]
func.func @in_kernel(%x: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %v = func.call @scale_twice(%x, %s) : (!T, f32) -> !T
  return %v : !T
}

// Scalar helpers inline into orchestrations, in loops too.
func.func private @next(%i: index) -> index attributes {pl.kind = #pl.kind<inline>} {
  %c2 = arith.constant 2 : index
  %n = arith.addi %i, %c2 : index
  return %n : index
}

// CHECK-LABEL: func.func @in_loop(
// CHECK: scf.for
// CHECK: arith.addi
// CHECK: scf.yield
func.func @in_loop(%n: index) -> index attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
    %next = func.call @next(%acc) : (index) -> index
    scf.yield %next : index
  }
  return %r : index
}
