// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-to-emitc | FileCheck %s
// The output prints as C++ after the upstream conversions.
// RUN: pto-opt --verify-roundtrip %s --split-input-file --pass-pipeline='builtin.module(convert-pl-to-emitc, canonicalize, cse, arith-expand, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)' | mlir-translate --split-input-file --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// A planned, synchronised vector kernel: tiles bound to their addresses,
// window loads and stores through GlobalTensors, flags on pipes.
// CHECK: emitc.include <"cstdint">
// CHECK-NEXT: emitc.include "pto/pto-inst.hpp"
// CHECK-NEXT: emitc.verbatim "using namespace pto;"
// CHECK-LABEL: emitc.func @scale(
// CHECK-SAME: %[[X:.*]]: !emitc.ptr<!emitc.opaque<"__gm__ float">>, %[[Y:.*]]: !emitc.ptr<!emitc.opaque<"__gm__ float">>)
// CHECK-SAME: specifiers = ["__global__", "AICORE"]
// CHECK: %[[T:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 16, 64, SLayout::NoneBox, 512, PadValue::Null>"()
// CHECK-NEXT: {{.*}}call_opaque "TASSIGN"(%[[T]]) {args = [0 : index, 0]}
// CHECK: %[[G:.*]] = {{.*}}call_opaque "GlobalTensor<float, pto::Shape<1, 1, 1, 16, 64>, pto::Stride<1024, 1024, 1024, 64, 1>, pto::Layout::ND>"(%{{.*}})
// CHECK-NEXT: {{.*}}call_opaque "TLOAD"(%[[T]], %[[G]])
// CHECK: {{.*}}call_opaque "set_flag"() {args = [#emitc.opaque<"PIPE_MTE2">, #emitc.opaque<"PIPE_V">, #emitc.opaque<"EVENT_ID0">]}
// CHECK: {{.*}}call_opaque "wait_flag"() {args = [#emitc.opaque<"PIPE_MTE2">, #emitc.opaque<"PIPE_V">, #emitc.opaque<"EVENT_ID0">]}
// CHECK: %[[M:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 16, 64
// CHECK-NEXT: {{.*}}call_opaque "TASSIGN"(%[[M]]) {args = [0 : index, 4096]}
// CHECK-NEXT: {{.*}}call_opaque "TMULS"(%[[M]], %[[T]], %{{.*}})
// CHECK: {{.*}}call_opaque "TSTORE"(%{{.*}}, %[[M]])
// CHECK: {{.*}}call_opaque "pipe_barrier"() {args = [#emitc.opaque<"PIPE_ALL">]}
// CHECK-NEXT: return
// CHECK-NOT: pl.
// CPP-LABEL: __global__ AICORE void scale(__gm__ float* v1, __gm__ float* v2) {
// CPP: TASSIGN(v{{[0-9]+}}, 0);
// CPP: TLOAD(v{{[0-9]+}}, v{{[0-9]+}});
// CPP: set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
// CPP: TMULS(
// CPP: TSTORE(
// CPP: pipe_barrier(PIPE_ALL);
!T = !pl.tensor<16x64xf32>
!V = !pl.tile<16x64xf32, vec>
func.func @scale(%x: !T, %y: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 8192 : i64}} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !T -> !V
  pl.system.sync_src set mte2 wait v event 0
  pl.system.sync_dst set mte2 wait v event 0
  %m = pl.tile.muls %t, %two {pl.addresses = array<i64: 4096>} : !V, f32
  pl.system.sync_src set v wait mte3 event 0
  pl.system.sync_dst set v wait mte3 event 0
  %r = pl.tile.store %m, %y[%c0, %c0] : !V, !T
  pl.system.pipe_barrier all
  return %r : !T
}

// -----

