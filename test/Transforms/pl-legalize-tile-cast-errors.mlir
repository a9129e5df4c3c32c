// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-legalize-tile-cast))' --verify-diagnostics

// TCVT converts no ui16 on a2a3, in any number of steps.
func.func @unsigned16(%x: !pl.tile<16x64xf32, vec>) -> !pl.tile<16x64xui16, vec> {
  // expected-error @+1 {{pl-legalize-tile-cast: a2a3 converts f32 to ui16 neither in one step nor through other element types (pto-isa's TCVT has no such conversion)}}
  %q = pl.tile.cast %x rint : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xui16, vec>
  return %q : !pl.tile<16x64xui16, vec>
}
