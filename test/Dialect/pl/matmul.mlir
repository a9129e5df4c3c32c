// The matmul family round-trips (custom and generic form), in pto-opt and
// in stock mlir-opt with the plugin.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s

// CHECK-LABEL: func.func @matmuls
// CHECK: pl.tile.matmul %{{.*}}, %{{.*}} : !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right> -> !pl.tile<64x128xf32, acc>
// CHECK: pl.tile.matmul_acc %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<64x128xf32, acc>, !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right>
// CHECK: pl.tile.matmul_acc %{{.*}}, %{{.*}}, %{{.*}} init %{{.*}} : !pl.tile<64x128xf32, acc>
// CHECK: pl.tile.matmul_bias %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right>, !pl.tile<1x128xf32, bias> -> !pl.tile<64x128xf32, acc>
// CHECK: pl.tile.matmul %{{.*}}, %{{.*}} : !pl.tile<32x32xi8, mat>, !pl.tile<32x32xi8, mat> -> !pl.tile<32x32xi32>
// CHECK: pl.tile.matmul %{{.*}}, %{{.*}} : !pl.tile<64x32xf16, left, valid = ?x20>, !pl.tile<32x128xf16, right, valid = 24x100> -> !pl.tile<64x128xf32, acc, valid = ?x100>
func.func @matmuls(%a: !pl.tile<64x32xf16, left>, %b: !pl.tile<32x128xf16, right>,
                   %bias: !pl.tile<1x128xf32, bias>, %first: i1,
                   %ia: !pl.tile<32x32xi8, mat>,
                   %pa: !pl.tile<64x32xf16, left, valid = ?x20>, %pb: !pl.tile<32x128xf16, right, valid = 24x100>) {
  %c = pl.tile.matmul %a, %b : !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right> -> !pl.tile<64x128xf32, acc>
  %c2 = pl.tile.matmul_acc %c, %a, %b : !pl.tile<64x128xf32, acc>, !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right>
  %c3 = pl.tile.matmul_acc %c2, %a, %b init %first : !pl.tile<64x128xf32, acc>, !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right>
  %d = pl.tile.matmul_bias %a, %b, %bias : !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right>, !pl.tile<1x128xf32, bias> -> !pl.tile<64x128xf32, acc>
  %i = pl.tile.matmul %ia, %ia : !pl.tile<32x32xi8, mat>, !pl.tile<32x32xi8, mat> -> !pl.tile<32x32xi32>
  %p = pl.tile.matmul %pa, %pb : !pl.tile<64x32xf16, left, valid = ?x20>, !pl.tile<32x128xf16, right, valid = 24x100> -> !pl.tile<64x128xf32, acc, valid = ?x100>
  return
}

// CHECK-LABEL: func.func @gemvs
// CHECK: pl.tile.gemv %{{.*}}, %{{.*}} unspecified : !pl.tile<1x64xbf16, left>, !pl.tile<64x128xbf16, right> -> !pl.tile<1x128xf32, acc>
// CHECK: pl.tile.gemv_acc %{{.*}}, %{{.*}}, %{{.*}} final : !pl.tile<1x128xf32, acc>
// CHECK: pl.tile.gemv_bias %{{.*}}, %{{.*}}, %{{.*}} partial : !pl.tile<1x64xbf16, left>, !pl.tile<64x128xbf16, right>, !pl.tile<1x128xf32, bias> -> !pl.tile<1x128xf32, acc>
// CHECK: pl.tile.gemv %{{.*}}, %{{.*}} unspecified : !pl.tile<1x64xi8, left>, !pl.tile<64x128xi8, right> -> !pl.tile<1x128xi32, acc>
func.func @gemvs(%x: !pl.tile<1x64xbf16, left>, %w: !pl.tile<64x128xbf16, right>, %bias: !pl.tile<1x128xf32, bias>,
                 %xi: !pl.tile<1x64xi8, left>, %wi: !pl.tile<64x128xi8, right>) {
  %c = pl.tile.gemv %x, %w unspecified : !pl.tile<1x64xbf16, left>, !pl.tile<64x128xbf16, right> -> !pl.tile<1x128xf32, acc>
  %c2 = pl.tile.gemv_acc %c, %x, %w final : !pl.tile<1x128xf32, acc>, !pl.tile<1x64xbf16, left>, !pl.tile<64x128xbf16, right>
  %d = pl.tile.gemv_bias %x, %w, %bias partial : !pl.tile<1x64xbf16, left>, !pl.tile<64x128xbf16, right>, !pl.tile<1x128xf32, bias> -> !pl.tile<1x128xf32, acc>
  %i = pl.tile.gemv %xi, %wi unspecified : !pl.tile<1x64xi8, left>, !pl.tile<64x128xi8, right> -> !pl.tile<1x128xi32, acc>
  return
}

// CHECK-LABEL: func.func @batched
// CHECK: pl.tile.batch_matmul %{{.*}}, %{{.*}} : !pl.tile<4x16x32xf16, left>, !pl.tile<1x32x16xf16, right> -> !pl.tile<4x16x16xf32, acc>
// CHECK: pl.tile.batch_matmul_acc %{{.*}}, %{{.*}}, %{{.*}} : !pl.tile<4x16x16xf32, acc>
func.func @batched(%a: !pl.tile<4x16x32xf16, left>, %b: !pl.tile<1x32x16xf16, right>) {
  %c = pl.tile.batch_matmul %a, %b : !pl.tile<4x16x32xf16, left>, !pl.tile<1x32x16xf16, right> -> !pl.tile<4x16x16xf32, acc>
  %c2 = pl.tile.batch_matmul_acc %c, %a, %b : !pl.tile<4x16x16xf32, acc>, !pl.tile<4x16x32xf16, left>, !pl.tile<1x32x16xf16, right>
  return
}
