// K-accumulated matmul c = a @ b (a 32x128, b 128x64, f32): the orchestration
// loops over K in steps of 32, slicing a[:, k:k+32] and b[k:k+32, :] with
// pl.tensor.slice, and a kernel adds each partial product into the carried
// f32 accumulator, which starts as pl.tensor.full 0.
!A = !pl.tensor<32x128xf32>
!B = !pl.tensor<128x64xf32>
!As = !pl.tensor<32x32xf32>
!Bs = !pl.tensor<32x64xf32>
!C = !pl.tensor<32x64xf32>

func.func @partial(%a: !As, %b: !Bs) -> !C attributes {pl.kind = #pl.kind<incore>} {
  %p = pl.tensor.matmul %a, %b : !As, !Bs -> !C
  return %p : !C
}

func.func @accumulate(%acc: !C, %p: !C) -> !C attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.add %acc, %p : !C, !C -> !C
  return %s : !C
}

func.func @main(%a: !A, %b: !B) -> !C attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = pl.tensor.full %zero() : f32 -> !C
  %c = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (!C) {
    %as = pl.tensor.slice %a[%c0, %k] : !A -> !As
    %bs = pl.tensor.slice %b[%k, %c0] : !B -> !Bs
    %p = pl.call @partial(%as, %bs) : (!As, !Bs) -> !C
    %acc2 = pl.call @accumulate(%acc, %p) : (!C, !C) -> !C
    scf.yield %acc2 : !C
  }
  return %c : !C
}
