// pto-opt hang: no exit within 20 s under load (pld-comm-stats replayed every trip of an empty scf.for: 10^12 with max-trips raised)
// RUN (from the checkout root, %s = this file, under nice -n 10): target/debug/pto-opt %s --pass-pipeline=builtin.module(pld-comm-stats{nranks=3 max-trips=1000000000000}) -o out/o.mlir
func.func @idle() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %many = arith.constant 1000000000000 : index
  scf.for %i = %c0 to %many step %c1 {
  } {pl.unroll}
  return
}