// A loop-carried accumulator is dropped from the loop (one buffer); the
// first step initialises it.
// CHECK-LABEL: emitc.func @acc(
// CHECK: %[[ACC:.*]] = {{.*}}call_opaque "Tile<TileType::Acc, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 1024, PadValue::Null>"()
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[L:.*]] = {{.*}}call_opaque "Tile<TileType::Left, half, 16, 16, BLayout::RowMajor, 16, 16, SLayout::RowMajor, 512, PadValue::Null>"()
// CHECK: {{.*}}call_opaque "TEXTRACT"(%[[L]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: {{.*}}call_opaque "TMATMUL"(%[[N:.*]], %[[L]], %{{.*}})
// CHECK: } else {
// CHECK-NEXT: {{.*}}call_opaque "TMATMUL_ACC"(%[[N]], %[[ACC]], %[[L]], %{{.*}})
// CHECK: {{.*}}call_opaque "TSTORE"(%{{.*}}, %[[ACC]])
func.func @acc(%a: !pl.tensor<16x32xf16>, %b: !pl.tensor<32x16xf16>, %c: !pl.tensor<16x16xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x16xf32>
    attributes {pl.kind = #pl.kind<aic>, pl.memory = {acc = 1024 : i64}} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %am = pl.tile.load %a[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16, mat>
  %bm = pl.tile.load %b[%c0, %c0] {pl.addresses = array<i64: 1024>} : !pl.tensor<32x16xf16> -> !pl.tile<32x16xf16, mat>
  %init = pl.tile.create {pl.addresses = array<i64: 0>} : !pl.tile<16x16xf32, acc>
  %r = scf.for %k = %c0 to %c32 step %c16 iter_args(%p = %init) -> (!pl.tile<16x16xf32, acc>) {
    %l = pl.tile.extract %am[%c0, %k] {pl.addresses = array<i64: 0>} : !pl.tile<16x32xf16, mat> -> !pl.tile<16x16xf16, left>
    %rr = pl.tile.extract %bm[%k, %c0] {pl.addresses = array<i64: 0>} : !pl.tile<32x16xf16, mat> -> !pl.tile<16x16xf16, right>
    %first = arith.cmpi eq, %k, %c0 : index
    %n = pl.tile.matmul_acc %p, %l, %rr init %first {pl.addresses = array<i64: 0>} : !pl.tile<16x16xf32, acc>, !pl.tile<16x16xf16, left>, !pl.tile<16x16xf16, right>
    scf.yield %n : !pl.tile<16x16xf32, acc>
  } {pl.addresses = array<i64: 0>}
  %s = pl.tile.store %r, %c[%c0, %c0] : !pl.tile<16x16xf32, acc>, !pl.tensor<16x16xf32>
  return %s : !pl.tensor<16x16xf32>
}

// -----

// A dynamic leading extent is one more size_t parameter; a clamped load
// of a runtime number of rows builds its tile with that extent (the
// constructor takes only the dynamic extents, as pto-isa's do), and the
// results of later ops take it over.
// CHECK-LABEL: emitc.func @rows(
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ float">>, %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ float">>, %{{.*}}: !emitc.size_t, %{{.*}}: !emitc.size_t)
// CHECK: %[[N:.*]] = builtin.unrealized_conversion_cast %arg2 : !emitc.size_t to index
// CHECK: %[[LEFT:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[VALID:.*]] = arith.minsi %{{.*}}, %[[LEFT]] : index
// CHECK: %[[ROWS:.*]] = arith.index_cast %[[VALID]] : index to i64
// CHECK: %[[T:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, -1, 64, SLayout::NoneBox, 512, PadValue::Null>"(%[[ROWS]]) :
// CHECK: {{.*}}call_opaque "TEXP"(%[[E:.*]], %[[T]])
func.func @rows(%x: !pl.tensor<?x64xf32>, %y: !pl.tensor<?x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<?x64xf32> attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 8192 : i64}} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %n = pl.tensor.dim %x, 0 : !pl.tensor<?x64xf32>
  %t = pl.tile.load %x[%c0, %c0] valid(%c16) clamp {pl.addresses = array<i64: 0>} : !pl.tensor<?x64xf32> -> !pl.tile<16x64xf32, vec, valid = ?x64>
  pl.system.sync_src set mte2 wait v event 0
  pl.system.sync_dst set mte2 wait v event 0
  %e = pl.tile.exp %t {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec, valid = ?x64>
  pl.system.sync_src set v wait mte3 event 0
  pl.system.sync_dst set v wait mte3 event 0
  %r = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<16x64xf32, vec, valid = ?x64>, !pl.tensor<?x64xf32>
  pl.system.pipe_barrier all
  return %r : !pl.tensor<?x64xf32>
}

// -----

