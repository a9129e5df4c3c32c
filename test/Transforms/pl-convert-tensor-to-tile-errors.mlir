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

// A kernel with a dynamic extent runs in blocks only when its blocks
// are independent: a column reduction across them leaves it as it is.
func.func @dynamic_column_reduction(%x: !pl.tensor<?x64xf32>) -> !pl.tensor<1x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  // expected-warning @+1 {{pl-convert-tensor-to-tile: !pl.tensor<?x64xf32> has a dynamic shape and a column reduction reduces across the dynamic rows; the kernel's tensors have a dynamic extent; this kernel's tensor computations are left as they are}}
  %s = pl.tensor.col_sum %x : !pl.tensor<?x64xf32> -> !pl.tensor<1x64xf32>
  return %s : !pl.tensor<1x64xf32>
}

// -----

// Two dynamic extents no op relates may differ at run time.
// expected-warning @+1 {{the kernel's dynamic extents on axis 0 are not related by its ops (they may differ at run time); it does not run in blocks}}
func.func @unrelated_extents(%x: !pl.tensor<?x64xf32>, %y: !pl.tensor<?x64xf32>) -> (!pl.tensor<?x64xf32>, !pl.tensor<?x64xf32>) attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.exp %x : !pl.tensor<?x64xf32>
  %r = pl.tensor.relu %y : !pl.tensor<?x64xf32>
  return %e, %r : !pl.tensor<?x64xf32>, !pl.tensor<?x64xf32>
}

// -----

// A row reduction across dynamic columns combined with the columns again
// (a softmax's x - max(x)) would need two passes over the columns.
func.func @two_passes(%x: !pl.tensor<16x?xf32>) -> !pl.tensor<16x?xf32> attributes {pl.kind = #pl.kind<incore>} {
  %m = pl.tensor.row_max %x : !pl.tensor<16x?xf32> -> !pl.tensor<16x1xf32>
  // expected-warning @+1 {{pl-convert-tensor-to-tile: !pl.tensor<16x?xf32> has a dynamic shape and a row reduction across the dynamic columns is combined with the columns again (two passes over the columns); this does not run in blocks yet; this kernel's tensor computations are left as they are}}
  %d = pl.tensor.sub %x, %m : !pl.tensor<16x?xf32>, !pl.tensor<16x1xf32> -> !pl.tensor<16x?xf32>
  return %d : !pl.tensor<16x?xf32>
}

// -----

// An arg-reduction's blocks would need their column offsets.
func.func @argmax_columns(%x: !pl.tensor<16x?xf32>) -> !pl.tensor<16x1xi32> attributes {pl.kind = #pl.kind<incore>} {
  // expected-warning @+1 {{an arg-reduction across dynamic columns is not accumulated across blocks yet}}
  %m = pl.tensor.row_argmax %x : !pl.tensor<16x?xf32> -> !pl.tensor<16x1xi32>
  return %m : !pl.tensor<16x1xi32>
}

// -----

// Blocks are of rank-2 tensors.
// expected-warning @+1 {{parameter #0: !pl.tensor<2x?x16xf32> is a dynamically shaped tensor of rank 3; only rank-2 kernels run in blocks}}
func.func @rank3(%x: !pl.tensor<2x?x16xf32>) -> !pl.tensor<2x?x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.exp %x : !pl.tensor<2x?x16xf32>
  return %e : !pl.tensor<2x?x16xf32>
}

// -----

// A static extent on an axis other tensors have dynamic.
// expected-warning @+1 {{parameter #1: !pl.tensor<?x64xf32> has a static extent on axis 1, which other tensors of the kernel have dynamic; a block cannot hold both}}
func.func @mixed_columns(%x: !pl.tensor<?x?xf32>, %y: !pl.tensor<?x64xf32>) -> (!pl.tensor<?x?xf32>, !pl.tensor<?x64xf32>) attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.exp %x : !pl.tensor<?x?xf32>
  %r = pl.tensor.relu %y : !pl.tensor<?x64xf32>
  return %e, %r : !pl.tensor<?x?xf32>, !pl.tensor<?x64xf32>
}

// -----

// A kernel returning a parameter as it is does not run in blocks.
func.func @returns_parameter(%x: !pl.tensor<?x64xf32>) -> (!pl.tensor<?x64xf32>, !pl.tensor<?x64xf32>) attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.exp %x : !pl.tensor<?x64xf32>
  // expected-warning @+1 {{result #1 is not a dynamically shaped tensor the kernel computes; a kernel run in blocks returns only those (and, when its rows are static, static tensors it computes)}}
  return %e, %x : !pl.tensor<?x64xf32>, !pl.tensor<?x64xf32>
}

