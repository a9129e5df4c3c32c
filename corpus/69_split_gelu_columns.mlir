// A linear layer with a bias and a sigmoid-approximated GELU,
// y = h · sigmoid(1.702 h) with h = x w + b, written as an InCore scope
// that shares its vector work between the two vector cores by columns
// (`split left_right`): each vector core gets the left or right 64
// columns of the product, loads its half of the bias row and stores its
// half of y.
!X = !pl.tensor<32x64xf16>
!W = !pl.tensor<64x128xf16>
!H = !pl.tensor<32x128xf32>
!B = !pl.tensor<1x128xf32>

func.func @main(%x: !X, %w: !W, %b: !B, %y: !H {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %k = arith.constant -1.702 : f32
  %one = arith.constant 1.0 : f32
  %r = pl.incore_scope name "gelu" split left_right -> !H {
    %p = pl.tensor.matmul %x, %w : !X, !W -> !H
    %h = pl.tensor.add %p, %b : !H, !B -> !H
    %t = pl.tensor.muls %h, %k : !H, f32
    %e = pl.tensor.exp %t : !H
    %d = pl.tensor.adds %e, %one : !H, f32
    %g = pl.tensor.div %h, %d : !H, !H -> !H
    %w2 = pl.tensor.assemble %g into %y[%c0, %c0] : !H, !H
    pl.yield %w2 : !H
  }
  return
}
