// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space))' --split-input-file --verify-diagnostics

// Vector math on a matmul result needs the cube and the vector unit: a
// mixed kernel.
func.func @mixed(%a: !pl.tensor<16x32xf16>, %b: !pl.tensor<32x16xf16>) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %am = pl.tile.load %a[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16>
  %bm = pl.tile.load %b[%c0, %c0] : !pl.tensor<32x16xf16> -> !pl.tile<32x16xf16>
  %p = pl.tile.matmul %am, %bm : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
  // expected-error @+1 {{pl-infer-memory-space: this op needs operand #0 in vec, but it is in acc: a kernel that mixes cube and vector work is not supported; split it into an aic and an aiv kernel}}
  %e = pl.tile.exp %p : !pl.tile<16x16xf32>
  return
}

// -----

// A transposed operand the vector unit computes (exp of the keys) stays in
// vec: the cube cannot read it, a mixed kernel.
func.func @computed_transposed_operand(%q: !pl.tensor<16x64xf16>, %k: !pl.tensor<32x64xf16>) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %qt = pl.tile.load %q[%c0, %c0] : !pl.tensor<16x64xf16> -> !pl.tile<16x64xf16>
  %kt = pl.tile.load %k[%c0, %c0] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16>
  %e = pl.tile.exp %kt : !pl.tile<32x64xf16>
  %v = pl.tile.transpose_view %e : !pl.tile<32x64xf16> -> !pl.tile<64x32xf16, blayout = col_major>
  // expected-error @+1 {{pl-infer-memory-space: this op needs operand #1 in right, but it is in vec: a kernel that mixes cube and vector work is not supported; split it into an aic and an aiv kernel}}
  %p = pl.tile.matmul %qt, %v : !pl.tile<16x64xf16>, !pl.tile<64x32xf16, blayout = col_major> -> !pl.tile<16x32xf32>
  return
}
