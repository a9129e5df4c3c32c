// RUN: pto-opt --verify-roundtrip %s --inline | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s --inline | FileCheck %s

// The pl and pld inliner interface: upstream `inline` splices pl ops
// wherever the caller's function kind admits them, and leaves the call
// where it does not. (A kernel calls only inline functions.)

!T = !pl.tensor<64xf32>

func.func private @scale(%t: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<inline>} {
  %r = pl.tensor.muls %t, %s : !T, f32
  return %r : !T
}

func.func private @load(%t: !T) -> !pl.tile<64xf32, vec> attributes {pl.kind = #pl.kind<inline>} {
  %c0 = arith.constant 0 : index
  %r = pl.tile.load %t[%c0] : !T -> !pl.tile<64xf32, vec>
  return %r : !pl.tile<64xf32, vec>
}

// CHECK-LABEL: func.func @kernel(
// CHECK-NOT: call
// CHECK: pl.tensor.muls
// CHECK: pl.tile.load
// CHECK-NOT: call
// CHECK: return
func.func @kernel(%x: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %y = func.call @scale(%x, %s) : (!T, f32) -> !T
  %t = func.call @load(%y) : (!T) -> !pl.tile<64xf32, vec>
  %c0 = arith.constant 0 : index
  %o = pl.tile.store %t, %x[%c0] : !pl.tile<64xf32, vec>, !T
  return %o : !T
}

// An orchestration computes no tiles: the load stays in its function.
// CHECK-LABEL: func.func @orchestration(
// CHECK: call @load
func.func @orchestration(%x: !T) -> !pl.tile<64xf32, vec> attributes {pl.kind = #pl.kind<orchestration>} {
  %t = func.call @load(%x) : (!T) -> !pl.tile<64xf32, vec>
  return %t : !pl.tile<64xf32, vec>
}
