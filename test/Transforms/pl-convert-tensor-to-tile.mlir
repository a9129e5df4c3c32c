// RUN: pto-opt --verify-roundtrip %s --pl-convert-tensor-to-tile | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile)' | FileCheck %s
// The result plans and synchronises.
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile, func.func(pl-infer-memory-space, pl-plan-memory), pl-insert-sync, pl-verify-sync)' -o /dev/null

!T = !pl.tensor<16x64xf32>
!C = !pl.tensor<16x1xf32>

// A row softmax at tensor level: parameters load once, the row reductions
// get scratch tiles, `x - max` (a [16, 1] operand) becomes row_expand_sub,
// and the returned tensor is stored into a new out parameter.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:.*]]: !pl.tensor<16x64xf32>, %[[OUT:.*]]: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[T:.*]] = pl.tile.load %[[X]][%[[C0]], %[[C0]]] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32>
// CHECK-NEXT: %[[S1:.*]] = pl.tile.create : !pl.tile<16x64xf32>
// CHECK-NEXT: %[[M:.*]] = pl.tile.row_max %[[T]], %[[S1]] : !pl.tile<16x64xf32>, !pl.tile<16x64xf32> -> !pl.tile<16x1xf32>
// CHECK-NEXT: %[[D:.*]] = pl.tile.row_expand_sub %[[T]], %[[M]] : !pl.tile<16x64xf32>, !pl.tile<16x1xf32> -> !pl.tile<16x64xf32>
// CHECK-NEXT: %[[E:.*]] = pl.tile.exp %[[D]] : !pl.tile<16x64xf32>
// CHECK-NEXT: %[[S2:.*]] = pl.tile.create : !pl.tile<16x64xf32>
// CHECK-NEXT: %[[SUM:.*]] = pl.tile.row_sum %[[E]], %[[S2]]
// CHECK-NEXT: %[[P:.*]] = pl.tile.row_expand_div %[[E]], %[[SUM]]
// CHECK-NEXT: %[[R:.*]] = pl.tile.store %[[P]], %[[OUT]][%[[C0]], %[[C0]]] : !pl.tile<16x64xf32>, !pl.tensor<16x64xf32>
// CHECK-NEXT: return %[[R]]
func.func @softmax(%x: !T) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %max = pl.tensor.row_max %x : !T -> !C
  %shifted = pl.tensor.sub %x, %max : !T, !C -> !T
  %e = pl.tensor.exp %shifted : !T
  %sum = pl.tensor.row_sum %e : !T -> !C
  %p = pl.tensor.div %e, %sum : !T, !C -> !T
  return %p : !T
}

// Callers pass a fresh tensor for the new parameter (pl.submit too).
// CHECK-LABEL: func.func @caller
// CHECK: %[[NEW:.*]] = pl.tensor.create() : !pl.tensor<16x64xf32>
// CHECK-NEXT: pl.call @softmax(%{{.*}}, %[[NEW]])
// CHECK: %[[NEW2:.*]] = pl.tensor.create() : !pl.tensor<16x64xf32>
// CHECK-NEXT: pl.submit @softmax(%{{.*}}, %[[NEW2]])
func.func @caller(%x: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.call @softmax(%x) : (!T) -> !T
  %z, %task = pl.submit @softmax(%y) : (!T) -> !T
  return %z : !T
}

// A matmul's product is an f32 accumulator tile (in acc from the start),
// stored to the f16 result by the fix pipe.
// CHECK-LABEL: func.func @mm(
// CHECK: pl.tile.matmul %{{.*}}, %{{.*}} : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32, acc>
// CHECK: pl.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tile<16x16xf32, acc>, !pl.tensor<16x16xf16>
func.func @mm(%a: !pl.tensor<16x32xf16>, %b: !pl.tensor<32x16xf16>) -> !pl.tensor<16x16xf16> attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %a, %b : !pl.tensor<16x32xf16>, !pl.tensor<32x16xf16> -> !pl.tensor<16x16xf16>
  return %p : !pl.tensor<16x16xf16>
}

