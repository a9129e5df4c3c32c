// RUN: pto-opt --verify-roundtrip %s --split-input-file --pass-pipeline='builtin.module(pl-materialize-valid-shapes)' --verify-diagnostics

// The orchestration's own parameter has the runtime valid extent: nothing
// here knows it.
!S = !pl.tensor<16x64xf32>
!SV = !pl.tensor<16x64xf32, valid = 16x?>
func.func @masked(%s: !SV) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %f = pl.tensor.fillpad %s zero : !SV -> !pl.tensor<16x64xf32, pad = zero>
  %r = pl.tensor.view %f : !pl.tensor<16x64xf32, pad = zero> -> !S
  return %r : !S
}
func.func @main(%v: !SV) -> !S attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{pl-materialize-valid-shapes: argument #0 of @masked has valid extents known only at run time, but it is no pl.tensor.set_validshape here: the kernel cannot be told them}}
  %a = pl.call @masked(%v) : (!SV) -> !S
  return %a : !S
}
