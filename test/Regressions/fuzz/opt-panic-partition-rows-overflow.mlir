// pto-opt panic: panicked at dialects/src/verify/movement.rs: attempt to multiply with overflow (partition rows), found by scripts/fuzz.py --seed 2
// RUN (from the checkout root, %s = this file): target/debug/pto-opt %s '--pass-pipeline=builtin.module(pld-lower-distributed,pld-insert-comm-fence,cse)' -o out/o.mlir


func.func @partition_shape(%a: !pl.tensor<4x16x64xf32>, %i: index) {
  %t = pl.tile.load %a[%i, %i, %i] partition [9223372036854775807, 16, 64] : !pl.tensor<4x16x64xf32> -> !pl.tile<16x64xf32, vec>
  return
}
