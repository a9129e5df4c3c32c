// RUN: pto-opt %s --pto-a2a3-pipeline --split-input-file --verify-diagnostics

// Tensors too large for the vector buffer as whole tiles, in a kernel that
// cannot run in blocks (it reduces along both axes): the conversion says
// why, and the error is at the op the user wrote, saying what to do.
!T = !pl.tensor<256x256xf32>
!R = !pl.tensor<256x1xf32>
!C = !pl.tensor<1x256xf32>
func.func @main(%a: !T) -> (!R, !C) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-warning @+1 {{pl-convert-tensor-to-tile: the kernel's tiles need about 525312 B of the vector buffer's 188416 B at once, and it does not run in blocks automatically: it reduces both rows and columns, so no axis can be blocked}}
  %r:2 = pl.incore_scope -> !R, !C {
    // expected-error @+1 {{pl-plan-memory: vec overflows: this tile needs 262144 B at address 0, past the 188416 B of vec; 262144 B are live here in 1 buffers (a kernel's tensors become whole tiles unless pl-convert-tensor-to-tile runs it in blocks: compute in blocks that fit, with a loop over pl.tensor.slice windows, or give the tensors a dynamic leading extent, which pl-convert-tensor-to-tile runs in strips of rows)}}
    %s = pl.tensor.row_sum %a : !T -> !R
    %c = pl.tensor.col_sum %a : !T -> !C
    pl.yield %s, %c : !R, !C
  }
  return %r#0, %r#1 : !R, !C
}

// -----

// Kernels of other shapes that do not fit and cannot run in blocks: a
// tensor of rank 3 (the warning is at the op that has it).
!T = !pl.tensor<4x128x128xf32>
func.func @main(%a: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.incore_scope -> !T {
    // expected-warning @+2 {{pl-convert-tensor-to-tile: the kernel's tiles need about 524288 B of the vector buffer's 188416 B at once, and it does not run in blocks automatically: !pl.tensor<4x128x128xf32> is not a plain tensor of rank 1 or 2 and static shape}}
    // expected-error @+1 {{pl-plan-memory: vec overflows}}
    %s = pl.tensor.exp %a : !T
    pl.yield %s : !T
  }
  return %r : !T
}
