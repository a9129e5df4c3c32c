// y[8i:8i+8, :] = x[8i:8i+8, :] * (i + 1) for the four row blocks of a
// 32x64 f32 tensor, in a tile kernel whose loop over the blocks is marked
// pl.unroll: pl-unroll-loops makes four copies of the body, each with its
// block's index a constant.
!X = !pl.tensor<32x64xf32>
!T = !pl.tile<8x64xf32, vec>

func.func @scale_blocks(%x: !X, %y: !X {pl.direction = #pl.direction<out>}) -> !X attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y) -> !X {
    %row = arith.muli %i, %c8 : index
    %t = pl.tile.load %x[%row, %c0] : !X -> !T
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %s = arith.addf %f, %one : f32
    %m = pl.tile.muls %t, %s : !T, f32
    %o = pl.tile.store %m, %acc[%row, %c0] : !T, !X
    scf.yield %o : !X
  } {pl.unroll}
  return %r : !X
}

func.func @main(%x: !X, %y: !X {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %y2 = pl.call @scale_blocks(%x, %y) : (!X, !X) -> !X
  return
}
