// The cube data path of a matmul on a2a3 (docs/pl-guide.md): operands staged in L1
// (mat) move to L0A (left) and L0B (right); the accumulator (acc) moves back
// to L1 or across to the vector core's unified buffer (vec).

func.func @stage_operands(%a: !pl.tile<64x32xf16, mat>, %b: !pl.tile<32x64xf16, mat>,
                          %bias: !pl.tile<1x64xf16, mat>)
    -> (!pl.tile<64x32xf16, left>, !pl.tile<32x64xf16, right>, !pl.tile<1x64xf32, bias>) {
  %left = pl.tile.move %a : !pl.tile<64x32xf16, mat> -> !pl.tile<64x32xf16, left>
  %right = pl.tile.move %b : !pl.tile<32x64xf16, mat> -> !pl.tile<32x64xf16, right>
  %bias_table = pl.tile.move %bias : !pl.tile<1x64xf16, mat> -> !pl.tile<1x64xf32, bias>
  return %left, %right, %bias_table
      : !pl.tile<64x32xf16, left>, !pl.tile<32x64xf16, right>, !pl.tile<1x64xf32, bias>
}

func.func @epilogue(%acc: !pl.tile<64x64xf32, acc>, %residual: !pl.tile<64x64xf32, vec>)
    -> !pl.tile<64x64xf32, vec> {
  %result = pl.tile.move %acc : !pl.tile<64x64xf32, acc> -> !pl.tile<64x64xf32, vec>
  %sum = pl.tile.add %result, %residual
      : !pl.tile<64x64xf32, vec>, !pl.tile<64x64xf32, vec> -> !pl.tile<64x64xf32, vec>
  return %sum : !pl.tile<64x64xf32, vec>
}
