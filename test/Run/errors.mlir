// Bad programs and bad invocations get a diagnostic and exit 1.
// RUN: not pto-run %s --entry uninitialised 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: not pto-run %s --entry out_of_bounds 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not pto-run %s --entry nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not pto-run %s --entry needs_input 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not pto-run %s --entry needs_input --input t 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not pto-run %s --entry needs_input --input t=%t.missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not pto-run %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: not pto-run %S/Inputs/invalid.mlir 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: not pto-run %s --entry uninitialised --ranks 0 2>&1 | FileCheck %s --check-prefix=RANKS
// RUN: not pto-run %s --entry scalar --random-inputs 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not pto-run %s --entry pointer 2>&1 | FileCheck %s --check-prefix=POINTER
// RUN: rm -rf %t.out && pto-run %s --entry needs_input --random-inputs -o %t.out
// RUN: not pto-run %s --entry needs_input --input t=%t.out/t.npy --input bogus=%t.out/t.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pto-run %S/Inputs/two-hosts.mlir 2>&1 | FileCheck %s --check-prefix=HOSTS

// UNINIT: errors.mlir:[[@LINE+5]]:8: error: a store reads element [0, 0] of a tile, which was never written
func.func @uninitialised() -> !pl.tensor<4x8xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %out = pl.tensor.create() : !pl.tensor<4x8xf32>
  %t = pl.tile.create : !pl.tile<4x8xf32, vec>
  %r = pl.tile.store %t, %out[%c0, %c0] : !pl.tile<4x8xf32, vec>, !pl.tensor<4x8xf32>
  return %r : !pl.tensor<4x8xf32>
}

// A window past the edge at run time (the offset is not a constant).
// OOB: errors.mlir:[[@LINE+7]]:8: error: reads element [6, 0] of a tensor of shape [6, 8], out of bounds
func.func @out_of_bounds() attributes {pl.kind = #pl.kind<aiv>} {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %in = pl.tensor.full %c0() : index -> !pl.tensor<6x8xindex>
  %rows = pl.tensor.dim %in, 0 : !pl.tensor<6x8xindex>
  %start = arith.subi %rows, %c2 : index
  %t = pl.tile.load %in[%start, %c0] : !pl.tensor<6x8xindex> -> !pl.tile<4x8xindex, vec>
  return
}

func.func @needs_input(%t: !pl.tensor<4x8xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// ENTRY: errors.mlir:1:1: error: no function @nope
// INPUT: errors.mlir:[[@LINE-5]]:24: error: no input for %t (give one, or --random-inputs)
// SYNTAX: pto-run: error: --input wants NAME=FILE, got 't'
// MISSING: pto-run: error: {{.*}}missing.npy: No such file or directory
// FILE: pto-run: error: cannot open {{.*}}does-not-exist.mlir
// RANKS: error: invalid value '0' for '--ranks <RANKS>'
// INVALID: invalid.mlir:5:8: error: 'pl.tile.add' op
// INVALID-NOT: pto-run: error:

// Errors about the entry's inputs are located at the parameter, or at the
// entry function; a name that is no parameter of the entry is an error.
func.func @scalar(%n: index) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @pointer(%p: !pl.ptr) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  return
}
// SCALAR: errors.mlir:[[@LINE-6]]:19: error: no input for the scalar parameter %n (give one; --random-inputs draws tensors only)
// POINTER: errors.mlir:[[@LINE-4]]:20: error: pto-run cannot pass a Ptr to the entry (%p)
// UNKNOWN: errors.mlir:38:1: error: an input is given for %bogus, which is no parameter of @needs_input (its parameters: %t)
// HOSTS: two-hosts.mlir:4:1: error: no entry: @first and @second are both host orchestrators; name one with --entry
