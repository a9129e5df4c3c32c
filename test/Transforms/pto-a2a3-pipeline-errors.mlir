// RUN: pto-opt %s --pto-a2a3-pipeline --split-input-file --verify-diagnostics

// A tensor too large for the vector buffer as one tile: the error is at
// the op the user wrote, and says what to do.
!T = !pl.tensor<256x256xf32>
func.func @main(%a: !T, %b: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.incore_scope -> !T {
    // expected-error @+1 {{pl-plan-memory: vec overflows: this tile needs 262144 B at address 0, past the 188416 B of vec; 262144 B are live here in 1 buffers (a kernel's tensors become whole tiles: compute in blocks that fit, with a loop over pl.tensor.slice windows, or give the tensors a dynamic leading extent, which pl-convert-tensor-to-tile runs in strips of rows)}}
    %s = pl.tensor.add %a, %b : !T, !T -> !T
    pl.yield %s : !T
  }
  return %r : !T
}
