// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-to-emitc=kernel-entry=true --verify-diagnostics -o /dev/null

// Every entry is `kernel_entry`: one kernel per module.
func.func @first() attributes {pl.kind = #pl.kind<aiv>} {
  return
}
// expected-error @+1 {{convert-pl-to-emitc: kernel-entry wants one kernel per module}}
func.func @second() attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// The runtime does not program the CCE block registers a block query
// reads: not translated rather than wrong.
func.func @blocks(%out: !pl.tensor<1x8xi32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{convert-pl-to-emitc: block queries are not translated for the runtime's kernel_entry yet (its SPMD context is get_block_idx(args) of the runtime's intrinsic.h, not the CCE intrinsic); use --entry=kernel}}
  %i = pl.tile.get_block_idx
  return
}
