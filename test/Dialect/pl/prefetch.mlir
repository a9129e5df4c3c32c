// Asynchronous L2 prefetches round-trip (custom and generic form), in
// pto-opt and in stock mlir-opt with the plugin. A prefetch and a wait
// keep their place (they read global memory and write the context's
// state), unused or not; sessions of one context are one.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s
// RUN: pto-opt %s --cse --canonicalize | FileCheck %s --check-prefix=KEPT

// CHECK-LABEL: func.func @prefetch
// CHECK: %[[C:.*]] = pl.prefetch.make_context : !pl.prefetch_context
// CHECK: %[[E:.*]] = pl.prefetch.async_prefetch %arg0, %[[C]] : !pl.tensor<?x128xf16>
// CHECK: %[[S:.*]] = pl.prefetch.session %[[C]]
// CHECK: pl.prefetch.wait %[[E]], %[[S]]
// KEPT-LABEL: func.func @prefetch
// KEPT: %[[C:.*]] = pl.prefetch.make_context
// KEPT: %[[E:.*]] = pl.prefetch.async_prefetch %arg0, %[[C]]
// KEPT: %[[S:.*]] = pl.prefetch.session %[[C]]
// KEPT: pl.prefetch.wait %[[E]], %[[S]]
// KEPT: %[[U:.*]] = pl.prefetch.async_prefetch %arg1, %[[C]]
// KEPT-NOT: pl.prefetch.session
// KEPT: pl.prefetch.wait %[[U]], %[[S]]
func.func @prefetch(%w: !pl.tensor<?x128xf16>, %v: !pl.tensor<64xf32>) -> i1 attributes {pl.kind = #pl.kind<aiv>} {
  %ctx = pl.prefetch.make_context : !pl.prefetch_context
  %e = pl.prefetch.async_prefetch %w, %ctx : !pl.tensor<?x128xf16>
  %s = pl.prefetch.session %ctx
  %d = pl.prefetch.wait %e, %s
  %unused = pl.prefetch.async_prefetch %v, %ctx : !pl.tensor<64xf32>
  %s2 = pl.prefetch.session %ctx
  %d2 = pl.prefetch.wait %unused, %s2
  return %d : i1
}

// An unused context is dropped.
// KEPT-LABEL: func.func @unused
// KEPT-NOT: pl.prefetch
// KEPT: return
func.func @unused() attributes {pl.kind = #pl.kind<aiv>} {
  %ctx = pl.prefetch.make_context : !pl.prefetch_context
  return
}
