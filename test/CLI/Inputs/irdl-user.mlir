// An op of the IRDL dialect in cmath.irdl.mlir.
func.func @f(%x: f32) -> f32 {
  %n = "cmath.norm"(%x) : (f32) -> f32
  return %n : f32
}
