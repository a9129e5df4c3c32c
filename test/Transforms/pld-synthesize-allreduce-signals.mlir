// RUN: pto-opt --verify-roundtrip %s -split-input-file --pld-synthesize-allreduce-signals | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s -split-input-file --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals)' | FileCheck %s

// A signal-less host allreduce gets a [world_size, cores] i32 signal of its own.
// CHECK-LABEL: func.func @one
// CHECK: %[[WORLD:.*]] = pld.system.world_size : i64
// CHECK: %[[CELLS:.*]] = arith.constant 8 : i64
// CHECK: %[[BYTES:.*]] = arith.muli %[[WORLD]], %[[CELLS]] : i64
// CHECK: %[[BUF:.*]] = pld.tensor.alloc_window_buffer %[[BYTES]] name "__allreduce_signal_buf_0" : i64 -> !pl.ptr
// CHECK: %[[SIG:.*]] = pld.tensor.window %[[BUF]] : !pl.ptr -> !pld.dtensor<?x2xi32>
// CHECK: pld.tensor.allreduce %{{.*}}, %[[SIG]] max mesh cores 2 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x2xi32>
func.func @one(%x: !pld.dtensor<4x256xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %r = pld.tensor.allreduce %x max mesh cores 2 : !pld.dtensor<4x256xf32>
  return
}

// -----

// Names stay unique: an existing __allreduce_signal_buf_0 is skipped, and
// two calls get two buffers. Explicit signals and kernels are untouched.
// CHECK-LABEL: func.func @names
// CHECK: name "__allreduce_signal_buf_0"
// CHECK: name "__allreduce_signal_buf_1"
// CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}} sum mesh cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
// CHECK: name "__allreduce_signal_buf_2"
// CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}} sum mesh cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
// CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}} sum mesh cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>
// CHECK-LABEL: func.func @kernel
// CHECK-NOT: alloc_window_buffer
func.func @names(%x: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<8xi32>, %n: i64) attributes {pl.level = #pl.level<host>} {
  %taken = pld.tensor.alloc_window_buffer %n name "__allreduce_signal_buf_0" : i64 -> !pl.ptr
  %a = pld.tensor.allreduce %x sum mesh cores 1 : !pld.dtensor<4x256xf32>
  %b = pld.tensor.allreduce %a sum mesh cores 1 : !pld.dtensor<4x256xf32>
  %c = pld.tensor.allreduce %b, %s sum mesh cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>
  return
}
func.func @kernel(%x: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %a = pld.tensor.allreduce %x, %s sum mesh cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
  return
}
