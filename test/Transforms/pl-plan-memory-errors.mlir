// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-plan-memory))' --split-input-file --verify-diagnostics

// Three 64 KiB vector tiles live at once do not fit the 184 KiB of a2a3's
// UB left for tiles (pto-isa's instructions keep the top 8 KiB as their
// scratch); the error names the buffers live with the one that does not fit.
!Big = !pl.tile<64x256xf32, vec>
func.func @overflow(%x: !pl.tensor<64x256xf32>, %out: !pl.tensor<64x256xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64x256xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{live: !pl.tile<64x256xf32, vec> (65536 B at 0)}}
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<64x256xf32> -> !Big
  // expected-note @+1 {{live: !pl.tile<64x256xf32, vec> (65536 B at 65536)}}
  %b = pl.tile.exp %a : !Big
  // expected-error @+1 {{pl-plan-memory: vec overflows: this tile needs 65536 B at address 131072, past the 188416 B of vec; 196608 B are live here in 3 buffers}}
  %c = pl.tile.recip %b : !Big
  %d = pl.tile.add %a, %c : !Big, !Big -> !Big
  %e = pl.tile.add %d, %b : !Big, !Big -> !Big
  %r = pl.tile.store %e, %out[%c0, %c0] : !Big, !pl.tensor<64x256xf32>
  return %r : !pl.tensor<64x256xf32>
}

// -----

// -----

// An accumulator updated in place but read again afterwards would need an
// acc-to-acc copy, which does not exist.
!Acc = !pl.tile<16x16xf32, acc>
func.func @acc_read_after(%a: !pl.tensor<16x16xf16>, %out: !pl.tensor<16x16xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x16xf32> attributes {pl.kind = #pl.kind<aic>} {
  %c0 = arith.constant 0 : index
  %m = pl.tile.load %a[%c0, %c0] : !pl.tensor<16x16xf16> -> !pl.tile<16x16xf16, mat>
  %l = pl.tile.move %m : !pl.tile<16x16xf16, mat> -> !pl.tile<16x16xf16, left>
  %rr = pl.tile.move %m : !pl.tile<16x16xf16, mat> -> !pl.tile<16x16xf16, right>
  %p = pl.tile.matmul %l, %rr : !pl.tile<16x16xf16, left>, !pl.tile<16x16xf16, right> -> !Acc
  // expected-error @+1 {{pl-plan-memory: this accumulator is still used after it is updated in place, but an accumulator cannot be copied (there is no acc-to-acc move); update it in place}}
  %q = pl.tile.matmul_acc %p, %l, %rr : !Acc, !pl.tile<16x16xf16, left>, !pl.tile<16x16xf16, right>
  %s1 = pl.tile.store %p, %out[%c0, %c0] : !Acc, !pl.tensor<16x16xf32>
  %s2 = pl.tile.store %q, %s1[%c0, %c0] : !Acc, !pl.tensor<16x16xf32>
  return %s2 : !pl.tensor<16x16xf32>
}

// -----

// Planning needs memory spaces.
func.func @unplaced(%x: !pl.tensor<16x16xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{pl-plan-memory: this tile has no memory space; run pl-infer-memory-space first}}
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x16xf32> -> !pl.tile<16x16xf32>
  return
}

// -----

// A tile whose size overflows 64 bits does not fit (the size saturates).
func.func @huge() attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{pl-plan-memory: vec overflows: this tile needs 2305843009213693952 B at address 0, past the 188416 B of vec}}
  %t = pl.tile.create : !pl.tile<4611686018427387904x4xf32, vec>
  return
}
