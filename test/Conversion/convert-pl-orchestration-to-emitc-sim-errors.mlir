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

func.func @k(%x: !pl.tensor<8xf32> {pl.direction = #pl.direction<inout>}) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %x : !pl.tensor<8xf32>
}
// expected-error @below {{convert-pl-orchestration-to-emitc: kernel results used in a chip orchestration are not simulated yet}}
func.func @uses_result(%x: !pl.tensor<8xf32>) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.call @k(%x) : (!pl.tensor<8xf32>) -> !pl.tensor<8xf32>
  return %r : !pl.tensor<8xf32>
}

// -----

// expected-error @below {{convert-pl-orchestration-to-emitc: 'pl.tensor.create' in a chip orchestration is not simulated yet}}
func.func @creates() attributes {pl.kind = #pl.kind<orchestration>} {
  %t = pl.tensor.create() : !pl.tensor<8xf32>
  return
}