// The tiled-loop form: a static slice of a tensor in memory becomes a load
// of that window, an assemble of a converted value a store; the loop keeps
// carrying the tensor.
// CHECK-LABEL: func.func @halves(
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %{{.*}}) -> (!pl.tensor<128x128xf32>) {
// CHECK-NEXT: %[[S:.*]] = pl.tile.load %{{.*}}[%[[I]], %{{.*}}] : !pl.tensor<128x128xf32> -> !pl.tile<64x128xf32>
// CHECK-NEXT: %[[E:.*]] = pl.tile.exp %[[S]] : !pl.tile<64x128xf32>
// CHECK-NEXT: %[[O2:.*]] = pl.tile.store %[[E]], %[[O]][%[[I]], %{{.*}}] : !pl.tile<64x128xf32>, !pl.tensor<128x128xf32>
// CHECK-NEXT: scf.yield %[[O2]] : !pl.tensor<128x128xf32>
// CHECK-NOT: pl.tensor.
func.func @halves(%x: !pl.tensor<128x128xf32>, %out: !pl.tensor<128x128xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<128x128xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %r = scf.for %i = %c0 to %c128 step %c64 iter_args(%o = %out) -> (!pl.tensor<128x128xf32>) {
    %s = pl.tensor.slice %x[%i, %c0] : !pl.tensor<128x128xf32> -> !pl.tensor<64x128xf32>
    %e = pl.tensor.exp %s : !pl.tensor<64x128xf32>
    %o2 = pl.tensor.assemble %e into %o[%i, %c0] : !pl.tensor<64x128xf32>, !pl.tensor<128x128xf32>
    scf.yield %o2 : !pl.tensor<128x128xf32>
  }
  return %r : !pl.tensor<128x128xf32>
}

// A loop whose iteration computes the carried value carries a tile: the
// init is loaded, and the result stored into a new out parameter.
// CHECK-LABEL: func.func @accumulate(
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: !pl.tensor<64x128xf32> {pl.direction = #pl.direction<out>}
// CHECK: %[[FIRST:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<128x128xf32> -> !pl.tile<64x128xf32>
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]]) -> (!pl.tile<64x128xf32>) {
// CHECK-NEXT: %[[S:.*]] = pl.tile.load %{{.*}}[%[[I]], %{{.*}}] : !pl.tensor<128x128xf32> -> !pl.tile<64x128xf32>
// CHECK-NEXT: %[[SUM:.*]] = pl.tile.add %[[ACC]], %[[S]]
// CHECK-NEXT: scf.yield %[[SUM]] : !pl.tile<64x128xf32>
// CHECK: pl.tile.store %[[R]], %[[OUT]][%{{.*}}, %{{.*}}] : !pl.tile<64x128xf32>, !pl.tensor<64x128xf32>
func.func @accumulate(%x: !pl.tensor<128x128xf32>) -> !pl.tensor<64x128xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %first = pl.tensor.slice %x[%c0, %c0] : !pl.tensor<128x128xf32> -> !pl.tensor<64x128xf32>
  %r = scf.for %i = %c64 to %c128 step %c64 iter_args(%acc = %first) -> (!pl.tensor<64x128xf32>) {
    %s = pl.tensor.slice %x[%i, %c0] : !pl.tensor<128x128xf32> -> !pl.tensor<64x128xf32>
    %sum = pl.tensor.add %acc, %s : !pl.tensor<64x128xf32>, !pl.tensor<64x128xf32> -> !pl.tensor<64x128xf32>
    scf.yield %sum : !pl.tensor<64x128xf32>
  }
  return %r : !pl.tensor<64x128xf32>
}

// A parameter read inside a loop is loaded once, before it.
// CHECK-LABEL: func.func @scale_rows(
// CHECK: %[[W:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<32x128xf32> -> !pl.tile<32x128xf32>
// CHECK: scf.for
// CHECK: pl.tile.mul %{{.*}}, %[[W]]
func.func @scale_rows(%x: !pl.tensor<128x128xf32>, %w: !pl.tensor<32x128xf32>, %out: !pl.tensor<128x128xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<128x128xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %r = scf.for %i = %c0 to %c128 step %c32 iter_args(%o = %out) -> (!pl.tensor<128x128xf32>) {
    %s = pl.tensor.slice %x[%i, %c0] : !pl.tensor<128x128xf32> -> !pl.tensor<32x128xf32>
    %m = pl.tensor.mul %s, %w : !pl.tensor<32x128xf32>, !pl.tensor<32x128xf32> -> !pl.tensor<32x128xf32>
    %o2 = pl.tensor.assemble %m into %o[%i, %c0] : !pl.tensor<32x128xf32>, !pl.tensor<128x128xf32>
    scf.yield %o2 : !pl.tensor<128x128xf32>
  }
  return %r : !pl.tensor<128x128xf32>
}

// A column arg-reduction gets a scratch tile of its own with room for
// a2a3's index and running values: 128 f32 elements for 64 columns, so a
// one-row source gets a two-row scratch.
// CHECK-LABEL: func.func @column_argmax(
// CHECK: %[[X:.*]] = pl.tile.load %arg0
// CHECK: %[[SCRATCH:.*]] = pl.tile.create : !pl.tile<2x64xf32>
// CHECK-NEXT: pl.tile.col_argmax %[[X]], %[[SCRATCH]] : !pl.tile<1x64xf32>, !pl.tile<2x64xf32> -> !pl.tile<1x64xi32>
func.func @column_argmax(%x: !pl.tensor<1x64xf32>) -> !pl.tensor<1x64xi32> attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.tensor.col_argmax %x : !pl.tensor<1x64xf32> -> !pl.tensor<1x64xi32>
  return %r : !pl.tensor<1x64xi32>
}

// A column reduction of an [N, 1] column vector (what a row reduction
// makes) is the row reduction of its [1, N] reshape: the same elements in
// the same order, and a row-major tile a2a3's row reductions take.
// CHECK-LABEL: func.func @column_of_column(
// CHECK: %[[C:.*]] = pl.tile.load %arg0{{.*}} -> !pl.tile<48x1xf32>
// CHECK-NEXT: %[[R:.*]] = pl.tile.reshape %[[C]] : !pl.tile<48x1xf32> -> !pl.tile<1x48xf32>
// CHECK-NEXT: %[[TMP:.*]] = pl.tile.create : !pl.tile<1x48xf32>
// CHECK-NEXT: pl.tile.row_sum %[[R]], %[[TMP]] : !pl.tile<1x48xf32>, !pl.tile<1x48xf32> -> !pl.tile<1x1xf32>
// CHECK: pl.tile.row_max %{{.*}}, %{{.*}} : !pl.tile<1x48xf32>, !pl.tile<1x48xf32> -> !pl.tile<1x1xf32>
func.func @column_of_column(%c: !pl.tensor<48x1xf32>) -> (!pl.tensor<1x1xf32>, !pl.tensor<1x1xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %s = pl.tensor.col_sum %c : !pl.tensor<48x1xf32> -> !pl.tensor<1x1xf32>
  %m = pl.tensor.col_max %c : !pl.tensor<48x1xf32> -> !pl.tensor<1x1xf32>
  return %s, %m : !pl.tensor<1x1xf32>, !pl.tensor<1x1xf32>
}

