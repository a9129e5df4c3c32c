// Tensor types and tensor-level ops round-trip (custom and generic form),
// in pto-opt and in stock mlir-opt with the plugin.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s

!T = !pl.tensor<?x64xf32>

// CHECK-LABEL: func.func @types
// CHECK-SAME: !pl.tensor<4x8xf32>
// CHECK-SAME: !pl.tensor<128x64xf16, dn>
// CHECK-SAME: !pl.tensor<64x64xf32, strides = [128, 1], valid = ?x64, pad = zero>
// CHECK-SAME: !pl.tensor<8x?xi8, strides = [?, 1]>
// CHECK-SAME: !pl.tensor<f32>
func.func @types(%a: !pl.tensor<4x8xf32, nd, valid = 4x8, pad = null>,
                 %b: !pl.tensor<128x64xf16, dn>,
                 %c: !pl.tensor<64x64xf32, strides = [128, 1], valid = ?x64, pad = zero>,
                 %d: !pl.tensor<8x?xi8, strides = [?, 1]>, %e: !pl.tensor<f32>) {
  return
}

// CHECK-LABEL: func.func @creation_and_views
// CHECK: pl.tensor.create(%{{.*}}) : !pl.tensor<?x64xf32>
// CHECK: pl.tensor.full %{{.*}}(%{{.*}}) : f32 -> !pl.tensor<?x64xf32>
// CHECK: pl.tensor.dim %{{.*}}, 0 : !pl.tensor<?x64xf32>
// CHECK: pl.tensor.view %{{.*}} : !pl.tensor<128x64xf16> -> !pl.tensor<64x128xf16, dn>
// CHECK: pl.tensor.reshape %{{.*}} : !pl.tensor<4x16x32xf16> -> !pl.tensor<64x32xf16>
// CHECK: pl.tensor.slice %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<?x64xf32> -> !pl.tensor<16x64xf32>
// CHECK: pl.tensor.slice %{{.*}}[%{{.*}}, %{{.*}}] sizes(%{{.*}}) clamp : !pl.tensor<?x64xf32> -> !pl.tensor<?x64xf32>
// CHECK: pl.tensor.transpose %{{.*}} axes 0, 1 : !pl.tensor<16x64xf32> -> !pl.tensor<64x16xf32>
// CHECK: pl.tensor.concat %{{.*}}, %{{.*}} axis 1 : !pl.tensor<16x32xf32>, !pl.tensor<16x64xf32> -> !pl.tensor<16x96xf32>
// CHECK: pl.tensor.cast %{{.*}} round : !pl.tensor<?x64xf32> -> !pl.tensor<?x64xf16>
// CHECK: pl.tensor.fillpad %{{.*}} zero : !pl.tensor<16x64xf32, valid = 16x?> -> !pl.tensor<16x64xf32, pad = zero>
// CHECK: pl.tensor.fillpad_expand %{{.*}} min : !pl.tensor<16x64xf32, valid = 16x?> -> !pl.tensor<32x64xf32, pad = min>
// CHECK: pl.tensor.set_validshape %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<16x64xf32> -> !pl.tensor<16x64xf32, valid = ?x?>
// CHECK: pl.tensor.read %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<?x64xf32> -> f32
// CHECK: pl.tensor.write %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !pl.tensor<?x64xf32>, f32
// CHECK: pl.tensor.assemble %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] atomic_add : !pl.tensor<16x64xf32>, !pl.tensor<?x64xf32>
// CHECK: pl.tensor.expand_clone %{{.*}} into %{{.*}} : !pl.tensor<4x1x64xf32>, !pl.tensor<4x16x64xf32>
// CHECK: pl.tensor.create_l1 : !pl.tensor<64x128xf16>
func.func @creation_and_views(%m: index, %x: f32, %h: !pl.tensor<128x64xf16>, %n: !pl.tensor<4x16x32xf16>,
                              %s: !pl.tensor<16x64xf32>, %a: !pl.tensor<16x32xf32>,
                              %p: !pl.tensor<16x64xf32, valid = 16x?>) {
  %c0 = arith.constant 0 : index
  %t = pl.tensor.create(%m) : !T
  %f = pl.tensor.full %x (%m) : f32 -> !T
  %d = pl.tensor.dim %t, 0 : !T
  %v = pl.tensor.view %h : !pl.tensor<128x64xf16> -> !pl.tensor<64x128xf16, dn>
  %r = pl.tensor.reshape %n : !pl.tensor<4x16x32xf16> -> !pl.tensor<64x32xf16>
  %sl = pl.tensor.slice %t[%m, %c0] : !T -> !pl.tensor<16x64xf32>
  %sd = pl.tensor.slice %t[%m, %c0] sizes(%m) clamp : !T -> !T
  %tr = pl.tensor.transpose %s axes 0, 1 : !pl.tensor<16x64xf32> -> !pl.tensor<64x16xf32>
  %cc = pl.tensor.concat %a, %s axis 1 : !pl.tensor<16x32xf32>, !pl.tensor<16x64xf32> -> !pl.tensor<16x96xf32>
  %ca = pl.tensor.cast %t round : !T -> !pl.tensor<?x64xf16>
  %fp = pl.tensor.fillpad %p zero : !pl.tensor<16x64xf32, valid = 16x?> -> !pl.tensor<16x64xf32, pad = zero>
  %fe = pl.tensor.fillpad_expand %p min : !pl.tensor<16x64xf32, valid = 16x?> -> !pl.tensor<32x64xf32, pad = min>
  %sv = pl.tensor.set_validshape %s, %m, %c0 : !pl.tensor<16x64xf32> -> !pl.tensor<16x64xf32, valid = ?x?>
  %rd = pl.tensor.read %t[%m, %c0] : !T -> f32
  %wr = pl.tensor.write %t[%m, %c0], %rd : !T, f32
  %as = pl.tensor.assemble %s into %wr[%m, %c0] atomic_add : !pl.tensor<16x64xf32>, !T
  %row = pl.tensor.create() : !pl.tensor<4x1x64xf32>
  %all = pl.tensor.create() : !pl.tensor<4x16x64xf32>
  %ec = pl.tensor.expand_clone %row into %all : !pl.tensor<4x1x64xf32>, !pl.tensor<4x16x64xf32>
  %l1 = pl.tensor.create_l1 : !pl.tensor<64x128xf16>
  return
}

