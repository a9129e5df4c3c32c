// pto-opt signal: SIGSEGV in MLIR's dense-array parser (array<index: ...>), found by scripts/fuzz.py --seed 2
// RUN (from the checkout root, %s = this file): target/debug/pto-opt %s '--pass-pipeline=builtin.module(pld-insert-comm-fence)' -o out/o.mlir


func.func @no_lowering(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<index: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %u = pl.tensor.exp %x : !pl.tensor<16x64xf32>
  return
}
