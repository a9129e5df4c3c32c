// Single-element access in kernels: @affine reads scale = p[0], shift = p[1]
// (pl.tensor.read) for y = x * scale + shift; @diag loops over an index count
// %n of rows of y writing d[i] = 2 * y[i, i] with pl.tensor.write into %d
// (inout: a scalar write counts as a read-modify-write).
!X = !pl.tensor<32x32xf32>
!P = !pl.tensor<2xf32>
!D = !pl.tensor<32xf32>

func.func @affine(%x: !X, %p: !P) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %scale = pl.tensor.read %p[%c0] : !P -> f32
  %shift = pl.tensor.read %p[%c1] : !P -> f32
  %m = pl.tensor.muls %x, %scale : !X, f32
  %r = pl.tensor.adds %m, %shift : !X, f32
  return %r : !X
}

func.func @diag(%x: !X, %d: !D {pl.direction = #pl.direction<inout>}, %n: index) -> !D attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %d) -> (!D) {
    %v = pl.tensor.read %x[%i, %i] : !X -> f32
    %w = arith.mulf %v, %two : f32
    %o2 = pl.tensor.write %o[%i], %w : !D, f32
    scf.yield %o2 : !D
  }
  return %r : !D
}

func.func @main(%x: !X, %p: !P) -> (!X, !D) attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.call @affine(%x, %p) : (!X, !P) -> !X
  %c32 = arith.constant 32 : index
  %d0 = pl.tensor.create() : !D
  %d = pl.call @diag(%y, %d0, %c32) : (!X, !D, index) -> !D
  return %y, %d : !X, !D
}
