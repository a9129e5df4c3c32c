// Batched matmuls inside kernels: @bmm multiplies each of 3 batches of a
// (f16 16x32) by its own batch of w (32x32), and @shared multiplies every
// batch of b (f16 128x512) by one rank-2 v (512x64: it broadcasts over the
// batch); both products are f32. The kernels compute one 2-D product per
// batch; @shared's exceed L0 and are computed in L0-sized steps.
!A = !pl.tensor<3x16x32xf16>
!W = !pl.tensor<3x32x32xf16>
!C = !pl.tensor<3x16x32xf32>
!B = !pl.tensor<3x128x512xf16>
!V = !pl.tensor<512x64xf16>
!D = !pl.tensor<3x128x64xf32>

func.func @bmm(%a: !A, %w: !W) -> !C attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %a, %w : !A, !W -> !C
  return %p : !C
}

func.func @shared(%b: !B, %v: !V) -> !D attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %b, %v : !B, !V -> !D
  return %p : !D
}

func.func @main(%a: !A, %w: !W, %b: !B, %v: !V) -> (!C, !D) attributes {pl.kind = #pl.kind<orchestration>} {
  %c = pl.call @bmm(%a, %w) : (!A, !W) -> !C
  %d = pl.call @shared(%b, %v) : (!B, !V) -> !D
  return %c, %d : !C, !D
}
