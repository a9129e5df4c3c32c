// Every instruction convert-pl-to-emitc maps a tile op to
// (the op table's instructions, `OpInfo::instruction`), and the forms its dedicated lowerings emit
// (TCMP/TCMPS, TCVT, TMATMUL_ACC), each result stored into an output of
// its own, named after the op: test/e2e/every-instruction.test compiles
// every kernel against the simulator and compares each output with
// pto-run (test/e2e/pto-isa-api.test compiles them against pto-isa's own
// headers); translate/tests/every_instruction.rs checks that every
// instruction of the table is emitted here.
//
// Vector inputs are pto-run's random floats in [-1, 1); results are kept
// well defined: logarithms, roots and divisors take |x| + 0.5, integers
// are the floats scaled by 1000 and truncated, masked to [0, 1023] where
// signs would matter, shift counts are in [0, 7] and remainders divide by
// odd numbers. The cube's inputs are whole numbers (the products are exact
// in any order). Every scratch (`tmp`) operand the program names is a
// buffer of its own; transposes and parametric relus get theirs from the
// pipeline (pl-flatten-tile-nd-to-2d).

!X = !pl.tensor<16x32xf32>
!T = !pl.tile<16x32xf32, vec>
!I = !pl.tensor<16x32xi32>
!It = !pl.tile<16x32xi32, vec>
!Col = !pl.tile<16x1xf32, vec>
!ColT = !pl.tensor<16x1xf32>
!Row = !pl.tile<1x32xf32, vec>
!RowT = !pl.tensor<1x32xf32>
!Mask = !pl.tile<16x32xui8, vec, valid = 16x4>

