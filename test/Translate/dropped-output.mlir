// A kernel the pipeline cannot lower is an error, not a file left out:
// pl-convert-tensor-to-tile warns where it keeps a tensor computation, and
// pto-translate refuses the program and writes nothing; --allow-partial
// turns that into a warning and writes the rest.
// RUN: pto-opt %s --pl-convert-tensor-to-tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVERT
// RUN: rm -rf %t && not pto-translate --mlir-to-cce %s -o %t 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: test ! -e %t
// RUN: pto-translate --mlir-to-cce --allow-partial %s -o %t 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: test -e %t/manifest.json

// CONVERT: dropped-output.mlir:[[@LINE+6]]:8: warning: 'pl.tensor.full' op pl-convert-tensor-to-tile: 'pl.tensor.full' has no tile form yet
// ERROR: dropped-output.mlir:[[@LINE+5]]:8: error: 'pl.tensor.full' op pto-translate: kernel @fill is still an incore kernel
// PARTIAL: warning: 'pl.tensor.full' op pto-translate: kernel @fill is still an incore kernel
// PARTIAL: warning: 'func.func' op pto-translate: @fill is not a translated kernel; @main gets no runtime orchestration
func.func @fill(%o: !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %z = arith.constant 0.0 : f32
  %t = pl.tensor.full %z () : f32 -> !pl.tensor<16x64xf32>
  return %t : !pl.tensor<16x64xf32>
}
func.func @main(%o: !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.call @fill(%o) : (!pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32>
  return %r : !pl.tensor<16x64xf32>
}
