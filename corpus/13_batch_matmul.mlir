// A batched matmul over rank-3 tensors: c[b] = alpha * (a[b] @ w[b]) for 4
// batches (f16 16x32 by 32x24 into f32). The orchestration loops over the
// batch, slicing [1, M, K] windows and reshaping them to rank 2 for a matmul
// kernel; a second kernel scales the whole rank-3 product by %alpha.
!A = !pl.tensor<4x16x32xf16>
!W = !pl.tensor<4x32x24xf16>
!C = !pl.tensor<4x16x24xf32>
!A1 = !pl.tensor<1x16x32xf16>
!W1 = !pl.tensor<1x32x24xf16>
!C1 = !pl.tensor<1x16x24xf32>
!A2 = !pl.tensor<16x32xf16>
!W2 = !pl.tensor<32x24xf16>
!C2 = !pl.tensor<16x24xf32>

func.func @mm(%a: !A2, %w: !W2) -> !C2 attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %a, %w : !A2, !W2 -> !C2
  return %p : !C2
}

func.func @scale(%c: !C, %alpha: f32) -> !C attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.muls %c, %alpha : !C, f32
  return %r : !C
}

func.func @main(%a: !A, %w: !W, %alpha: f32) -> !C attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %init = pl.tensor.create() : !C
  %c = scf.for %b = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (!C) {
    %ab = pl.tensor.slice %a[%b, %c0, %c0] : !A -> !A1
    %wb = pl.tensor.slice %w[%b, %c0, %c0] : !W -> !W1
    %a2 = pl.tensor.reshape %ab : !A1 -> !A2
    %w2 = pl.tensor.reshape %wb : !W1 -> !W2
    %p = pl.call @mm(%a2, %w2) : (!A2, !W2) -> !C2
    %p3 = pl.tensor.reshape %p : !C2 -> !C1
    %acc2 = pl.tensor.assemble %p3 into %acc[%b, %c0, %c0] : !C1, !C
    scf.yield %acc2 : !C
  }
  %r = pl.call @scale(%c, %alpha) : (!C, f32) -> !C
  return %r : !C
}
