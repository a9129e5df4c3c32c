// The expected-* forms of MLIR's diagnostic verifier: @above, @below, @+N,
// @-N, the -re regex forms and notes, in pto-opt and in stock mlir-opt.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @at_below(%l: !pl.tile<4x4xi32, left>) {
  // expected-error @below {{cannot move a tile from 'left' to 'right'}}
  %r = pl.tile.move %l : !pl.tile<4x4xi32, left> -> !pl.tile<4x4xi32, right>
  return
}

// -----

func.func @at_above(%l: !pl.tile<4x4xi32, left>) {
  %r = pl.tile.move %l : !pl.tile<4x4xi32, left> -> !pl.tile<4x4xi32, right>
  // expected-error @above {{cannot move a tile from 'left' to 'right'}}
  return
}

// -----

func.func @at_minus(%l: !pl.tile<4x4xi32, left>) {
  %r = pl.tile.move %l : !pl.tile<4x4xi32, left> -> !pl.tile<4x4xi32, right>

  // expected-error @-2 {{cannot move a tile from 'left' to 'right'}}
  return
}

// -----

// expected-error-re @+3 {{'pl.tile.move' op cannot move a tile from '{{[a-z]+}}' to '{{[a-z]+}}'}}
func.func @regex(%l: !pl.tile<4x4xi32, left>) {

  %r = pl.tile.move %l : !pl.tile<4x4xi32, left> -> !pl.tile<4x4xi32, right>
  return
}

// -----

// expected-note @+1 {{see existing symbol definition here}}
func.func @twice() {
  return
}
// expected-error @+1 {{redefinition of symbol named 'twice'}}
func.func @twice() {
  return
}
