// pto-translate follows mlir-translate's conventions: --split-input-file
// (each part translated on its own, located at its lines in the input),
// --verify-diagnostics (MLIR's diagnostic verifier), --mlir-timing and
// MLIR's other --mlir-* options; a bad one is a prefixed error, exit 1.

// RUN: pto-translate --mlir-to-cce --split-input-file --verify-diagnostics %s | FileCheck %s --check-prefix=VERIFIED
// RUN: not pto-translate --mlir-to-cce --split-input-file %s 2>&1 | FileCheck %s --check-prefix=LOCATED
// RUN: pto-translate --mlir-to-cce --split-input-file %S/Inputs/two-kernels.mlir | FileCheck %s --check-prefix=SPLIT
// RUN: pto-translate --mlir-to-cce --split-input-file='// ====' %S/Inputs/two-kernels.mlir | FileCheck %s --check-prefix=MARKER
// RUN: not pto-translate --mlir-to-cce --split-input-file %S/Inputs/two-kernels.mlir -o %t.out 2>&1 | FileCheck %s --check-prefix=DIRECTORY
// RUN: not pto-translate --mlir-to-cce --verify-diagnostics %S/Inputs/unexpected.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: pto-translate --mlir-to-cce --mlir-timing --mlir-disable-threading %S/Inputs/two-kernels.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: not pto-translate --mlir-to-cce --mlir-no-such-option %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// The first part translates; the second is refused where expected.
// VERIFIED: // ----- first.cpp -----
// VERIFIED: // ----- manifest.json -----
// VERIFIED: // -----
// VERIFIED-NOT: // ----- {{.*}} -----

// Without the verifier the refusal is an error at its line in this file,
// and nothing is written.
// LOCATED: translate-conventions.mlir:[[# @LINE + 32]]:8: error: 'pl.tile.move' op cannot move a tile from 'left' to 'right'
// LOCATED-NOT: // -----

// SPLIT: // ----- a.cpp -----
// SPLIT: // ----- manifest.json -----
// SPLIT: {{^}}// -----{{$}}
// SPLIT: // ----- b.cpp -----
// MARKER: // ----- a.cpp -----
// MARKER: // ----- b.cpp -----
// MARKER-NOT: {{^}}// ===={{$}}
// DIRECTORY: pto-translate: error: --split-input-file prints the parts' files in order: use -o - (not a directory)
// MISMATCH: unexpected.mlir:5:8: error: unexpected error: 'pl.tile.move' op cannot move a tile
// MISMATCH: unexpected.mlir:8:4: error: expected warning "never emitted" was not produced
// TIMING: Execution time report
// TIMING: Parser
// TIMING: Translate
// TIMING: builtin.module(pto-a2a3-pipeline)
// TIMING: PlanMemory
// TIMING: Total
// UNKNOWN: pto-translate: error: Unknown command line argument '--mlir-no-such-option'.

func.func @first(%x: !pl.tensor<64xf32>, %o: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0] : !pl.tensor<64xf32> -> !pl.tile<64xf32, vec>
  %r = pl.tile.store %t, %o[%c0] : !pl.tile<64xf32, vec>, !pl.tensor<64xf32>
  return %r : !pl.tensor<64xf32>
}

// -----

func.func @second(%l: !pl.tile<4x4xi32, left>) {
  // expected-error @below {{cannot move a tile from 'left' to 'right'}}
  %r = pl.tile.move %l : !pl.tile<4x4xi32, left> -> !pl.tile<4x4xi32, right>
  return
}
