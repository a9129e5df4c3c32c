// Transposed products, as attention's scores and a weight gradient need
// them: s = q @ k^T (q 64x512, k 128x512, f16; the keys are read as they
// lie in memory and the move into L0 transposes them, in K blocks L0
// holds) and g = x^T @ d (x 32x16, d 32x48, f32).
!Q = !pl.tensor<64x512xf16>
!K = !pl.tensor<128x512xf16>
!S = !pl.tensor<64x128xf32>
!X = !pl.tensor<32x16xf32>
!D = !pl.tensor<32x48xf32>
!G = !pl.tensor<16x48xf32>

func.func @scores(%q: !Q, %k: !K) -> !S attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.matmul %q, %k {b_trans} : !Q, !K -> !S
  return %s : !S
}

func.func @weight_grad(%x: !X, %d: !D) -> !G attributes {pl.kind = #pl.kind<incore>} {
  %g = pl.tensor.matmul %x, %d {a_trans} : !X, !D -> !G
  return %g : !G
}

func.func @main(%q: !Q, %k: !K, %x: !X, %d: !D) -> (!S, !G) attributes {pl.kind = #pl.kind<orchestration>} {
  %s = pl.call @scores(%q, %k) : (!Q, !K) -> !S
  %g = pl.call @weight_grad(%x, %d) : (!X, !D) -> !G
  return %s, %g : !S, !G
}
