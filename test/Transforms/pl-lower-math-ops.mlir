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

// A scatter_update is row copies over the index's positions: the index
// read, the source's row `b * s + j` sliced out and assembled into the
// carried input at the row the index names. The input is updated in place
// when the op is its only reader, else a whole slice copies it first.
// CHECK-LABEL: func.func @scatter_update(
// CHECK-SAME: %[[C:[^:]*]]: !pl.tile<32x64xf16, vec>, %[[I:[^:]*]]: !pl.tile<2x8xi32, vec>, %[[R:[^:]*]]: !pl.tile<16x64xf16, vec>
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[C]]) -> (!pl.tile<32x64xf16, vec>) {
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[D:.*]] = %[[A]]) -> (!pl.tile<32x64xf16, vec>) {
// CHECK-NEXT: %[[AT:.*]] = pl.tile.read %[[I]][%[[B]], %[[J]]] : !pl.tile<2x8xi32, vec> -> i32
// CHECK-NEXT: %[[ROW:.*]] = arith.index_cast %[[AT]] : i32 to index
// CHECK-NEXT: %[[BS:.*]] = arith.muli %[[B]], %[[C8]] : index
// CHECK-NEXT: %[[P:.*]] = arith.addi %[[BS]], %[[J]] : index
// CHECK-NEXT: %[[NEW:.*]] = pl.tile.slice %[[R]][%[[P]], %{{.*}}] : !pl.tile<16x64xf16, vec> -> !pl.tile<1x64xf16, vec>
// CHECK-NEXT: %[[W:.*]] = pl.tile.assemble %[[NEW]] into %[[D]][%[[ROW]], %{{.*}}] : !pl.tile<1x64xf16, vec>, !pl.tile<32x64xf16, vec>
// CHECK-NEXT: scf.yield %[[W]]
// CHECK-NOT: pl.tile.scatter_update
// CHECK-LABEL: func.func @scatter_update_copy(
// CHECK-SAME: %[[C:[^:]*]]: !pl.tile<32x64xf16, vec>
// CHECK: %[[COPY:.*]] = pl.tile.slice %[[C]][%{{.*}}, %{{.*}}] : !pl.tile<32x64xf16, vec> -> !pl.tile<32x64xf16, vec>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[COPY]])
func.func @scatter_update(%c: !pl.tile<32x64xf16, vec>, %i: !pl.tile<2x8xi32, vec>, %r: !pl.tile<16x64xf16, vec>) -> !pl.tile<32x64xf16, vec> {
  %u = pl.tile.scatter_update %c, %i, %r : !pl.tile<32x64xf16, vec>, !pl.tile<2x8xi32, vec>, !pl.tile<16x64xf16, vec>
  return %u : !pl.tile<32x64xf16, vec>
}
func.func @scatter_update_copy(%c: !pl.tile<32x64xf16, vec>, %i: !pl.tile<2x8xi32, vec>, %r: !pl.tile<16x64xf16, vec>) -> (!pl.tile<32x64xf16, vec>, !pl.tile<32x64xf16, vec>) {
  %u = pl.tile.scatter_update %c, %i, %r : !pl.tile<32x64xf16, vec>, !pl.tile<2x8xi32, vec>, !pl.tile<16x64xf16, vec>
  return %u, %c : !pl.tile<32x64xf16, vec>, !pl.tile<32x64xf16, vec>
}

// A row gather is a load of the source's window, valid for its corner (a
// constant extent static, a runtime one dynamic), assembled into the
// target at its offsets.
// CHECK-LABEL: func.func @gather_row(
// CHECK-SAME: %[[C:.*]]: !pl.tensor<256x128xf16>, %[[T:.*]]: !pl.tile<16x128xf16, vec>, %[[P:.*]]: index, %[[I:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[W:.*]] = pl.tile.load %[[C]][%[[P]], %{{.*}}] : !pl.tensor<256x128xf16> -> !pl.tile<1x128xf16, vec>
// CHECK-NEXT: %[[A:.*]] = pl.tile.assemble %[[W]] into %[[T]][%[[I]], %{{.*}}] : !pl.tile<1x128xf16, vec>, !pl.tile<16x128xf16, vec>
// CHECK: %[[V:.*]] = pl.tile.load %[[C]][%[[P]], %{{.*}}] valid(%[[N]]) : !pl.tensor<256x128xf16> -> !pl.tile<4x64xf16, vec, valid = ?x64>
// CHECK-NEXT: pl.tile.assemble %[[V]] into %[[A]][%[[I]], %{{.*}}] : !pl.tile<4x64xf16, vec, valid = ?x64>, !pl.tile<16x128xf16, vec>
// CHECK-NOT: pl.tile.gather_row
func.func @gather_row(%c: !pl.tensor<256x128xf16>, %t: !pl.tile<16x128xf16, vec>, %p: index, %i: index, %n: index) -> !pl.tile<16x128xf16, vec> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %r = pl.tile.gather_row %c[%p, %c0] into %t[%i, %c0] shape [1, 128] : !pl.tensor<256x128xf16>, !pl.tile<16x128xf16, vec>
  %s = pl.tile.gather_row %c[%p, %c64] into %r[%i, %c64] shape [4, 64] valid(%n, %c64) : !pl.tensor<256x128xf16>, !pl.tile<16x128xf16, vec>
  return %s : !pl.tile<16x128xf16, vec>
}

