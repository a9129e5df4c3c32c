// RUN: pto-opt %s --pass-pipeline='builtin.module(func.func(pl-infer-memory-space),pl-expand-mixed-kernel)' --split-input-file --verify-diagnostics

// The cube's loop bound is a number the vector cores read from a tile:
// no pipe carries it (scalars do not cross; make it a tensor both read).
func.func @scalar_from_vector(%a: !pl.tensor<16x16xf16>, %n: !pl.tensor<16x16xi32>, %o: !pl.tensor<16x16xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x16xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nt = pl.tile.load %n[%c0, %c0] : !pl.tensor<16x16xi32> -> !pl.tile<16x16xi32>
  %at = pl.tile.load %a[%c0, %c0] : !pl.tensor<16x16xf16> -> !pl.tile<16x16xf16>
  %k = pl.tile.read %nt[%c0, %c0] : !pl.tile<16x16xi32> -> i32
  // expected-error @+1 {{pl-expand-mixed-kernel: the cube half needs this value, which the other core computes (make it cross with a tile)}}
  %ki = arith.index_cast %k : i32 to index
  %r = scf.for %i = %c0 to %ki step %c1 iter_args(%t = %o) -> (!pl.tensor<16x16xf32>) {
    %p = pl.tile.matmul %at, %at : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
    %e = pl.tile.exp %p : !pl.tile<16x16xf32>
    %s = pl.tile.store %e, %t[%c0, %c0] : !pl.tile<16x16xf32>, !pl.tensor<16x16xf32>
    scf.yield %s : !pl.tensor<16x16xf32>
  }
  return %r : !pl.tensor<16x16xf32>
}

// -----

// A kernel marked pl.split is split by pl-lower-auto-vector-split first.
// expected-error @+1 {{pl-expand-mixed-kernel: the kernel is marked pl.split up_down: pl-lower-auto-vector-split shares its vector work first}}
func.func @marked(%x: !pl.tensor<16x32xf16>, %w: !pl.tensor<32x64xf16>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.split<up_down>} {
  %c0 = arith.constant 0 : index
  %xt = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x32xf16> -> !pl.tile<16x32xf16>
  %wt = pl.tile.load %w[%c0, %c0] : !pl.tensor<32x64xf16> -> !pl.tile<32x64xf16>
  %p = pl.tile.matmul %xt, %wt : !pl.tile<16x32xf16>, !pl.tile<32x64xf16> -> !pl.tile<16x64xf32>
  %e = pl.tile.exp %p : !pl.tile<16x64xf32>
  %s = pl.tile.store %e, %y[%c0, %c0] : !pl.tile<16x64xf32>, !pl.tensor<16x64xf32>
  return %s : !pl.tensor<16x64xf32>
}
