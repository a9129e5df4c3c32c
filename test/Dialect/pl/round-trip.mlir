// Every pl type and op prints in the form it parses from, in pto-opt and in
// stock mlir-opt with the plugin, in custom and generic form.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s

// CHECK-LABEL: func.func @types
// CHECK-SAME: !pl.tensor<?x128xf16>
// CHECK-SAME: !pl.tensor<4x8x16xbf16>
// CHECK-SAME: !pl.tile<64x128xf16>
// CHECK-SAME: !pl.tile<16x16xf32, acc>
// CHECK-SAME: !pl.tile<1x32xi8, bias>
// CHECK-SAME: !pl.tile<8x8xui16, left_scale>
func.func @types(%a: !pl.tensor<?x128xf16>, %b: !pl.tensor<4x8x16xbf16>,
                 %c: !pl.tile<64x128xf16>, %d: !pl.tile<16x16xf32, acc>,
                 %e: !pl.tile<1x32xi8, bias>, %f: !pl.tile<8x8xui16, left_scale>) {
  return
}

// Views print only what differs from the implicit view of the memory space.
// CHECK-LABEL: func.func @views
// CHECK-SAME: !pl.tile<64x128xf16, vec, valid = ?x100, pad = zero>
// CHECK-SAME: !pl.tile<64x1xf32, vec>
// CHECK-SAME: !pl.tile<64x1xf32, vec, blayout = row_major>
// CHECK-SAME: !pl.tile<16x16xf16, mat>
// CHECK-SAME: !pl.tile<1x64xf16, mat, blayout = row_major, slayout = none_box>
// CHECK-SAME: !pl.tile<16x16xf32, acc, fractal = 512>
// CHECK-SAME: !pl.tile<16x16xf16, valid = 8x16>
func.func @views(%a: !pl.tile<64x128xf16, vec, valid = ?x100, pad = zero>,
                 %b: !pl.tile<64x1xf32, vec, blayout = col_major>,
                 %c: !pl.tile<64x1xf32, vec, blayout = row_major>,
                 %d: !pl.tile<16x16xf16, mat, blayout = col_major, slayout = row_major, fractal = 512, pad = null>,
                 %e: !pl.tile<1x64xf16, mat, blayout = row_major, slayout = none_box>,
                 %f: !pl.tile<16x16xf32, acc, fractal = 512>,
                 %g: !pl.tile<16x16xf16, valid = 8x16>,
                 %h: !pl.tile<16x16xf16, valid = 16x16>) {
  return
}

// CHECK-LABEL: func.func @moves
// CHECK: pl.tile.move %{{.*}} : !pl.tile<64x64xf16, mat> -> !pl.tile<64x64xf16, left>
// CHECK: pl.tile.move %{{.*}} : !pl.tile<64x64xf16, mat> -> !pl.tile<64x64xf16, right>
// CHECK: pl.tile.move %{{.*}} : !pl.tile<1x64xf16, mat> -> !pl.tile<1x64xf32, bias>
// CHECK: pl.tile.move %{{.*}} : !pl.tile<16x16xf32, acc> -> !pl.tile<16x16xf32, mat>
// CHECK: pl.tile.move %{{.*}} : !pl.tile<16x16xf32, acc> -> !pl.tile<16x16xf32, vec>
// CHECK: pl.tile.move %{{.*}} : !pl.tile<16x16xf32, vec> -> !pl.tile<16x16xf32, mat>
// CHECK: pl.tile.move %{{.*}} : !pl.tile<16x16xf32> -> !pl.tile<16x16xf32, vec>
func.func @moves(%m: !pl.tile<64x64xf16, mat>, %bm: !pl.tile<1x64xf16, mat>,
                 %acc: !pl.tile<16x16xf32, acc>, %v: !pl.tile<16x16xf32, vec>,
                 %u: !pl.tile<16x16xf32>) {
  %l = pl.tile.move %m : !pl.tile<64x64xf16, mat> -> !pl.tile<64x64xf16, left>
  %r = pl.tile.move %m : !pl.tile<64x64xf16, mat> -> !pl.tile<64x64xf16, right>
  %b = pl.tile.move %bm : !pl.tile<1x64xf16, mat> -> !pl.tile<1x64xf32, bias>
  %am = pl.tile.move %acc : !pl.tile<16x16xf32, acc> -> !pl.tile<16x16xf32, mat>
  %av = pl.tile.move %acc : !pl.tile<16x16xf32, acc> -> !pl.tile<16x16xf32, vec>
  %vm = pl.tile.move %v : !pl.tile<16x16xf32, vec> -> !pl.tile<16x16xf32, mat>
  %uv = pl.tile.move %u : !pl.tile<16x16xf32> -> !pl.tile<16x16xf32, vec>
  return
}

