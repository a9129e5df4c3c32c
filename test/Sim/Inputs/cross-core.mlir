// Kernels that mix the cube and the vector cores: exp(a b) + c (the cube
// hands its product to the vector cores) and exp(a) b + c (the vector
// cores hand exp(a) to the cube, which hands the product back).
// pto-a2a3-pipeline splits each into a core group; test/Sim/cross-core.test
// runs their kernels on pto-isa's CPU backend and on the model.
!A = !pl.tensor<16x32xf16>
!B = !pl.tensor<32x32xf16>
!C = !pl.tensor<16x32xf32>

func.func @mm_exp(%a: !A, %b: !B, %c: !C) -> !C attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %a, %b : !A, !B -> !C
  %e = pl.tensor.exp %p : !C
  %s = pl.tensor.add %e, %c : !C, !C -> !C
  return %s : !C
}

func.func @exp_mm(%a: !A, %b: !B, %c: !C) -> !C attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.exp %a : !A
  %p = pl.tensor.matmul %e, %b : !A, !B -> !C
  %s = pl.tensor.add %p, %c : !C, !C -> !C
  return %s : !C
}
