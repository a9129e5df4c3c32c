// Tensor puts and gets in kernels bounce through a vector staging tile
// (pto-isa's TPUT/TGET take one): [R, C] with C the transfer's last extent
// or its chunk, R the product of the others or its chunk; two with
// `pipeline`. Kernels with dynamic shapes are staged too.
// RUN: pto-opt --verify-roundtrip %s --pl-convert-tensor-to-tile --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @whole(
// CHECK: %[[STAGE:.*]] = pl.tile.create : !pl.tile<4x256xf32, vec>
// CHECK-NEXT: pld.tile.put %arg0 to %arg2 from %arg1 stage %[[STAGE]] add : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>, !pl.tile<4x256xf32, vec>
// CHECK-NOT: pld.tensor.put
func.func @whole(%dst: !pld.dtensor<4x256xf32>, %src: !pl.tensor<4x256xf32>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  pld.tensor.put %dst to %peer from %src add chunk 0, 0 : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>
  return
}

// -----

// CHECK-LABEL: func.func @chunked(
// CHECK: %[[PING:.*]] = pl.tile.create : !pl.tile<1x128xf16, vec>
// CHECK-NEXT: %[[PONG:.*]] = pl.tile.create : !pl.tile<1x128xf16, vec>
// CHECK-NEXT: pld.tile.get %arg0 to %arg2 from %arg1 stage %[[PING]], %[[PONG]] region [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] : !pl.tensor<?x256xf16>, !pld.dtensor<?x256xf16>, !pl.tile<1x128xf16, vec>, !pl.tile<1x128xf16, vec>
func.func @chunked(%dst: !pl.tensor<?x256xf16> {pl.direction = #pl.direction<out>}, %src: !pld.dtensor<?x256xf16>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  pld.tensor.get %dst to %peer from %src region [%c0, %c0] [%c0, %c0] [%c2, %c256] chunk 1, 128 pipeline : !pl.tensor<?x256xf16>, !pld.dtensor<?x256xf16>
  return
}

// -----

// CHECK-LABEL: func.func @runtime_rows(
// CHECK: %[[STAGE:.*]] = pl.tile.create : !pl.tile<2x256xf32, vec>
// CHECK-NEXT: pld.tile.put %arg0 to %arg2 from %arg1 stage %[[STAGE]] region
func.func @runtime_rows(%dst: !pld.dtensor<?x256xf32>, %src: !pl.tensor<?x256xf32>, %peer: i32, %rows: index) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  pld.tensor.put %dst to %peer from %src region [%c0, %c0] [%c0, %c0] [%rows, %c256] none chunk 2, 0 : !pld.dtensor<?x256xf32>, !pl.tensor<?x256xf32>
  return
}
