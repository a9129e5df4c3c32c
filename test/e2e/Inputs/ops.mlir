// Tile instructions beyond the examples, for the translator and the
// simulator: integer bitwise and shift ops, remainders, leaky and
// parametric ReLU, arg-reductions, compare-and-select through the packed
// mask, a transpose, scalar reads and writes, a column exp-difference,
// slices and assembles, atomic stores.
!I = !pl.tensor<16x64xi32>
!F = !pl.tensor<16x64xf32>
!It = !pl.tile<16x64xi32, vec>
!Ft = !pl.tile<16x64xf32, vec>
!Mask = !pl.tile<16x32xui8, vec, valid = 16x8>

func.func @integer_ops(%a: !I, %b: !I, %out: !I {pl.direction = #pl.direction<out>}) -> !I attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : i32
  %c3 = arith.constant 3 : i32
  %c1 = arith.constant 1 : i32
  %ta = pl.tile.load %a[%c0, %c0] : !I -> !It
  %tb = pl.tile.load %b[%c0, %c0] : !I -> !It
  %and = pl.tile.and %ta, %tb : !It, !It -> !It
  %or = pl.tile.ors %and, %c5 : !It, i32
  %xor = pl.tile.xors %or, %c3, %ta : !It, i32
  %shl = pl.tile.shls %xor, %c1 : !It, i32
  %shr = pl.tile.shrs %shl, %c1 : !It, i32
  %nonzero = pl.tile.ors %tb, %c1 : !It, i32
  // TREM keeps a row of quotients and a comparison mask in its tmp.
  %quotients = pl.tile.create : !pl.tile<1x128xi32, vec>
  %rem = pl.tile.rem %shr, %nonzero, %quotients : !It, !It, !pl.tile<1x128xi32, vec> -> !It
  %r = pl.tile.store %rem, %out[%c0, %c0] : !It, !I
  return %r : !I
}

func.func @float_ops(%x: !F, %y: !F, %out: !F {pl.direction = #pl.direction<out>}, %picks: !pl.tensor<16x1xi32> {pl.direction = #pl.direction<out>}) -> (!F, !pl.tensor<16x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %slope = arith.constant 0.25 : f32
  %half = arith.constant 0.5 : f32
  %tx = pl.tile.load %x[%c0, %c0] : !F -> !Ft
  %ty = pl.tile.load %y[%c0, %c0] : !F -> !Ft
  %lr = pl.tile.lrelu %tx, %slope : !Ft, f32
  %pr = pl.tile.prelu %lr, %ty : !Ft, !Ft -> !Ft
  %fm = pl.tile.fmods %pr, %half : !Ft, f32
  %m = pl.tile.cmp %tx, %ty lt : !Ft, !Ft -> !Mask
  %sel = pl.tile.sel %m, %fm, %ty, %tx : !Mask, !Ft
  %ms = pl.tile.cmps %sel, %half ge : !Ft, f32 -> !Mask
  %sels = pl.tile.sels %ms, %sel, %slope, %tx : !Mask, !Ft, f32
  %v = pl.tile.read %sels[%c3, %c7] : !Ft -> f32
  %w = pl.tile.write %sels[%c7, %c3], %v : !Ft, f32
  %arg = pl.tile.row_argmax %w, %tx : !Ft, !Ft -> !pl.tile<16x1xi32, vec>
  %r = pl.tile.store %w, %out[%c0, %c0] : !Ft, !F
  %p = pl.tile.store %arg, %picks[%c0, %c0] : !pl.tile<16x1xi32, vec>, !pl.tensor<16x1xi32>
  return %r, %p : !F, !pl.tensor<16x1xi32>
}

func.func @shapes(%x: !pl.tensor<16x32xf32>, %out: !pl.tensor<32x16xf32> {pl.direction = #pl.direction<out>}, %cols: !pl.tensor<1x32xi32> {pl.direction = #pl.direction<out>}, %dif: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>}) -> (!pl.tensor<32x16xf32>, !pl.tensor<1x32xi32>, !pl.tensor<16x32xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x32xf32> -> !pl.tile<16x32xf32, vec>
  %tr = pl.tile.transpose %t axes 0, 1 : !pl.tile<16x32xf32, vec> -> !pl.tile<32x16xf32, vec>
  // TCOLARGMIN writes its tmp on a2a3: a scratch of its own, not %t, which
  // col_max reads next.
  %scratch = pl.tile.create : !pl.tile<16x32xf32, vec>
  %arg = pl.tile.col_argmin %t, %scratch : !pl.tile<16x32xf32, vec>, !pl.tile<16x32xf32, vec> -> !pl.tile<1x32xi32, vec>
  %mx = pl.tile.col_max %t : !pl.tile<16x32xf32, vec> -> !pl.tile<1x32xf32, vec>
  %d = pl.tile.col_expand_expdif %t, %mx : !pl.tile<16x32xf32, vec>, !pl.tile<1x32xf32, vec> -> !pl.tile<16x32xf32, vec>
  %r = pl.tile.store %tr, %out[%c0, %c0] : !pl.tile<32x16xf32, vec>, !pl.tensor<32x16xf32>
  %a = pl.tile.store %arg, %cols[%c0, %c0] : !pl.tile<1x32xi32, vec>, !pl.tensor<1x32xi32>
  %e = pl.tile.store %d, %dif[%c0, %c0] : !pl.tile<16x32xf32, vec>, !pl.tensor<16x32xf32>
  return %r, %a, %e : !pl.tensor<32x16xf32>, !pl.tensor<1x32xi32>, !pl.tensor<16x32xf32>
}

func.func @windows(%x: !pl.tensor<16x128xf32>, %y: !pl.tensor<16x128xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x128xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x128xf32> -> !pl.tile<16x128xf32, vec>
  %s = pl.tile.slice %t[%c0, %c64] : !pl.tile<16x128xf32, vec> -> !pl.tile<16x64xf32, vec>
  %e = pl.tile.exp %s : !pl.tile<16x64xf32, vec>
  %a = pl.tile.assemble %e into %t[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tile<16x128xf32, vec>
  %r = pl.tile.store %a, %y[%c0, %c0] : !pl.tile<16x128xf32, vec>, !pl.tensor<16x128xf32>
  return %r : !pl.tensor<16x128xf32>
}

func.func @accumulate(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<inout>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %e = pl.tile.exp %t : !pl.tile<16x64xf32, vec>
  %r1 = pl.tile.store %t, %y[%c0, %c0] atomic_add : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  %r2 = pl.tile.store %e, %r1[%c0, %c0] atomic_add : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  return %r2 : !pl.tensor<16x64xf32>
}

// Broadcasts of a row vector and a column vector (TROWEXPAND / TCOLEXPAND
// take the destination and the vector), then their sum: a layer-norm shape.
func.func @broadcasts(%x: !F, %out: !F {pl.direction = #pl.direction<out>}) -> !F attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %tx = pl.tile.load %x[%c0, %c0] : !F -> !Ft
  %scratch = pl.tile.create : !Ft
  %rows = pl.tile.row_sum %tx, %scratch : !Ft, !Ft -> !pl.tile<16x1xf32, vec>
  %cols = pl.tile.col_max %tx : !Ft -> !pl.tile<1x64xf32, vec>
  %by_row = pl.tile.row_expand %tx, %rows : !Ft, !pl.tile<16x1xf32, vec> -> !Ft
  %by_col = pl.tile.col_expand %tx, %cols : !Ft, !pl.tile<1x64xf32, vec> -> !Ft
  %sum = pl.tile.add %by_row, %by_col : !Ft, !Ft -> !Ft
  %r = pl.tile.store %sum, %out[%c0, %c0] : !Ft, !F
  return %r : !F
}

// f16 sums of 128 columns and of 64 rows, in the order docs/a2a3-lowering.md
// defines ("Reduction order"): rows in f32, rounded once; columns in f16.
func.func @f16_sums(%x: !pl.tensor<64x128xf16>, %rows: !pl.tensor<64x1xf16> {pl.direction = #pl.direction<out>}, %cols: !pl.tensor<1x128xf16> {pl.direction = #pl.direction<out>}) -> (!pl.tensor<64x1xf16>, !pl.tensor<1x128xf16>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<64x128xf16> -> !pl.tile<64x128xf16, vec>
  %tmp = pl.tile.create : !pl.tile<64x128xf16, vec>
  %r = pl.tile.row_sum %t, %tmp : !pl.tile<64x128xf16, vec>, !pl.tile<64x128xf16, vec> -> !pl.tile<64x1xf16, vec>
  %c = pl.tile.col_sum %t : !pl.tile<64x128xf16, vec> -> !pl.tile<1x128xf16, vec>
  %r2 = pl.tile.store %r, %rows[%c0, %c0] : !pl.tile<64x1xf16, vec>, !pl.tensor<64x1xf16>
  %c2 = pl.tile.store %c, %cols[%c0, %c0] : !pl.tile<1x128xf16, vec>, !pl.tensor<1x128xf16>
  return %r2, %c2 : !pl.tensor<64x1xf16>, !pl.tensor<1x128xf16>
}
