// Reductions and broadcasts round-trip (custom and generic form), in
// pto-opt and in stock mlir-opt with the plugin.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s

!t = !pl.tile<16x64xf32, vec>
!tmp = !pl.tile<16x128xf32, vec>
!col = !pl.tile<16x1xf32, vec>
!row = !pl.tile<1x64xf32, vec>
!row1 = !pl.tile<1x64xf32, vec>

// CHECK-LABEL: func.func @rows
// CHECK: pl.tile.row_sum %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<16x128xf32, vec> -> !pl.tile<16x1xf32, vec>
// CHECK: pl.tile.row_max
// CHECK: pl.tile.row_min
// CHECK: pl.tile.row_prod
// CHECK: pl.tile.row_argmax %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x1xi32, vec>
// CHECK: pl.tile.row_argmin
// CHECK: pl.tile.row_sum %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec, valid = ?x64>, !pl.tile<16x128xf32, vec> -> !pl.tile<16x1xf32, vec, valid = ?x1>
// CHECK: pl.tile.row_sum %{{.*}}, %{{.*}} : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xf32, vec> -> !pl.tile<1x1xf32, vec>
// CHECK: pl.tile.row_max %{{.*}}, %{{.*}} : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xf32, vec> -> !pl.tile<1x1xf32, vec, blayout = col_major>
func.func @rows(%t: !t, %tmp: !tmp, %p: !pl.tile<16x64xf32, vec, valid = ?x64>, %scratch: !t, %one: !row1, %one_tmp: !row1) {
  %0 = pl.tile.row_sum %t, %tmp : !t, !tmp -> !col
  %1 = pl.tile.row_max %t, %tmp : !t, !tmp -> !col
  %2 = pl.tile.row_min %t, %tmp : !t, !tmp -> !col
  %3 = pl.tile.row_prod %t, %tmp : !t, !tmp -> !col
  %4 = pl.tile.row_argmax %t, %scratch : !t, !t -> !pl.tile<16x1xi32, vec>
  %5 = pl.tile.row_argmin %t, %scratch : !t, !t -> !pl.tile<16x1xi32, vec>
  %6 = pl.tile.row_sum %p, %tmp : !pl.tile<16x64xf32, vec, valid = ?x64>, !tmp -> !pl.tile<16x1xf32, vec, valid = ?x1>
  // A single row's [1, 1] result: row_major (implicit) or col_major.
  %7 = pl.tile.row_sum %one, %one_tmp : !row1, !row1 -> !pl.tile<1x1xf32, vec>
  %8 = pl.tile.row_max %one, %one_tmp : !row1, !row1 -> !pl.tile<1x1xf32, vec, blayout = col_major>
  return
}

// CHECK-LABEL: func.func @columns
// CHECK: pl.tile.col_sum %{{.*}} : !pl.tile<16x64xf32, vec> -> !pl.tile<1x64xf32, vec>
// CHECK: pl.tile.col_sum %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<16x128xf32, vec> -> !pl.tile<1x64xf32, vec>
// CHECK: pl.tile.col_max
// CHECK: pl.tile.col_min
// CHECK: pl.tile.col_prod
// CHECK: pl.tile.col_argmax %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<1x64xi32, vec>
// CHECK: pl.tile.col_argmin
func.func @columns(%t: !t, %tmp: !tmp, %scratch: !t) {
  %0 = pl.tile.col_sum %t : !t -> !row
  %1 = pl.tile.col_sum %t, %tmp : !t, !tmp -> !row
  %2 = pl.tile.col_max %t : !t -> !row
  %3 = pl.tile.col_min %t : !t -> !row
  %4 = pl.tile.col_prod %t : !t -> !row
  %5 = pl.tile.col_argmax %t, %scratch : !t, !t -> !pl.tile<1x64xi32, vec>
  %6 = pl.tile.col_argmin %t, %scratch : !t, !t -> !pl.tile<1x64xi32, vec>
  return
}

// CHECK-LABEL: func.func @broadcasts
// CHECK: pl.tile.row_expand %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<16x1xf32, vec> -> !pl.tile<16x64xf32, vec>
// CHECK: pl.tile.row_expand_add
// CHECK: pl.tile.row_expand_sub
// CHECK: pl.tile.row_expand_mul
// CHECK: pl.tile.row_expand_div
// CHECK: pl.tile.row_expand_max
// CHECK: pl.tile.row_expand_min
// CHECK: pl.tile.row_expand_expdif
// CHECK: pl.tile.col_expand %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<1x64xf32, vec> -> !pl.tile<16x64xf32, vec>
// CHECK: pl.tile.col_expand_add
// CHECK: pl.tile.col_expand_sub
// CHECK: pl.tile.col_expand_mul
// CHECK: pl.tile.col_expand_div
// CHECK: pl.tile.col_expand_max
// CHECK: pl.tile.col_expand_min
// CHECK: pl.tile.col_expand_expdif
// CHECK: pl.tile.row_expand_mul %{{.*}}, %{{.*}} : !pl.tile<16x64xf16, vec>, !pl.tile<16x1xf32, vec> -> !pl.tile<16x64xf32, vec>
func.func @broadcasts(%t: !t, %c: !col, %r: !row, %h: !pl.tile<16x64xf16, vec>) {
  %0 = pl.tile.row_expand %t, %c : !t, !col -> !t
  %1 = pl.tile.row_expand_add %t, %c : !t, !col -> !t
  %2 = pl.tile.row_expand_sub %t, %c : !t, !col -> !t
  %3 = pl.tile.row_expand_mul %t, %c : !t, !col -> !t
  %4 = pl.tile.row_expand_div %t, %c : !t, !col -> !t
  %5 = pl.tile.row_expand_max %t, %c : !t, !col -> !t
  %6 = pl.tile.row_expand_min %t, %c : !t, !col -> !t
  %7 = pl.tile.row_expand_expdif %t, %c : !t, !col -> !t
  %8 = pl.tile.col_expand %t, %r : !t, !row -> !t
  %9 = pl.tile.col_expand_add %t, %r : !t, !row -> !t
  %10 = pl.tile.col_expand_sub %t, %r : !t, !row -> !t
  %11 = pl.tile.col_expand_mul %t, %r : !t, !row -> !t
  %12 = pl.tile.col_expand_div %t, %r : !t, !row -> !t
  %13 = pl.tile.col_expand_max %t, %r : !t, !row -> !t
  %14 = pl.tile.col_expand_min %t, %r : !t, !row -> !t
  %15 = pl.tile.col_expand_expdif %t, %r : !t, !row -> !t
  %16 = pl.tile.row_expand_mul %h, %c : !pl.tile<16x64xf16, vec>, !col -> !t
  return
}
