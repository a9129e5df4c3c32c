// pl.tensor.concat in a kernel: it joins relu(a) and b * 2 side by side
// ([16, 32] + [16, 32] -> [16, 64], axis 1) and stacks a over b
// ([16, 32] over [16, 32] -> [32, 32], axis 0); the orchestration returns
// both joins.
!H = !pl.tensor<16x32xf32>
!W = !pl.tensor<16x64xf32>
!S = !pl.tensor<32x32xf32>

func.func @join(%a: !H, %b: !H) -> (!W, !S) attributes {pl.kind = #pl.kind<incore>} {
  %two = arith.constant 2.0 : f32
  %r = pl.tensor.relu %a : !H
  %d = pl.tensor.muls %b, %two : !H, f32
  %w = pl.tensor.concat %r, %d axis 1 : !H, !H -> !W
  %s = pl.tensor.concat %a, %b axis 0 : !H, !H -> !S
  return %w, %s : !W, !S
}

func.func @main(%a: !H, %b: !H) -> (!W, !S) attributes {pl.kind = #pl.kind<orchestration>} {
  %w, %s = pl.call @join(%a, %b) : (!H, !H) -> (!W, !S)
  return %w, %s : !W, !S
}
