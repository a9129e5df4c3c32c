// Every elementwise tile op round-trips (custom and generic form), in
// pto-opt and in stock mlir-opt with the plugin.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s

!f32t = !pl.tile<16x64xf32, vec>
!f16t = !pl.tile<16x64xf16, vec>
!i32t = !pl.tile<16x64xi32, vec>
!i16t = !pl.tile<16x64xi16, vec>
!mask = !pl.tile<16x32xui8, vec, valid = 16x8>

// CHECK-LABEL: func.func @unary
// CHECK: pl.tile.neg %{{.*}} : !pl.tile<16x64xf32, vec>
// CHECK: pl.tile.exp
// CHECK: pl.tile.sqrt
// CHECK: pl.tile.rsqrt
// CHECK: pl.tile.abs
// CHECK: pl.tile.relu
// CHECK: pl.tile.recip %{{.*}} {high_precision} : !pl.tile<16x64xf32, vec>
// CHECK: pl.tile.log %{{.*}} : !pl.tile<16x64xf16, vec>
// CHECK: pl.tile.sin
// CHECK: pl.tile.cos
// CHECK: pl.tile.not %{{.*}} : !pl.tile<16x64xi16, vec>
func.func @unary(%f: !f32t, %h: !f16t, %s: !i16t) {
  %0 = pl.tile.neg %f : !f32t
  %1 = pl.tile.exp %f : !f32t
  %2 = pl.tile.sqrt %f : !f32t
  %3 = pl.tile.rsqrt %f : !f32t
  %4 = pl.tile.abs %f : !f32t
  %5 = pl.tile.relu %f : !f32t
  %6 = pl.tile.recip %f {high_precision} : !f32t
  %7 = pl.tile.log %h : !f16t
  %8 = pl.tile.sin %f : !f32t
  %9 = pl.tile.cos %f : !f32t
  %10 = pl.tile.not %s : !i16t
  return
}

// CHECK-LABEL: func.func @binary
// CHECK: pl.tile.add %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
// CHECK: pl.tile.sub
// CHECK: pl.tile.mul %{{.*}}, %{{.*}} : !pl.tile<16x64xf16, vec>, !pl.tile<16x1xf32, vec> -> !pl.tile<16x64xf32, vec>
// CHECK: pl.tile.maximum
// CHECK: pl.tile.minimum
// CHECK: pl.tile.fmod
// CHECK: pl.tile.div
// CHECK: pl.tile.and
// CHECK: pl.tile.or
// CHECK: pl.tile.shl %{{.*}}, %{{.*}} : !pl.tile<16x64xi16, vec>, !pl.tile<16x64xi32, vec> -> !pl.tile<16x64xi16, vec>
// CHECK: pl.tile.shr
// CHECK: pl.tile.rem %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<16x64xi32, vec>, !pl.tile<16x64xi32, vec>, !pl.tile<1x128xi32, vec> -> !pl.tile<16x64xi32, vec>
// CHECK: pl.tile.xor
// CHECK: pl.tile.prelu %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
// CHECK: pl.tile.prelu %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec>, !pl.tile<17x32xui8, vec> -> !pl.tile<16x64xf32, vec>
func.func @binary(%f: !f32t, %h: !f16t, %col: !pl.tile<16x1xf32, vec>, %i: !i32t, %s: !i16t, %sign: !pl.tile<17x32xui8, vec>,
                   %quotients: !pl.tile<1x128xi32, vec>, %scratch: !i32t) {
  %0 = pl.tile.add %f, %f : !f32t, !f32t -> !f32t
  %1 = pl.tile.sub %f, %f : !f32t, !f32t -> !f32t
  %2 = pl.tile.mul %h, %col : !f16t, !pl.tile<16x1xf32, vec> -> !f32t
  %3 = pl.tile.maximum %f, %f : !f32t, !f32t -> !f32t
  %4 = pl.tile.minimum %f, %f : !f32t, !f32t -> !f32t
  %5 = pl.tile.fmod %f, %f : !f32t, !f32t -> !f32t
  %6 = pl.tile.div %f, %f : !f32t, !f32t -> !f32t
  %7 = pl.tile.and %i, %i : !i32t, !i32t -> !i32t
  %8 = pl.tile.or %s, %i : !i16t, !i32t -> !i32t
  %9 = pl.tile.shl %s, %i : !i16t, !i32t -> !i16t
  %10 = pl.tile.shr %i, %i : !i32t, !i32t -> !i32t
  %11 = pl.tile.rem %i, %i, %quotients : !i32t, !i32t, !pl.tile<1x128xi32, vec> -> !i32t
  %12 = pl.tile.xor %i, %i, %scratch : !i32t, !i32t, !i32t -> !i32t
  %13 = pl.tile.prelu %f, %f : !f32t, !f32t -> !f32t
  %14 = pl.tile.prelu %f, %f, %sign : !f32t, !f32t, !pl.tile<17x32xui8, vec> -> !f32t
  return
}

