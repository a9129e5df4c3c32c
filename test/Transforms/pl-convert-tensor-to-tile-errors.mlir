// RUN: pto-opt %s --pl-convert-tensor-to-tile --split-input-file --verify-diagnostics

// Tensor computations inside control flow are not converted yet.
// expected-error @+1 {{pl-convert-tensor-to-tile: tensor computations inside loops or branches are not converted yet}}
func.func @in_loop(%x: !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> (!pl.tensor<16x64xf32>) {
    %e = pl.tensor.exp %acc : !pl.tensor<16x64xf32>
    scf.yield %e : !pl.tensor<16x64xf32>
  }
  return %r : !pl.tensor<16x64xf32>
}

// -----

// A converted value used by an op that is not converted.
func.func @unconverted_user(%x: !pl.tensor<16x64xf32>) -> index attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{pl-convert-tensor-to-tile: this tensor is used by an op that is not converted; only returns take converted values}}
  %e = pl.tensor.exp %x : !pl.tensor<16x64xf32>
  %d = pl.tensor.dim %e, 0 : !pl.tensor<16x64xf32>
  return %d : index
}

// -----

// Whole tiles need static shapes: the kernel is left as it is.
func.func @dynamic(%x: !pl.tensor<?x64xf32>) -> !pl.tensor<?x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  // expected-warning @+1 {{pl-convert-tensor-to-tile: !pl.tensor<?x64xf32> has a dynamic shape; this kernel's tensor computations are left as they are}}
  %e = pl.tensor.exp %x : !pl.tensor<?x64xf32>
  return %e : !pl.tensor<?x64xf32>
}

