// f16 data and casts: a kernel computes h = x * g + x in f16, casts it up to
// f32 (pl.tensor.cast), takes exp(h) and its f32 row sums, and casts exp(h)
// back down to f16 with round-to-nearest-even (rint).
!H = !pl.tensor<32x64xf16>
!F = !pl.tensor<32x64xf32>
!Col = !pl.tensor<32x1xf32>

func.func @f16_mix(%x: !H, %g: !H) -> (!H, !Col) attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.mul %x, %g : !H, !H -> !H
  %h = pl.tensor.add %p, %x : !H, !H -> !H
  %f = pl.tensor.cast %h none : !H -> !F
  %e = pl.tensor.exp %f : !F
  %s = pl.tensor.row_sum %e : !F -> !Col
  %e16 = pl.tensor.cast %e rint : !F -> !H
  return %e16, %s : !H, !Col
}

func.func @main(%x: !H, %g: !H) -> (!H, !Col) attributes {pl.kind = #pl.kind<orchestration>} {
  %e, %s = pl.call @f16_mix(%x, %g) : (!H, !H) -> (!H, !Col)
  return %e, %s : !H, !Col
}
