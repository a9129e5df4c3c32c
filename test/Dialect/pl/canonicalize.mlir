// RUN: pto-opt %s --canonicalize --split-input-file | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s --canonicalize --split-input-file | FileCheck %s

// The folds of pl ops (docs/canonicalization.md): extents a type knows,
// scalar identities, moves/views/reshapes to the operand's own type, and
// unused creates. A tile op folds only before memory planning.

// CHECK-LABEL: func.func @dims(
// CHECK-SAME: %[[T:.*]]: !pl.tensor<?x64xf32>, %[[M:.*]]: index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[D0:.*]] = pl.tensor.dim %[[T]], 0
// CHECK-DAG: %[[S:.*]] = pl.tensor.slice %[[T]]{{.*}} clamp
// CHECK-DAG: %[[D5:.*]] = pl.tensor.dim %[[S]], 0
// CHECK-NOT: pl.tensor.dim
// CHECK-NOT: pl.tensor.create
// CHECK: return %[[D0]], %[[C64]], %[[C64]], %[[M]], %[[M]], %[[D5]]
func.func @dims(%t: !pl.tensor<?x64xf32>, %m: index) -> (index, index, index, index, index, index) attributes {pl.kind = #pl.kind<opaque>} {
  %d0 = pl.tensor.dim %t, 0 : !pl.tensor<?x64xf32>
  %d1 = pl.tensor.dim %t, 1 : !pl.tensor<?x64xf32>
  %d2 = pl.tensor.dim %t, -1 : !pl.tensor<?x64xf32>
  %c = pl.tensor.create(%m) : !pl.tensor<?x64xf32>
  %d3 = pl.tensor.dim %c, -2 : !pl.tensor<?x64xf32>
  %z = arith.constant 0.0 : f32
  %f = pl.tensor.full %z(%m) : f32 -> !pl.tensor<?x64xf32>
  %d4 = pl.tensor.dim %f, 0 : !pl.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %s = pl.tensor.slice %t[%m, %c0] clamp : !pl.tensor<?x64xf32> -> !pl.tensor<16x64xf32>
  %d5 = pl.tensor.dim %s, 0 : !pl.tensor<16x64xf32>
  return %d0, %d1, %d2, %d3, %d4, %d5 : index, index, index, index, index, index
}

// -----

// x + -0.0, x - 0.0, x * 1 and x / 1 are x; x + 0.0 is not (-0.0 + 0.0 is
// 0.0), nor x + 0 (an integer 0 becomes 0.0 on floats), nor x * 2. The
// tensor forms never fold: their result is memory of its own.