// -----

// A tile product is 2-D: a batched matmul is one product per batch, made
// for parameters whose product is returned; anything else is refused at the
// op, not turned into a rank-3 tile matmul the verifier rejects.
func.func @batched_twice(%a: !pl.tensor<3x16x16xf32>, %b: !pl.tensor<3x16x16xf32>) -> (!pl.tensor<3x16x16xf32>, !pl.tensor<3x16x16xf32>) attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{pl-convert-tensor-to-tile: a batched matmul whose product is used other than once has no tile form yet}}
  %c = pl.tensor.matmul %a, %b : !pl.tensor<3x16x16xf32>, !pl.tensor<3x16x16xf32> -> !pl.tensor<3x16x16xf32>
  return %c, %c : !pl.tensor<3x16x16xf32>, !pl.tensor<3x16x16xf32>
}

// -----

func.func @batched_computed(%a: !pl.tensor<3x16x16xf32>, %b: !pl.tensor<3x16x16xf32>) -> !pl.tensor<3x16x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.exp %a : !pl.tensor<3x16x16xf32>
  // expected-error @+1 {{pl-convert-tensor-to-tile: a batched matmul of operands that are not the kernel's parameters has no tile form yet}}
  %c = pl.tensor.matmul %e, %b : !pl.tensor<3x16x16xf32>, !pl.tensor<3x16x16xf32> -> !pl.tensor<3x16x16xf32>
  return %c : !pl.tensor<3x16x16xf32>
}

// -----

func.func @batched_rank4(%a: !pl.tensor<2x3x16x16xf32>, %b: !pl.tensor<2x3x16x16xf32>) -> !pl.tensor<2x3x16x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{pl-convert-tensor-to-tile: a batched matmul of rank other than 3 has no tile form yet}}
  %c = pl.tensor.matmul %a, %b : !pl.tensor<2x3x16x16xf32>, !pl.tensor<2x3x16x16xf32> -> !pl.tensor<2x3x16x16xf32>
  return %c : !pl.tensor<2x3x16x16xf32>
}

// -----

func.func @batched_transposed(%a: !pl.tensor<3x16x16xf32>, %b: !pl.tensor<3x16x16xf32>) -> !pl.tensor<3x16x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{pl-convert-tensor-to-tile: a batched matmul with a transposed operand has no tile form yet}}
  %c = pl.tensor.matmul %a, %b {b_trans} : !pl.tensor<3x16x16xf32>, !pl.tensor<3x16x16xf32> -> !pl.tensor<3x16x16xf32>
  return %c : !pl.tensor<3x16x16xf32>
}

// -----

// A gather on another axis than the last has no tile form yet (a2a3's
// gather reads a flat index of one row).
func.func @gather_first_axis(%s: !pl.tensor<16x64xf32>, %e: !pl.tensor<4x64xi32>) -> !pl.tensor<4x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  // expected-warning @+1 {{pl-convert-tensor-to-tile: a gather on other than the last axis of a 2-D tensor has no tile form yet; the kernel keeps computing on tensors here}}
  %g = pl.tensor.gather %s, %e dim 0 : !pl.tensor<16x64xf32>, !pl.tensor<4x64xi32> -> !pl.tensor<4x64xf32>
  return %g : !pl.tensor<4x64xf32>
}

// -----

func.func @scatter_first_axis(%t: !pl.tensor<16x64xf32>, %k: !pl.tensor<4x64xi32>, %v: !pl.tensor<4x64xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  // expected-warning @+1 {{pl-convert-tensor-to-tile: a scatter on other than the last axis of a 2-D tensor has no tile form yet; the kernel keeps computing on tensors here}}
  %r = pl.tensor.scatter %t, %k, %v dim 0 : !pl.tensor<16x64xf32>, !pl.tensor<4x64xi32>, !pl.tensor<4x64xf32>
  return %r : !pl.tensor<16x64xf32>
}

// -----

// A `?` valid extent of a parameter is nothing the kernel knows.
func.func @unknown_valid(%t: !pl.tensor<16x64xf32, valid = 16x?>) -> !pl.tensor<16x64xf32, pad = zero> attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{the valid extents of !pl.tensor<16x64xf32, valid = 16x?> are not known in the kernel: pass the tensor whole and set them with pl.tensor.set_validshape}}
  %f = pl.tensor.fillpad %t zero : !pl.tensor<16x64xf32, valid = 16x?> -> !pl.tensor<16x64xf32, pad = zero>
  return %f : !pl.tensor<16x64xf32, pad = zero>
}
