// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-double-buffer{factor=5}))' --verify-diagnostics -o /dev/null
// RUN: not pto-opt %s --pass-pipeline='builtin.module(func.func(pl-double-buffer{min-overlap=51}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVERLAP

// OVERLAP: error: 'func.func' op pl-double-buffer: min-overlap=51: an overlap saves at most half an iteration (50)

// expected-error @+1 {{pl-double-buffer: factor=5 is more than the 4 buffers per tile the pass makes}}
func.func @k(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
