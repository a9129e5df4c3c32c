// Linear layer c = a @ w + bias: a cube kernel (tensor-level matmul of f16
// operands into an f32 product) and a vector kernel adding a [1, N] bias row
// (broadcast over the rows), both called from the orchestration.
!A = !pl.tensor<64x32xf16>
!W = !pl.tensor<32x48xf16>
!C = !pl.tensor<64x48xf32>
!Bias = !pl.tensor<1x48xf32>

func.func @matmul(%a: !A, %w: !W) -> !C attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %a, %w : !A, !W -> !C
  return %p : !C
}

func.func @add_bias(%p: !C, %bias: !Bias) -> !C attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.add %p, %bias : !C, !Bias -> !C
  return %r : !C
}

func.func @main(%a: !A, %w: !W, %bias: !Bias) -> !C attributes {pl.kind = #pl.kind<orchestration>} {
  %p = pl.call @matmul(%a, %w) : (!A, !W) -> !C
  %c = pl.call @add_bias(%p, %bias) : (!C, !Bias) -> !C
  return %c : !C
}