// CHECK-LABEL: func.func @adds
// CHECK: pl.tile.add %{{.*}}, %{{.*}} : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
// CHECK: pl.tile.add %{{.*}}, %{{.*}} : !pl.tile<16x64xf16>, !pl.tile<16x1xf32> -> !pl.tile<16x64xf32>
// CHECK: pl.tile.add %{{.*}}, %{{.*}} : !pl.tile<8xi32>, !pl.tile<4x1xui32> -> !pl.tile<4x8xi32>
func.func @adds(%a: !pl.tile<16x64xf32, vec>, %h: !pl.tile<16x64xf16>, %col: !pl.tile<16x1xf32>,
                %i: !pl.tile<8xi32>, %u: !pl.tile<4x1xui32>) {
  %0 = pl.tile.add %a, %a : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
  %1 = pl.tile.add %h, %col : !pl.tile<16x64xf16>, !pl.tile<16x1xf32> -> !pl.tile<16x64xf32>
  %2 = pl.tile.add %i, %u : !pl.tile<8xi32>, !pl.tile<4x1xui32> -> !pl.tile<4x8xi32>
  return
}

// Every scalar dtype of PyPTO: builtin MLIR types where MLIR has them,
// pl types for the HiFloat formats.
// CHECK-LABEL: func.func @dtypes
// CHECK-SAME: !pl.tile<4x4xi1>{{.*}}!pl.tile<4x4xi4>{{.*}}!pl.tile<4x4xi8>{{.*}}!pl.tile<4x4xi16>{{.*}}!pl.tile<4x4xi32>{{.*}}!pl.tile<4x4xi64>{{.*}}!pl.tile<4x4xindex>
// CHECK-SAME: !pl.tile<4x4xui4>{{.*}}!pl.tile<4x4xui8>{{.*}}!pl.tile<4x4xui16>{{.*}}!pl.tile<4x4xui32>{{.*}}!pl.tile<4x4xui64>
// CHECK-SAME: !pl.tile<4x4xf4E2M1FN>{{.*}}!pl.tile<4x4xf8E4M3FN>{{.*}}!pl.tile<4x4xf8E5M2>{{.*}}!pl.tile<4x4xf16>{{.*}}!pl.tile<4x4xf32>{{.*}}!pl.tile<4x4xf8E8M0FNU>{{.*}}!pl.tile<4x4xbf16>
// CHECK-SAME: !pl.tile<4x4x!pl.hf4>{{.*}}!pl.tile<4x4x!pl.hf8>{{.*}}!pl.task_id
func.func @dtypes(%b: !pl.tile<4x4xi1>, %i4: !pl.tile<4x4xi4>, %i8: !pl.tile<4x4xi8>, %i16: !pl.tile<4x4xi16>,
                  %i32: !pl.tile<4x4xi32>, %i64: !pl.tile<4x4xi64>, %ix: !pl.tile<4x4xindex>,
                  %u4: !pl.tile<4x4xui4>, %u8: !pl.tile<4x4xui8>, %u16: !pl.tile<4x4xui16>, %u32: !pl.tile<4x4xui32>,
                  %u64: !pl.tile<4x4xui64>, %f4: !pl.tile<4x4xf4E2M1FN>, %f8a: !pl.tile<4x4xf8E4M3FN>,
                  %f8b: !pl.tile<4x4xf8E5M2>, %f16: !pl.tile<4x4xf16>, %f32: !pl.tile<4x4xf32>,
                  %e8: !pl.tile<4x4xf8E8M0FNU>, %bf: !pl.tile<4x4xbf16>, %h4: !pl.tile<4x4x!pl.hf4>,
                  %h8: !pl.tile<4x4x!pl.hf8>, %t: !pl.task_id) {
  return
}

// CHECK-LABEL: func.func @alloc
// CHECK: pl.tile.alloc vec, 32768 : !pl.ptr
// CHECK: pl.tile.alloc mat, 65536 pinned : !pl.ptr
func.func @alloc() {
  %a = pl.tile.alloc vec, 32768 : !pl.ptr
  %b = pl.tile.alloc mat, 65536 pinned : !pl.ptr
  return
}

// A window views as a window.
// CHECK-LABEL: func.func @window_view
// CHECK: pl.tensor.view %{{.*}} : !pld.dtensor<4x256xf32> -> !pld.dtensor<1x1024xf32>
func.func @window_view(%d: !pld.dtensor<4x256xf32>) {
  %v = pl.tensor.view %d : !pld.dtensor<4x256xf32> -> !pld.dtensor<1x1024xf32>
  return
}