// CHECK-LABEL: func.func @compute
// CHECK: pl.tensor.exp %{{.*}} : !pl.tensor<?x64xf32>
// CHECK: pl.tensor.add %{{.*}}, %{{.*}} : !pl.tensor<?x64xf32>, !pl.tensor<?x1xf32> -> !pl.tensor<?x64xf32>
// CHECK: pl.tensor.muls %{{.*}}, %{{.*}} : !pl.tensor<?x64xf32>, f32
// CHECK: pl.tensor.col_max %{{.*}} : !pl.tensor<?x64xf32> -> !pl.tensor<1x64xf32>
// CHECK: pl.tensor.col_argmax %{{.*}} : !pl.tensor<?x64xf32> -> !pl.tensor<1x64xi32>
// CHECK: pl.tensor.matmul %{{.*}}, %{{.*}} : !pl.tensor<?x64xf16>, !pl.tensor<64x128xf16> -> !pl.tensor<?x128xf32>
// CHECK: pl.tensor.matmul %{{.*}}, %{{.*}} {b_trans} : !pl.tensor<?x64xf16>, !pl.tensor<128x64xf16> -> !pl.tensor<?x128xf32>
// CHECK: pl.tensor.matmul %{{.*}}, %{{.*}} : !pl.tensor<64xf16>, !pl.tensor<64xf16> -> !pl.tensor<f32>
// CHECK: pl.tensor.matmul %{{.*}}, %{{.*}} : !pl.tensor<4x?x64xf16>, !pl.tensor<1x64x8xf16> -> !pl.tensor<4x?x8xf32>
// CHECK: pl.tensor.matmul_acc %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<?x128xf32>, !pl.tensor<?x64xf16>, !pl.tensor<64x128xf16>
// CHECK: pl.tensor.relu
// CHECK: pl.tensor.rem
// CHECK: pl.tensor.prelu
// CHECK: pl.tensor.maximums
// CHECK: pl.tensor.minimums
// CHECK: pl.tensor.rems
// CHECK: pl.tensor.lrelu
// CHECK: pl.tensor.cmp %{{.*}}, %{{.*}} lt : !pl.tensor<?x64xf32>, !pl.tensor<?x64xf32> -> !pl.tensor<?x64xi1>
// CHECK: pl.tensor.cmps %{{.*}}, %{{.*}} ge : !pl.tensor<?x64xf32>, f32 -> !pl.tensor<?x64xi1>
// CHECK: pl.tensor.sel %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<?x64xi1>, !pl.tensor<?x64xf32>
// CHECK: pl.tensor.sels %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<?x64xi1>, !pl.tensor<?x64xf32>, f32
// CHECK: pl.tensor.row_expand_sub %{{.*}}, %{{.*}} : !pl.tensor<?x64xf32>, !pl.tensor<?x1xf32> -> !pl.tensor<?x64xf32>
// CHECK: pl.tensor.col_expand_mul %{{.*}}, %{{.*}} : !pl.tensor<?x64xf32>, !pl.tensor<1x64xf32> -> !pl.tensor<?x64xf32>
func.func @compute(%t: !T, %col: !pl.tensor<?x1xf32>, %x: f32, %a: !pl.tensor<?x64xf16>, %b: !pl.tensor<64x128xf16>,
                   %bt: !pl.tensor<128x64xf16>, %v: !pl.tensor<64xf16>, %ba: !pl.tensor<4x?x64xf16>,
                   %bb: !pl.tensor<1x64x8xf16>) {
  %0 = pl.tensor.exp %t : !T
  %1 = pl.tensor.add %t, %col : !T, !pl.tensor<?x1xf32> -> !T
  %2 = pl.tensor.muls %t, %x : !T, f32
  %3 = pl.tensor.col_max %t : !T -> !pl.tensor<1x64xf32>
  %4 = pl.tensor.col_argmax %t : !T -> !pl.tensor<1x64xi32>
  %5 = pl.tensor.matmul %a, %b : !pl.tensor<?x64xf16>, !pl.tensor<64x128xf16> -> !pl.tensor<?x128xf32>
  %6 = pl.tensor.matmul %a, %bt {b_trans} : !pl.tensor<?x64xf16>, !pl.tensor<128x64xf16> -> !pl.tensor<?x128xf32>
  %7 = pl.tensor.matmul %v, %v : !pl.tensor<64xf16>, !pl.tensor<64xf16> -> !pl.tensor<f32>
  %8 = pl.tensor.matmul %ba, %bb : !pl.tensor<4x?x64xf16>, !pl.tensor<1x64x8xf16> -> !pl.tensor<4x?x8xf32>
  %9 = pl.tensor.matmul_acc %5, %a, %b : !pl.tensor<?x128xf32>, !pl.tensor<?x64xf16>, !pl.tensor<64x128xf16>
  %10 = pl.tensor.relu %t : !T
  %11 = pl.tensor.rem %t, %t : !T, !T -> !T
  %12 = pl.tensor.prelu %t, %t : !T, !T -> !T
  %13 = pl.tensor.maximums %t, %x : !T, f32
  %14 = pl.tensor.minimums %t, %x : !T, f32
  %15 = pl.tensor.rems %t, %x : !T, f32
  %16 = pl.tensor.lrelu %t, %x : !T, f32
  %m = pl.tensor.cmp %t, %t lt : !T, !T -> !pl.tensor<?x64xi1>
  %ms = pl.tensor.cmps %t, %x ge : !T, f32 -> !pl.tensor<?x64xi1>
  %s = pl.tensor.sel %m, %t, %t : !pl.tensor<?x64xi1>, !T
  %ss = pl.tensor.sels %m, %t, %x : !pl.tensor<?x64xi1>, !T, f32
  %re = pl.tensor.row_expand_sub %t, %col : !T, !pl.tensor<?x1xf32> -> !T
  %ce = pl.tensor.col_expand_mul %t, %3 : !T, !pl.tensor<1x64xf32> -> !T
  return
}
