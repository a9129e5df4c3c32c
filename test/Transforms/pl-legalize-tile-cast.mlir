// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-legalize-tile-cast))' | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(func.func(pl-legalize-tile-cast))' | FileCheck %s

// A one-step pair stays as it is.
// CHECK-LABEL: func.func @one_step(
// CHECK-NEXT: %[[H:.*]] = pl.tile.cast %{{.*}} rint : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf16, vec>
// CHECK-NEXT: return %[[H]]
func.func @one_step(%x: !pl.tile<16x64xf32, vec>) -> !pl.tile<16x64xf16, vec> {
  %h = pl.tile.cast %x rint : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf16, vec>
  return %h : !pl.tile<16x64xf16, vec>
}

// f32 to i8 goes through f16, each step with the cast's mode.
// CHECK-LABEL: func.func @f32_to_i8(
// CHECK-SAME: %[[X:.*]]: !pl.tile<16x64xf32, vec>)
// CHECK-NEXT: %[[H:.*]] = pl.tile.cast %[[X]] floor : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf16, vec>
// CHECK-NEXT: %[[Q:.*]] = pl.tile.cast %[[H]] floor : !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xi8, vec>
// CHECK-NEXT: return %[[Q]]
func.func @f32_to_i8(%x: !pl.tile<16x64xf32, vec>) -> !pl.tile<16x64xi8, vec> {
  %q = pl.tile.cast %x floor : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xi8, vec>
  return %q : !pl.tile<16x64xi8, vec>
}

// bf16 to i8: three steps; the intermediate tiles keep the view.
// CHECK-LABEL: func.func @bf16_to_i8(
// CHECK-NEXT: pl.tile.cast %{{.*}} rint : !pl.tile<16x64xbf16, vec, valid = 16x40> -> !pl.tile<16x64xf32, vec, valid = 16x40>
// CHECK-NEXT: pl.tile.cast %{{.*}} rint : !pl.tile<16x64xf32, vec, valid = 16x40> -> !pl.tile<16x64xf16, vec, valid = 16x40>
// CHECK-NEXT: pl.tile.cast %{{.*}} rint : !pl.tile<16x64xf16, vec, valid = 16x40> -> !pl.tile<16x64xi8, vec, valid = 16x40>
func.func @bf16_to_i8(%x: !pl.tile<16x64xbf16, vec, valid = 16x40>) -> !pl.tile<16x64xi8, vec, valid = 16x40> {
  %q = pl.tile.cast %x rint : !pl.tile<16x64xbf16, vec, valid = 16x40> -> !pl.tile<16x64xi8, vec, valid = 16x40>
  return %q : !pl.tile<16x64xi8, vec, valid = 16x40>
}

// Widening through a type that holds every value of the source: i16 to
// i32 through f32, i8 to f32 and ui8 to i32 through f16.
// CHECK-LABEL: func.func @widen(
// CHECK-NEXT: pl.tile.cast %{{.*}} none : !pl.tile<16x64xi16, vec> -> !pl.tile<16x64xf32, vec>
// CHECK-NEXT: pl.tile.cast %{{.*}} none : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xi32, vec>
// CHECK-NEXT: pl.tile.cast %{{.*}} none : !pl.tile<16x64xi8, vec> -> !pl.tile<16x64xf16, vec>
// CHECK-NEXT: pl.tile.cast %{{.*}} none : !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xf32, vec>
// CHECK-NEXT: pl.tile.cast %{{.*}} none : !pl.tile<16x64xui8, vec> -> !pl.tile<16x64xf16, vec>
// CHECK-NEXT: pl.tile.cast %{{.*}} none : !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xi32, vec>
func.func @widen(%a: !pl.tile<16x64xi16, vec>, %b: !pl.tile<16x64xi8, vec>, %c: !pl.tile<16x64xui8, vec>)
    -> (!pl.tile<16x64xi32, vec>, !pl.tile<16x64xf32, vec>, !pl.tile<16x64xi32, vec>) {
  %0 = pl.tile.cast %a none : !pl.tile<16x64xi16, vec> -> !pl.tile<16x64xi32, vec>
  %1 = pl.tile.cast %b none : !pl.tile<16x64xi8, vec> -> !pl.tile<16x64xf32, vec>
  %2 = pl.tile.cast %c none : !pl.tile<16x64xui8, vec> -> !pl.tile<16x64xi32, vec>
  return %0, %1, %2 : !pl.tile<16x64xi32, vec>, !pl.tile<16x64xf32, vec>, !pl.tile<16x64xi32, vec>
}
