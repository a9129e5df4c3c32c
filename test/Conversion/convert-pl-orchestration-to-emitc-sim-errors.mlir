// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-orchestration-to-emitc=runtime=sim --verify-diagnostics

// What runtime=sim does not simulate yet (docs/passes/convert-pl-orchestration-to-emitc.md).

// expected-error @below {{convert-pl-orchestration-to-emitc: parameter #0: !pl.ptr is neither a tensor nor a scalar}}
func.func @pointer(%s: !pl.ptr) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}

// -----

func.func @k(%x: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<incore>} {
  return
}
// expected-error @below {{convert-pl-orchestration-to-emitc: @k is not a translated kernel}}
func.func @calls_incore(%x: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @k(%x) : (!pl.tensor<8xf32>) -> ()
  return
}

// -----

// A kernel's result that is not one of its parameters is not a buffer the
// chip has.
func.func @k(%x: !pl.tensor<8xf32>) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %t = pl.tensor.create() : !pl.tensor<8xf32>
  return %t : !pl.tensor<8xf32>
}
// expected-error @below {{convert-pl-orchestration-to-emitc: a result of @k that is not a parameter it returns is used in a chip orchestration; that is not simulated yet}}
func.func @uses_result(%x: !pl.tensor<8xf32>) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.call @k(%x) : (!pl.tensor<8xf32>) -> !pl.tensor<8xf32>
  return %r : !pl.tensor<8xf32>
}

// -----

// An index scalar is computed with in the chip; other scalars are passed on.
func.func @k(%x: !pl.tensor<8xf32>, %s: f32) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
// expected-error @below {{convert-pl-orchestration-to-emitc: parameter #1: a f32 scalar is only passed on to kernels in a simulated chip orchestration; computing with it is not simulated yet}}
func.func @computes(%x: !pl.tensor<8xf32>, %s: f32) attributes {pl.kind = #pl.kind<orchestration>} {
  %twice = arith.addf %s, %s : f32
  pl.call @k(%x, %twice) : (!pl.tensor<8xf32>, f32) -> ()
  return
}

// -----

// A branch choosing between two windows is no one buffer.
func.func @k(%w: !pld.dtensor<8xf32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @chooses(%a: !pld.dtensor<8xf32>, %b: !pld.dtensor<8xf32>, %c: i1) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @below {{convert-pl-orchestration-to-emitc: branch result #0 is not one tensor both branches update in place}}
  %w = scf.if %c -> !pld.dtensor<8xf32> {
    scf.yield %a : !pld.dtensor<8xf32>
  } else {
    scf.yield %b : !pld.dtensor<8xf32>
  }
  pl.call @k(%w) : (!pld.dtensor<8xf32>) -> ()
  return
}

// -----

// expected-error @below {{convert-pl-orchestration-to-emitc: 'pl.tensor.create' in a chip orchestration is not simulated yet}}
func.func @creates() attributes {pl.kind = #pl.kind<orchestration>} {
  %t = pl.tensor.create() : !pl.tensor<8xf32>
  return
}
