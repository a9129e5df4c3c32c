// One section per rule of the prefetch ops.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @strided(%w: !pl.tensor<16x64xf32, strides = [128, 1]>) attributes {pl.kind = #pl.kind<aiv>} {
  %ctx = pl.prefetch.make_context : !pl.prefetch_context
  // expected-error @+1 {{a prefetch stages one contiguous range: the source must be packed row-major, got !pl.tensor<16x64xf32, strides = [128, 1]>}}
  %e = pl.prefetch.async_prefetch %w, %ctx : !pl.tensor<16x64xf32, strides = [128, 1]>
  return
}

// -----

// expected-error @+1 {{a prefetch drives the SDMA engine from a vector core: pl.prefetch.make_context belongs in an aiv or InCore kernel}}
func.func @cube() attributes {pl.kind = #pl.kind<aic>} {
  %ctx = pl.prefetch.make_context : !pl.prefetch_context
  return
}

// -----

// expected-error @+1 {{an orchestration prefetches nothing: pl.prefetch.make_context belongs in an aiv or InCore kernel or scope}}
func.func @orchestration(%w: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %ctx = pl.prefetch.make_context : !pl.prefetch_context
  return
}

// -----

func.func @wait_type(%e: !pl.async_event, %c: !pl.prefetch_context) {
  // expected-error @+1 {{operand #1 must be}}
  %d = "pl.prefetch.wait"(%e, %c) : (!pl.async_event, !pl.prefetch_context) -> i1
  return
}
