// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space,pl-lower-auto-vector-split))' --split-input-file --verify-diagnostics

// A row maximum under left_right: each vector core holds half of every
// row, so neither has the row's maximum.
func.func @across(%x: !pl.tensor<16x32xf16>, %w: !pl.tensor<32x64xf16>, %y: !pl.tensor<16x1xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x1xf32> attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<left_right>} {
  %c0 = arith.constant 0 : index
  %xt = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16>
  %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
  %tmp = pl.tile.create : !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{pl-lower-auto-vector-split: pl.tile.row_max reduces across the columns, which the two vector cores hold apart (the kernel is split left_right)}}
  %m = pl.tile.row_max %p, %tmp : !pl.tile<16x64xf32>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x1xf32, vec>
  %s = pl.tile.store %m, %y[%c0, %c0] : !pl.tile<16x1xf32, vec>, !pl.tensor<16x1xf32>
  return %s : !pl.tensor<16x1xf32>
}

// -----

// Odd rows cannot be halved.
func.func @odd(%x: !pl.tensor<16x32xf16>, %w: !pl.tensor<32x64xf16>, %z: !pl.tensor<6x64xf32>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}, %y3: !pl.tensor<3x64xf32> {pl.direction = #pl.direction<out>}) -> (!pl.tensor<16x64xf32>, !pl.tensor<3x64xf32>) attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  %c0 = arith.constant 0 : index
  %xt = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16>
  %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
  %e = pl.tile.exp %p : !pl.tile<16x64xf32>
  %s = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<16x64xf32>, !pl.tensor<16x64xf32>
  // expected-error @+1 {{pl-lower-auto-vector-split: the vector tile !pl.tile<3x64xf32, vec> cannot be halved: its rows (3) are odd (the kernel is split up_down)}}
  %zt = pl.tile.load %z[%c0, %c0] : !pl.tensor<6x64xf32> -> !pl.tile<3x64xf32>
  %s3 = pl.tile.store %zt, %y3[%c0, %c0] : !pl.tile<3x64xf32>, !pl.tensor<3x64xf32>
  return %s, %s3 : !pl.tensor<16x64xf32>, !pl.tensor<3x64xf32>
}

// -----

// A product of one row crosses to the vector cores whole: under up_down
// there is no half to give each.
func.func @whole_crossing(%x: !pl.tensor<1x32xf16>, %w: !pl.tensor<32x32xf16>, %y: !pl.tensor<1x32xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<1x32xf32> attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  %c0 = arith.constant 0 : index
  %xm = pl.tile.load %x[%c0, %c0] : !pl.tensor<1x32xf16> -> !pl.tile<1x32xf16, mat, blayout = row_major, slayout = none_box>
  %wm = pl.tile.load %w[%c0, %c0] : !pl.tensor<32x32xf16> -> !pl.tile<32x32xf16, mat>
  %xl = pl.tile.move %xm : !pl.tile<1x32xf16, mat, blayout = row_major, slayout = none_box> -> !pl.tile<1x32xf16, left>
  %wr = pl.tile.move %wm : !pl.tile<32x32xf16, mat> -> !pl.tile<32x32xf16, right>
  %p = pl.tile.gemv %xl, %wr unspecified : !pl.tile<1x32xf16, left>, !pl.tile<32x32xf16, right> -> !pl.tile<1x32xf32, acc>
  // expected-error @+1 {{pl-lower-auto-vector-split: a tile crossing the cores whole (!pl.tile<1x32xf32, acc> to !pl.tile<1x32xf32, vec>): in a split kernel every tile that crosses is halved, and one of extent 1 along the rows cannot be (the kernel is split up_down)}}
  %v = pl.tile.move %p : !pl.tile<1x32xf32, acc> -> !pl.tile<1x32xf32, vec>
  %e = pl.tile.exp %v : !pl.tile<1x32xf32, vec>
  %s = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<1x32xf32, vec>, !pl.tensor<1x32xf32>
  return %s : !pl.tensor<1x32xf32>
}

// -----

// A scalar read of a split tile: which vector core holds the element
// depends on its row.
func.func @scalar_read(%x: !pl.tensor<16x32xf16>, %w: !pl.tensor<32x64xf16>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> f32 attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  %c0 = arith.constant 0 : index
  %xt = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16>
  %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
  %e = pl.tile.exp %p : !pl.tile<16x64xf32>
  // expected-error @+1 {{pl-lower-auto-vector-split: pl.tile.read (tile_access family) on a split vector tile is not split (the kernel is split up_down)}}
  %v = pl.tile.read %e[%c0, %c0] : !pl.tile<16x64xf32> -> f32
  return %v : f32
}

// -----

// A kernel split by hand (pl.tile.aiv_shard up_down) is not split again.
func.func @by_hand(%x: !pl.tensor<16x32xf16>, %w: !pl.tensor<32x32xf16>, %e: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x32xf32> attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %xt = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !pl.tensor<32x32xf16> -> !pl.tile<32x32xf16>
  %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x32xf16> -> !pl.tile<16x32xf32>
  // expected-error @+1 {{pl-lower-auto-vector-split: pl.tile.aiv_shard is split already: a kernel marked pl.split leaves the splitting to this pass (the kernel is split up_down)}}
  %h = pl.tile.aiv_shard %p up_down : !pl.tile<16x32xf32> -> !pl.tile<8x32xf32>
  %lane = pl.tile.get_subblock_idx
  %row = arith.muli %lane, %c8 : index
  %s = pl.tile.store %h, %e[%row, %c0] : !pl.tile<8x32xf32>, !pl.tensor<16x32xf32>
  return %s : !pl.tensor<16x32xf32>
}

// -----

// Nothing for the cube: the split is dropped, the kernel runs whole on
// one vector core.
// expected-warning @+1 {{pl-infer-memory-space: the kernel is split up_down but runs on one vector core: its split is dropped}}
func.func @vector_only(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  %c0 = arith.constant 0 : index
  %xt = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32>
  %e = pl.tile.exp %xt : !pl.tile<16x64xf32>
  %s = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<16x64xf32>, !pl.tensor<16x64xf32>
  return %s : !pl.tensor<16x64xf32>
}
