// Column blocks of a row-major tensor passed to kernels: x[:, c:c+16] is
// not dense in x, so the kernel that doubles it takes x and the block's
// offsets and loads the block itself. It is called twice, from a loop over
// the first three blocks and once for the last, which is scaled by the
// scalar alpha instead of 2; each result is assembled into its block of y,
// which the kernel does itself (it is given y and the block's offsets).
!X = !pl.tensor<32x64xf32>
!C = !pl.tensor<32x16xf32>

func.func @scale(%b: !C, %s: f32) -> !C attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.muls %b, %s : !C, f32
  return %r : !C
}

func.func @main(%x: !X, %alpha: f32) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %two = arith.constant 2.0 : f32
  %out = pl.tensor.create() : !X
  %y = scf.for %c = %c0 to %c48 step %c16 iter_args(%o = %out) -> (!X) {
    %b = pl.tensor.slice %x[%c0, %c] : !X -> !C
    %r = pl.call @scale(%b, %two) : (!C, f32) -> !C
    %o2 = pl.tensor.assemble %r into %o[%c0, %c] : !C, !X
    scf.yield %o2 : !X
  }
  %last = pl.tensor.slice %x[%c0, %c48] : !X -> !C
  %r = pl.call @scale(%last, %alpha) : (!C, f32) -> !C
  %y2 = pl.tensor.assemble %r into %y[%c0, %c48] : !C, !X
  return %y2 : !X
}