// CHECK-LABEL: func.func @float_identities(
// CHECK-SAME: %[[X:[^:]*]]: !pl.tensor<16x64xf32>
// CHECK-DAG: %[[POS0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[INT0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[T:.*]] = pl.tile.load %[[X]]
// CHECK-NEXT: %[[A:.*]] = pl.tile.adds %[[T]], %[[POS0]]
// CHECK-NEXT: %[[B:.*]] = pl.tile.adds %[[A]], %[[INT0]]
// CHECK-NEXT: %[[C:.*]] = pl.tile.muls %[[B]], %[[TWO]]
// CHECK-NEXT: %[[S:.*]] = pl.tile.store %[[C]]
// CHECK-NEXT: %[[U:.*]] = pl.tensor.muls %[[S]], %[[ONE]]
// CHECK-NEXT: return %[[U]]
func.func @float_identities(%x: !pl.tensor<16x64xf32>, %o: !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<opaque>} {
  %c0 = arith.constant 0 : index
  %neg0 = arith.constant -0.0 : f32
  %pos0 = arith.constant 0.0 : f32
  %int0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %a = pl.tile.adds %t, %neg0 : !pl.tile<16x64xf32, vec>, f32
  %b = pl.tile.subs %a, %pos0 : !pl.tile<16x64xf32, vec>, f32
  %c = pl.tile.muls %b, %one : !pl.tile<16x64xf32, vec>, f32
  %d = pl.tile.divs %c, %one : !pl.tile<16x64xf32, vec>, f32
  %e = pl.tile.adds %d, %pos0 : !pl.tile<16x64xf32, vec>, f32
  %f = pl.tile.adds %e, %int0 : !pl.tile<16x64xf32, vec>, i32
  %g = pl.tile.muls %f, %two : !pl.tile<16x64xf32, vec>, f32
  %s = pl.tile.store %g, %o[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  %u = pl.tensor.muls %s, %one : !pl.tensor<16x64xf32>, f32
  return %u : !pl.tensor<16x64xf32>
}

// -----

// Integer tiles: + 0, - 0, * 1, / 1; a scalar that is no constant stays.

// CHECK-LABEL: func.func @tile_identities(
// CHECK-SAME: %[[X:[^:]*]]: !pl.tensor<16x64xi32>, %[[S:[^:]*]]: i32
// CHECK: %[[L:.*]] = pl.tile.load
// CHECK-NEXT: %[[A:.*]] = pl.tile.adds %[[L]], %[[S]]
// CHECK-NEXT: pl.tile.store %[[A]]
func.func @tile_identities(%x: !pl.tensor<16x64xi32>, %s: i32, %o: !pl.tensor<16x64xi32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xi32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xi32> -> !pl.tile<16x64xi32, vec>
  %a = pl.tile.adds %t, %zero : !pl.tile<16x64xi32, vec>, i32
  %b = pl.tile.subs %a, %zero : !pl.tile<16x64xi32, vec>, i32
  %c = pl.tile.muls %b, %one : !pl.tile<16x64xi32, vec>, i32
  %d = pl.tile.divs %c, %one : !pl.tile<16x64xi32, vec>, i32
  %e = pl.tile.adds %d, %s : !pl.tile<16x64xi32, vec>, i32
  %r = pl.tile.store %e, %o[%c0, %c0] : !pl.tile<16x64xi32, vec>, !pl.tensor<16x64xi32>
  return %r : !pl.tensor<16x64xi32>
}

// -----

// A move within vec to the same type, a reshape to the same type: the tile
// itself. A move to another space stays; an unused create is dead.

// CHECK-LABEL: func.func @moves(
// CHECK: %[[L:.*]] = pl.tile.load
// CHECK-NOT: pl.tile.create
// CHECK-NOT: pl.tile.reshape
// CHECK-NEXT: %[[E:.*]] = pl.tile.exp %[[L]]
// CHECK-NEXT: %[[M:.*]] = pl.tile.move %[[E]] : !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xf16, mat>
// CHECK-NEXT: return %[[M]]
func.func @moves(%x: !pl.tensor<16x64xf16>) -> !pl.tile<16x64xf16, mat> attributes {pl.kind = #pl.kind<opaque>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf16> -> !pl.tile<16x64xf16, vec>
  %scratch = pl.tile.create : !pl.tile<16x64xf16, vec>
  %m = pl.tile.move %t : !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xf16, vec>
  %r = pl.tile.reshape %m : !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xf16, vec>
  %e = pl.tile.exp %r : !pl.tile<16x64xf16, vec>
  %n = pl.tile.move %e : !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xf16, mat>
  return %n : !pl.tile<16x64xf16, mat>
}

// -----

// Once planned (pl.addresses, pl.memory), a tile op keeps its own buffer:
// nothing folds. An unused create is still dead: it writes nothing.

// CHECK-LABEL: func.func @planned(
// CHECK-NOT: pl.tile.create
// CHECK: pl.tile.move
// CHECK: pl.tile.adds
// CHECK: pl.tile.store
func.func @planned(%x: !pl.tensor<16x64xf32>, %o: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>, pl.memory = {vec = 12288 : i64}} {
  %c0 = arith.constant 0 : index
  %neg0 = arith.constant -0.0 : f32
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %u = pl.tile.create {pl.addresses = array<i64: 8192>} : !pl.tile<16x64xf32, vec>
  %m = pl.tile.move %t {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
  %a = pl.tile.adds %m, %neg0 {pl.addresses = array<i64: 0>} : !pl.tile<16x64xf32, vec>, f32
  %r = pl.tile.store %a, %o[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  return %r : !pl.tensor<16x64xf32>
}

// -----

// Views and reshapes to the source's type are the source; a reshape of a
// reshape reshapes the first source when both ends are static.

// CHECK-LABEL: func.func @views(
// CHECK-SAME: %[[T:[^:]*]]: !pl.tensor<4x16x32xf16>, %[[D:[^:]*]]: !pl.tensor<?x32xf16>
// CHECK-NEXT: %[[R:.*]] = pl.tensor.reshape %[[T]] : !pl.tensor<4x16x32xf16> -> !pl.tensor<2048xf16>
// CHECK-NEXT: %[[D1:.*]] = pl.tensor.reshape %[[D]] : !pl.tensor<?x32xf16> -> !pl.tensor<?xf16>
// CHECK-NEXT: %[[D2:.*]] = pl.tensor.reshape %[[D1]] : !pl.tensor<?xf16> -> !pl.tensor<64x32xf16>
// CHECK-NEXT: return %[[T]], %[[R]], %[[D2]]
func.func @views(%t: !pl.tensor<4x16x32xf16>, %d: !pl.tensor<?x32xf16>) -> (!pl.tensor<4x16x32xf16>, !pl.tensor<2048xf16>, !pl.tensor<64x32xf16>) attributes {pl.kind = #pl.kind<opaque>} {
  %v = pl.tensor.view %t : !pl.tensor<4x16x32xf16> -> !pl.tensor<4x16x32xf16>
  %a = pl.tensor.reshape %v : !pl.tensor<4x16x32xf16> -> !pl.tensor<64x32xf16>
  %b = pl.tensor.reshape %a : !pl.tensor<64x32xf16> -> !pl.tensor<4x16x32xf16>
  %c = pl.tensor.reshape %b : !pl.tensor<4x16x32xf16> -> !pl.tensor<2048xf16>
  %d1 = pl.tensor.reshape %d : !pl.tensor<?x32xf16> -> !pl.tensor<?xf16>
  %d2 = pl.tensor.reshape %d1 : !pl.tensor<?xf16> -> !pl.tensor<64x32xf16>
  return %b, %c, %d2 : !pl.tensor<4x16x32xf16>, !pl.tensor<2048xf16>, !pl.tensor<64x32xf16>
}

// -----

// Constant tile arithmetic: a tile-scalar op of a constant-filled tile is
// a filled tile, computed as arith folds it (in f32: 2^24 + 1 + 1 is
// 2^24). An integer division, a scalar that is no constant and a planned
// op stay.

// CHECK-LABEL: func.func @constant_tiles(
// CHECK-SAME: %[[S:[^:]*]]: f32
// CHECK-DAG: %[[F:.*]] = arith.constant 0x4B800000 : f32
// CHECK-DAG: %[[I:.*]] = arith.constant 21 : i32
// CHECK-DAG: %[[SIX:.*]] = arith.constant 6 : i32
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[A:.*]] = pl.tile.full %[[F]] : f32 -> !pl.tile<16x64xf32, vec>
// CHECK-NEXT: %[[B:.*]] = pl.tile.adds %[[A]], %[[S]]
// CHECK-NEXT: pl.tile.store %[[B]]
// CHECK-NEXT: %[[D:.*]] = pl.tile.full %[[SIX]] : i32 -> !pl.tile<16x64xi32, vec>
// CHECK-NEXT: %[[C:.*]] = pl.tile.full %[[I]] : i32 -> !pl.tile<16x64xi32, vec>
// CHECK-NEXT: pl.tile.store %[[C]]
// CHECK-NEXT: %[[E:.*]] = pl.tile.divs %[[D]], %[[THREE]]
// CHECK-NEXT: pl.tile.store %[[E]]
// CHECK-NEXT: %[[G:.*]] = pl.tile.full %[[TWO]] {pl.addresses = array<i64: 0>}
// CHECK-NEXT: %[[H:.*]] = pl.tile.muls %[[G]], %[[TWO]] {pl.addresses = array<i64: 4096>}
func.func @constant_tiles(%s: f32, %o: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}, %p: !pl.tensor<16x64xi32> {pl.direction = #pl.direction<out>}, %q: !pl.tensor<16x64xi32> {pl.direction = #pl.direction<out>}) -> !pl.tile<16x64xf32, vec> attributes {pl.kind = #pl.kind<opaque>} {
  %c0 = arith.constant 0 : index
  %big = arith.constant 16777216.0 : f32
  %unit = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %i3 = arith.constant 3 : i32
  %i6 = arith.constant 6 : i32
  %i4 = arith.constant 4 : i32
  %full = pl.tile.full %big : f32 -> !pl.tile<16x64xf32, vec>
  %a = pl.tile.adds %full, %unit : !pl.tile<16x64xf32, vec>, f32
  %a2 = pl.tile.adds %a, %unit : !pl.tile<16x64xf32, vec>, f32
  %b = pl.tile.adds %a2, %s : !pl.tile<16x64xf32, vec>, f32
  %o1 = pl.tile.store %b, %o[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  %six = pl.tile.full %i6 : i32 -> !pl.tile<16x64xi32, vec>
  %m = pl.tile.muls %six, %i4 : !pl.tile<16x64xi32, vec>, i32
  %n = pl.tile.subs %m, %i3 : !pl.tile<16x64xi32, vec>, i32
  %p1 = pl.tile.store %n, %p[%c0, %c0] : !pl.tile<16x64xi32, vec>, !pl.tensor<16x64xi32>
  %d = pl.tile.divs %six, %i3 : !pl.tile<16x64xi32, vec>, i32
  %q1 = pl.tile.store %d, %q[%c0, %c0] : !pl.tile<16x64xi32, vec>, !pl.tensor<16x64xi32>
  %g = pl.tile.full %two {pl.addresses = array<i64: 0>} : f32 -> !pl.tile<16x64xf32, vec>
  %h = pl.tile.muls %g, %two {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>, f32
  return %h : !pl.tile<16x64xf32, vec>
}
