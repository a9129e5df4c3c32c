// A mixture-of-experts gate, as PyPTO's MoE layers weigh each token's
// experts: the softmax of 16 tokens' scores over 64 experts, then each
// token's 8 chosen experts' probabilities picked out of its row
// (pl.tensor.gather on the last axis: one tile gather per row) and
// renormalised to sum to 1.
!S = !pl.tensor<16x64xf32>
!I = !pl.tensor<16x8xi32>
!G = !pl.tensor<16x8xf32>
!C = !pl.tensor<16x1xf32>

func.func @gate(%scores: !S, %experts: !I) -> !G attributes {pl.kind = #pl.kind<incore>} {
  %m = pl.tensor.row_max %scores : !S -> !C
  %d = pl.tensor.sub %scores, %m : !S, !C -> !S
  %e = pl.tensor.exp %d : !S
  %s = pl.tensor.row_sum %e : !S -> !C
  %p = pl.tensor.div %e, %s : !S, !C -> !S
  %g = pl.tensor.gather %p, %experts dim 1 : !S, !I -> !G
  %t = pl.tensor.row_sum %g : !G -> !C
  %w = pl.tensor.div %g, %t : !G, !C -> !G
  return %w : !G
}

func.func @main(%scores: !S, %experts: !I) -> !G attributes {pl.kind = #pl.kind<orchestration>} {
  %w, %task = pl.submit @gate(%scores, %experts) : (!S, !I) -> !G
  return %w : !G
}