// Tile-tile arithmetic.
func.func @binary(%x: !X, %y: !X,
    %add: !X {pl.direction = #pl.direction<out>}, %sub: !X {pl.direction = #pl.direction<out>},
    %mul: !X {pl.direction = #pl.direction<out>}, %div: !X {pl.direction = #pl.direction<out>},
    %maximum: !X {pl.direction = #pl.direction<out>}, %minimum: !X {pl.direction = #pl.direction<out>},
    %fmod: !X {pl.direction = #pl.direction<out>}, %prelu: !X {pl.direction = #pl.direction<out>})
    -> (!X, !X, !X, !X, !X, !X, !X, !X) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %tx = pl.tile.load %x[%c0, %c0] : !X -> !T
  %ty = pl.tile.load %y[%c0, %c0] : !X -> !T
  %ay = pl.tile.abs %ty : !T
  %d = pl.tile.adds %ay, %half : !T, f32
  %0 = pl.tile.add %tx, %ty : !T, !T -> !T
  %1 = pl.tile.sub %tx, %ty : !T, !T -> !T
  %2 = pl.tile.mul %tx, %ty : !T, !T -> !T
  %3 = pl.tile.div %tx, %d : !T, !T -> !T
  %4 = pl.tile.maximum %tx, %ty : !T, !T -> !T
  %5 = pl.tile.minimum %tx, %ty : !T, !T -> !T
  %6 = pl.tile.fmod %tx, %d : !T, !T -> !T
  %7 = pl.tile.prelu %tx, %ty : !T, !T -> !T
  %r0 = pl.tile.store %0, %add[%c0, %c0] : !T, !X
  %r1 = pl.tile.store %1, %sub[%c0, %c0] : !T, !X
  %r2 = pl.tile.store %2, %mul[%c0, %c0] : !T, !X
  %r3 = pl.tile.store %3, %div[%c0, %c0] : !T, !X
  %r4 = pl.tile.store %4, %maximum[%c0, %c0] : !T, !X
  %r5 = pl.tile.store %5, %minimum[%c0, %c0] : !T, !X
  %r6 = pl.tile.store %6, %fmod[%c0, %c0] : !T, !X
  %r7 = pl.tile.store %7, %prelu[%c0, %c0] : !T, !X
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : !X, !X, !X, !X, !X, !X, !X, !X
}

// Tile-scalar arithmetic and scalar fills.
func.func @scalar(%x: !X,
    %adds: !X {pl.direction = #pl.direction<out>}, %subs: !X {pl.direction = #pl.direction<out>},
    %muls: !X {pl.direction = #pl.direction<out>}, %divs: !X {pl.direction = #pl.direction<out>},
    %maximums: !X {pl.direction = #pl.direction<out>}, %minimums: !X {pl.direction = #pl.direction<out>},
    %fmods: !X {pl.direction = #pl.direction<out>}, %lrelu: !X {pl.direction = #pl.direction<out>},
    %expands: !X {pl.direction = #pl.direction<out>}, %full: !X {pl.direction = #pl.direction<out>})
    -> (!X, !X, !X, !X, !X, !X, !X, !X, !X, !X) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %s = arith.constant 0.375 : f32
  %slope = arith.constant 0.125 : f32
  %fill = arith.constant -2.5 : f32
  %tx = pl.tile.load %x[%c0, %c0] : !X -> !T
  %0 = pl.tile.adds %tx, %s : !T, f32
  %1 = pl.tile.subs %tx, %s : !T, f32
  %2 = pl.tile.muls %tx, %s : !T, f32
  %3 = pl.tile.divs %tx, %s : !T, f32
  %4 = pl.tile.maximums %tx, %s : !T, f32
  %5 = pl.tile.minimums %tx, %s : !T, f32
  %6 = pl.tile.fmods %tx, %s : !T, f32
  %7 = pl.tile.lrelu %tx, %slope : !T, f32
  %8 = pl.tile.expands %tx, %fill : !T, f32
  %9 = pl.tile.full %s : f32 -> !T
  %r0 = pl.tile.store %0, %adds[%c0, %c0] : !T, !X
  %r1 = pl.tile.store %1, %subs[%c0, %c0] : !T, !X
  %r2 = pl.tile.store %2, %muls[%c0, %c0] : !T, !X
  %r3 = pl.tile.store %3, %divs[%c0, %c0] : !T, !X
  %r4 = pl.tile.store %4, %maximums[%c0, %c0] : !T, !X
  %r5 = pl.tile.store %5, %minimums[%c0, %c0] : !T, !X
  %r6 = pl.tile.store %6, %fmods[%c0, %c0] : !T, !X
  %r7 = pl.tile.store %7, %lrelu[%c0, %c0] : !T, !X
  %r8 = pl.tile.store %8, %expands[%c0, %c0] : !T, !X
  %r9 = pl.tile.store %9, %full[%c0, %c0] : !T, !X
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9 : !X, !X, !X, !X, !X, !X, !X, !X, !X, !X
}

// Unary functions; the logarithm and the roots of |x| + 0.5.
func.func @unary(%x: !X,
    %exp: !X {pl.direction = #pl.direction<out>}, %log: !X {pl.direction = #pl.direction<out>},
    %sqrt: !X {pl.direction = #pl.direction<out>}, %rsqrt: !X {pl.direction = #pl.direction<out>},
    %recip: !X {pl.direction = #pl.direction<out>}, %abs: !X {pl.direction = #pl.direction<out>},
    %neg: !X {pl.direction = #pl.direction<out>}, %relu: !X {pl.direction = #pl.direction<out>})
    -> (!X, !X, !X, !X, !X, !X, !X, !X) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %tx = pl.tile.load %x[%c0, %c0] : !X -> !T
  %5 = pl.tile.abs %tx : !T
  %p = pl.tile.adds %5, %half : !T, f32
  %0 = pl.tile.exp %tx : !T
  %1 = pl.tile.log %p : !T
  %2 = pl.tile.sqrt %p : !T
  %3 = pl.tile.rsqrt %p : !T
  %4 = pl.tile.recip %p : !T
  %6 = pl.tile.neg %tx : !T
  %7 = pl.tile.relu %tx : !T
  %r0 = pl.tile.store %0, %exp[%c0, %c0] : !T, !X
  %r1 = pl.tile.store %1, %log[%c0, %c0] : !T, !X
  %r2 = pl.tile.store %2, %sqrt[%c0, %c0] : !T, !X
  %r3 = pl.tile.store %3, %rsqrt[%c0, %c0] : !T, !X
  %r4 = pl.tile.store %4, %recip[%c0, %c0] : !T, !X
  %r5 = pl.tile.store %5, %abs[%c0, %c0] : !T, !X
  %r6 = pl.tile.store %6, %neg[%c0, %c0] : !T, !X
  %r7 = pl.tile.store %7, %relu[%c0, %c0] : !T, !X
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : !X, !X, !X, !X, !X, !X, !X, !X
}

// The sine and cosine of 40 x (within ±40), which a2a3 has no instruction
// for: pl-lower-math-ops decomposes them into 31 and 34 primitive tile ops
// (TMULS, TADDS, TADD, TSUB, TMUL and TCVT to and from int32 with modes
// round, rint, floor and none), which must compute what pto-run computes.
func.func @trig(%x: !X, %sin: !X {pl.direction = #pl.direction<out>}, %cos: !X {pl.direction = #pl.direction<out>})
    -> (!X, !X) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %scale = arith.constant 40.0 : f32
  %tx = pl.tile.load %x[%c0, %c0] : !X -> !T
  %a = pl.tile.muls %tx, %scale : !T, f32
  %0 = pl.tile.sin %a : !T
  %1 = pl.tile.cos %a : !T
  %r0 = pl.tile.store %0, %sin[%c0, %c0] : !T, !X
  %r1 = pl.tile.store %1, %cos[%c0, %c0] : !T, !X
  return %r0, %r1 : !X, !X
}

// Integers: the inputs scaled by 1000 and truncated (TCVT), bitwise ops,
// shifts and remainders; the complement on i16.
func.func @integer(%x: !X, %y: !X,
    %and: !I {pl.direction = #pl.direction<out>}, %or: !I {pl.direction = #pl.direction<out>},
    %xor: !I {pl.direction = #pl.direction<out>}, %shl: !I {pl.direction = #pl.direction<out>},
    %shr: !I {pl.direction = #pl.direction<out>}, %ands: !I {pl.direction = #pl.direction<out>},
    %ors: !I {pl.direction = #pl.direction<out>}, %xors: !I {pl.direction = #pl.direction<out>},
    %shls: !I {pl.direction = #pl.direction<out>}, %shrs: !I {pl.direction = #pl.direction<out>},
    %rem: !I {pl.direction = #pl.direction<out>}, %rems: !I {pl.direction = #pl.direction<out>},
    %not: !pl.tensor<16x32xi16> {pl.direction = #pl.direction<out>})
    -> (!I, !I, !I, !I, !I, !I, !I, !I, !I, !I, !I, !I, !pl.tensor<16x32xi16>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %scale = arith.constant 1000.0 : f32
  %mask = arith.constant 1023 : i32
  %seven = arith.constant 7 : i32
  %one = arith.constant 1 : i32
  %five = arith.constant 5 : i32
  %three = arith.constant 3 : i32
  %two = arith.constant 2 : i32
  %tx = pl.tile.load %x[%c0, %c0] : !X -> !T
  %ty = pl.tile.load %y[%c0, %c0] : !X -> !T
  %sx = pl.tile.muls %tx, %scale : !T, f32
  %sy = pl.tile.muls %ty, %scale : !T, f32
  %ix = pl.tile.cast %sx trunc : !T -> !It
  %iy = pl.tile.cast %sy trunc : !T -> !It
  %a = pl.tile.ands %ix, %mask : !It, i32
  %b = pl.tile.ands %iy, %mask : !It, i32
  %k = pl.tile.ands %iy, %seven : !It, i32
  %odd = pl.tile.ors %iy, %one : !It, i32
  %tmp0 = pl.tile.create : !It
  %tmp1 = pl.tile.create : !It
  // TREM keeps a row of quotients and a comparison mask in its tmp.
  %tmp2 = pl.tile.create : !pl.tile<1x96xi32, vec>
  %tmp3 = pl.tile.create : !It
  %0 = pl.tile.and %ix, %iy : !It, !It -> !It
  %1 = pl.tile.or %ix, %iy : !It, !It -> !It
  %2 = pl.tile.xor %ix, %iy, %tmp0 : !It, !It, !It -> !It
  %3 = pl.tile.shl %a, %k : !It, !It -> !It
  %4 = pl.tile.shr %b, %k : !It, !It -> !It
  %6 = pl.tile.ors %ix, %five : !It, i32
  %7 = pl.tile.xors %ix, %three, %tmp1 : !It, i32
  %8 = pl.tile.shls %a, %three : !It, i32
  %9 = pl.tile.shrs %b, %two : !It, i32
  %10 = pl.tile.rem %a, %odd, %tmp2 : !It, !It, !pl.tile<1x96xi32, vec> -> !It
  %11 = pl.tile.rems %a, %seven, %tmp3 : !It, i32
  %h = pl.tile.cast %ix rint : !It -> !pl.tile<16x32xi16, vec>
  %12 = pl.tile.not %h : !pl.tile<16x32xi16, vec>
  %r0 = pl.tile.store %0, %and[%c0, %c0] : !It, !I
  %r1 = pl.tile.store %1, %or[%c0, %c0] : !It, !I
  %r2 = pl.tile.store %2, %xor[%c0, %c0] : !It, !I
  %r3 = pl.tile.store %3, %shl[%c0, %c0] : !It, !I
  %r4 = pl.tile.store %4, %shr[%c0, %c0] : !It, !I
  %r5 = pl.tile.store %a, %ands[%c0, %c0] : !It, !I
  %r6 = pl.tile.store %6, %ors[%c0, %c0] : !It, !I
  %r7 = pl.tile.store %7, %xors[%c0, %c0] : !It, !I
  %r8 = pl.tile.store %8, %shls[%c0, %c0] : !It, !I
  %r9 = pl.tile.store %9, %shrs[%c0, %c0] : !It, !I
  %r10 = pl.tile.store %10, %rem[%c0, %c0] : !It, !I
  %r11 = pl.tile.store %11, %rems[%c0, %c0] : !It, !I
  %r12 = pl.tile.store %12, %not[%c0, %c0] : !pl.tile<16x32xi16, vec>, !pl.tensor<16x32xi16>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12 : !I, !I, !I, !I, !I, !I, !I, !I, !I, !I, !I, !I, !pl.tensor<16x32xi16>
}

// Row and column reductions and arg-reductions.
func.func @reductions(%x: !X,
    %row_sum: !ColT {pl.direction = #pl.direction<out>}, %row_max: !ColT {pl.direction = #pl.direction<out>},
    %row_min: !ColT {pl.direction = #pl.direction<out>}, %row_prod: !ColT {pl.direction = #pl.direction<out>},
    %row_argmax: !pl.tensor<16x1xi32> {pl.direction = #pl.direction<out>},
    %row_argmin: !pl.tensor<16x1xi32> {pl.direction = #pl.direction<out>},
    %col_sum: !RowT {pl.direction = #pl.direction<out>}, %col_max: !RowT {pl.direction = #pl.direction<out>},
    %col_min: !RowT {pl.direction = #pl.direction<out>}, %col_prod: !RowT {pl.direction = #pl.direction<out>},
    %col_argmax: !pl.tensor<1x32xi32> {pl.direction = #pl.direction<out>},
    %col_argmin: !pl.tensor<1x32xi32> {pl.direction = #pl.direction<out>},
    %col_sum_scratch: !RowT {pl.direction = #pl.direction<out>})
    -> (!ColT, !ColT, !ColT, !ColT, !pl.tensor<16x1xi32>, !pl.tensor<16x1xi32>, !RowT, !RowT, !RowT, !RowT, !pl.tensor<1x32xi32>, !pl.tensor<1x32xi32>, !RowT)
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %tx = pl.tile.load %x[%c0, %c0] : !X -> !T
  %tmp0 = pl.tile.create : !T
  %tmp1 = pl.tile.create : !T
  %tmp2 = pl.tile.create : !T
  %tmp3 = pl.tile.create : !T
  %tmp4 = pl.tile.create : !T
  %tmp5 = pl.tile.create : !T
  %tmp6 = pl.tile.create : !T
  %tmp7 = pl.tile.create : !T
  %tmp8 = pl.tile.create : !T
  %0 = pl.tile.row_sum %tx, %tmp0 : !T, !T -> !Col
  %1 = pl.tile.row_max %tx, %tmp1 : !T, !T -> !Col
  %2 = pl.tile.row_min %tx, %tmp2 : !T, !T -> !Col
  %3 = pl.tile.row_prod %tx, %tmp3 : !T, !T -> !Col
  %4 = pl.tile.row_argmax %tx, %tmp4 : !T, !T -> !pl.tile<16x1xi32, vec>
  %5 = pl.tile.row_argmin %tx, %tmp5 : !T, !T -> !pl.tile<16x1xi32, vec>
  %6 = pl.tile.col_sum %tx : !T -> !Row
  %7 = pl.tile.col_max %tx : !T -> !Row
  %8 = pl.tile.col_min %tx : !T -> !Row
  %9 = pl.tile.col_prod %tx : !T -> !Row
  %10 = pl.tile.col_argmax %tx, %tmp6 : !T, !T -> !pl.tile<1x32xi32, vec>
  %11 = pl.tile.col_argmin %tx, %tmp7 : !T, !T -> !pl.tile<1x32xi32, vec>
  // TCOLSUM's form with a scratch (isBinary false: the same order).
  %12 = pl.tile.col_sum %tx, %tmp8 : !T, !T -> !Row
  %r0 = pl.tile.store %0, %row_sum[%c0, %c0] : !Col, !ColT
  %r1 = pl.tile.store %1, %row_max[%c0, %c0] : !Col, !ColT
  %r2 = pl.tile.store %2, %row_min[%c0, %c0] : !Col, !ColT
  %r3 = pl.tile.store %3, %row_prod[%c0, %c0] : !Col, !ColT
  %r4 = pl.tile.store %4, %row_argmax[%c0, %c0] : !pl.tile<16x1xi32, vec>, !pl.tensor<16x1xi32>
  %r5 = pl.tile.store %5, %row_argmin[%c0, %c0] : !pl.tile<16x1xi32, vec>, !pl.tensor<16x1xi32>
  %r6 = pl.tile.store %6, %col_sum[%c0, %c0] : !Row, !RowT
  %r7 = pl.tile.store %7, %col_max[%c0, %c0] : !Row, !RowT
  %r8 = pl.tile.store %8, %col_min[%c0, %c0] : !Row, !RowT
  %r9 = pl.tile.store %9, %col_prod[%c0, %c0] : !Row, !RowT
  %r10 = pl.tile.store %10, %col_argmax[%c0, %c0] : !pl.tile<1x32xi32, vec>, !pl.tensor<1x32xi32>
  %r11 = pl.tile.store %11, %col_argmin[%c0, %c0] : !pl.tile<1x32xi32, vec>, !pl.tensor<1x32xi32>
  %r12 = pl.tile.store %12, %col_sum_scratch[%c0, %c0] : !Row, !RowT
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12
      : !ColT, !ColT, !ColT, !ColT, !pl.tensor<16x1xi32>, !pl.tensor<16x1xi32>, !RowT, !RowT, !RowT, !RowT, !pl.tensor<1x32xi32>, !pl.tensor<1x32xi32>, !RowT
}

// Broadcasts of a column (one value per row: the row sums of y / 16,
// which straddle x) and of a row (the column sums / 8), plain and fused;
// the divisions divide by the row (column) maxima of |y| + 0.5.
func.func @expansions(%x: !X, %y: !X,
    %row_expand: !X {pl.direction = #pl.direction<out>}, %row_expand_add: !X {pl.direction = #pl.direction<out>},
    %row_expand_sub: !X {pl.direction = #pl.direction<out>}, %row_expand_mul: !X {pl.direction = #pl.direction<out>},
    %row_expand_div: !X {pl.direction = #pl.direction<out>}, %row_expand_max: !X {pl.direction = #pl.direction<out>},
    %row_expand_min: !X {pl.direction = #pl.direction<out>}, %row_expand_expdif: !X {pl.direction = #pl.direction<out>},
    %col_expand: !X {pl.direction = #pl.direction<out>}, %col_expand_add: !X {pl.direction = #pl.direction<out>},
    %col_expand_sub: !X {pl.direction = #pl.direction<out>}, %col_expand_mul: !X {pl.direction = #pl.direction<out>},
    %col_expand_div: !X {pl.direction = #pl.direction<out>}, %col_expand_max: !X {pl.direction = #pl.direction<out>},
    %col_expand_min: !X {pl.direction = #pl.direction<out>}, %col_expand_expdif: !X {pl.direction = #pl.direction<out>})
    -> (!X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %sixteenth = arith.constant 0.0625 : f32
  %eighth = arith.constant 0.125 : f32
  %tx = pl.tile.load %x[%c0, %c0] : !X -> !T
  %ty = pl.tile.load %y[%c0, %c0] : !X -> !T
  %ay = pl.tile.abs %ty : !T
  %py = pl.tile.adds %ay, %half : !T, f32
  %tmp0 = pl.tile.create : !T
  %tmp1 = pl.tile.create : !T
  // (Scaled before the sums: pto-isa's element-wise ops take row-major
  // tiles, and a column of row sums is col_major.)
  %y16 = pl.tile.muls %ty, %sixteenth : !T, f32
  %y8 = pl.tile.muls %ty, %eighth : !T, f32
  %c = pl.tile.row_sum %y16, %tmp0 : !T, !T -> !Col
  %cd = pl.tile.row_max %py, %tmp1 : !T, !T -> !Col
  %r = pl.tile.col_sum %y8 : !T -> !Row
  %rd = pl.tile.col_max %py : !T -> !Row
  %0 = pl.tile.row_expand %tx, %c : !T, !Col -> !T
  %1 = pl.tile.row_expand_add %tx, %c : !T, !Col -> !T
  %2 = pl.tile.row_expand_sub %tx, %c : !T, !Col -> !T
  %3 = pl.tile.row_expand_mul %tx, %c : !T, !Col -> !T
  %4 = pl.tile.row_expand_div %tx, %cd : !T, !Col -> !T
  %5 = pl.tile.row_expand_max %tx, %c : !T, !Col -> !T
  %6 = pl.tile.row_expand_min %tx, %c : !T, !Col -> !T
  %7 = pl.tile.row_expand_expdif %tx, %c : !T, !Col -> !T
  %8 = pl.tile.col_expand %tx, %r : !T, !Row -> !T
  %9 = pl.tile.col_expand_add %tx, %r : !T, !Row -> !T
  %10 = pl.tile.col_expand_sub %tx, %r : !T, !Row -> !T
  %11 = pl.tile.col_expand_mul %tx, %r : !T, !Row -> !T
  %12 = pl.tile.col_expand_div %tx, %rd : !T, !Row -> !T
  %13 = pl.tile.col_expand_max %tx, %r : !T, !Row -> !T
  %14 = pl.tile.col_expand_min %tx, %r : !T, !Row -> !T
  %15 = pl.tile.col_expand_expdif %tx, %r : !T, !Row -> !T
  %r0 = pl.tile.store %0, %row_expand[%c0, %c0] : !T, !X
  %r1 = pl.tile.store %1, %row_expand_add[%c0, %c0] : !T, !X
  %r2 = pl.tile.store %2, %row_expand_sub[%c0, %c0] : !T, !X
  %r3 = pl.tile.store %3, %row_expand_mul[%c0, %c0] : !T, !X
  %r4 = pl.tile.store %4, %row_expand_div[%c0, %c0] : !T, !X
  %r5 = pl.tile.store %5, %row_expand_max[%c0, %c0] : !T, !X
  %r6 = pl.tile.store %6, %row_expand_min[%c0, %c0] : !T, !X
  %r7 = pl.tile.store %7, %row_expand_expdif[%c0, %c0] : !T, !X
  %r8 = pl.tile.store %8, %col_expand[%c0, %c0] : !T, !X
  %r9 = pl.tile.store %9, %col_expand_add[%c0, %c0] : !T, !X
  %r10 = pl.tile.store %10, %col_expand_sub[%c0, %c0] : !T, !X
  %r11 = pl.tile.store %11, %col_expand_mul[%c0, %c0] : !T, !X
  %r12 = pl.tile.store %12, %col_expand_div[%c0, %c0] : !T, !X
  %r13 = pl.tile.store %13, %col_expand_max[%c0, %c0] : !T, !X
  %r14 = pl.tile.store %14, %col_expand_min[%c0, %c0] : !T, !X
  %r15 = pl.tile.store %15, %col_expand_expdif[%c0, %c0] : !T, !X
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
      : !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X, !X
}

// Compare and select through the packed mask; moves, windows and a
// transpose within vec.
func.func @select_move(%x: !X, %y: !X,
    %sel: !X {pl.direction = #pl.direction<out>}, %sels: !X {pl.direction = #pl.direction<out>},
    %move: !X {pl.direction = #pl.direction<out>},
    %extract: !pl.tensor<16x16xf32> {pl.direction = #pl.direction<out>},
    %slice: !pl.tensor<16x16xf32> {pl.direction = #pl.direction<out>},
    %transpose: !pl.tensor<32x16xf32> {pl.direction = #pl.direction<out>})
    -> (!X, !X, !X, !pl.tensor<16x16xf32>, !pl.tensor<16x16xf32>, !pl.tensor<32x16xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %fill = arith.constant 0.75 : f32
  %tx = pl.tile.load %x[%c0, %c0] : !X -> !T
  %ty = pl.tile.load %y[%c0, %c0] : !X -> !T
  %tmp0 = pl.tile.create : !T
  %tmp1 = pl.tile.create : !T
  %m = pl.tile.cmp %tx, %ty lt : !T, !T -> !Mask
  %0 = pl.tile.sel %m, %tx, %ty, %tmp0 : !Mask, !T
  %ms = pl.tile.cmps %ty, %zero ge : !T, f32 -> !Mask
  %1 = pl.tile.sels %ms, %tx, %fill, %tmp1 : !Mask, !T, f32
  %2 = pl.tile.move %tx : !T -> !T
  %3 = pl.tile.extract %tx[%c0, %c16] : !T -> !pl.tile<16x16xf32, vec>
  %4 = pl.tile.slice %ty[%c0, %c16] : !T -> !pl.tile<16x16xf32, vec>
  %5 = pl.tile.transpose %tx axes 0, 1 : !T -> !pl.tile<32x16xf32, vec>
  %r0 = pl.tile.store %0, %sel[%c0, %c0] : !T, !X
  %r1 = pl.tile.store %1, %sels[%c0, %c0] : !T, !X
  %r2 = pl.tile.store %2, %move[%c0, %c0] : !T, !X
  %r3 = pl.tile.store %3, %extract[%c0, %c0] : !pl.tile<16x16xf32, vec>, !pl.tensor<16x16xf32>
  %r4 = pl.tile.store %4, %slice[%c0, %c0] : !pl.tile<16x16xf32, vec>, !pl.tensor<16x16xf32>
  %r5 = pl.tile.store %5, %transpose[%c0, %c0] : !pl.tile<32x16xf32, vec>, !pl.tensor<32x16xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : !X, !X, !X, !pl.tensor<16x16xf32>, !pl.tensor<16x16xf32>, !pl.tensor<32x16xf32>
}

// The cube: matrix products with and without accumulation and bias, and
// their matrix-vector forms. Operands go L1 (mat) -> L0A/L0B (left/right),
// the bias L1 -> bias table; products land in L0C (acc).
func.func @cube(%a: !pl.tensor<16x32xf16>, %b: !pl.tensor<32x32xf16>, %bias: !pl.tensor<1x32xf32>,
    %v: !pl.tensor<1x32xf16>,
    %matmul: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>},
    %matmul_acc: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>},
    %matmul_bias: !pl.tensor<16x32xf32> {pl.direction = #pl.direction<out>},
    %gemv: !pl.tensor<1x32xf32> {pl.direction = #pl.direction<out>},
    %gemv_acc: !pl.tensor<1x32xf32> {pl.direction = #pl.direction<out>},
    %gemv_bias: !pl.tensor<1x32xf32> {pl.direction = #pl.direction<out>})
    -> (!pl.tensor<16x32xf32>, !pl.tensor<16x32xf32>, !pl.tensor<16x32xf32>, !pl.tensor<1x32xf32>, !pl.tensor<1x32xf32>, !pl.tensor<1x32xf32>)
    attributes {pl.kind = #pl.kind<aic>} {
  %c0 = arith.constant 0 : index
  %am = pl.tile.load %a[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16, mat>
  %bm = pl.tile.load %b[%c0, %c0] : !pl.tensor<32x32xf16> -> !pl.tile<32x32xf16, mat>
  %biasm = pl.tile.load %bias[%c0, %c0] : !pl.tensor<1x32xf32> -> !pl.tile<1x32xf32, mat, blayout = row_major, slayout = none_box>
  %vm = pl.tile.load %v[%c0, %c0] : !pl.tensor<1x32xf16> -> !pl.tile<1x32xf16, mat, blayout = row_major, slayout = none_box>
  %al = pl.tile.move %am : !pl.tile<16x32xf16, mat> -> !pl.tile<16x32xf16, left>
  %br = pl.tile.move %bm : !pl.tile<32x32xf16, mat> -> !pl.tile<32x32xf16, right>
  %bt = pl.tile.move %biasm : !pl.tile<1x32xf32, mat, blayout = row_major, slayout = none_box> -> !pl.tile<1x32xf32, bias>
  %vl = pl.tile.move %vm : !pl.tile<1x32xf16, mat, blayout = row_major, slayout = none_box> -> !pl.tile<1x32xf16, left>
  %0 = pl.tile.matmul %al, %br : !pl.tile<16x32xf16, left>, !pl.tile<32x32xf16, right> -> !pl.tile<16x32xf32, acc>
  %r0 = pl.tile.store %0, %matmul[%c0, %c0] : !pl.tile<16x32xf32, acc>, !pl.tensor<16x32xf32>
  %1 = pl.tile.matmul_acc %0, %al, %br : !pl.tile<16x32xf32, acc>, !pl.tile<16x32xf16, left>, !pl.tile<32x32xf16, right>
  %r1 = pl.tile.store %1, %matmul_acc[%c0, %c0] : !pl.tile<16x32xf32, acc>, !pl.tensor<16x32xf32>
  %2 = pl.tile.matmul_bias %al, %br, %bt : !pl.tile<16x32xf16, left>, !pl.tile<32x32xf16, right>, !pl.tile<1x32xf32, bias> -> !pl.tile<16x32xf32, acc>
  %r2 = pl.tile.store %2, %matmul_bias[%c0, %c0] : !pl.tile<16x32xf32, acc>, !pl.tensor<16x32xf32>
  %3 = pl.tile.gemv %vl, %br unspecified : !pl.tile<1x32xf16, left>, !pl.tile<32x32xf16, right> -> !pl.tile<1x32xf32, acc>
  %r3 = pl.tile.store %3, %gemv[%c0, %c0] : !pl.tile<1x32xf32, acc>, !pl.tensor<1x32xf32>
  %4 = pl.tile.gemv_acc %3, %vl, %br final : !pl.tile<1x32xf32, acc>, !pl.tile<1x32xf16, left>, !pl.tile<32x32xf16, right>
  %r4 = pl.tile.store %4, %gemv_acc[%c0, %c0] : !pl.tile<1x32xf32, acc>, !pl.tensor<1x32xf32>
  %5 = pl.tile.gemv_bias %vl, %br, %bt unspecified : !pl.tile<1x32xf16, left>, !pl.tile<32x32xf16, right>, !pl.tile<1x32xf32, bias> -> !pl.tile<1x32xf32, acc>
  %r5 = pl.tile.store %5, %gemv_bias[%c0, %c0] : !pl.tile<1x32xf32, acc>, !pl.tensor<1x32xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : !pl.tensor<16x32xf32>, !pl.tensor<16x32xf32>, !pl.tensor<16x32xf32>, !pl.tensor<1x32xf32>, !pl.tensor<1x32xf32>, !pl.tensor<1x32xf32>
}

// Index sequences, sorts and gathers: the 256 scores of x sorted
// descending as (value, index) pairs, block by block (TSORT32), in runs of
// four blocks (TMRGSORT of one row) and as a merge of the two halves
// (TMRGSORT of two lists, through a scratch row); the indices picked out
// of the pairs (TGATHER's mask form) gather the scores in that order
// (TGATHER's index form), and the index sequence read as i32 is a view.
func.func @indexing(%x: !pl.tensor<1x256xf32>,
    %ci: !pl.tensor<1x256xi32> {pl.direction = #pl.direction<out>},
    %sort32: !pl.tensor<1x512xf32> {pl.direction = #pl.direction<out>},
    %mrgsort_format1: !pl.tensor<1x512xf32> {pl.direction = #pl.direction<out>},
    %mrgsort_format2: !pl.tensor<1x512xf32> {pl.direction = #pl.direction<out>},
    %gather_mask: !pl.tensor<1x256xi32> {pl.direction = #pl.direction<out>},
    %gather: !pl.tensor<1x256xf32> {pl.direction = #pl.direction<out>},
    %scatter: !pl.tensor<1x256xf32> {pl.direction = #pl.direction<out>},
    %scatter_mask: !pl.tensor<1x512xf32> {pl.direction = #pl.direction<out>},
    %gatherb: !pl.tensor<1x64xf32> {pl.direction = #pl.direction<out>},
    %mgather_row: !pl.tensor<8x256xf32> {pl.direction = #pl.direction<out>},
    %mgather_elem: !pl.tensor<1x64xf32> {pl.direction = #pl.direction<out>})
    -> (!pl.tensor<1x256xi32>, !pl.tensor<1x512xf32>, !pl.tensor<1x512xf32>, !pl.tensor<1x512xf32>, !pl.tensor<1x256xi32>, !pl.tensor<1x256xf32>, !pl.tensor<1x256xf32>, !pl.tensor<1x512xf32>, !pl.tensor<1x64xf32>, !pl.tensor<8x256xf32>, !pl.tensor<1x64xf32>)
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %start = arith.constant 0 : i32
  %block = arith.constant 64 : i32
  %tx = pl.tile.load %x[%c0, %c0] : !pl.tensor<1x256xf32> -> !pl.tile<1x256xf32, vec>
  %seq = pl.tile.ci %start : i32 -> !pl.tile<1x256xui32, vec>
  %0 = pl.tile.reinterpret_view %seq : !pl.tile<1x256xui32, vec> -> !pl.tile<1x256xi32, vec>
  %1 = pl.tile.sort32 %tx, %seq : !pl.tile<1x256xf32, vec>, !pl.tile<1x256xui32, vec> -> !pl.tile<1x512xf32, vec>
  %2 = pl.tile.mrgsort_format1 %1, %block : !pl.tile<1x512xf32, vec>, i32
  %lo = pl.tile.slice %2[%c0, %c0] : !pl.tile<1x512xf32, vec> -> !pl.tile<1x256xf32, vec>
  %hi = pl.tile.slice %2[%c0, %c256] : !pl.tile<1x512xf32, vec> -> !pl.tile<1x256xf32, vec>
  %tmp = pl.tile.create : !pl.tile<1x512xf32, vec>
  %3 = pl.tile.mrgsort_format2 %lo, %hi tmp %tmp : (!pl.tile<1x256xf32, vec>, !pl.tile<1x256xf32, vec>), !pl.tile<1x512xf32, vec> -> !pl.tile<1x512xf32, vec>
  %4 = pl.tile.gather_mask %3 p1010 : !pl.tile<1x512xf32, vec> -> !pl.tile<1x256xi32, vec>
  %gtmp = pl.tile.create : !pl.tile<1x256xi32, vec>
  %5 = pl.tile.gather %tx, %4, %gtmp : !pl.tile<1x256xf32, vec>, !pl.tile<1x256xi32, vec>, !pl.tile<1x256xi32, vec> -> !pl.tile<1x256xf32, vec>
  %r0 = pl.tile.store %0, %ci[%c0, %c0] : !pl.tile<1x256xi32, vec>, !pl.tensor<1x256xi32>
  %r1 = pl.tile.store %1, %sort32[%c0, %c0] : !pl.tile<1x512xf32, vec>, !pl.tensor<1x512xf32>
  %r2 = pl.tile.store %2, %mrgsort_format1[%c0, %c0] : !pl.tile<1x512xf32, vec>, !pl.tensor<1x512xf32>
  %r3 = pl.tile.store %3, %mrgsort_format2[%c0, %c0] : !pl.tile<1x512xf32, vec>, !pl.tensor<1x512xf32>
  %r4 = pl.tile.store %4, %gather_mask[%c0, %c0] : !pl.tile<1x256xi32, vec>, !pl.tensor<1x256xi32>
  %r5 = pl.tile.store %5, %gather[%c0, %c0] : !pl.tile<1x256xf32, vec>, !pl.tensor<1x256xf32>
  // The sorted order's indices (a permutation) scatter x back to them.
  %6 = pl.tile.scatter %5, %4 : !pl.tile<1x256xf32, vec>, !pl.tile<1x256xi32, vec> -> !pl.tile<1x256xf32, vec>
  %r6 = pl.tile.store %6, %scatter[%c0, %c0] : !pl.tile<1x256xf32, vec>, !pl.tensor<1x256xf32>
  // x into the odd columns of zeros.
  %7 = pl.tile.scatter_mask %tx p1010 : !pl.tile<1x256xf32, vec> -> !pl.tile<1x512xf32, vec>
  %r7 = pl.tile.store %7, %scatter_mask[%c0, %c0] : !pl.tile<1x512xf32, vec>, !pl.tensor<1x512xf32>
  // Eight 32-byte blocks of x, every third block from the seventh down
  // (byte offsets 672, 576, ..., 0).
  %seven = arith.constant 7 : i32
  %stride = arith.constant 96 : i32
  %blocks = pl.tile.ci %seven descending : i32 -> !pl.tile<1x8xi32, vec>
  %bytes = pl.tile.muls %blocks, %stride : !pl.tile<1x8xi32, vec>, i32
  %offsets = pl.tile.reinterpret_view %bytes : !pl.tile<1x8xi32, vec> -> !pl.tile<1x8xui32, vec>
  %8 = pl.tile.gatherb %tx, %offsets : !pl.tile<1x256xf32, vec>, !pl.tile<1x8xui32, vec> -> !pl.tile<1x64xf32, vec>
  %r8 = pl.tile.store %8, %gatherb[%c0, %c0] : !pl.tile<1x64xf32, vec>, !pl.tensor<1x64xf32>
  // Rows of x by index, clamped to its one row, and its elements at 5k,
  // wrapped past its 256: MGATHER's row and element forms.
  %five = arith.constant 5 : i32
  %rowidx = pl.tile.ci %start : i32 -> !pl.tile<1x8xi32, vec>
  %9 = pl.tile.mgather %x[%rowidx] row oob clamp : !pl.tensor<1x256xf32>, !pl.tile<1x8xi32, vec> -> !pl.tile<8x256xf32, vec>
  %r9 = pl.tile.store %9, %mgather_row[%c0, %c0] : !pl.tile<8x256xf32, vec>, !pl.tensor<8x256xf32>
  %seq64 = pl.tile.ci %start : i32 -> !pl.tile<1x64xi32, vec>
  %far = pl.tile.muls %seq64, %five : !pl.tile<1x64xi32, vec>, i32
  %10 = pl.tile.mgather %x[%far] elem oob wrap : !pl.tensor<1x256xf32>, !pl.tile<1x64xi32, vec> -> !pl.tile<1x64xf32, vec>
  %r10 = pl.tile.store %10, %mgather_elem[%c0, %c0] : !pl.tile<1x64xf32, vec>, !pl.tensor<1x64xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10 : !pl.tensor<1x256xi32>, !pl.tensor<1x512xf32>, !pl.tensor<1x512xf32>, !pl.tensor<1x512xf32>, !pl.tensor<1x256xi32>, !pl.tensor<1x256xf32>, !pl.tensor<1x256xf32>, !pl.tensor<1x512xf32>, !pl.tensor<1x64xf32>, !pl.tensor<8x256xf32>, !pl.tensor<1x64xf32>
}

// Ops defined by valid regions: partial arithmetic of x and the first 8
// rows of y (x passes through below them), two halves of x side by side,
// triangular masks, y's last 8 rows padded in place and grown to 32 rows
// with padding, and the carrying ops (pl-lower-math-ops makes each two
// additions or subtractions).
func.func @regions(%x: !X, %y: !X,
    %part_add: !X {pl.direction = #pl.direction<out>}, %part_max: !X {pl.direction = #pl.direction<out>},
    %part_min: !X {pl.direction = #pl.direction<out>}, %part_mul: !X {pl.direction = #pl.direction<out>},
    %concat: !X {pl.direction = #pl.direction<out>}, %tri: !X {pl.direction = #pl.direction<out>},
    %tri_upper: !I {pl.direction = #pl.direction<out>},
    %fillpad_inplace: !X {pl.direction = #pl.direction<out>},
    %fillpad_expand: !pl.tensor<32x32xf32> {pl.direction = #pl.direction<out>},
    %addc: !X {pl.direction = #pl.direction<out>}, %subc: !X {pl.direction = #pl.direction<out>},
    %addsc: !X {pl.direction = #pl.direction<out>}, %subsc: !X {pl.direction = #pl.direction<out>})
    -> (!X, !X, !X, !X, !X, !X, !I, !X, !pl.tensor<32x32xf32>, !X, !X, !X, !X) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %d0 = arith.constant 2 : i32
  %d1 = arith.constant -3 : i32
  %s = arith.constant 0.375 : f32
  %tx = pl.tile.load %x[%c0, %c0] : !X -> !T
  %ty = pl.tile.load %y[%c0, %c0] : !X -> !T
  %top = pl.tile.set_validshape %ty, %c8, %c32 : !T -> !pl.tile<16x32xf32, vec, valid = 8x32>
  %0 = pl.tile.part_add %tx, %top : !T, !pl.tile<16x32xf32, vec, valid = 8x32>
  %1 = pl.tile.part_max %tx, %top : !T, !pl.tile<16x32xf32, vec, valid = 8x32>
  %2 = pl.tile.part_min %tx, %top : !T, !pl.tile<16x32xf32, vec, valid = 8x32>
  %3 = pl.tile.part_mul %tx, %top : !T, !pl.tile<16x32xf32, vec, valid = 8x32>
  %left = pl.tile.slice %tx[%c0, %c0] : !T -> !pl.tile<16x16xf32, vec>
  %right = pl.tile.slice %tx[%c0, %c16] : !T -> !pl.tile<16x16xf32, vec>
  %4 = pl.tile.concat %right, %left : !pl.tile<16x16xf32, vec>, !pl.tile<16x16xf32, vec> -> !T
  %5 = pl.tile.tri %d0 : i32 -> !T
  %6 = pl.tile.tri %d1 upper : i32 -> !It
  %yl = pl.tile.load %y[%c0, %c0] : !X -> !T
  %head = pl.tile.set_validshape %yl, %c8, %c32 : !T -> !pl.tile<16x32xf32, vec, valid = 8x32>
  %7 = pl.tile.fillpad_inplace %head min : !pl.tile<16x32xf32, vec, valid = 8x32> -> !pl.tile<16x32xf32, vec, pad = min>
  %8 = pl.tile.fillpad_expand %top max : !pl.tile<16x32xf32, vec, valid = 8x32> -> !pl.tile<32x32xf32, vec, pad = max>
  %9 = pl.tile.addc %tx, %ty, %tx : !T, !T
  %10 = pl.tile.subc %tx, %ty, %ty : !T, !T
  %11 = pl.tile.addsc %tx, %s, %ty : !T, f32
  %12 = pl.tile.subsc %ty, %s, %tx : !T, f32
  %r0 = pl.tile.store %0, %part_add[%c0, %c0] : !T, !X
  %r1 = pl.tile.store %1, %part_max[%c0, %c0] : !T, !X
  %r2 = pl.tile.store %2, %part_min[%c0, %c0] : !T, !X
  %r3 = pl.tile.store %3, %part_mul[%c0, %c0] : !T, !X
  %r4 = pl.tile.store %4, %concat[%c0, %c0] : !T, !X
  %r5 = pl.tile.store %5, %tri[%c0, %c0] : !T, !X
  %r6 = pl.tile.store %6, %tri_upper[%c0, %c0] : !It, !I
  %r7 = pl.tile.store %7, %fillpad_inplace[%c0, %c0] : !pl.tile<16x32xf32, vec, pad = min>, !X
  %r8 = pl.tile.store %8, %fillpad_expand[%c0, %c0] : !pl.tile<32x32xf32, vec, pad = max>, !pl.tensor<32x32xf32>
  %r9 = pl.tile.store %9, %addc[%c0, %c0] : !T, !X
  %r10 = pl.tile.store %10, %subc[%c0, %c0] : !T, !X
  %r11 = pl.tile.store %11, %addsc[%c0, %c0] : !T, !X
  %r12 = pl.tile.store %12, %subsc[%c0, %c0] : !T, !X
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12 : !X, !X, !X, !X, !X, !X, !I, !X, !pl.tensor<32x32xf32>, !X, !X, !X, !X
}
