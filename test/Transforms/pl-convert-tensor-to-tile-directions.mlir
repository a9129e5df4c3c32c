// Parameters without a pl.direction get the one the kernel's body implies:
// written only, out; read-modify-written (an atomic add, a notify) or
// written and read, inout; only read, none (in).
// RUN: pto-opt --verify-roundtrip %s --pl-convert-tensor-to-tile | FileCheck %s

// CHECK-LABEL: func.func @directions(
// CHECK-SAME: %arg0: !pl.tensor<16x64xf32>,
// CHECK-SAME: %arg1: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>},
// CHECK-SAME: %arg2: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<inout>},
// CHECK-SAME: %arg3: !pld.dtensor<4x256xf32> {pl.direction = #pl.direction<out>},
// CHECK-SAME: %arg4: !pld.dtensor<?x1xi32> {pl.direction = #pl.direction<inout>},
// CHECK-SAME: %arg5: i32)
func.func @directions(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x64xf32>, %acc: !pl.tensor<16x64xf32>,
                      %data: !pld.dtensor<4x256xf32>, %sig: !pld.dtensor<?x1xi32>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %y2 = pl.tile.store %t, %y[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  %a2 = pl.tile.store %t, %acc[%c0, %c0] atomic_add : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  %row = pl.tile.create : !pl.tile<1x256xf32, vec>
  pld.tile.remote_store %row, %data[%c0, %c0] to %peer none : !pl.tile<1x256xf32, vec>, !pld.dtensor<4x256xf32>
  pld.system.notify %sig[%c0, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
  return
}
