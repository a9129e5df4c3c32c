// Broadcasts into a larger tensor, as PyPTO's expand_clone: a [1, 8, 32]
// block repeated for each of 4 batches, a [4, 1, 32] row per batch
// repeated over 8 rows, a [4, 8, 1] column repeated over 32 columns, and
// a copy of the same shape; each kernel writes its target whole. They
// convert to tiles on the rank-3 tiles' 2-D forms (row_expand, col_expand,
// assembles of each batch's block).
!Y = !pl.tensor<4x8x32xf32>

func.func @batches(%x: !pl.tensor<1x8x32xf32>, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.expand_clone %x into %y : !pl.tensor<1x8x32xf32>, !Y
  return %r : !Y
}

func.func @rows(%x: !pl.tensor<4x1x32xf32>, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.expand_clone %x into %y : !pl.tensor<4x1x32xf32>, !Y
  return %r : !Y
}

func.func @columns(%x: !pl.tensor<4x8x1xf32>, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.expand_clone %x into %y : !pl.tensor<4x8x1xf32>, !Y
  return %r : !Y
}

func.func @copy(%x: !Y, %y: !Y {pl.direction = #pl.direction<out>}) -> !Y attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.expand_clone %x into %y : !Y, !Y
  return %r : !Y
}

func.func @main(%b: !pl.tensor<1x8x32xf32>, %r: !pl.tensor<4x1x32xf32>, %c: !pl.tensor<4x8x1xf32>, %x: !Y,
                %yb: !Y {pl.direction = #pl.direction<out>}, %yr: !Y {pl.direction = #pl.direction<out>},
                %yc: !Y {pl.direction = #pl.direction<out>}, %yx: !Y {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %0 = pl.call @batches(%b, %yb) : (!pl.tensor<1x8x32xf32>, !Y) -> !Y
  %1 = pl.call @rows(%r, %yr) : (!pl.tensor<4x1x32xf32>, !Y) -> !Y
  %2 = pl.call @columns(%c, %yc) : (!pl.tensor<4x8x1xf32>, !Y) -> !Y
  %3 = pl.call @copy(%x, %yx) : (!Y, !Y) -> !Y
  return
}
