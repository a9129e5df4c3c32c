// A kernel whose name C++ cannot use.
func.func @double(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @"with.dot"(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
