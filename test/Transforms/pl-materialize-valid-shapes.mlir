// RUN: pto-opt --verify-roundtrip %s --split-input-file --pass-pipeline='builtin.module(pl-materialize-valid-shapes)' | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --split-input-file --pass-pipeline='builtin.module(pl-materialize-valid-shapes)' | FileCheck %s

// A parameter with a runtime valid column count: the kernel takes the
// whole tensor and the count, and sets the valid region first; the caller
// passes the tensor its set_validshape narrowed, and the count. The
// set_validshape the caller no longer reads goes.
!S = !pl.tensor<16x64xf32>
!SV = !pl.tensor<16x64xf32, valid = 16x?>
// CHECK-LABEL: func.func @masked(
// CHECK-SAME: %[[S:.*]]: !pl.tensor<16x64xf32>, %[[N:.*]]: index) -> !pl.tensor<16x64xf32>
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[V:.*]] = pl.tensor.set_validshape %[[S]], %[[C16]], %[[N]] : !pl.tensor<16x64xf32> -> !pl.tensor<16x64xf32, valid = 16x?>
// CHECK-NEXT: pl.tensor.fillpad %[[V]] zero
func.func @masked(%s: !SV) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %f = pl.tensor.fillpad %s zero : !SV -> !pl.tensor<16x64xf32, pad = zero>
  %r = pl.tensor.view %f : !pl.tensor<16x64xf32, pad = zero> -> !S
  return %r : !S
}
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<16x64xf32>, %[[LEN:.*]]: index)
// CHECK-NOT: pl.tensor.set_validshape
// CHECK: pl.call @masked(%[[X]], %[[LEN]]) : (!pl.tensor<16x64xf32>, index) -> !pl.tensor<16x64xf32>
// CHECK: pl.submit @masked(%[[X]], %[[LEN]])
func.func @main(%x: !S, %len: index) -> (!S, !S) attributes {pl.kind = #pl.kind<orchestration>} {
  %c16 = arith.constant 16 : index
  %v = pl.tensor.set_validshape %x, %c16, %len : !S -> !SV
  %a = pl.call @masked(%v) : (!SV) -> !S
  %b, %t = pl.submit @masked(%v) : (!SV) -> !S
  return %a, %b : !S, !S
}

// -----

// Both extents at run time, after a parameter with a static valid region
// (left as it is) and before a scalar: the extents come last, in order.
!X = !pl.tensor<8x32xf16>
!XV = !pl.tensor<8x32xf16, valid = ?x?>
!XS = !pl.tensor<8x32xf16, valid = 8x16>
// CHECK-LABEL: func.func @corner(
// CHECK-SAME: %{{.*}}: !pl.tensor<8x32xf16, valid = 8x16>, %[[X:.*]]: !pl.tensor<8x32xf16>, %{{.*}}: f16, %[[R:.*]]: index, %[[C:.*]]: index)
// CHECK-NEXT: pl.tensor.set_validshape %[[X]], %[[R]], %[[C]] : !pl.tensor<8x32xf16> -> !pl.tensor<8x32xf16, valid = ?x?>
func.func @corner(%s: !XS, %x: !XV, %k: f16) -> !pl.tensor<16x48xf16, pad = zero> attributes {pl.kind = #pl.kind<aiv>} {
  %e = pl.tensor.fillpad_expand %x zero : !XV -> !pl.tensor<16x48xf16, pad = zero>
  return %e : !pl.tensor<16x48xf16, pad = zero>
}
// CHECK-LABEL: func.func @caller(
// CHECK: %[[KEPT:.*]] = pl.tensor.set_validshape %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<8x32xf16> -> !pl.tensor<8x32xf16, valid = ?x?>
// CHECK: pl.call @corner(%{{.*}}, %arg1, %{{.*}}, %arg2, %arg3) : (!pl.tensor<8x32xf16, valid = 8x16>, !pl.tensor<8x32xf16>, f16, index, index)
// CHECK: pl.tensor.read %[[KEPT]]
func.func @caller(%s: !XS, %x: !X, %r: index, %c: index, %k: f16) -> f16 attributes {pl.kind = #pl.kind<orchestration>} {
  %v = pl.tensor.set_validshape %x, %r, %c : !X -> !XV
  %e = pl.call @corner(%s, %v, %k) : (!XS, !XV, f16) -> !pl.tensor<16x48xf16, pad = zero>
  %c0 = arith.constant 0 : index
  %first = pl.tensor.read %v[%c0, %c0] : !XV -> f16
  return %first : f16
}
