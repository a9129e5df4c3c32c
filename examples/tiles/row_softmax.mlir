// Row softmax: y[i, :] = exp(x[i, :] - max(x[i, :])) / sum(...).
//
// @softmax_tensors is the tensor-level program; @softmax_kernel the tile
// kernel after conversion: per block of rows, a row maximum, the fused
// exp(x - max) broadcast, a row sum and the broadcast division. Rows are
// dynamic: the last block holds `valid` rows only.

!X = !pl.tensor<?x256xf32>
!Tile = !pl.tile<32x256xf32, vec>
!Part = !pl.tile<32x256xf32, vec, valid = ?x256>
!Col = !pl.tile<32x1xf32, vec, valid = ?x1>

func.func @softmax_tensors(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.incore_scope name "softmax" -> !X {
    %max = pl.tensor.row_max %x : !X -> !pl.tensor<?x1xf32>
    %shifted = pl.tensor.sub %x, %max : !X, !pl.tensor<?x1xf32> -> !X
    %e = pl.tensor.exp %shifted : !X
    %sum = pl.tensor.row_sum %e : !X -> !pl.tensor<?x1xf32>
    %p = pl.tensor.div %e, %sum : !X, !pl.tensor<?x1xf32> -> !X
    pl.yield %p : !X
  }
  return %y : !X
}

func.func @softmax_kernel(%x: !X, %y: !X {pl.direction = #pl.direction<out>}) -> !X
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %rows = pl.tensor.dim %x, 0 : !X
  %scratch = pl.tile.create : !pl.tile<32x256xf32, vec>
  %result = scf.for %r = %c0 to %rows step %c32 iter_args(%out = %y) -> (!X) {
    %left = arith.subi %rows, %r : index
    %valid = arith.minsi %left, %c32 : index
    %t = pl.tile.load %x[%r, %c0] valid(%valid) clamp : !X -> !Part
    %max = pl.tile.row_max %t, %scratch : !Part, !Tile -> !Col
    %e = pl.tile.row_expand_expdif %t, %max : !Part, !Col -> !Part
    %sum = pl.tile.row_sum %e, %scratch : !Part, !Tile -> !Col
    %p = pl.tile.row_expand_div %e, %sum : !Part, !Col -> !Part
    %out2 = pl.tile.store %p, %out[%r, %c0] : !Part, !X
    scf.yield %out2 : !X
  }
  return %result : !X
}

func.func @main(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %rows = pl.tensor.dim %x, 0 : !X
  %y = pl.tensor.create(%rows) : !X
  %r = pl.call @softmax_kernel(%x, %y) : (!X, !X) -> !X
  return %r : !X
}
