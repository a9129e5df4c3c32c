// An SPMD launch, as PyPTO's `pl.spmd(4)`: the orchestration submits one
// kernel on 4 blocks, and each block (pl.tensor.get_block_idx) scales its
// own 16 rows of a 64x64 tensor and adds the block's index to them, writing
// its window of the output. Every block must run for the whole result.
!X = !pl.tensor<64x64xf32>
!W = !pl.tensor<16x64xf32>

func.func @scale_rows(%x: !X, %out: !X {pl.direction = #pl.direction<out>}) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %two = arith.constant 2.0 : f32
  %b = pl.tensor.get_block_idx
  %row = arith.muli %b, %c16 : index
  %bi = arith.index_cast %b : index to i32
  %bf = arith.sitofp %bi : i32 to f32
  %w = pl.tensor.slice %x[%row, %c0] : !X -> !W
  %y = pl.tensor.muls %w, %two : !W, f32
  %z = pl.tensor.adds %y, %bf : !W, f32
  %r = pl.tensor.assemble %z into %out[%row, %c0] : !W, !X
  return %r : !X
}

func.func @main(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %c4 = arith.constant 4 : index
  %o = pl.tensor.create() : !X
  %r, %t = pl.submit @scale_rows(%x, %o) blocks %c4 : (!X, !X) -> !X
  return %r : !X
}
