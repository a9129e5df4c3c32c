// RUN: pto-opt --verify-roundtrip %s --pl-inline-functions --split-input-file --verify-diagnostics

// expected-error @+1 {{pl-inline-functions: '@ping' calls itself (ping -> pong -> ping): a recursive function cannot be inlined}}
func.func private @ping(%i: index) -> index attributes {pl.kind = #pl.kind<inline>} {
  %r = func.call @pong(%i) : (index) -> index
  return %r : index
}
// expected-error @+1 {{pl-inline-functions: '@pong' calls itself (pong -> ping -> pong): a recursive function cannot be inlined}}
func.func private @pong(%i: index) -> index attributes {pl.kind = #pl.kind<inline>} {
  %r = func.call @ping(%i) : (index) -> index
  return %r : index
}

// -----

// Tile code cannot go into an orchestration outside its scopes.
func.func private @load(%t: !pl.tensor<64xf32>) -> !pl.tile<64xf32, vec> attributes {pl.kind = #pl.kind<inline>} {
  %c0 = arith.constant 0 : index
  %r = pl.tile.load %t[%c0] : !pl.tensor<64xf32> -> !pl.tile<64xf32, vec>
  return %r : !pl.tile<64xf32, vec>
}
func.func @orchestration(%x: !pl.tensor<64xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{pl-inline-functions: cannot inline '@load' here: an orchestration computes no tiles: pl.tile.load belongs in an InCore kernel or scope}}
  %t = func.call @load(%x) : (!pl.tensor<64xf32>) -> !pl.tile<64xf32, vec>
  return
}

// -----

// An aiv kernel holds no cube-side tiles.
func.func private @mat(%t: !pl.tensor<16x16xf16>) attributes {pl.kind = #pl.kind<inline>} {
  %c0 = arith.constant 0 : index
  %r = pl.tile.load %t[%c0, %c0] : !pl.tensor<16x16xf16> -> !pl.tile<16x16xf16, mat>
  return
}
func.func @vector(%x: !pl.tensor<16x16xf16>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{pl-inline-functions: cannot inline '@mat' here: an aiv (vector) kernel holds no 'mat' tiles, found pl.tile.load}}
  func.call @mat(%x) : (!pl.tensor<16x16xf16>) -> ()
  return
}

// -----

// A kernel holds no scopes.
func.func private @scoped(%t: !pl.tensor<64xf32>) attributes {pl.kind = #pl.kind<inline>} {
  pl.incore_scope {
    pl.yield
  }
  return
}
func.func @kernel(%x: !pl.tensor<64xf32>) attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{pl-inline-functions: cannot inline '@scoped' here: a kernel holds no scopes, found pl.incore_scope}}
  func.call @scoped(%x) : (!pl.tensor<64xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{pl-inline-functions: '@branchy' has more than one block: an inline function's body is one block of structured code}}
func.func private @branchy(%i: index) -> index attributes {pl.kind = #pl.kind<inline>} {
  cf.br ^next
^next:
  return %i : index
}
