// Scalar parameters: the orchestration entry takes an f32 %scale and an i32
// %offset and passes them on to kernels: y = x * scale + 1 (f32 muls/adds)
// and ids + offset on an i32 tensor (adds with an i32 scalar).
!X = !pl.tensor<32x64xf32>
!I = !pl.tensor<32x64xi32>

func.func @scale_shift(%x: !X, %s: f32) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %one = arith.constant 1.0 : f32
  %m = pl.tensor.muls %x, %s : !X, f32
  %r = pl.tensor.adds %m, %one : !X, f32
  return %r : !X
}

func.func @offset_ids(%ids: !I, %off: i32) -> !I attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.adds %ids, %off : !I, i32
  return %r : !I
}

func.func @main(%x: !X, %ids: !I, %scale: f32, %offset: i32) -> (!X, !I) attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.call @scale_shift(%x, %scale) : (!X, f32) -> !X
  %j = pl.call @offset_ids(%ids, %offset) : (!I, i32) -> !I
  return %y, %j : !X, !I
}
