// One attention block, softmax(q kᵀ / √d) v, head_dim 128, 64 query rows,
// 128 keys, written as an InCore scope that asks for its vector work to be
// shared by the two vector cores (`split up_down`, PyPTO's pl.split): the
// scope becomes a kernel with pl.split, pl-lower-auto-vector-split halves
// every vector tile by rows (each vector core its 32 rows of scores,
// softmax and output), pl-expand-mixed-kernel makes the core group with
// split pipes (the scores halved to the vector cores, the probabilities
// gathered back for the cube's product with v).
!Q = !pl.tensor<64x128xf16>
!K = !pl.tensor<128x128xf16>
!S = !pl.tensor<64x128xf32>
!Sh = !pl.tensor<64x128xf16>
!C = !pl.tensor<64x1xf32>
!O = !pl.tensor<64x128xf32>

func.func @main(%q: !Q, %k: !K, %v: !K, %o: !O {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %scale = arith.constant 0.08838834764831845 : f32
  %r = pl.incore_scope name "attention" split up_down -> !O {
    %s = pl.tensor.matmul %q, %k {b_trans} : !Q, !K -> !S
    %ss = pl.tensor.muls %s, %scale : !S, f32
    %m = pl.tensor.row_max %ss : !S -> !C
    %d = pl.tensor.sub %ss, %m : !S, !C -> !S
    %p = pl.tensor.exp %d : !S
    %l = pl.tensor.row_sum %p : !S -> !C
    %ph = pl.tensor.cast %p round : !S -> !Sh
    %pv = pl.tensor.matmul %ph, %v : !Sh, !K -> !O
    %n = pl.tensor.div %pv, %l : !O, !C -> !O
    %w = pl.tensor.assemble %n into %o[%c0, %c0] : !O, !O
    pl.yield %w : !O
  }
  return
}
