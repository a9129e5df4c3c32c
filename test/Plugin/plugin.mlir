// Stock mlir-opt loads libpto_mlir.so as a dialect and pass plugin, parses
// pl/pld, runs the Rust verifier and runs a Rust pass next to upstream ones.
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s \
// RUN:   --pass-pipeline='builtin.module(func.func(pld-specialize-nranks{nranks=8}), canonicalize, cse)' \
// RUN:   | FileCheck %s
// RUN: mlir-opt --load-pass-plugin=%plugin --help | FileCheck %s --check-prefix=HELP
// RUN: mlir-opt --load-dialect-plugin=%plugin --show-dialects | FileCheck %s --check-prefix=DIALECTS

// HELP: --pld-specialize-nranks
// HELP-NEXT: --nranks=<long>
// DIALECTS: pl,pld

// CHECK-LABEL: func.func @peers
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i32
// CHECK: return %[[C7]]
func.func @peers(%signal: !pld.dtensor<?x1xi32>) -> i32 {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?x1xi32>
  %n = pld.system.nranks %ctx : i32
  %one = arith.constant 1 : i32
  %peers = arith.subi %n, %one : i32
  return %peers : i32
}