// A compare gather scans the valid rows and columns: each match's column
// plus the offset is written at the row's count (clamped to the last
// column, and only while there is room), the count written per row; ui32
// counts are the i32 tile's bits.
// CHECK-LABEL: func.func @gather_compare(
// CHECK-DAG: %[[LAST:.*]] = arith.constant 7 : index
// CHECK-DAG: %[[N:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[OFFSET:.*]] = arith.constant 16 : i32
// CHECK: %[[ZEROS:.*]] = pl.tile.full %{{.*}} : i32 -> !pl.tile<4x8xi32, vec, valid = 3x8>
// CHECK: %[[COUNTS:.*]] = pl.tile.create : !pl.tile<1x4xi32, vec, valid = 1x3>
// CHECK: %[[ROWS:.*]]:2 = scf.for %[[R:.*]] = %{{.*}} to %c3 step %{{.*}} iter_args(%[[RES:.*]] = %[[ZEROS]], %[[CNT:.*]] = %[[COUNTS]])
// CHECK: %[[ROW:.*]]:2 = scf.for %[[C:.*]] = %{{.*}} to %c16 step %{{.*}} iter_args(%[[ACC:.*]] = %[[RES]], %[[M:.*]] = %{{.*}})
// CHECK: %[[X:.*]] = pl.tile.read %arg0[%[[R]], %[[C]]]
// CHECK: %[[HIT:.*]] = arith.cmpf oge, %[[X]], %arg1 : f32
// CHECK: %[[AT:.*]] = arith.minui %[[M]], %[[LAST]] : index
// CHECK: %[[OLD:.*]] = pl.tile.read %[[ACC]][%[[R]], %[[AT]]]
// CHECK: %[[ROOM:.*]] = arith.cmpi ult, %[[M]], %[[N]] : index
// CHECK: %[[KEEP:.*]] = arith.andi %[[HIT]], %[[ROOM]] : i1
// CHECK: %[[COL:.*]] = arith.index_cast %[[C]] : index to i32
// CHECK: %[[POS:.*]] = arith.addi %[[COL]], %[[OFFSET]] : i32
// CHECK: %[[V:.*]] = arith.select %[[KEEP]], %[[POS]], %[[OLD]] : i32
// CHECK: %[[W:.*]] = pl.tile.write %[[ACC]][%[[R]], %[[AT]]], %[[V]]
// CHECK: %[[STEP:.*]] = arith.select %[[HIT]], %{{.*}}, %{{.*}} : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[M]], %[[STEP]] : index
// CHECK: scf.yield %[[W]], %[[NEXT]]
// CHECK: %[[COUNT:.*]] = arith.index_cast %[[ROW]]#1 : index to i32
// CHECK: %[[CW:.*]] = pl.tile.write %[[CNT]][%{{.*}}, %[[R]]], %[[COUNT]]
// CHECK: scf.yield %[[ROW]]#0, %[[CW]]
// CHECK: %[[U:.*]] = pl.tile.reinterpret_view %[[ROWS]]#1 : !pl.tile<1x4xi32, vec, valid = 1x3> -> !pl.tile<1x4xui32, vec, valid = 1x3>
// CHECK: return %[[ROWS]]#0, %[[U]]
// CHECK-NOT: pl.tile.gather_compare
func.func @gather_compare(%x: !pl.tile<4x16xf32, vec, valid = 3x16>, %k: f32) -> (!pl.tile<4x8xi32, vec, valid = 3x8>, !pl.tile<1x4xui32, vec, valid = 1x3>) {
  %i, %n = pl.tile.gather_compare %x, %k ge offset 16 : !pl.tile<4x16xf32, vec, valid = 3x16>, f32 -> !pl.tile<4x8xi32, vec, valid = 3x8>, !pl.tile<1x4xui32, vec, valid = 1x3>
  return %i, %n : !pl.tile<4x8xi32, vec, valid = 3x8>, !pl.tile<1x4xui32, vec, valid = 1x3>
}


