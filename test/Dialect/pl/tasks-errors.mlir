// Task ids and launch sizes belong to orchestrations (the function's
// rule, reported at the function).
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a kernel submits no tasks and sizes no launches: pl.system.task_dummy belongs in an orchestration}}
func.func @kernel_task() attributes {pl.kind = #pl.kind<aiv>} {
  %t = pl.system.task_dummy
  return
}

// -----

// expected-error @+1 {{a kernel submits no tasks and sizes no launches: pl.system.available_aiv_count belongs in an orchestration}}
func.func @kernel_count() -> i32 attributes {pl.kind = #pl.kind<incore>} {
  %n = pl.system.available_aiv_count
  return %n : i32
}

// -----

func.func @dependency(%x: i32) {
  // expected-error @+1 {{operand #0 must be variadic of Handle of a submitted task}}
  %t = "pl.system.task_dummy"(%x) : (i32) -> !pl.task_id
  return
}
