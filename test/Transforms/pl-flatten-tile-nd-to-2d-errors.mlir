// Every op whose meaning depends on leading dimensions is reported (all of
// them, not just the first).
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-flatten-tile-nd-to-2d))' --split-input-file --verify-diagnostics

!X = !pl.tile<2x16x64xf32>
func.func @column_ops(%t: !pl.tensor<2x16x64xf32>) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %t[%c0, %c0, %c0] : !pl.tensor<2x16x64xf32> -> !X
  // expected-error @+1 {{pl-flatten-tile-nd-to-2d: 'pl.tile.col_sum' on a tile of rank 3 depends on its leading dimensions; it is not flattened to 2-D}}
  %s = pl.tile.col_sum %a : !X -> !pl.tile<2x1x64xf32>
  // expected-error @+1 {{pl-flatten-tile-nd-to-2d: 'pl.tile.transpose' on a tile of rank 3 depends on its leading dimensions}}
  %tr = pl.tile.transpose %a axes 0, 1 : !X -> !pl.tile<16x2x64xf32>
  return
}

// -----

func.func @broadcast_leading() attributes {pl.kind = #pl.kind<incore>} {
  %a = pl.tile.create : !pl.tile<2x16x64xf32>
  %b = pl.tile.create : !pl.tile<1x16x64xf32>
  // expected-error @+1 {{pl-flatten-tile-nd-to-2d: 'pl.tile.add' mixes tiles whose leading dimensions differ (broadcasting across them); it is not flattened to 2-D}}
  %s = pl.tile.add %a, %b : !pl.tile<2x16x64xf32>, !pl.tile<1x16x64xf32> -> !pl.tile<2x16x64xf32>
  return
}

// -----

func.func @partly_valid_rows(%t: !pl.tensor<2x16x64xf32>, %rows: index) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{pl-flatten-tile-nd-to-2d: the leading dimensions of !pl.tile<2x16x64xf32, valid = 2x?x64> must be wholly valid to flatten it to 2-D}}
  %a = pl.tile.load %t[%c0, %c0, %c0] valid(%rows) : !pl.tensor<2x16x64xf32> -> !pl.tile<2x16x64xf32, valid = 2x?x64>
  return
}

// -----

func.func @clamped(%t: !pl.tensor<2x16x64xf32>, %i: index) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{pl-flatten-tile-nd-to-2d: a clamp load of a tile of rank 3 is not flattened to 2-D}}
  %a = pl.tile.load %t[%i, %c0, %c0] clamp : !pl.tensor<2x16x64xf32> -> !pl.tile<2x16x64xf32>
  return
}

// -----

func.func @batch_matmul() attributes {pl.kind = #pl.kind<incore>} {
  %a = pl.tile.create : !pl.tile<2x16x32xf16, left>
  %b = pl.tile.create : !pl.tile<2x32x16xf16, right>
  // expected-error @+1 {{pl-flatten-tile-nd-to-2d: 'pl.tile.batch_matmul' on a tile of rank 3 depends on its leading dimensions}}
  %c = pl.tile.batch_matmul %a, %b : !pl.tile<2x16x32xf16, left>, !pl.tile<2x32x16xf16, right> -> !pl.tile<2x16x16xf32, acc>
  return
}

// -----

// Only kernels are flattened: a function that is not InCore is left alone.
func.func @not_a_kernel(%a: !pl.tile<2x16x64xf32>) -> !pl.tile<2x16x1xf32> {
  %s = pl.tile.col_sum %a : !pl.tile<2x16x64xf32> -> !pl.tile<2x1x64xf32>
  %t = pl.tile.create : !pl.tile<2x16x64xf32>
  %m = pl.tile.row_max %a, %t : !pl.tile<2x16x64xf32>, !pl.tile<2x16x64xf32> -> !pl.tile<2x16x1xf32>
  return %m : !pl.tile<2x16x1xf32>
}

// -----

// Leading dimensions whose product overflows are an error, not an overflow.
func.func @huge(%x: !pl.tensor<4611686018427387904x4x4xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{pl-flatten-tile-nd-to-2d: the leading dimensions of !pl.tile<4611686018427387904x4x4xf32, vec> have more elements than 64 bits count}}
  %a = pl.tile.load %x[%c0, %c0, %c0] : !pl.tensor<4611686018427387904x4x4xf32> -> !pl.tile<4611686018427387904x4x4xf32, vec>
  return
}

// -----

// A vector's element is no element of its one-row form's without a row
// index: indexing ops on vectors are errors.
func.func @vector_read(%t: !pl.tensor<64xf32>, %i: index) -> f32 attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %t[%c0] : !pl.tensor<64xf32> -> !pl.tile<64xf32>
  // expected-error @+1 {{pl-flatten-tile-nd-to-2d: 'pl.tile.read' on a tile of rank 1 depends on its leading dimensions; it is not flattened to 2-D}}
  %x = pl.tile.read %a[%i] : !pl.tile<64xf32> -> f32
  return %x : f32
}

// -----

// Swapping the last two axes of a [2, 16, 32] tile is no view of its
// [32, 32] form.
func.func @transposed_batch(%x: !pl.tensor<2x16x32xf16>) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0, %c0] : !pl.tensor<2x16x32xf16> -> !pl.tile<2x16x32xf16>
  // expected-error @+1 {{pl-flatten-tile-nd-to-2d: a transposed view of a tile of rank 3 is no view of its 2-D form (whose rows fold the leading axes into the swapped one); it is not flattened to 2-D}}
  %v = pl.tile.transpose_view %t : !pl.tile<2x16x32xf16> -> !pl.tile<2x32x16xf16, blayout = col_major>
  return
}
