// Partial and carrying arithmetic, joins, masks, growing fills and the
// tensor-level block queries round-trip (custom and generic form), in
// pto-opt and in stock mlir-opt with the plugin.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s

!T = !pl.tile<16x32xf32, vec>
!V = !pl.tile<16x32xf32, vec, valid = ?x32>

// CHECK-LABEL: func.func @tiles
// CHECK: pl.tile.part_add %{{.*}}, %{{.*}} : !pl.tile<16x32xf32, vec>, !pl.tile<16x32xf32, vec, valid = ?x32>
// CHECK: pl.tile.part_max %{{.*}}, %{{.*}} : !pl.tile<16x32xf32, vec>, !pl.tile<16x32xf32, vec>
// CHECK: pl.tile.part_min
// CHECK: pl.tile.part_mul
// CHECK: pl.tile.addc %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<16x32xf32, vec>, !pl.tile<16x32xf32, vec>
// CHECK: pl.tile.subc
// CHECK: pl.tile.addsc %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<16x32xf32, vec>, f32
// CHECK: pl.tile.subsc
// CHECK: pl.tile.concat %{{.*}}, %{{.*}} : !pl.tile<16x32xf32, vec>, !pl.tile<16x16xf32, vec> -> !pl.tile<16x48xf32, vec>
// CHECK: pl.tile.tri %{{.*}} : i32 -> !pl.tile<16x32xf32, vec>
// CHECK: pl.tile.tri %{{.*}} upper : i32 -> !pl.tile<8x8xui16>
// CHECK: pl.tile.fillpad_inplace %{{.*}} zero : !pl.tile<16x32xf32, vec, valid = ?x32> -> !pl.tile<16x32xf32, vec, pad = zero>
// CHECK: pl.tile.fillpad_expand %{{.*}} min : !pl.tile<16x32xf32, vec, valid = ?x32> -> !pl.tile<32x64xf32, vec, pad = min>
func.func @tiles(%a: !T, %b: !V, %c: !T, %h: !pl.tile<16x16xf32, vec>, %s: f32, %d: i32) {
  %0 = pl.tile.part_add %a, %b : !T, !V
  %1 = pl.tile.part_max %a, %c : !T, !T
  %2 = pl.tile.part_min %a, %c : !T, !T
  %3 = pl.tile.part_mul %a, %b : !T, !V
  %4 = pl.tile.addc %a, %c, %a : !T, !T
  %5 = pl.tile.subc %a, %c, %a : !T, !T
  %6 = pl.tile.addsc %a, %s, %c : !T, f32
  %7 = pl.tile.subsc %a, %s, %c : !T, f32
  %8 = pl.tile.concat %a, %h : !T, !pl.tile<16x16xf32, vec> -> !pl.tile<16x48xf32, vec>
  %9 = pl.tile.tri %d : i32 -> !T
  %10 = pl.tile.tri %d upper : i32 -> !pl.tile<8x8xui16>
  %11 = pl.tile.fillpad_inplace %b zero : !V -> !pl.tile<16x32xf32, vec, pad = zero>
  %12 = pl.tile.fillpad_expand %b min : !V -> !pl.tile<32x64xf32, vec, pad = min>
  return
}

// CHECK-LABEL: func.func @tensors
// CHECK: pl.tensor.part_add %{{.*}}, %{{.*}} : !pl.tensor<?x32xf16>
// CHECK: pl.tensor.part_max
// CHECK: pl.tensor.part_min
// CHECK: pl.tensor.part_mul
// CHECK: pl.tensor.get_block_idx
// CHECK: pl.tensor.get_block_num
// CHECK: pl.tensor.get_subblock_idx
func.func @tensors(%a: !pl.tensor<?x32xf16>, %b: !pl.tensor<?x32xf16>) {
  %0 = pl.tensor.part_add %a, %b : !pl.tensor<?x32xf16>
  %1 = pl.tensor.part_max %a, %b : !pl.tensor<?x32xf16>
  %2 = pl.tensor.part_min %a, %b : !pl.tensor<?x32xf16>
  %3 = pl.tensor.part_mul %a, %b : !pl.tensor<?x32xf16>
  %i = pl.tensor.get_block_idx
  %n = pl.tensor.get_block_num
  %s = pl.tensor.get_subblock_idx
  return
}
