// RUN: pto-opt --verify-roundtrip %s --pl-outline-incore-scopes --verify-diagnostics

// Kernels take tensors and scalars: a tile from outside cannot cross in.
func.func @tile_in(%x: !pl.tensor<16x64xf32>) {
  %c0 = arith.constant 0 : index
  %t = pl.tile.create : !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{pl-outline-incore-scopes: the scope uses a tile defined outside it (!pl.tile<16x64xf32, vec>); kernels take tensors and scalars}}
  pl.incore_scope {
    %s = pl.tile.store %t, %x[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
    pl.yield
  }
  return
}