// A row scatter stores each valid row of the source at its index's row
// (ui32 indices read as their i32 bits, unsigned); `skip` guards each
// store with a loop of zero or one trips.
// CHECK-LABEL: func.func @mscatter_rows(
// CHECK: %[[I:.*]] = pl.tile.reinterpret_view %arg1 : !pl.tile<1x8xui32, vec, valid = 1x6> -> !pl.tile<1x8xi32, vec, valid = 1x6>
// CHECK: %[[ROWS:.*]] = pl.tensor.dim %arg2, 0 : !pl.tensor<?x16xf32>
// CHECK: %[[L:.*]] = scf.for %[[R:.*]] = %{{.*}} to %c6 step %{{.*}} iter_args(%[[T:.*]] = %arg2)
// CHECK: %[[RAW:.*]] = pl.tile.read %[[I]][%{{.*}}, %[[R]]]
// CHECK: %[[AT:.*]] = arith.index_castui %[[RAW]] : i32 to index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[AT]], %[[ROWS]] : index
// CHECK: %[[N:.*]] = arith.select %[[IN]], %{{.*}}, %{{.*}} : index
// CHECK: %[[ROW:.*]] = pl.tile.slice %arg0[%[[R]], %{{.*}}] : !pl.tile<8x16xf32, vec, valid = 6x16> -> !pl.tile<1x16xf32, vec>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[U:.*]] = %[[T]])
// CHECK: pl.tile.store %[[ROW]], %[[U]][%[[AT]], %{{.*}}] : !pl.tile<1x16xf32, vec>, !pl.tensor<?x16xf32>
// CHECK: return %[[L]]
// CHECK-NOT: pl.tile.mscatter
func.func @mscatter_rows(%x: !pl.tile<8x16xf32, vec, valid = 6x16>, %i: !pl.tile<1x8xui32, vec, valid = 1x6>, %t: !pl.tensor<?x16xf32>) -> !pl.tensor<?x16xf32> {
  %r = pl.tile.mscatter %x, %i into %t row oob skip : !pl.tile<8x16xf32, vec, valid = 6x16>, !pl.tile<1x8xui32, vec, valid = 1x6>, !pl.tensor<?x16xf32>
  return %r : !pl.tensor<?x16xf32>
}

// An element scatter stores each element at its flat index's row and
// column (`wrap`: modulo the table's elements), or into a vector at the
// index (`clamp`: at most the last element), adding with `atomic_add`.
// CHECK-LABEL: func.func @mscatter_elements(
// CHECK: %[[SIZE:.*]] = arith.muli %c4, %c8 : index
// CHECK: scf.for %[[R:.*]] = {{.*}} iter_args(%{{.*}} = %arg2)
// CHECK: scf.for %[[C:.*]] = {{.*}} iter_args(%[[T:.*]] = %{{.*}})
// CHECK: %[[RAW:.*]] = pl.tile.read %arg1[%[[R]], %[[C]]]
// CHECK: %[[AT:.*]] = arith.index_castui %[[RAW]] : i32 to index
// CHECK: %[[W:.*]] = arith.remui %[[AT]], %[[SIZE]] : index
// CHECK: %[[E:.*]] = pl.tile.slice %arg0[%[[R]], %[[C]]] : !pl.tile<2x8xf32, vec> -> !pl.tile<1x1xf32, vec>
// CHECK: %[[ROW:.*]] = arith.divui %[[W]], %c8 : index
// CHECK: %[[COL:.*]] = arith.remui %[[W]], %c8 : index
// CHECK: pl.tile.store %[[E]], %[[T]][%[[ROW]], %[[COL]]] : !pl.tile<1x1xf32, vec>, !pl.tensor<4x8xf32>
// CHECK: %[[LAST:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[AT2:.*]] = arith.index_castui
// CHECK: %[[CL:.*]] = arith.minui %[[AT2]], %[[LAST]] : index
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%[[CL]]] atomic_add partition [1] : !pl.tile<1x1xf32, vec>, !pl.tensor<40xf32>
// CHECK-NOT: pl.tile.mscatter
func.func @mscatter_elements(%x: !pl.tile<2x8xf32, vec>, %i: !pl.tile<2x8xi32, vec>, %t: !pl.tensor<4x8xf32>, %v: !pl.tensor<40xf32>) -> (!pl.tensor<4x8xf32>, !pl.tensor<40xf32>) {
  %r = pl.tile.mscatter %x, %i into %t elem oob wrap : !pl.tile<2x8xf32, vec>, !pl.tile<2x8xi32, vec>, !pl.tensor<4x8xf32>
  %w = pl.tile.mscatter %x, %i into %v elem oob clamp atomic_add : !pl.tile<2x8xf32, vec>, !pl.tile<2x8xi32, vec>, !pl.tensor<40xf32>
  return %r, %w : !pl.tensor<4x8xf32>, !pl.tensor<40xf32>
}

