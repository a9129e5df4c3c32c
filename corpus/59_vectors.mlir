// Vectors (rank-1 tensors) in kernels, as PyPTO's bias and gate vectors:
// a sum, an exponential and a scaled cast to f16 of 512-element vectors.
// The tiles become one-row [1, N] tiles (pl-flatten-tile-nd-to-2d), which
// pto-isa takes.
!V = !pl.tensor<512xf32>
!H = !pl.tensor<512xf16>

func.func @gate(%x: !V, %b: !V, %s: f32) -> (!V, !H) attributes {pl.kind = #pl.kind<incore>} {
  %a = pl.tensor.add %x, %b : !V, !V -> !V
  %e = pl.tensor.exp %a : !V
  %m = pl.tensor.muls %e, %s : !V, f32
  %h = pl.tensor.cast %m round : !V -> !H
  return %e, %h : !V, !H
}

func.func @main(%x: !V, %b: !V, %s: f32) -> (!V, !H) attributes {pl.kind = #pl.kind<orchestration>} {
  %e, %h, %t = pl.submit @gate(%x, %b, %s) : (!V, !V, f32) -> (!V, !H)
  return %e, %h : !V, !H
}