// pl.tensor.full: pl.tile.full of a constant; a runtime value is expanded
// into a tile of the shape (pl.tile.expands over a pl.tile.create).
// CHECK-LABEL: func.func @fills
// CHECK: %[[Z:.*]] = pl.tile.full %{{.*}} : f32 -> !pl.tile<16x64xf32>
// CHECK: %[[S:.*]] = pl.tile.create : !pl.tile<16x64xf32>
// CHECK: %[[V:.*]] = pl.tile.expands %[[S]], %{{.*}} : !pl.tile<16x64xf32>, f32
// CHECK: pl.tile.add %[[Z]], %[[V]]
func.func @fills(%s: f32) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %zero = arith.constant 0.0 : f32
  %z = pl.tensor.full %zero() : f32 -> !pl.tensor<16x64xf32>
  %v = pl.tensor.full %s() : f32 -> !pl.tensor<16x64xf32>
  %r = pl.tensor.add %z, %v : !pl.tensor<16x64xf32>, !pl.tensor<16x64xf32> -> !pl.tensor<16x64xf32>
  return %r : !pl.tensor<16x64xf32>
}

// A tensor assembled into a converted one (a filled tensor): a tile
// assemble of the source's loaded tile into the target's.
// CHECK-LABEL: func.func @widen
// CHECK-DAG: %[[P:.*]] = pl.tile.full %{{.*}} : f32 -> !pl.tile<16x64xf32>
// CHECK-DAG: %[[X:.*]] = pl.tile.load %{{.*}} : !pl.tensor<16x48xf32> -> !pl.tile<16x48xf32>
// CHECK: pl.tile.assemble %[[X]] into %[[P]][%{{.*}}, %{{.*}}] : !pl.tile<16x48xf32>, !pl.tile<16x64xf32>
func.func @widen(%x: !pl.tensor<16x48xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %pad = pl.tensor.full %zero() : f32 -> !pl.tensor<16x64xf32>
  %c = pl.tensor.assemble %x into %pad[%c0, %c0] : !pl.tensor<16x48xf32>, !pl.tensor<16x64xf32>
  return %c : !pl.tensor<16x64xf32>
}

// -----

// A column window of a tensor, not dense in it, passed to a kernel that
// only reads it: the kernel takes the whole tensor and the window's
// offsets, and loads the window itself. The dense row window is passed as
// it is.

// CHECK-LABEL: func.func @columns(
// CHECK-SAME: %[[A:[^:]*]]: !pl.tensor<32x128xf32>, %[[B:[^:]*]]: !pl.tensor<32x64xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %{{.*}}: !pl.tensor<32x64xf32> {pl.direction = #pl.direction<out>})
// CHECK: pl.tile.load %[[A]][%[[I]], %[[J]]] : !pl.tensor<32x128xf32> -> !pl.tile<32x32xf32>
// CHECK-LABEL: func.func @k_loop(
// CHECK: scf.for %[[K:.*]] = %{{.*}} to
// CHECK-NOT: pl.tensor.slice %arg0
// CHECK: %[[BS:.*]] = pl.tensor.slice %arg1[%[[K]], %{{.*}}]
// CHECK: pl.call @columns(%arg0, %[[BS]], %{{.*}}, %[[K]], %{{.*}})
// A second call, of another window of the same tensor type, passes its
// own offsets.
// CHECK: %[[C96:.*]] = arith.constant 96 : index
// CHECK: pl.call @columns(%arg0, %{{.*}}, %{{.*}}, %[[C96]], %{{.*}})
func.func @columns(%a: !pl.tensor<32x32xf32>, %b: !pl.tensor<32x64xf32>) -> !pl.tensor<32x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %a, %b : !pl.tensor<32x32xf32>, !pl.tensor<32x64xf32> -> !pl.tensor<32x64xf32>
  return %p : !pl.tensor<32x64xf32>
}
func.func @k_loop(%a: !pl.tensor<32x128xf32>, %b: !pl.tensor<128x64xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  scf.for %k = %c0 to %c128 step %c32 {
    %as = pl.tensor.slice %a[%c0, %k] : !pl.tensor<32x128xf32> -> !pl.tensor<32x32xf32>
    %bs = pl.tensor.slice %b[%k, %c0] : !pl.tensor<128x64xf32> -> !pl.tensor<32x64xf32>
    %p = pl.call @columns(%as, %bs) : (!pl.tensor<32x32xf32>, !pl.tensor<32x64xf32>) -> !pl.tensor<32x64xf32>
  }
  %c96 = arith.constant 96 : index
  %last = pl.tensor.slice %a[%c0, %c96] : !pl.tensor<32x128xf32> -> !pl.tensor<32x32xf32>
  %top = pl.tensor.slice %b[%c0, %c0] : !pl.tensor<128x64xf32> -> !pl.tensor<32x64xf32>
  %q = pl.call @columns(%last, %top) : (!pl.tensor<32x32xf32>, !pl.tensor<32x64xf32>) -> !pl.tensor<32x64xf32>
  return
}

