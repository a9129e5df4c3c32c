// A kernel the pipeline cannot lower is an error, not a file left out:
// pl-convert-tensor-to-tile warns where it keeps a tensor computation, and
// pto-translate refuses the program and writes nothing; --allow-partial
// turns that into a warning and writes the rest.
// RUN: pto-opt %s --pl-convert-tensor-to-tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVERT
// RUN: rm -rf %t && not pto-translate --mlir-to-cce %s -o %t 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: test ! -e %t
// RUN: pto-translate --mlir-to-cce --allow-partial %s -o %t 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: test -e %t/manifest.json

// CONVERT: dropped-output.mlir:[[@LINE+5]]:8: warning: 'pl.tensor.cmp' op pl-convert-tensor-to-tile: 'pl.tensor.cmp' has no tile form yet
// ERROR: dropped-output.mlir:[[@LINE+4]]:8: error: 'pl.tensor.cmp' op pto-translate: kernel @less still computes on tensors here (pto-a2a3-pipeline could not convert it); it is not translated
// PARTIAL: warning: 'pl.tensor.cmp' op pto-translate: kernel @less still computes on tensors here (pto-a2a3-pipeline could not convert it); it is not translated
// PARTIAL: warning: 'func.func' op pto-translate: @less is not a translated kernel; @main gets no runtime orchestration
func.func @less(%a: !pl.tensor<16x32xf32>, %b: !pl.tensor<16x32xf32>) -> !pl.tensor<16x32xi1> attributes {pl.kind = #pl.kind<incore>} {
  %t = pl.tensor.cmp %a, %b lt : !pl.tensor<16x32xf32>, !pl.tensor<16x32xf32> -> !pl.tensor<16x32xi1>
  return %t : !pl.tensor<16x32xi1>
}
func.func @main(%a: !pl.tensor<16x32xf32>, %b: !pl.tensor<16x32xf32>) -> !pl.tensor<16x32xi1> attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.call @less(%a, %b) : (!pl.tensor<16x32xf32>, !pl.tensor<16x32xf32>) -> !pl.tensor<16x32xi1>
  return %r : !pl.tensor<16x32xi1>
}
