// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-lower-math-ops))' | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-lower-math-ops))' | FileCheck %s

!T = !pl.tile<16x64xf32, vec>

// The sine: k = round(x/π) through i32, five parts of π subtracted, the
// sign from floor(k/2), the polynomial, the product (31 ops).
// CHECK-LABEL: func.func @sine(
// CHECK-SAME: %[[X:.*]]: !pl.tile<16x64xf32, vec>)
// CHECK: %[[INV:.*]] = arith.constant 0.318309873 : f32
// CHECK: %[[Q:.*]] = pl.tile.muls %[[X]], %[[INV]]
// CHECK: %[[KI:.*]] = pl.tile.cast %[[Q]] round : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xi32, vec>
// CHECK: %[[K:.*]] = pl.tile.cast %[[KI]] none : !pl.tile<16x64xi32, vec> -> !pl.tile<16x64xf32, vec>
// CHECK: arith.constant 3.140625 : f32
// CHECK: %[[P1:.*]] = pl.tile.muls %[[K]]
// CHECK: pl.tile.sub %[[X]], %[[P1]]
// CHECK-COUNT-4: pl.tile.sub
// CHECK: pl.tile.cast %{{.*}} floor : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xi32, vec>
// CHECK: pl.tile.cast %{{.*}} none : !pl.tile<16x64xi32, vec> -> !pl.tile<16x64xf32, vec>
// CHECK-COUNT-3: pl.tile.mul
// CHECK-NOT: pl.tile.sin
// CHECK: return %{{[0-9]+}} : !pl.tile<16x64xf32, vec>
func.func @sine(%x: !T) -> !T {
  %s = pl.tile.sin %x : !T
  return %s : !T
}

// The cosine: k = rint(x/π + 1/2), and π/2 added in two parts.
// CHECK-LABEL: func.func @cosine(
// CHECK: pl.tile.adds %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, f32
// CHECK: pl.tile.cast %{{.*}} rint
// CHECK: arith.constant 1.57079637 : f32
// CHECK: arith.constant -4.37113883E-8 : f32
// CHECK-NOT: pl.tile.cos
// CHECK: return
func.func @cosine(%x: !T) -> !T {
  %c = pl.tile.cos %x : !T
  return %c : !T
}

// The intermediate tiles keep the view of the input (its valid extents),
// at any rank.
// CHECK-LABEL: func.func @view(
// CHECK: pl.tile.cast %{{.*}} round : !pl.tile<2x8x64xf32, valid = 2x5x64> -> !pl.tile<2x8x64xi32, valid = 2x5x64>
// CHECK-NOT: pl.tile.sin
func.func @view(%x: !pl.tile<2x8x64xf32, valid = 2x5x64>) -> !pl.tile<2x8x64xf32, valid = 2x5x64> {
  %s = pl.tile.sin %x : !pl.tile<2x8x64xf32, valid = 2x5x64>
  return %s : !pl.tile<2x8x64xf32, valid = 2x5x64>
}

// The carrying ops: the first step on lhs and rhs, then the carry added.
// CHECK-LABEL: func.func @carries(
// CHECK-SAME: %[[A:[^:]*]]: !pl.tile<16x64xf16, vec>, %[[B:[^:]*]]: !pl.tile<16x64xf16, vec>, %[[C:[^:]*]]: !pl.tile<16x64xf16, vec>, %[[S:[^:]*]]: f16)
// CHECK-NEXT: %[[ADD:.*]] = pl.tile.add %[[A]], %[[B]] : !pl.tile<16x64xf16, vec>, !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xf16, vec>
// CHECK-NEXT: %[[ADDC:.*]] = pl.tile.add %[[ADD]], %[[C]]
// CHECK-NEXT: %[[SUB:.*]] = pl.tile.sub %[[A]], %[[B]]
// CHECK-NEXT: %[[SUBC:.*]] = pl.tile.add %[[SUB]], %[[C]]
// CHECK-NEXT: %[[ADDS:.*]] = pl.tile.adds %[[A]], %[[S]] : !pl.tile<16x64xf16, vec>, f16
// CHECK-NEXT: %[[ADDSC:.*]] = pl.tile.add %[[ADDS]], %[[C]]
// CHECK-NEXT: %[[SUBS:.*]] = pl.tile.subs %[[A]], %[[S]] : !pl.tile<16x64xf16, vec>, f16
// CHECK-NEXT: %[[SUBSC:.*]] = pl.tile.add %[[SUBS]], %[[C]]
// CHECK-NEXT: return %[[ADDC]], %[[SUBC]], %[[ADDSC]], %[[SUBSC]]
!H = !pl.tile<16x64xf16, vec>
func.func @carries(%a: !H, %b: !H, %c: !H, %s: f16) -> (!H, !H, !H, !H) {
  %0 = pl.tile.addc %a, %b, %c : !H, !H
  %1 = pl.tile.subc %a, %b, %c : !H, !H
  %2 = pl.tile.addsc %a, %s, %c : !H, f16
  %3 = pl.tile.subsc %a, %s, %c : !H, f16
  return %0, %1, %2, %3 : !H, !H, !H, !H
}
