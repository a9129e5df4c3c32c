// i32 data with a count parameter: a kernel computes m = max(a * b, a) + c
// on i32 tensors, its integer row sums, and the row means as f32 (a cast of
// the sums, divided by the i32 count %n the orchestration passes as f32).
!I = !pl.tensor<32x64xi32>
!Ci = !pl.tensor<32x1xi32>
!Cf = !pl.tensor<32x1xf32>

func.func @int_ops(%a: !I, %b: !I, %c: i32) -> (!I, !Ci) attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.mul %a, %b : !I, !I -> !I
  %m = pl.tensor.maximum %p, %a : !I, !I -> !I
  %r = pl.tensor.adds %m, %c : !I, i32
  %s = pl.tensor.row_sum %r : !I -> !Ci
  return %r, %s : !I, !Ci
}

func.func @mean(%s: !Ci, %n: f32) -> !Cf attributes {pl.kind = #pl.kind<incore>} {
  %f = pl.tensor.cast %s none : !Ci -> !Cf
  %m = pl.tensor.divs %f, %n : !Cf, f32
  return %m : !Cf
}

func.func @main(%a: !I, %b: !I, %c: i32) -> (!I, !Ci, !Cf) attributes {pl.kind = #pl.kind<orchestration>} {
  %c64 = arith.constant 64 : i32
  %n = arith.sitofp %c64 : i32 to f32
  %r, %s = pl.call @int_ops(%a, %b, %c) : (!I, !I, i32) -> (!I, !Ci)
  %m = pl.call @mean(%s, %n) : (!Ci, f32) -> !Cf
  return %r, %s, %m : !I, !Ci, !Cf
}
