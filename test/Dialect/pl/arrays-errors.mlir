// Array types, element accesses, and where arrays may be (a constant
// index outside the array is pl-verify-constants').
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a pl.array needs a positive extent, got 0}}
func.func private @empty() -> !pl.array<i32, 0>

// -----

// expected-error @+1 {{pl.array elements are integers or task ids, got 'f32'}}
func.func private @floats() -> !pl.array<f32, 4>

// -----

// expected-error @+1 {{parameter #0 is an array (!pl.array<i32, 4>); arrays stay in the function that makes them}}
func.func @parameter(%a: !pl.array<i32, 4>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// expected-error @+1 {{result #0 is an array (!pl.array<i32, 4>); arrays stay in the function that makes them}}
func.func @result() -> !pl.array<i32, 4> attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.array.create : !pl.array<i32, 4>
  return %a : !pl.array<i32, 4>
}

// -----

// expected-error @+1 {{a kernel holds no task ids: an array of them belongs in an orchestration, found pl.array.create}}
func.func @kernel_tasks() attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.array.create : !pl.array<!pl.task_id, 4>
  return
}

// -----

func.func @element_type(%i: index) -> i64 attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.array.create : !pl.array<i32, 4>
  // expected-error @+1 {{the element must have the array's element type i32, got i64}}
  %n = pl.array.get_element %a[%i] : !pl.array<i32, 4> -> i64
  return %n : i64
}

// -----

func.func @value_type(%i: index, %v: i16) attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.array.create : !pl.array<i32, 4>
  // expected-error @+1 {{the element must have the array's element type i32, got i16}}
  %b = pl.array.update_element %a[%i], %v : !pl.array<i32, 4>, i16
  return
}

// -----

func.func @result_type(%a: index) attributes {pl.kind = #pl.kind<aiv>} {
  %x = pl.array.create : !pl.array<i32, 4>
  %v = arith.constant 1 : i32
  // expected-error @+1 {{all of {array, result} have same type}}
  %b = "pl.array.update_element"(%x, %a, %v) : (!pl.array<i32, 4>, index, i32) -> !pl.array<i32, 5>
  return
}
