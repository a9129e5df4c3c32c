// RUN: pto-opt --verify-roundtrip %s --split-input-file --pass-pipeline='builtin.module(func.func(pl-tile-matmul-l0))' --verify-diagnostics

func.func @beyond_l1(%x: !pl.tensor<256x256xf32>, %y: !pl.tensor<256x512xf32>, %out: !pl.tensor<256x512xf32>) -> !pl.tensor<256x512xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<256x256xf32> -> !pl.tile<256x256xf32>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<256x512xf32> -> !pl.tile<256x512xf32>
  // expected-error @+1 {{pl-tile-matmul-l0: the operands of this matmul (768 KiB) exceed L1 (512 KiB); split the kernel's matmul by hand}}
  %p = pl.tile.matmul %a, %b : !pl.tile<256x256xf32>, !pl.tile<256x512xf32> -> !pl.tile<256x512xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<256x512xf32, acc>, !pl.tensor<256x512xf32>
  return %o : !pl.tensor<256x512xf32>
}

// -----

func.func @shared_operand(%x: !pl.tensor<128x512xf16>, %y: !pl.tensor<512x256xf16>, %out: !pl.tensor<128x256xf32>) -> !pl.tensor<128x256xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<128x512xf16> -> !pl.tile<128x512xf16>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16>
  %e = pl.tile.exp %a : !pl.tile<128x512xf16>
  // expected-error @+1 {{pl-tile-matmul-l0: this matmul exceeds L0 (128x512 by 512x256) and its operands are not loads used by it alone (or by matmuls split alike); it cannot be split into L0 steps}}
  %p = pl.tile.matmul %a, %b : !pl.tile<128x512xf16>, !pl.tile<512x256xf16> -> !pl.tile<128x256xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<128x256xf32, acc>, !pl.tensor<128x256xf32>
  return %o : !pl.tensor<128x256xf32>
}

// -----

func.func @two_stores(%x: !pl.tensor<128x512xf16>, %y: !pl.tensor<512x256xf16>, %out: !pl.tensor<128x256xf32>) -> !pl.tensor<128x256xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<128x512xf16> -> !pl.tile<128x512xf16>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16>
  // expected-error @+1 {{pl-tile-matmul-l0: the product of this oversized matmul must have one user, a pl.tile.store; it has 2}}
  %p = pl.tile.matmul %a, %b : !pl.tile<128x512xf16>, !pl.tile<512x256xf16> -> !pl.tile<128x256xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<128x256xf32, acc>, !pl.tensor<128x256xf32>
  %o2 = pl.tile.store %p, %o[%c0, %c0] : !pl.tile<128x256xf32, acc>, !pl.tensor<128x256xf32>
  return %o2 : !pl.tensor<128x256xf32>
}

// -----

func.func @dn_operand(%x: !pl.tensor<128x512xf16, dn>, %y: !pl.tensor<512x256xf16>, %out: !pl.tensor<128x256xf32>) -> !pl.tensor<128x256xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<128x512xf16, dn> -> !pl.tile<128x512xf16>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<512x256xf16> -> !pl.tile<512x256xf16>
  // expected-error @+1 {{pl-tile-matmul-l0: an operand of this oversized matmul is loaded from a dn tensor; it cannot be split into L0 steps}}
  %p = pl.tile.matmul %a, %b : !pl.tile<128x512xf16>, !pl.tile<512x256xf16> -> !pl.tile<128x256xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<128x256xf32, acc>, !pl.tensor<128x256xf32>
  return %o : !pl.tensor<128x256xf32>
}

// -----

func.func @odd_k(%x: !pl.tensor<128x1000xf16>, %y: !pl.tensor<1000x32xf16>, %out: !pl.tensor<128x32xf32>) -> !pl.tensor<128x32xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<128x1000xf16> -> !pl.tile<128x1000xf16>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<1000x32xf16> -> !pl.tile<1000x32xf16>
  // expected-error @+1 {{pl-tile-matmul-l0: K = 1000 does not halve into steps k (multiples of 16) whose 128xk left and kx32 right blocks fit L0A/L0B (64 KiB)}}
  %p = pl.tile.matmul %a, %b : !pl.tile<128x1000xf16>, !pl.tile<1000x32xf16> -> !pl.tile<128x32xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<128x32xf32, acc>, !pl.tensor<128x32xf32>
  return %o : !pl.tensor<128x32xf32>
}

// -----

// A load shared by an oversized matmul and one that fits L0: the one that
// fits reads its operand from L0, so the load cannot move to L1.
func.func @shared_with_small(%x: !pl.tensor<64x128xf16>, %y: !pl.tensor<128x512xf16>, %z: !pl.tensor<128x16xf16>, %out: !pl.tensor<64x512xf32>, %out2: !pl.tensor<64x16xf32>) -> (!pl.tensor<64x512xf32>, !pl.tensor<64x16xf32>) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<64x128xf16> -> !pl.tile<64x128xf16>
  %b = pl.tile.load %y[%c0, %c0] : !pl.tensor<128x512xf16> -> !pl.tile<128x512xf16>
  %c = pl.tile.load %z[%c0, %c0] : !pl.tensor<128x16xf16> -> !pl.tile<128x16xf16>
  // expected-error @+1 {{pl-tile-matmul-l0: this matmul exceeds L0 (64x128 by 128x512) and its operands are not loads used by it alone (or by matmuls split alike); it cannot be split into L0 steps}}
  %p = pl.tile.matmul %a, %b : !pl.tile<64x128xf16>, !pl.tile<128x512xf16> -> !pl.tile<64x512xf32, acc>
  %o = pl.tile.store %p, %out[%c0, %c0] : !pl.tile<64x512xf32, acc>, !pl.tensor<64x512xf32>
  %q = pl.tile.matmul %a, %c : !pl.tile<64x128xf16>, !pl.tile<128x16xf16> -> !pl.tile<64x16xf32, acc>
  %o2 = pl.tile.store %q, %out2[%c0, %c0] : !pl.tile<64x16xf32, acc>, !pl.tensor<64x16xf32>
  return %o, %o2 : !pl.tensor<64x512xf32>, !pl.tensor<64x16xf32>
}
