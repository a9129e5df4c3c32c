// Casts a2a3's TCVT does not convert in one step: f32 to i8 (through f16,
// rounding to f16 first) and back, i16 to i32 (through f32) and i8 to f32
// (through f16). pl-legalize-tile-cast splits each into one-step casts;
// pto-run computes the chains, numpy the golden.
!F = !pl.tensor<32x64xf32>
!B = !pl.tensor<32x64xi8>
!S = !pl.tensor<32x64xi16>
!I = !pl.tensor<32x64xi32>

func.func @casts(%a: !F, %c: !S, %d: !B) -> (!F, !I, !F) attributes {pl.kind = #pl.kind<incore>} {
  %q = pl.tensor.cast %a rint : !F -> !B
  %y = pl.tensor.cast %q none : !B -> !F
  %z = pl.tensor.cast %c none : !S -> !I
  %v = pl.tensor.cast %d none : !B -> !F
  return %y, %z, %v : !F, !I, !F
}

func.func @main(%a: !F, %c: !S, %d: !B) -> (!F, !I, !F) attributes {pl.kind = #pl.kind<orchestration>} {
  %y, %z, %v = pl.call @casts(%a, %c, %d) : (!F, !S, !B) -> (!F, !I, !F)
  return %y, %z, %v : !F, !I, !F
}
