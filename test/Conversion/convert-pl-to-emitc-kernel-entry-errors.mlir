// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-to-emitc=kernel-entry=true --verify-diagnostics -o /dev/null

// Every entry is `kernel_entry`: one kernel per module.
func.func @first() attributes {pl.kind = #pl.kind<aiv>} {
  return
}
// expected-error @+1 {{convert-pl-to-emitc: kernel-entry wants one kernel per module}}
func.func @second() attributes {pl.kind = #pl.kind<aiv>} {
  return
}