// CHECK-LABEL: func.func @scalar
// CHECK: pl.tile.adds %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, f32
// CHECK: pl.tile.subs
// CHECK: pl.tile.muls
// CHECK: pl.tile.divs
// CHECK: pl.tile.maximums
// CHECK: pl.tile.minimums
// CHECK: pl.tile.fmods
// CHECK: pl.tile.ands %{{.*}}, %{{.*}} : !pl.tile<16x64xi32, vec>, i32
// CHECK: pl.tile.ors
// CHECK: pl.tile.shls
// CHECK: pl.tile.shrs
// CHECK: pl.tile.lrelu
// CHECK: pl.tile.expands %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, f32
// CHECK: pl.tile.rems %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<16x64xi32, vec>, i32
// CHECK: pl.tile.xors %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<16x64xi32, vec>, i32
func.func @scalar(%f: !f32t, %x: f32, %i: !i32t, %n: i32, %scratch: !i32t) {
  %0 = pl.tile.adds %f, %x : !f32t, f32
  %1 = pl.tile.subs %f, %x : !f32t, f32
  %2 = pl.tile.muls %f, %x : !f32t, f32
  %3 = pl.tile.divs %f, %x : !f32t, f32
  %4 = pl.tile.maximums %f, %x : !f32t, f32
  %5 = pl.tile.minimums %f, %x : !f32t, f32
  %6 = pl.tile.fmods %f, %x : !f32t, f32
  %7 = pl.tile.ands %i, %n : !i32t, i32
  %8 = pl.tile.ors %i, %n : !i32t, i32
  %9 = pl.tile.shls %i, %n : !i32t, i32
  %10 = pl.tile.shrs %i, %n : !i32t, i32
  %11 = pl.tile.lrelu %f, %x : !f32t, f32
  %12 = pl.tile.expands %f, %x : !f32t, f32
  %13 = pl.tile.rems %i, %n, %scratch : !i32t, i32
  %14 = pl.tile.xors %i, %n, %scratch : !i32t, i32
  return
}

// CHECK-LABEL: func.func @compare_select_cast
// CHECK: pl.tile.cmp %{{.*}}, %{{.*}} lt : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x32xui8, vec, valid = 16x8>
// CHECK: pl.tile.cmps %{{.*}}, %{{.*}} ge : !pl.tile<16x64xf32, vec>, f32 -> !pl.tile<16x32xui8, vec, valid = 16x8>
// CHECK: pl.tile.sel %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<16x32xui8, vec, valid = 16x8>, !pl.tile<16x64xf32, vec>
// CHECK: pl.tile.sels %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<16x32xui8, vec, valid = 16x8>, !pl.tile<16x64xf32, vec>, f32
// CHECK: pl.tile.cast %{{.*}} round : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf16, vec>
// CHECK: pl.tile.cast %{{.*}} trunc : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xi32, vec>
// CHECK: pl.tile.cmp %{{.*}}, %{{.*}} eq : !pl.tile<4x300xi32, vec, valid = 4x?>, !pl.tile<4x300xi32, vec, valid = 4x?> -> !pl.tile<4x64xui8, vec, valid = 4x?>
func.func @compare_select_cast(%f: !f32t, %x: f32, %p: !pl.tile<4x300xi32, vec, valid = 4x?>, %scratch: !f32t) {
  %m = pl.tile.cmp %f, %f lt : !f32t, !f32t -> !mask
  %ms = pl.tile.cmps %f, %x ge : !f32t, f32 -> !mask
  %s = pl.tile.sel %m, %f, %f, %scratch : !mask, !f32t
  %ss = pl.tile.sels %m, %f, %x, %scratch : !mask, !f32t, f32
  %h = pl.tile.cast %f round : !f32t -> !f16t
  %i = pl.tile.cast %f trunc : !f32t -> !i32t
  %pm = pl.tile.cmp %p, %p eq : !pl.tile<4x300xi32, vec, valid = 4x?>, !pl.tile<4x300xi32, vec, valid = 4x?> -> !pl.tile<4x64xui8, vec, valid = 4x?>
  return
}