// Random bits are scalar arithmetic: per valid element, its place (group
// of 256 columns, word, lane; the rows' storage is 304 columns, 76 chunks),
// the counter advanced with carries, the rounds a loop carrying the words
// and key, the element's word selected and written; ui32 is the i32
// tile's bits.
// CHECK-LABEL: func.func @random(
// CHECK: %[[T:.*]] = pl.tile.create : !pl.tile<2x300xi32, vec, valid = 2x290>
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %c2 step %{{.*}} iter_args(%{{.*}} = %[[T]])
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c290 step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: %[[G:.*]] = arith.divui %[[C]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.remui %[[C]], %{{.*}} : index
// CHECK: %[[WORD:.*]] = arith.divui %[[IN]], %{{.*}} : index
// CHECK: %[[LANE:.*]] = arith.remui %[[C]], %{{.*}} : index
// CHECK: %[[RG:.*]] = arith.muli %[[R]], %c2{{.*}} : index
// CHECK: %[[CHUNK:.*]] = arith.addi %[[RG]], %[[G]] : index
// CHECK: %[[OFF:.*]] = arith.muli %[[CHUNK]], %c76 : index
// CHECK: %[[AT:.*]] = arith.addi %[[OFF]], %[[LANE]] : index
// CHECK: %[[AT64:.*]] = arith.index_castui %[[AT]] : index to i64
// CHECK: %[[W0:.*]] = arith.extui %arg2 : i32 to i64
// CHECK: %[[S0:.*]] = arith.addi %[[W0]], %[[AT64]] : i64
// CHECK: %[[N0:.*]] = arith.trunci %[[S0]] : i64 to i32
// CHECK: %[[ROUNDS:.*]]:6 = scf.for %{{.*}} = %{{.*}} to %c7 step %{{.*}} iter_args(%[[A0:.*]] = %[[N0]], %[[A1:.*]] = %{{.*}}, %[[A2:.*]] = %{{.*}}, %[[A3:.*]] = %{{.*}}, %[[K0:.*]] = %arg0, %[[K1:.*]] = %arg1)
// CHECK: %[[X0:.*]] = arith.extui %[[A0]] : i32 to i64
// CHECK: %[[P0:.*]] = arith.muli %[[X0]], %c3528531795_i64 : i64
// CHECK: %[[X2:.*]] = arith.extui %[[A2]] : i32 to i64
// CHECK: %[[P1:.*]] = arith.muli %[[X2]], %c3449720151_i64 : i64
// CHECK: arith.addi %[[K0]], %c-1640531527_i32 : i32
// CHECK: arith.addi %[[K1]], %c-1150833019_i32 : i32
// CHECK: arith.cmpi eq, %[[WORD]], %{{.*}} : index
// CHECK: arith.select %{{.*}}, %[[ROUNDS]]#2, %[[ROUNDS]]#3 : i32
// CHECK: arith.select %{{.*}}, %[[ROUNDS]]#1, %{{.*}} : i32
// CHECK: %[[V:.*]] = arith.select %{{.*}}, %[[ROUNDS]]#0, %{{.*}} : i32
// CHECK: pl.tile.write %[[ACC]][%[[R]], %[[C]]], %[[V]]
// CHECK: pl.tile.reinterpret_view %{{.*}} : !pl.tile<2x300xi32, vec, valid = 2x290> -> !pl.tile<2x300xui32, vec, valid = 2x290>
// CHECK-NOT: pl.tile.random
func.func @random(%k0: i32, %k1: i32, %c0: i32, %c1: i32, %c2: i32, %c3: i32) -> !pl.tile<2x300xui32, vec, valid = 2x290> {
  %r = pl.tile.random key(%k0, %k1) counter(%c0, %c1, %c2, %c3) rounds 7 : !pl.tile<2x300xui32, vec, valid = 2x290>
  return %r : !pl.tile<2x300xui32, vec, valid = 2x290>
}