// -----

// A result every call assembles into a column block (not dense in its
// target): the kernel takes the target and the block's offsets, stores its
// tile there and returns the target; each call passes its carried target
// and offsets, and its result stands for the assemble. The target is
// written only, so it is `out` (the rest of it is left as it was).

// CHECK-LABEL: func.func @block_out(
// CHECK-SAME: %[[X:[^:]*]]: !pl.tensor<32x64xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[Y:[^:]*]]: !pl.tensor<32x64xf32> {pl.direction = #pl.direction<out>}, %[[R:[^:]*]]: index, %[[C:[^:]*]]: index) -> !pl.tensor<32x64xf32>
// CHECK: %[[T:.*]] = pl.tile.load %[[X]][%[[I]], %[[J]]] : !pl.tensor<32x64xf32> -> !pl.tile<32x16xf32>
// CHECK-NEXT: %[[E:.*]] = pl.tile.exp %[[T]]
// CHECK-NEXT: %[[S:.*]] = pl.tile.store %[[E]], %[[Y]][%[[R]], %[[C]]] : !pl.tile<32x16xf32>, !pl.tensor<32x64xf32>
// CHECK-NEXT: return %[[S]]
// CHECK-LABEL: func.func @blocks_loop(
// CHECK: scf.for %[[K:[^ ]*]] = %{{.*}} iter_args(%[[O:.*]] = %{{.*}})
// CHECK-NEXT: %[[W:.*]] = pl.call @block_out(%arg0, %{{.*}}, %[[K]], %[[O]], %{{.*}}, %[[K]]) : (!pl.tensor<32x64xf32>, index, index, !pl.tensor<32x64xf32>, index, index) -> !pl.tensor<32x64xf32>
// CHECK-NEXT: scf.yield %[[W]]
// CHECK-NOT: pl.tensor.assemble
func.func @block_out(%b: !pl.tensor<32x16xf32>) -> !pl.tensor<32x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.exp %b : !pl.tensor<32x16xf32>
  return %e : !pl.tensor<32x16xf32>
}
func.func @blocks_loop(%x: !pl.tensor<32x64xf32>) -> !pl.tensor<32x64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %out = pl.tensor.create() : !pl.tensor<32x64xf32>
  %y = scf.for %k = %c0 to %c64 step %c16 iter_args(%o = %out) -> (!pl.tensor<32x64xf32>) {
    %b = pl.tensor.slice %x[%c0, %k] : !pl.tensor<32x64xf32> -> !pl.tensor<32x16xf32>
    %e = pl.call @block_out(%b) : (!pl.tensor<32x16xf32>) -> !pl.tensor<32x16xf32>
    %o2 = pl.tensor.assemble %e into %o[%c0, %k] : !pl.tensor<32x16xf32>, !pl.tensor<32x64xf32>
    scf.yield %o2 : !pl.tensor<32x64xf32>
  }
  return %y : !pl.tensor<32x64xf32>
}

// -----

// A concatenation: each input's tile is assembled in turn into a tile of
// the result's shape, at the sum of the extents before it on the axis.

// CHECK-LABEL: func.func @joined(
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[A:.*]] = pl.tile.load %arg0
// CHECK-DAG: %[[B:.*]] = pl.tile.load %arg1
// CHECK: %[[T:.*]] = pl.tile.create : !pl.tile<16x96xf32>
// CHECK: %[[T1:.*]] = pl.tile.assemble %[[A]] into %[[T]][%[[C0]], %[[C0]]]
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[T2:.*]] = pl.tile.assemble %[[B]] into %[[T1]][%[[C0]], %[[C32]]]
// CHECK: pl.tile.store %[[T2]], %arg2
func.func @joined(%a: !pl.tensor<16x32xf32>, %b: !pl.tensor<16x64xf32>) -> !pl.tensor<16x96xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c = pl.tensor.concat %a, %b axis 1 : !pl.tensor<16x32xf32>, !pl.tensor<16x64xf32> -> !pl.tensor<16x96xf32>
  return %c : !pl.tensor<16x96xf32>
}

// -----

// A batched matmul: one 2-D product per batch, each operand's batch loaded
// with a partition of one matrix and each product stored into its batch of
// a new out parameter; a rank-2 operand broadcasts (its one matrix is
// loaded once, for every product).

