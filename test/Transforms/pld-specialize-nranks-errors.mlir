// Option errors are reported when the pipeline is parsed, before anything runs.
// RUN: not pto-opt %s --pass-pipeline='builtin.module(pld-specialize-nranks{nranks=0})' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not pto-opt %s --pld-specialize-nranks 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not pto-opt %s --pass-pipeline='builtin.module(pld-specialize-nranks{nranks=four})' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not pto-opt %s --pass-pipeline='builtin.module(pld-specialize-nranks{ranks=4})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-specialize-nranks{nranks=0})' 2>&1 | FileCheck %s --check-prefix=RANGE

// RANGE: pld-specialize-nranks: option 'nranks' must be at least 1, got 0
// TYPE: 'four' value invalid for long argument
// UNKNOWN: no such option ranks

func.func @f() {
  return
}
