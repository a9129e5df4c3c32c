// The positions of each row's matches, as a sparse attention's selection
// or a top-k threshold pass finds them: the columns of each score row
// above a runtime threshold (pl.tensor.gather_compare gt, their column
// numbers offset by the block's first column) with their counts, and, at
// the tile level, the columns of an i32 row equal to a key (eq) and the
// f16 scores at or below a bound (le) with ui32 counts. a2a3's TGATHER
// compare form takes only eq and gt: pl-lower-math-ops scans the rows.
!S = !pl.tensor<8x64xf32>
!I = !pl.tensor<8x16xi32>
!N = !pl.tensor<1x8xi32>
!K = !pl.tensor<4x32xi32>
!H = !pl.tensor<4x32xf16>
!J = !pl.tensor<4x8xi32>
!M = !pl.tensor<1x4xi32>
!U = !pl.tensor<1x4xui32>

func.func @above(%s: !S, %t: f32) -> (!I, !N) attributes {pl.kind = #pl.kind<incore>} {
  %i, %n = pl.tensor.gather_compare %s, %t gt offset 64 : !S, f32 -> !I, !N
  return %i, %n : !I, !N
}

func.func @equal(%k: !K, %h: !H, %key: i32, %bound: f16, %oi: !J {pl.direction = #pl.direction<out>}, %on: !M {pl.direction = #pl.direction<out>}, %oj: !J {pl.direction = #pl.direction<out>}, %ou: !U {pl.direction = #pl.direction<out>}) -> (!J, !M, !J, !U) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %k[%c0, %c0] : !K -> !pl.tile<4x32xi32, vec>
  %i, %n = pl.tile.gather_compare %t, %key eq : !pl.tile<4x32xi32, vec>, i32 -> !pl.tile<4x8xi32, vec>, !pl.tile<1x4xi32, vec>
  %u = pl.tile.load %h[%c0, %c0] : !H -> !pl.tile<4x32xf16, vec>
  %j, %m = pl.tile.gather_compare %u, %bound le : !pl.tile<4x32xf16, vec>, f16 -> !pl.tile<4x8xi32, vec>, !pl.tile<1x4xui32, vec>
  %w0 = pl.tile.store %i, %oi[%c0, %c0] : !pl.tile<4x8xi32, vec>, !J
  %w1 = pl.tile.store %n, %on[%c0, %c0] : !pl.tile<1x4xi32, vec>, !M
  %w2 = pl.tile.store %j, %oj[%c0, %c0] : !pl.tile<4x8xi32, vec>, !J
  %w3 = pl.tile.store %m, %ou[%c0, %c0] : !pl.tile<1x4xui32, vec>, !U
  return %w0, %w1, %w2, %w3 : !J, !M, !J, !U
}

func.func @main(%s: !S, %t: f32, %k: !K, %h: !H, %key: i32, %bound: f16) -> (!I, !N, !J, !M, !J, !U) attributes {pl.kind = #pl.kind<orchestration>} {
  %i, %n = pl.call @above(%s, %t) : (!S, f32) -> (!I, !N)
  %oi = pl.tensor.create() : !J
  %on = pl.tensor.create() : !M
  %oj = pl.tensor.create() : !J
  %ou = pl.tensor.create() : !U
  %r:4 = pl.call @equal(%k, %h, %key, %bound, %oi, %on, %oj, %ou) : (!K, !H, i32, f16, !J, !M, !J, !U) -> (!J, !M, !J, !U)
  return %i, %n, %r#0, %r#1, %r#2, %r#3 : !I, !N, !J, !M, !J, !U
}