// CHECK-LABEL: func.func @batched(
// CHECK-SAME: %[[A:[^:]*]]: !pl.tensor<2x16x32xf16>, %[[W:[^:]*]]: !pl.tensor<32x16xf16>, %[[OUT:[^:]*]]: !pl.tensor<2x16x16xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<2x16x16xf32>
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A0:.*]] = pl.tile.load %[[A]][%[[Z]], %[[Z]], %[[Z]]] partition [1, 16, 32] : !pl.tensor<2x16x32xf16> -> !pl.tile<16x32xf16>
// CHECK-NEXT: %[[W0:.*]] = pl.tile.load %[[W]][%[[Z]], %[[Z]]] : !pl.tensor<32x16xf16> -> !pl.tile<32x16xf16>
// CHECK-NEXT: %[[P0:.*]] = pl.tile.matmul %[[A0]], %[[W0]] : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32, acc>
// CHECK-NEXT: %[[S0:.*]] = pl.tile.store %[[P0]], %[[OUT]][%[[Z]], %[[Z]], %[[Z]]] partition [1, 16, 16]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[A1:.*]] = pl.tile.load %[[A]][%[[ONE]], %[[Z]], %[[Z]]] partition [1, 16, 32]
// CHECK-NEXT: %[[P1:.*]] = pl.tile.matmul %[[A1]], %[[W0]]
// CHECK-NEXT: %[[S1:.*]] = pl.tile.store %[[P1]], %[[S0]][%[[ONE]], %[[Z]], %[[Z]]] partition [1, 16, 16]
// CHECK-NEXT: return %[[S1]]
// CHECK-LABEL: func.func @batched_caller(
// CHECK: %[[FRESH:.*]] = pl.tensor.create() : !pl.tensor<2x16x16xf32>
// CHECK-NEXT: pl.call @batched(%{{.*}}, %{{.*}}, %[[FRESH]])
func.func @batched(%a: !pl.tensor<2x16x32xf16>, %w: !pl.tensor<32x16xf16>) -> !pl.tensor<2x16x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %a, %w : !pl.tensor<2x16x32xf16>, !pl.tensor<32x16xf16> -> !pl.tensor<2x16x16xf32>
  return %p : !pl.tensor<2x16x16xf32>
}
func.func @batched_caller(%a: !pl.tensor<2x16x32xf16>, %w: !pl.tensor<32x16xf16>) -> !pl.tensor<2x16x16xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %p = pl.call @batched(%a, %w) : (!pl.tensor<2x16x32xf16>, !pl.tensor<32x16xf16>) -> !pl.tensor<2x16x16xf32>
  return %p : !pl.tensor<2x16x16xf32>
}

// Top-k at tensor level: the tile forms keep their attributes (descending,
// the mask pattern, exhausted), a window of a computed value is a slice of
// its tile, and the merge of two lists gets a scratch row with room for
// both.
// CHECK-LABEL: func.func @topk(
// CHECK-SAME: %[[S:[^:]*]]: !pl.tensor<1x64xf32>
// CHECK: %[[X:.*]] = pl.tile.load %[[S]][%{{.*}}, %{{.*}}] : !pl.tensor<1x64xf32> -> !pl.tile<1x64xf32>
// CHECK: %[[I:.*]] = pl.tile.ci %{{.*}} descending : i32 -> !pl.tile<1x64xui32>
// CHECK: %[[P:.*]] = pl.tile.sort32 %[[X]], %[[I]] : !pl.tile<1x64xf32>, !pl.tile<1x64xui32> -> !pl.tile<1x128xf32>
// CHECK: %[[LO:.*]] = pl.tile.slice %[[P]][%{{.*}}, %{{.*}}] : !pl.tile<1x128xf32> -> !pl.tile<1x64xf32>
// CHECK: %[[HI:.*]] = pl.tile.slice %[[P]][%{{.*}}, %{{.*}}] : !pl.tile<1x128xf32> -> !pl.tile<1x64xf32>
// CHECK: %[[TMP:.*]] = pl.tile.create : !pl.tile<1x128xf32>
// CHECK: %[[M:.*]] = pl.tile.mrgsort_format2 %[[LO]], %[[HI]] tmp %[[TMP]] exhausted : (!pl.tile<1x64xf32>, !pl.tile<1x64xf32>), !pl.tile<1x128xf32> -> !pl.tile<1x32xf32>
// CHECK: pl.tile.gather_mask %[[M]] p1010 : !pl.tile<1x32xf32> -> !pl.tile<1x16xi32>
func.func @topk(%s: !pl.tensor<1x64xf32>) -> !pl.tensor<1x16xi32> attributes {pl.kind = #pl.kind<incore>} {
  %z = arith.constant 63 : i32
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %i = pl.tensor.ci %z descending : i32 -> !pl.tensor<1x64xui32>
  %p = pl.tensor.sort32 %s, %i : !pl.tensor<1x64xf32>, !pl.tensor<1x64xui32> -> !pl.tensor<1x128xf32>
  %lo = pl.tensor.slice %p[%c0, %c0] : !pl.tensor<1x128xf32> -> !pl.tensor<1x64xf32>
  %hi = pl.tensor.slice %p[%c0, %c64] : !pl.tensor<1x128xf32> -> !pl.tensor<1x64xf32>
  %m = pl.tensor.mrgsort_format2 %lo, %hi exhausted : !pl.tensor<1x64xf32>, !pl.tensor<1x64xf32> -> !pl.tensor<1x32xf32>
  %k = pl.tensor.gather_mask %m p1010 : !pl.tensor<1x32xf32> -> !pl.tensor<1x16xi32>
  return %k : !pl.tensor<1x16xi32>
}

