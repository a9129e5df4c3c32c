// Option errors are reported when the pass manager starts, before anything
// runs, located in the pass's option text: <pass-options>:1:COLUMN, the
// column of the offending name or value in the text inside {...} (or after
// '=' in a pass flag). The same in pto-opt and in mlir-opt with the plugin.
// RUN: not pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pld-specialize-nranks{nranks=0})' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not pto-opt --verify-roundtrip %s --pld-specialize-nranks=nranks=0 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not pto-opt --verify-roundtrip %s --pld-specialize-nranks 2>&1 | FileCheck %s --check-prefix=REQUIRED
// RUN: not pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pld-specialize-nranks{nranks=four})' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pld-specialize-nranks{nranks=2 ranks=4})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pld-specialize-nranks{nranks})' 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-specialize-nranks{nranks=0})' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-specialize-nranks{nranks=2 ranks=4})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pld-specialize-nranks{nranks=four}))' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-lower-distributed{x=1})' 2>&1 | FileCheck %s --check-prefix=PIPELINE

// RANGE: <pass-options>:1:8: error: pld-specialize-nranks: option 'nranks' must be at least 1, got 0
// REQUIRED: <pass-options>:1:1: error: pld-specialize-nranks: option 'nranks' is required (nranks=N with N >= 1)
// TYPE: <pass-options>:1:8: error: pld-specialize-nranks: option 'nranks' must be a 64-bit integer, got 'four'
// UNKNOWN: <pass-options>:1:10: error: pld-specialize-nranks: no option named 'ranks' (its options are nranks)
// VALUE: <pass-options>:1:1: error: pld-specialize-nranks: option 'nranks' needs a value (nranks=...)
// PIPELINE: <pass-options>:1:1: error: pld-lower-distributed: takes no options, got 'x=1'
// CHECK-NOT: <unknown>

func.func @f() {
  return
}
