// A `?x64` leading dynamic dimension: the orchestration walks %x in blocks
// of 16 rows, the last block short (pl.tensor.slice with sizes(...)), and a
// dynamically shaped kernel centres each row: y = x - row_sum(x) / 64.
!X = !pl.tensor<?x64xf32>
!Col = !pl.tensor<?x1xf32>

func.func @center(%x: !X) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %inv = arith.constant 0.015625 : f32
  %s = pl.tensor.row_sum %x : !X -> !Col
  %m = pl.tensor.muls %s, %inv : !Col, f32
  %r = pl.tensor.sub %x, %m : !X, !Col -> !X
  return %r : !X
}

func.func @main(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %rows = pl.tensor.dim %x, 0 : !X
  %out = pl.tensor.create(%rows) : !X
  %y = scf.for %r = %c0 to %rows step %c16 iter_args(%o = %out) -> (!X) {
    %left = arith.subi %rows, %r : index
    %n = arith.minsi %left, %c16 : index
    %xs = pl.tensor.slice %x[%r, %c0] sizes(%n) : !X -> !X
    %ys = pl.call @center(%xs) : (!X) -> !X
    %o2 = pl.tensor.assemble %ys into %o[%r, %c0] : !X, !X
    scf.yield %o2 : !X
  }
  return %y : !X
}
