// RUN: pto-opt --verify-roundtrip %s --pl-convert-tensor-to-tile --split-input-file --verify-diagnostics

// Tensor computations inside branches are not converted yet.
func.func @in_branch(%x: !pl.tensor<16x64xf32>, %c: i1) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %r = scf.if %c -> (!pl.tensor<16x64xf32>) {
    // expected-error @+1 {{pl-convert-tensor-to-tile: tensor computations inside scf.if branches are not converted yet}}
    %e = pl.tensor.exp %x : !pl.tensor<16x64xf32>
    scf.yield %e : !pl.tensor<16x64xf32>
  } else {
    scf.yield %x : !pl.tensor<16x64xf32>
  }
  return %r : !pl.tensor<16x64xf32>
}

// -----

// A converted value used by an op that is not converted.
func.func @unconverted_user(%x: !pl.tensor<16x64xf32>) -> index attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{pl-convert-tensor-to-tile: this tensor is used by an op that is not converted; only returns, assembles and loops take converted values}}
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


// -----

// A tile product is 2-D: a batched matmul is refused at the op, not turned
// into a rank-3 tile matmul the verifier rejects.
func.func @batched(%a: !pl.tensor<3x16x16xf32>, %b: !pl.tensor<3x16x16xf32>) -> !pl.tensor<3x16x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{pl-convert-tensor-to-tile: a matmul of operands of rank other than 2 (batched or vector) has no tile form yet}}
  %c = pl.tensor.matmul %a, %b : !pl.tensor<3x16x16xf32>, !pl.tensor<3x16x16xf32> -> !pl.tensor<3x16x16xf32>
  return %c : !pl.tensor<3x16x16xf32>
}