// Partial ops take their tile forms; the block queries become the tile
// queries, their index results unchanged.
// CHECK-LABEL: func.func @partial(
// CHECK: %[[I:.*]] = pl.tile.get_block_idx
// CHECK: %[[A:.*]] = pl.tile.load %{{.*}}[%[[I]], %{{.*}}] : !pl.tensor<64x32xf32> -> !pl.tile<16x32xf32>
// CHECK: pl.tile.part_max %[[A]], %{{.*}} : !pl.tile<16x32xf32>, !pl.tile<16x32xf32>
func.func @partial(%a: !pl.tensor<64x32xf32>, %b: !pl.tensor<16x32xf32>) -> !pl.tensor<16x32xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %i = pl.tensor.get_block_idx
  %w = pl.tensor.slice %a[%i, %c0] : !pl.tensor<64x32xf32> -> !pl.tensor<16x32xf32>
  %m = pl.tensor.part_max %w, %b : !pl.tensor<16x32xf32>
  return %m : !pl.tensor<16x32xf32>
}

// A gather on the last axis is one tile gather per row: each row of the
// input (a window of a tensor in memory, a slice of a converted tile) by
// the same row of the index, with a scratch row, assembled into the
// result's tile the loop carries.
// CHECK-LABEL: func.func @gathers(
// CHECK-SAME: %[[S:[^:]*]]: !pl.tensor<16x64xf32>, %[[E:[^:]*]]: !pl.tensor<16x8xi32>
// CHECK: %[[ACC:.*]] = pl.tile.create : !pl.tile<16x8xf32>
// CHECK: %[[G:.*]] = scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[ACC]]) -> (!pl.tile<16x8xf32>) {
// CHECK-NEXT: %[[ROW:.*]] = pl.tile.load %[[S]][%[[R]], %{{.*}}] : !pl.tensor<16x64xf32> -> !pl.tile<1x64xf32>
// CHECK-NEXT: %[[IDX:.*]] = pl.tile.load %[[E]][%[[R]], %{{.*}}] : !pl.tensor<16x8xi32> -> !pl.tile<1x8xi32>
// CHECK-NEXT: %[[TMP:.*]] = pl.tile.create : !pl.tile<1x8xi32>
// CHECK-NEXT: %[[ONE:.*]] = pl.tile.gather %[[ROW]], %[[IDX]], %[[TMP]] : !pl.tile<1x64xf32>, !pl.tile<1x8xi32>, !pl.tile<1x8xi32> -> !pl.tile<1x8xf32>
// CHECK-NEXT: %[[NEXT:.*]] = pl.tile.assemble %[[ONE]] into %[[A]][%[[R]], %{{.*}}] : !pl.tile<1x8xf32>, !pl.tile<16x8xf32>
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK: %[[X:.*]] = pl.tile.exp %{{.*}} : !pl.tile<16x64xf32>
// CHECK: scf.for %[[R2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!pl.tile<16x8xf32>) {
// CHECK-NEXT: pl.tile.slice %[[X]][%[[R2]], %{{.*}}] : !pl.tile<16x64xf32> -> !pl.tile<1x64xf32>
// CHECK-NEXT: pl.tile.load %[[E]][%[[R2]], %{{.*}}]
// CHECK: pl.tile.add %[[G]], %{{.*}} : !pl.tile<16x8xf32>, !pl.tile<16x8xf32> -> !pl.tile<16x8xf32>
func.func @gathers(%s: !pl.tensor<16x64xf32>, %e: !pl.tensor<16x8xi32>) -> !pl.tensor<16x8xf32> attributes {pl.kind = #pl.kind<incore>} {
  %g = pl.tensor.gather %s, %e dim 1 : !pl.tensor<16x64xf32>, !pl.tensor<16x8xi32> -> !pl.tensor<16x8xf32>
  %x = pl.tensor.exp %s : !pl.tensor<16x64xf32>
  %h = pl.tensor.gather %x, %e dim 1 : !pl.tensor<16x64xf32>, !pl.tensor<16x8xi32> -> !pl.tensor<16x8xf32>
  %r = pl.tensor.add %g, %h : !pl.tensor<16x8xf32>, !pl.tensor<16x8xf32> -> !pl.tensor<16x8xf32>
  return %r : !pl.tensor<16x8xf32>
}

// A scatter on the last axis writes element by element into a copy of
// the input's tile (a load of its own here), so the slots no index
// points at keep their values.
// CHECK-LABEL: func.func @scatters(
// CHECK-SAME: %[[T:[^:]*]]: !pl.tensor<8x16xf32>
// CHECK-DAG: %[[COPY:.*]] = pl.tile.load %[[T]][%{{.*}}, %{{.*}}] : !pl.tensor<8x16xf32> -> !pl.tile<8x16xf32>
// CHECK-DAG: %[[K:.*]] = pl.tile.load %{{.*}} : !pl.tensor<8x4xi32> -> !pl.tile<8x4xi32>
// CHECK-DAG: %[[V:.*]] = pl.tile.load %{{.*}} : !pl.tensor<8x4xf32> -> !pl.tile<8x4xf32>
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[COPY]]) -> (!pl.tile<8x16xf32>) {
// CHECK-NEXT: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (!pl.tile<8x16xf32>) {
// CHECK-NEXT: %[[AT:.*]] = pl.tile.read %[[K]][%[[R]], %[[C]]] : !pl.tile<8x4xi32> -> i32
// CHECK-NEXT: %[[COL:.*]] = arith.index_cast %[[AT]] : i32 to index
// CHECK-NEXT: %[[X:.*]] = pl.tile.read %[[V]][%[[R]], %[[C]]] : !pl.tile<8x4xf32> -> f32
// CHECK-NEXT: %[[W:.*]] = pl.tile.write %[[B]][%[[R]], %[[COL]]], %[[X]] : !pl.tile<8x16xf32>, f32
// CHECK-NEXT: scf.yield %[[W]]
func.func @scatters(%t: !pl.tensor<8x16xf32>, %k: !pl.tensor<8x4xi32>, %v: !pl.tensor<8x4xf32>) -> !pl.tensor<8x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.scatter %t, %k, %v dim 1 : !pl.tensor<8x16xf32>, !pl.tensor<8x4xi32>, !pl.tensor<8x4xf32>
  return %r : !pl.tensor<8x16xf32>
}

