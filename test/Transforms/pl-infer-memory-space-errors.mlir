// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space))' --split-input-file --verify-diagnostics

// Vector math on a matmul result needs the cube and the vector cores: in
// an incore kernel a cross-core move (pl-expand-mixed-kernel splits it),
// in a kernel declared for one core an error.
func.func @mixed_in_aic(%a: !pl.tensor<16x32xf16>, %b: !pl.tensor<32x16xf16>) attributes {pl.kind = #pl.kind<aic>} {
  %c0 = arith.constant 0 : index
  %am = pl.tile.load %a[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16>
  %bm = pl.tile.load %b[%c0, %c0] : !pl.tensor<32x16xf16> -> !pl.tile<32x16xf16>
  %p = pl.tile.matmul %am, %bm : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
  // expected-error @+1 {{pl-infer-memory-space: this op needs operand #0 in vec, but it is in acc: moving it is a cross-core transfer, which only an incore kernel (split by pl-expand-mixed-kernel) makes}}
  %e = pl.tile.exp %p : !pl.tile<16x16xf32>
  return
}

// -----

// A tile loaded into L1 for the cube cannot reach the vector cores: no
// core moves L1 to UB.
func.func @l1_to_vector(%a: !pl.tensor<16x16xf16>) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %am = pl.tile.load %a[%c0, %c0] : !pl.tensor<16x16xf16> -> !pl.tile<16x16xf16>
  %p = pl.tile.matmul %am, %am : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  // expected-error @+1 {{pl-infer-memory-space: this op needs operand #0 in vec, but it is in mat: no move takes a tile from mat to vec (load it again where it is needed)}}
  %e = pl.tile.exp %am : !pl.tile<16x16xf16>
  return
}
