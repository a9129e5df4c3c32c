// Loops rebinding a tensor, as a model's layers do (h = layer(h, w)), two
// blocks of two layers: each iteration's kernel makes a fresh tensor,
// which the next iteration (of either loop) reads; the outer loop also
// sums each block's output into an accumulator it updates in place.
// Results: h_2 + h_4 and h_5, with h_{i+1} = 0.5 * h_i + w.
!T = !pl.tensor<16x64xf32>

func.func @layer(%h: !T, %w: !T) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %half = arith.constant 0.5 : f32
  %s = pl.tensor.muls %h, %half : !T, f32
  %n = pl.tensor.add %s, %w : !T, !T -> !T
  return %n : !T
}

func.func @accumulate(%acc: !T, %h: !T) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.add %acc, %h : !T, !T -> !T
  return %s : !T
}

func.func @main(%x: !T, %w: !T) -> (!T, !T) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %init = pl.tensor.full %zero() : f32 -> !T
  %c2 = arith.constant 2 : index
  %h, %sum = scf.for %i = %c0 to %c2 step %c1 iter_args(%cur = %x, %acc = %init) -> (!T, !T) {
    %h2 = scf.for %j = %c0 to %c2 step %c1 iter_args(%inner = %cur) -> (!T) {
      %next = pl.call @layer(%inner, %w) : (!T, !T) -> !T
      scf.yield %next : !T
    }
    %acc2 = pl.call @accumulate(%acc, %h2) : (!T, !T) -> !T
    scf.yield %h2, %acc2 : !T, !T
  }
  %last = pl.call @layer(%h, %w) : (!T, !T) -> !T
  return %sum, %last : !T, !T
}