// A masked scatter writes each source element [r, k] to column
// k * stride + offset of a copy of the target (p1010: 2k + 1).
// CHECK-LABEL: func.func @scatter_mask(
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!pl.tile<8x32xf32>) {
// CHECK-NEXT: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (!pl.tile<8x32xf32>) {
// CHECK-NEXT: %[[S:.*]] = arith.muli %[[K]], %[[TWO]] : index
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[S]], %{{.*}} : index
// CHECK-NEXT: %[[X:.*]] = pl.tile.read %{{.*}}[%[[R]], %[[K]]] : !pl.tile<8x16xf32> -> f32
// CHECK-NEXT: pl.tile.write %[[A]][%[[R]], %[[COL]]], %[[X]] : !pl.tile<8x32xf32>, f32
func.func @scatter_mask(%x: !pl.tensor<8x16xf32>, %d: !pl.tensor<8x32xf32>) -> !pl.tensor<8x32xf32> attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.scatter_mask %x into %d p1010 : !pl.tensor<8x16xf32>, !pl.tensor<8x32xf32>
  return %r : !pl.tensor<8x32xf32>
}

// A paged gather is a loop over the indices into a created tile: each
// reads the logical position and its page's physical page, and gathers
// the physical row (its columns from col_off) into the tile's row. A
// gather_row of a converted target is the tile form into its tile; the
// source stays in memory.
// CHECK-LABEL: func.func @paged_rows(
// CHECK-SAME: %[[C:.*]]: !pl.tensor<64x64xf16>, %[[I:.*]]: !pl.tensor<8xi32>, %[[T:.*]]: !pl.tensor<1x4xi32>, %[[P:.*]]: index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[ACC:.*]] = pl.tile.create : !pl.tile<8x32xf16>
// CHECK: %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[A:.*]] = %[[ACC]]) -> (!pl.tile<8x32xf16>) {
// CHECK-NEXT: %[[J:.*]] = pl.tensor.read %[[I]][%[[K]]] : !pl.tensor<8xi32> -> i32
// CHECK-NEXT: %[[JI:.*]] = arith.index_cast %[[J]] : i32 to index
// CHECK-NEXT: %[[PAGE:.*]] = arith.divui %[[JI]], %[[C4]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.remui %[[JI]], %[[C4]] : index
// CHECK-NEXT: %[[PP:.*]] = pl.tensor.read %[[T]][%{{.*}}, %[[PAGE]]] : !pl.tensor<1x4xi32> -> i32
// CHECK-NEXT: %[[PPI:.*]] = arith.index_cast %[[PP]] : i32 to index
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[PPI]], %[[C4]] : index
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[IN]] : index
// CHECK-NEXT: %[[G:.*]] = pl.tile.gather_row %[[C]][%[[ROW]], %[[C16]]] into %[[A]][%[[K]], %{{.*}}] shape [1, 32] : !pl.tensor<64x64xf16>, !pl.tile<8x32xf16>
// CHECK-NEXT: scf.yield %[[G]]
// CHECK: %[[E:.*]] = pl.tile.exp %[[R]]
// CHECK: pl.tile.gather_row %[[C]][%[[P]], %{{.*}}] into %[[E]][%{{.*}}, %{{.*}}] shape [2, 32] : !pl.tensor<64x64xf16>, !pl.tile<8x32xf16>
func.func @paged_rows(%c: !pl.tensor<64x64xf16>, %i: !pl.tensor<8xi32>, %t: !pl.tensor<1x4xi32>, %p: index) -> !pl.tensor<8x32xf16> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %k = pl.tensor.paged_gather %c, %i, %t block_size 4 col_off 16 : !pl.tensor<64x64xf16>, !pl.tensor<8xi32>, !pl.tensor<1x4xi32> -> !pl.tensor<8x32xf16>
  %e = pl.tensor.exp %k : !pl.tensor<8x32xf16>
  %g = pl.tensor.gather_row %c[%p, %c0] into %e[%c0, %c0] shape [2, 32] : !pl.tensor<64x64xf16>, !pl.tensor<8x32xf16>
  return %g : !pl.tensor<8x32xf16>
}

