// Weights staged into the L2 cache before a kernel loads them, as
// PyPTO's decode kernels prefetch the next layer's weights: a vector
// kernel makes a prefetch context, prefetches both weight tensors, waits
// for them in the context's session and then computes with them (a scaled
// sum, and at the tensor level a product with a bias). Prefetches change
// no value: pto-run computes the same with or without them, and
// pto-translate emits pto-isa's TPREFETCH_ASYNC, which issues nothing
// without the runtime's SDMA workspace (kernels take none yet).
!W = !pl.tensor<16x64xf32>

func.func @scaled(%w: !W, %v: !W, %o: !W {pl.direction = #pl.direction<out>}) -> !W attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %ctx = pl.prefetch.make_context : !pl.prefetch_context
  %e0 = pl.prefetch.async_prefetch %w, %ctx : !W
  %e1 = pl.prefetch.async_prefetch %v, %ctx : !W
  %s = pl.prefetch.session %ctx
  %d0 = pl.prefetch.wait %e0, %s
  %d1 = pl.prefetch.wait %e1, %s
  %a = pl.tile.load %w[%c0, %c0] : !W -> !pl.tile<16x64xf32, vec>
  %b = pl.tile.load %v[%c0, %c0] : !W -> !pl.tile<16x64xf32, vec>
  %sum = pl.tile.add %a, %b : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
  %both = arith.andi %d0, %d1 : i1
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %k = arith.select %both, %two, %one : f32
  %r = pl.tile.muls %sum, %k : !pl.tile<16x64xf32, vec>, f32
  %w2 = pl.tile.store %r, %o[%c0, %c0] : !pl.tile<16x64xf32, vec>, !W
  return %w2 : !W
}

func.func @biased(%x: !W, %b: !W) -> !W attributes {pl.kind = #pl.kind<incore>} {
  %ctx = pl.prefetch.make_context : !pl.prefetch_context
  %e = pl.prefetch.async_prefetch %b, %ctx : !W
  %s = pl.prefetch.session %ctx
  %d = pl.prefetch.wait %e, %s
  %r = pl.tensor.add %x, %b : !W, !W -> !W
  return %r : !W
}

func.func @main(%w: !W, %v: !W) -> (!W, !W) attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.tensor.create() : !W
  %s = pl.call @scaled(%w, %v, %o) : (!W, !W, !W) -> !W
  %b = pl.call @biased(%s, %v) : (!W, !W) -> !W
  return %s, %b : !W, !W
}
