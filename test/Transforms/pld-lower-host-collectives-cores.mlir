// With aiv-cores=N a host mesh allreduce may use at most N vector cores;
// without the option the count is not checked. (stderr is dropped in the
// second run: MLIR 22 reports unmatched expected-* comments even without
// --verify-diagnostics.)
// RUN: pto-opt --verify-roundtrip %s --pld-lower-host-collectives="aiv-cores=48" --verify-diagnostics -o /dev/null
// RUN: pto-opt --verify-roundtrip %s --pld-lower-host-collectives 2>/dev/null | FileCheck %s

// CHECK-LABEL: func.func @wide
// CHECK: pld.builtin.allreduce {{.*}} cores 64 on
func.func @wide() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [] slots ["data", "sig"] {
    %bytes = arith.constant 1024 : i64
    %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %w0 = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<1x256xf32>
    %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
    %w1 = pld.tensor.window %b1 : !pl.ptr -> !pld.dtensor<?x64xi32>
    // expected-error @+1 {{mesh allreduce uses 64 cores, more than the 48 vector cores of a device}}
    %r = pld.tensor.allreduce %w0, %w1 sum mesh cores 64 : !pld.dtensor<1x256xf32>, !pld.dtensor<?x64xi32>
  }
  return
}