// Valid regions: set_validshape is the tile's, a pad fills around it, and
// the ops after the pad keep its view; a parameter whose type gives
// constant valid extents loads with them.
// CHECK-LABEL: func.func @valid_regions
// CHECK-DAG: %[[X:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32>
// CHECK-DAG: %[[Y:.*]] = pl.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pl.tensor<8x32xf16, valid = 5x20> -> !pl.tile<8x32xf16, valid = 5x20>
// CHECK: %[[V:.*]] = pl.tile.set_validshape %[[X]], %{{.*}}, %{{.*}} : !pl.tile<16x64xf32> -> !pl.tile<16x64xf32, valid = 16x?>
// CHECK: %[[F:.*]] = pl.tile.fillpad %[[V]] min : !pl.tile<16x64xf32, valid = 16x?> -> !pl.tile<16x64xf32, pad = min>
// CHECK: pl.tile.exp %[[F]] : !pl.tile<16x64xf32, pad = min>
// CHECK: pl.tile.fillpad_expand %[[Y]] zero : !pl.tile<8x32xf16, valid = 5x20> -> !pl.tile<16x48xf16, pad = zero>
func.func @valid_regions(%s: !pl.tensor<16x64xf32>, %n: index, %y: !pl.tensor<8x32xf16, valid = 5x20>) -> (!pl.tensor<16x64xf32, pad = min>, !pl.tensor<16x48xf16, pad = zero>) attributes {pl.kind = #pl.kind<incore>} {
  %c16 = arith.constant 16 : index
  %v = pl.tensor.set_validshape %s, %c16, %n : !pl.tensor<16x64xf32> -> !pl.tensor<16x64xf32, valid = 16x?>
  %f = pl.tensor.fillpad %v min : !pl.tensor<16x64xf32, valid = 16x?> -> !pl.tensor<16x64xf32, pad = min>
  %e = pl.tensor.exp %f : !pl.tensor<16x64xf32, pad = min>
  %x = pl.tensor.fillpad_expand %y zero : !pl.tensor<8x32xf16, valid = 5x20> -> !pl.tensor<16x48xf16, pad = zero>
  return %e, %x : !pl.tensor<16x64xf32, pad = min>, !pl.tensor<16x48xf16, pad = zero>
}

// A broadcast middle axis: each batch's row expanded to a block of rows
// and assembled at its place in the 2-D form, stored into the target.
// CHECK-LABEL: func.func @expand_rows
// CHECK: %[[X:.*]] = pl.tile.load %{{.*}} : !pl.tensor<2x1x32xf32> -> !pl.tile<2x1x32xf32>
// CHECK: %[[F:.*]] = pl.tile.reshape %[[X]] : !pl.tile<2x1x32xf32> -> !pl.tile<2x32xf32>
// CHECK: %[[A0:.*]] = pl.tile.create : !pl.tile<16x32xf32>
// CHECK: %[[R0:.*]] = pl.tile.slice %[[F]]{{.*}} -> !pl.tile<1x32xf32>
// CHECK: %[[E0:.*]] = pl.tile.col_expand %{{.*}}, %[[R0]] : !pl.tile<8x32xf32>, !pl.tile<1x32xf32> -> !pl.tile<8x32xf32>
// CHECK: %[[A1:.*]] = pl.tile.assemble %[[E0]] into %[[A0]]
// CHECK: %[[R1:.*]] = pl.tile.slice %[[F]]
// CHECK: %[[E1:.*]] = pl.tile.col_expand %{{.*}}, %[[R1]]
// CHECK: %[[A2:.*]] = pl.tile.assemble %[[E1]] into %[[A1]]
// CHECK: %[[B:.*]] = pl.tile.reshape %[[A2]] : !pl.tile<16x32xf32> -> !pl.tile<2x8x32xf32>
// CHECK: pl.tile.store %[[B]], %arg1
func.func @expand_rows(%x: !pl.tensor<2x1x32xf32>, %y: !pl.tensor<2x8x32xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<2x8x32xf32> attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.expand_clone %x into %y : !pl.tensor<2x1x32xf32>, !pl.tensor<2x8x32xf32>
  return %r : !pl.tensor<2x8x32xf32>
}

// A compare gather: its tile form on the loaded source, both results
// stored.
// CHECK-LABEL: func.func @gather_compare(
// CHECK: %[[S:.*]] = pl.tile.load %arg0[%{{.*}}, %{{.*}}] : !pl.tensor<8x64xf32> -> !pl.tile<8x64xf32>
// CHECK: %[[I:.*]], %[[N:.*]] = pl.tile.gather_compare %[[S]], %arg1 gt offset 64 : !pl.tile<8x64xf32>, f32 -> !pl.tile<8x16xi32>, !pl.tile<1x8xui32>
// CHECK: pl.tile.store %[[I]], %arg2
// CHECK: pl.tile.store %[[N]], %arg3
func.func @gather_compare(%s: !pl.tensor<8x64xf32>, %t: f32) -> (!pl.tensor<8x16xi32>, !pl.tensor<1x8xui32>) attributes {pl.kind = #pl.kind<incore>} {
  %i, %n = pl.tensor.gather_compare %s, %t gt offset 64 : !pl.tensor<8x64xf32>, f32 -> !pl.tensor<8x16xi32>, !pl.tensor<1x8xui32>
  return %i, %n : !pl.tensor<8x16xi32>, !pl.tensor<1x8xui32>
}

// Random bits: the tile form on the seeds, stored.
// CHECK-LABEL: func.func @random(
// CHECK: %[[R:.*]] = pl.tile.random key(%arg0, %arg1) counter(%arg0, %arg1, %arg0, %arg1) rounds 7 : !pl.tile<4x256xui32>
// CHECK: pl.tile.store %[[R]], %arg2
func.func @random(%k0: i32, %k1: i32) -> !pl.tensor<4x256xui32> attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.random key(%k0, %k1) counter(%k0, %k1, %k0, %k1) rounds 7 : !pl.tensor<4x256xui32>
  return %r : !pl.tensor<4x256xui32>
}