// pto-isa's operands: the scratch an instruction writes (TPRELU, TTRANS;
// TSELS's before its scalar; TCOLSUM's with isBinary false), none where it
// takes none (TCOLMAX drops the op's), only the scalar for TEXPANDS, and
// both types spelled out for an atomic store.
// CPP-LABEL: void forms(
// CPP: TPRELU(v{{[0-9]+}}, v[[X:[0-9]+]], v[[X]], v{{[0-9]+}});
// CPP: TTRANS(v{{[0-9]+}}, v[[X]], v{{[0-9]+}});
// CPP: TSELS(v{{[0-9]+}}, v{{[0-9]+}}, v[[X]], v[[SCRATCH:[0-9]+]], v{{[0-9]+}});
// CPP: TCOLSUM(v{{[0-9]+}}, v[[X]], v[[SCRATCH]], false);
// CPP: TCOLMAX(v{{[0-9]+}}, v[[X]]);
// CPP: TEXPANDS(v{{[0-9]+}}, v{{[0-9]+}});
// CPP: TSTORE<Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 16, 64, SLayout::NoneBox, 512, PadValue::Null>, GlobalTensor<float, pto::Shape<1, 1, 1, 16, 64>, pto::Stride<1024, 1024, 1024, 64, 1>, pto::Layout::ND>, AtomicType::AtomicAdd>(v{{[0-9]+}}, v[[X]]);
!T = !pl.tensor<16x64xf32>
!V = !pl.tile<16x64xf32, vec>
func.func @forms(%x: !T, %y: !T {pl.direction = #pl.direction<inout>}, %p: !T {pl.direction = #pl.direction<out>},
                 %q: !pl.tensor<64x16xf32> {pl.direction = #pl.direction<out>}, %s: !T {pl.direction = #pl.direction<out>},
                 %cs: !pl.tensor<1x64xf32> {pl.direction = #pl.direction<out>}, %cm: !pl.tensor<1x64xf32> {pl.direction = #pl.direction<out>},
                 %e: !T {pl.direction = #pl.direction<out>})
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !T -> !V
  %sign = pl.tile.create {pl.addresses = array<i64: 4096>} : !pl.tile<17x32xui8, vec>
  %0 = pl.tile.prelu %t, %t, %sign {pl.addresses = array<i64: 8192>} : !V, !V, !pl.tile<17x32xui8, vec> -> !V
  %tt = pl.tile.create {pl.addresses = array<i64: 12288>} : !pl.tile<64x16xf32, vec>
  %1 = pl.tile.transpose %t axes 0, 1, %tt {pl.addresses = array<i64: 16384>} : !V, !pl.tile<64x16xf32, vec> -> !pl.tile<64x16xf32, vec>
  %m = pl.tile.cmps %t, %zero ge {pl.addresses = array<i64: 20480>} : !V, f32 -> !pl.tile<16x32xui8, vec, valid = 16x8>
  %scratch = pl.tile.create {pl.addresses = array<i64: 24576>} : !V
  %2 = pl.tile.sels %m, %t, %half, %scratch {pl.addresses = array<i64: 28672>} : !pl.tile<16x32xui8, vec, valid = 16x8>, !V, f32
  %3 = pl.tile.col_sum %t, %scratch {pl.addresses = array<i64: 32768>} : !V, !V -> !pl.tile<1x64xf32, vec>
  %4 = pl.tile.col_max %t, %scratch {pl.addresses = array<i64: 33024>} : !V, !V -> !pl.tile<1x64xf32, vec>
  %5 = pl.tile.expands %t, %half {pl.addresses = array<i64: 36864>} : !V, f32
  %r0 = pl.tile.store %0, %p[%c0, %c0] : !V, !T
  %r1 = pl.tile.store %1, %q[%c0, %c0] : !pl.tile<64x16xf32, vec>, !pl.tensor<64x16xf32>
  %r2 = pl.tile.store %2, %s[%c0, %c0] : !V, !T
  %r3 = pl.tile.store %3, %cs[%c0, %c0] : !pl.tile<1x64xf32, vec>, !pl.tensor<1x64xf32>
  %r4 = pl.tile.store %4, %cm[%c0, %c0] : !pl.tile<1x64xf32, vec>, !pl.tensor<1x64xf32>
  %r5 = pl.tile.store %5, %e[%c0, %c0] : !V, !T
  %r6 = pl.tile.store %t, %y[%c0, %c0] atomic_add : !V, !T
  return
}

// -----

// pto-isa's forms: an unboxed tile's rows are stored 32-byte aligned (a
// 1x2 i32 tile is declared 1x8 with 1x2 valid; element indices count in
// the stored row); a tile with runtime valid rows moves a window of
// exactly those rows (a dynamic pto::Shape extent); TPUT takes its staging
// tile; cache invalidation names cache_line_t's constant.
// CHECK-LABEL: emitc.func @pto_isa_forms(
// CHECK: %[[CELL:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 2, SLayout::NoneBox, 512, PadValue::Null>"()
// CHECK: %[[TAIL:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 32, 256, BLayout::RowMajor, -1, 256, SLayout::NoneBox, 512, PadValue::Null>"(%{{.*}})
// CHECK: %[[SHAPE:.*]] = {{.*}}call_opaque "pto::Shape<1, 1, 1, -1, 256>"(%{{.*}}) {args = [1, 1, 1, 0 : index, 256]}
// CHECK-NEXT: %[[WINDOW:.*]] = {{.*}}call_opaque "GlobalTensor<float, pto::Shape<1, 1, 1, -1, 256>, pto::Stride<{{.*}}, 256, 1>, pto::Layout::ND>"(%{{.*}}, %[[SHAPE]])
// CHECK-NEXT: {{.*}}call_opaque "TLOAD"(%[[TAIL]], %[[WINDOW]])
// CHECK: call_opaque "pto::comm::TPUT"(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: call_opaque "dcci"() {args = [#emitc.opaque<"(__gm__ void*)0">, #emitc.opaque<"cache_line_t::ENTIRE_DATA_CACHE">]}
// CPP-LABEL: __global__ AICORE void pto_isa_forms(
// CPP: .SetValue(
// CPP: pto::Shape<1, 1, 1, -1, 256> [[SHAPE:v[0-9]+]] = pto::Shape<1, 1, 1, -1, 256>(1, 1, 1, {{v[0-9]+}}, 256);
// CPP: pto::comm::TPUT(
// CPP: dcci((__gm__ void*)0, cache_line_t::ENTIRE_DATA_CACHE);
func.func @pto_isa_forms(%x: !pl.tensor<?x256xf32>, %y: !pl.tensor<?x256xf32> {pl.direction = #pl.direction<out>},
                         %cells: !pl.tensor<4x2xi32> {pl.direction = #pl.direction<out>},
                         %box: !pld.dtensor<4x256xf32> {pl.direction = #pl.direction<out>},
                         %peer: i32, %n: i32, %ctx: !pld.comm_ctx)
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %cell = pl.tile.create {pl.addresses = array<i64: 0>} : !pl.tile<1x2xi32, vec>
  %cell1 = pl.tile.write %cell[%c0, %c1], %n {pl.addresses = array<i64: 0>} : !pl.tile<1x2xi32, vec>, i32
  %stored = pl.tile.store %cell1, %cells[%c1, %c0] : !pl.tile<1x2xi32, vec>, !pl.tensor<4x2xi32>
  %rows = pl.tensor.dim %x, 0 : !pl.tensor<?x256xf32>
  %left = arith.subi %rows, %c32 : index
  %tail = pl.tile.load %x[%c32, %c0] valid(%left) {pl.addresses = array<i64: 1024>} : !pl.tensor<?x256xf32> -> !pl.tile<32x256xf32, vec, valid = ?x256>
  %out = pl.tile.store %tail, %y[%c32, %c0] : !pl.tile<32x256xf32, vec, valid = ?x256>, !pl.tensor<?x256xf32>
  %stage = pl.tile.create {pl.addresses = array<i64: 65536>} : !pl.tile<1x256xf32, vec>
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  pld.tile.put %box to %peer from %x stage %stage region [%c0, %c0] [%c0, %c0] [%c4, %c256] none : !pld.dtensor<4x256xf32>, !pl.tensor<?x256xf32>, !pl.tile<1x256xf32, vec>
  pl.system.cacheinvalid
  return
}

// -----

// Scalar accesses to global memory (pl.tensor.read / pl.tensor.write):
// the guarded helpers at the row-major element index, from the static and
// the kernel's runtime extents; the write's result is the tensor.

// CHECK-LABEL: emitc.func @scalars(
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[V:.*]] = call_opaque "pto_gm_read"(%{{.*}}, %[[I]]) : ({{.*}}, i64) -> f32
// CHECK: call_opaque "pto_gm_write"(%{{.*}}, %{{.*}}, %[[V]]) : ({{.*}}, i64, f32) -> ()
// CPP-LABEL: #define PTO_GM_ACCESS_HELPERS
// CPP: static AICORE inline T pto_gm_read(__gm__ T* tensor, int64_t index) { return tensor[index]; }
// CPP: void scalars(
// CPP: float [[V:v[0-9]+]] = pto_gm_read(
// CPP: pto_gm_write({{v[0-9]+}}, {{v[0-9]+}}, [[V]]);
func.func @scalars(%x: !pl.tensor<?x16xf32>, %y: !pl.tensor<8xf32> {pl.direction = #pl.direction<inout>}, %i: index) attributes {pl.kind = #pl.kind<aiv>} {
  %c3 = arith.constant 3 : index
  %v = pl.tensor.read %x[%i, %c3] : !pl.tensor<?x16xf32> -> f32
  %y2 = pl.tensor.write %y[%c3], %v : !pl.tensor<8xf32>, f32
  return
}

// -----

// A column vector ([16, 1] col_major, what a row reduction makes): its
// elementwise ops run on [1, 16] row-major objects at the same addresses,
// since pto-isa's vector instructions take row-major tiles and a column
// holds its elements in a row's order.

// CHECK-LABEL: emitc.func @columns(
// CHECK: %[[S:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, 16, 1, SLayout::NoneBox, 512, PadValue::Null>"()
// CHECK-NEXT: {{.*}}call_opaque "TASSIGN"(%[[S]]) {args = [0 : index, 0]}
// CHECK: %[[M:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, 16, 1, SLayout::NoneBox, 512, PadValue::Null>"()
// CHECK-NEXT: {{.*}}call_opaque "TASSIGN"(%[[M]]) {args = [0 : index, 64]}
// CHECK-NEXT: %[[MR:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 1, 16, BLayout::RowMajor, 1, 16, SLayout::NoneBox, 512, PadValue::Null>"()
// CHECK-NEXT: {{.*}}call_opaque "TASSIGN"(%[[MR]]) {args = [0 : index, 64]}
// CHECK-NEXT: %[[SR:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 1, 16, BLayout::RowMajor, 1, 16, SLayout::NoneBox, 512, PadValue::Null>"()
// CHECK-NEXT: {{.*}}call_opaque "TASSIGN"(%[[SR]]) {args = [0 : index, 0]}
// CHECK-NEXT: {{.*}}call_opaque "TMULS"(%[[MR]], %[[SR]], %{{.*}})
// CHECK: {{.*}}call_opaque "TSTORE"(%{{.*}}, %[[M]])
// CPP-LABEL: void columns(
// CPP: TMULS(
!Col = !pl.tensor<16x1xf32>
!C = !pl.tile<16x1xf32, vec>
func.func @columns(%x: !Col, %y: !Col {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 8192 : i64}} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !Col -> !C
  pl.system.sync_src set mte2 wait v event 0
  pl.system.sync_dst set mte2 wait v event 0
  %m = pl.tile.muls %t, %two {pl.addresses = array<i64: 64>} : !C, f32
  pl.system.sync_src set v wait mte3 event 0
  pl.system.sync_dst set v wait mte3 event 0
  %r = pl.tile.store %m, %y[%c0, %c0] : !C, !Col
  pl.system.pipe_barrier all
  return
}

// -----

// A column vector valid for a dynamic number of rows (a strip's): its
// row-major alias is valid for as many columns, the same runtime extent.

// CHECK-LABEL: emitc.func @strip_columns(
// CHECK: %[[V:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, -1, 1, SLayout::NoneBox, 512, PadValue::Null>"(%{{.*}})
// CHECK: %[[M:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, -1, 1, SLayout::NoneBox, 512, PadValue::Null>"(%{{.*}})
// CHECK: %[[MR:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 1, 16, BLayout::RowMajor, 1, -1, SLayout::NoneBox, 512, PadValue::Null>"(%{{.*}})
// CHECK: %[[VR:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 1, 16, BLayout::RowMajor, 1, -1, SLayout::NoneBox, 512, PadValue::Null>"(%{{.*}})
// CHECK: {{.*}}call_opaque "TMULS"(%[[MR]], %[[VR]], %{{.*}})
// CPP-LABEL: void strip_columns(
// CPP: TMULS(
!Col = !pl.tensor<?x1xf32>
!C = !pl.tile<16x1xf32, vec, valid = ?x1>
func.func @strip_columns(%x: !Col, %y: !Col {pl.direction = #pl.direction<out>}, %n: index) attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 8192 : i64}} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %t = pl.tile.load %x[%c0, %c0] valid(%n) {pl.addresses = array<i64: 0>} : !Col -> !C
  pl.system.sync_src set mte2 wait v event 0
  pl.system.sync_dst set mte2 wait v event 0
  %m = pl.tile.muls %t, %two {pl.addresses = array<i64: 64>} : !C, f32
  pl.system.sync_src set v wait mte3 event 0
  pl.system.sync_dst set v wait mte3 event 0
  %r = pl.tile.store %m, %y[%c0, %c0] : !C, !Col
  pl.system.pipe_barrier all
  return
}

// -----

// Boxed (fractal) tiles are stored in whole inner boxes: a 32x24 f16 tile
// in mat (16 rows by 32 bytes per box) is declared 32x32, valid 32x24.

// CHECK-LABEL: emitc.func @odd_cube(
// CHECK: call_opaque "Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, 32, 24, SLayout::RowMajor, 512, PadValue::Null>"()
// CPP-LABEL: void odd_cube(
// CPP: Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, 32, 24, SLayout::RowMajor, 512, PadValue::Null>
func.func @odd_cube(%w: !pl.tensor<32x24xf16>) attributes {pl.kind = #pl.kind<aic>, pl.memory = {mat = 2048 : i64}} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %w[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<32x24xf16> -> !pl.tile<32x24xf16, mat>
  pl.system.pipe_barrier all
  return
}

// -----

// A transposed view of an L1 tile is another object at its address, of
// the other fractal layout (nz read as zn: row-major blocks of column-major
// boxes), which the move into L0B transposes.
// CHECK-LABEL: emitc.func @transposed_keys(
// CHECK: %[[NZ:.*]] = {{.*}}call_opaque "Tile<TileType::Mat, half, 32, 64, BLayout::ColMajor, 32, 64, SLayout::RowMajor, 512, PadValue::Null>"()
// CHECK: call_opaque "TASSIGN"(%[[NZ]]) {args = [0 : index, 0]}
// CHECK: %[[ZN:.*]] = {{.*}}call_opaque "Tile<TileType::Mat, half, 64, 32, BLayout::RowMajor, 64, 32, SLayout::ColMajor, 512, PadValue::Null>"()
// CHECK-NEXT: call_opaque "TASSIGN"(%[[ZN]]) {args = [0 : index, 0]}
// CHECK: call_opaque "TMOV"(%{{.*}}, %[[ZN]])
func.func @transposed_keys(%k: !pl.tensor<32x64xf16>) attributes {pl.kind = #pl.kind<aic>, pl.memory = {mat = 4096 : i64, right = 4096 : i64}} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %k[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16, mat>
  pl.system.sync_src set mte2 wait mte1 event 0
  pl.system.sync_dst set mte2 wait mte1 event 0
  %v = pl.tile.transpose_view %t {pl.addresses = array<i64: 0>} : !pl.tile<32x64xf16, mat> -> !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major>
  %r = pl.tile.move %v {pl.addresses = array<i64: 0>} : !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major> -> !pl.tile<64x32xf16, right>
  pl.system.pipe_barrier all
  return
}

// -----

// Index sequences, sorts and gathers: pto-isa's TCI names the tile type,
// its element type and the direction; TMRGSORT of lists names every tile
// type and `exhausted`, and takes a count list pl has no result for;
// TGATHER's mask form names both tile types and the pattern; a
// reinterpreted tile is another object at its source's address.
// CHECK-LABEL: emitc.func @indexing(
// CHECK: %[[SEQ:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, uint32_t, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512, PadValue::Null>"()
// CHECK: call_opaque "TCI"(%[[SEQ]], %{{.*}}) {template_args = [!emitc.opaque<"Tile<TileType::Vec, uint32_t, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512, PadValue::Null>">, !emitc.opaque<"uint32_t">, #emitc.opaque<"1">]}
// CHECK: call_opaque "TSORT32"(%{{.*}}, %{{.*}}, %[[SEQ]])
// CHECK: call_opaque "TMRGSORT"(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[COUNTS:.*]] = {{.*}}call_opaque "MrgSortExecutedNumList"()
// CHECK: call_opaque "TMRGSORT"(%{{.*}}, %[[COUNTS]], %{{.*}}, %{{.*}}, %{{.*}}) {template_args = [{{.*}}, #emitc.opaque<"true">]}
// CHECK: call_opaque "TGATHER"(%{{.*}}, %{{.*}}) {template_args = [!emitc.opaque<"Tile<TileType::Vec, int32_t, 1, 32, {{.*}}>">, !emitc.opaque<"Tile<TileType::Vec, float, 1, 64, {{.*}}>">, #emitc.opaque<"MaskPattern::P1010">]}
// CHECK: %[[VIEW:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 1, 32, {{.*}}>"()
// CHECK-NEXT: call_opaque "TASSIGN"(%[[VIEW]]) {args = [0 : index, 1536]}
// CHECK: call_opaque "TGATHER"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: call_opaque "TGATHERB"(%{{.*}}, %{{.*}}, %[[SEQ]])
// CHECK: call_opaque "MGATHER"(%{{.*}}, %{{.*}}, %{{.*}}) {template_args = [#emitc.opaque<"Coalesce::Elem">, #emitc.opaque<"GatherOOB::Wrap">]}
// CPP-LABEL: __global__ AICORE void indexing(
// CPP: TCI<Tile<TileType::Vec, uint32_t, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512, PadValue::Null>, uint32_t, 1>(
// CPP: MrgSortExecutedNumList [[COUNTS:v[0-9]+]] = MrgSortExecutedNumList();
// CPP: TMRGSORT<{{.*}}, true>({{v[0-9]+}}, [[COUNTS]],
// CPP: TGATHER<{{.*}}, MaskPattern::P1010>(
// CPP: MGATHER<Coalesce::Elem, GatherOOB::Wrap>(
func.func @indexing(%x: !pl.tensor<1x64xf32>, %y: !pl.tensor<1x32xf32> {pl.direction = #pl.direction<out>})
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %start = arith.constant 63 : i32
  %block = arith.constant 64 : i32
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<1x64xf32> -> !pl.tile<1x64xf32, vec>
  %seq = pl.tile.ci %start descending {pl.addresses = array<i64: 256>} : i32 -> !pl.tile<1x64xui32, vec>
  %p = pl.tile.sort32 %t, %seq {pl.addresses = array<i64: 512>} : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xui32, vec> -> !pl.tile<1x128xf32, vec>
  %r = pl.tile.mrgsort_format1 %p, %block {pl.addresses = array<i64: 1024>} : !pl.tile<1x128xf32, vec>, i32
  %lo = pl.tile.slice %p[%c0, %c0] {pl.addresses = array<i64: 1536>} : !pl.tile<1x128xf32, vec> -> !pl.tile<1x64xf32, vec>
  %hi = pl.tile.slice %p[%c0, %c64] {pl.addresses = array<i64: 1792>} : !pl.tile<1x128xf32, vec> -> !pl.tile<1x64xf32, vec>
  %tmp = pl.tile.create {pl.addresses = array<i64: 2048>} : !pl.tile<1x128xf32, vec>
  %m = pl.tile.mrgsort_format2 %lo, %hi tmp %tmp exhausted {pl.addresses = array<i64: 2560>} : (!pl.tile<1x64xf32, vec>, !pl.tile<1x64xf32, vec>), !pl.tile<1x128xf32, vec> -> !pl.tile<1x64xf32, vec>
  %k = pl.tile.gather_mask %m p1010 {pl.addresses = array<i64: 1536>} : !pl.tile<1x64xf32, vec> -> !pl.tile<1x32xi32, vec>
  %kf = pl.tile.reinterpret_view %k {pl.addresses = array<i64: 1536>} : !pl.tile<1x32xi32, vec> -> !pl.tile<1x32xf32, vec>
  %gt = pl.tile.create {pl.addresses = array<i64: 2048>} : !pl.tile<1x32xi32, vec>
  %g = pl.tile.gather %t, %k, %gt {pl.addresses = array<i64: 2304>} : !pl.tile<1x64xf32, vec>, !pl.tile<1x32xi32, vec>, !pl.tile<1x32xi32, vec> -> !pl.tile<1x32xf32, vec>
  %o = pl.tile.store %g, %y[%c0, %c0] : !pl.tile<1x32xf32, vec>, !pl.tensor<1x32xf32>
  %gb = pl.tile.gatherb %t, %seq {pl.addresses = array<i64: 4096>} : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xui32, vec> -> !pl.tile<1x512xf32, vec>
  %mg = pl.tile.mgather %x[%k] elem oob wrap {pl.addresses = array<i64: 6144>} : !pl.tensor<1x64xf32>, !pl.tile<1x32xi32, vec> -> !pl.tile<1x32xf32, vec>
  return
}

// -----

// A kernel's array is a zeroed C array on its stack, read and written in
// place at i64 subscripts; the loop carrying it carries nothing.
// CHECK-LABEL: emitc.func @counters
// CHECK: %[[A:.*]] = "emitc.variable"() <{value = #emitc.opaque<"{0}">}> : () -> !emitc.array<4xi32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[AT:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[CELL:.*]] = emitc.subscript %[[A]][%[[AT]]] : (!emitc.array<4xi32>, i64) -> !emitc.lvalue<i32>
// CHECK: %[[N:.*]] = emitc.load %[[CELL]]
// CHECK: %[[N1:.*]] = arith.addi %[[N]], %{{.*}} : i32
// CHECK: %[[CELL2:.*]] = emitc.subscript %[[A]][%{{.*}}]
// CHECK: emitc.assign %[[N1]] : i32 to %[[CELL2]]
// CPP-LABEL: __global__ AICORE void counters(
// CPP: int32_t [[A:v[0-9]+]][4] = {0};
// CPP: [[A]][{{v[0-9]+}}] = {{v[0-9]+}};
func.func @counters(%out: !pl.tensor<1x4xi32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  %empty = pl.array.create : !pl.array<i32, 4>
  %a = scf.for %i = %c0 to %c4 step %c1 iter_args(%b = %empty) -> (!pl.array<i32, 4>) {
    %n = pl.array.get_element %b[%i] : !pl.array<i32, 4> -> i32
    %n1 = arith.addi %n, %one : i32
    %b2 = pl.array.update_element %b[%i], %n1 : !pl.array<i32, 4>, i32
    scf.yield %b2 : !pl.array<i32, 4>
  }
  %v = pl.array.get_element %a[%c1] : !pl.array<i32, 4> -> i32
  pl.tensor.write %out[%c0, %c0], %v : !pl.tensor<1x4xi32>, i32
  return
}

// -----

// Arrays are values: an update of an array read after it works on a copy
// (a fresh array and a loop over its elements), so the later read sees
// the array as it was.
// CPP-LABEL: __global__ AICORE void array_read_after_update(
// CPP: int32_t [[A:v[0-9]+]][4] = {0};
// CPP-NEXT: int32_t [[C:v[0-9]+]][4] = {0};
// CPP-NEXT: for (size_t [[I:i[0-9]+]] =
// CPP: int32_t [[E:v[0-9]+]] = [[A]][[[J:v[0-9]+]]];
// CPP-NEXT: [[C]][[[J]]] = [[E]];
// CPP-NEXT: }
// CPP: [[C]][[[K:v[0-9]+]]] = {{v[0-9]+}};
// CPP-NEXT: int32_t {{v[0-9]+}} = [[A]][[[K]]];
// CPP-NEXT: int32_t {{v[0-9]+}} = [[C]][[[K]]];
func.func @array_read_after_update(%out: !pl.tensor<1x4xi32> {pl.direction = #pl.direction<inout>}, %i: index, %v: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.array.create : !pl.array<i32, 4>
  %b = pl.array.update_element %a[%i], %v : !pl.array<i32, 4>, i32
  %n = pl.array.get_element %a[%i] : !pl.array<i32, 4> -> i32
  %m = pl.array.get_element %b[%i] : !pl.array<i32, 4> -> i32
  %s = arith.addi %n, %m : i32
  pl.tensor.write %out[%c0, %c0], %s : !pl.tensor<1x4xi32>, i32
  return
}

// -----

// A tile scatter zeroes its destination (TEXPANDS of the element type's
// zero, `{}`), as a2a3's TSCATTER does and pto-isa's CPU backend does not,
// then scatters.
// CHECK-LABEL: emitc.func @scatter
// CHECK: %[[D:.*]] = {{.*}}call_opaque "Tile<TileType::Vec, float, 4, 8, {{.*}}>"()
// CHECK: call_opaque "TEXPANDS"(%[[D]]) {args = [0 : index, #emitc.opaque<"{}">]}
// CHECK-NEXT: call_opaque "TSCATTER"(%[[D]], %{{.*}}, %{{.*}})
// CPP-LABEL: __global__ AICORE void scatter(
// CPP: TEXPANDS([[D:v[0-9]+]], {});
// CPP-NEXT: TSCATTER([[D]], {{v[0-9]+}}, {{v[0-9]+}});
// The masked form names its pattern.
// CHECK: call_opaque "TSCATTER"(%{{.*}}, %{{.*}}) {template_args = [#emitc.opaque<"MaskPattern::P0101">]}
// CPP: TSCATTER<MaskPattern::P0101>({{v[0-9]+}}, {{v[0-9]+}});
func.func @scatter(%x: !pl.tensor<2x8xf32>, %at: !pl.tensor<2x8xi32>, %y: !pl.tensor<4x8xf32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<2x8xf32> -> !pl.tile<2x8xf32, vec>
  %i = pl.tile.load %at[%c0, %c0] {pl.addresses = array<i64: 64>} : !pl.tensor<2x8xi32> -> !pl.tile<2x8xi32, vec>
  %s = pl.tile.scatter %t, %i {pl.addresses = array<i64: 128>} : !pl.tile<2x8xf32, vec>, !pl.tile<2x8xi32, vec> -> !pl.tile<4x8xf32, vec>
  %o = pl.tile.store %s, %y[%c0, %c0] : !pl.tile<4x8xf32, vec>, !pl.tensor<4x8xf32>
  %m = pl.tile.scatter_mask %t p0101 {pl.addresses = array<i64: 256>} : !pl.tile<2x8xf32, vec> -> !pl.tile<2x16xf32, vec>
  return
}

// -----

// Prefetches: a context, TPREFETCH_ASYNC on the whole tensor, the session
// and the wait through the helpers the file then defines.
// CHECK-LABEL: emitc.func @prefetch
// CHECK: %[[C:.*]] = {{.*}}call_opaque "PrefetchAsyncContext"() : () -> !emitc.opaque<"PrefetchAsyncContext">
// CHECK: %[[G:.*]] = {{.*}}call_opaque "GlobalTensor<float, pto::Shape<1, 1, 1, 16, 64>
// CHECK: %[[E:.*]] = {{.*}}call_opaque "TPREFETCH_ASYNC"(%[[G]], %[[C]]) : {{.*}} -> !emitc.opaque<"comm::AsyncEvent">
// CHECK: %[[S:.*]] = {{.*}}call_opaque "pto_prefetch_session"(%[[C]]) : {{.*}} -> !emitc.ptr<!emitc.opaque<"comm::AsyncSession">>
// CHECK: call_opaque "pto_prefetch_wait"(%[[E]], %[[S]]) : {{.*}} -> i1
// CPP: #ifndef PTO_PREFETCH_HELPERS
// CPP: static AICORE inline comm::AsyncSession* pto_prefetch_session(PrefetchAsyncContext& context) { return &context.session; }
// CPP-LABEL: __global__ AICORE void prefetch(
// CPP: PrefetchAsyncContext [[C:v[0-9]+]] = PrefetchAsyncContext();
// CPP: comm::AsyncEvent [[E:v[0-9]+]] = TPREFETCH_ASYNC({{v[0-9]+}}, [[C]]);
// CPP: comm::AsyncSession* [[S:v[0-9]+]] = pto_prefetch_session([[C]]);
// CPP: bool {{v[0-9]+}} = pto_prefetch_wait([[E]], [[S]]);
func.func @prefetch(%w: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %ctx = pl.prefetch.make_context : !pl.prefetch_context
  %e = pl.prefetch.async_prefetch %w, %ctx : !pl.tensor<16x64xf32>
  %s = pl.prefetch.session %ctx
  %d = pl.prefetch.wait %e, %s
  return
}

// -----

// Cross-block barriers and the event base go through helpers: pto-isa's
// SYNCALL (a soft one over a GlobalTensor of its workspace) and
// set_ffts_base_addr on the device, the simulator's barrier across the
// launch's threads in a simulator build.
// CHECK: emitc.verbatim "#ifndef PTO_BARRIER_HELPERS
// CHECK-LABEL: emitc.func @barriers(
// CHECK: call_opaque "pto_set_ffts"(%{{.*}})
// CHECK: call_opaque "pto_syncall"() {template_args = [#emitc.opaque<"0">]}
// CHECK: call_opaque "pto_syncall_soft"(%{{.*}}) {args = [0 : index, #emitc.opaque<"0">], template_args = [#emitc.opaque<"0">]}
// CHECK: call_opaque "pto_syncall_soft"(%{{.*}}, %{{.*}}) {template_args = [#emitc.opaque<"0">]}
// CPP: template <int Cores> static AICORE inline void pto_syncall() { SYNCALL<static_cast<SyncCoreType>(Cores)>(); }
// CPP-LABEL: void barriers(
// CPP: pto_set_ffts(
// CPP: pto_syncall<0>();
// CPP: pto_syncall_soft<0>({{v[0-9]+}}, 0);
func.func @barriers(%ffts: !pl.tensor<256xi64>, %ws: !pl.tensor<16xi32>, %n: i32) attributes {pl.kind = #pl.kind<aiv>} {
  pl.system.set_ffts %ffts : !pl.tensor<256xi64>
  pl.system.syncall hard aiv_only
  pl.system.syncall soft aiv_only on %ws : !pl.tensor<16xi32>
  pl.system.syncall soft aiv_only on %ws : !pl.tensor<16xi32> used %n
  return
}
