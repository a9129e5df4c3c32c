// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-program-to-emitc='entry=main runtime=pto2' --verify-diagnostics

// What an entry orchestration's runtime program does not drive
// (docs/passes/convert-pl-program-to-emitc.md).

// expected-error @below {{convert-pl-program-to-emitc: arg0: !pl.ptr is neither a tensor nor a scalar; the runtime program drives only those}}
func.func @main(%s: !pl.ptr) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}

// -----

// expected-error @below {{convert-pl-program-to-emitc: arg0: windows are not driven by runtime programs}}
func.func @main(%w: !pld.dtensor<8xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}

// -----

// expected-error @below {{convert-pl-program-to-emitc: result0: a result of dynamic shape (the runtime hands outputs in, so their extents must be known)}}
func.func @main(%x: !pl.tensor<?xf32>) -> !pl.tensor<?xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  return %x : !pl.tensor<?xf32>
}
