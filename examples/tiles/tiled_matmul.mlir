// Tiled matmul: C[M, N] = A[M, K] x B[K, N] on the cube
// core. Per K step the operands are loaded into L1 (mat), moved to L0A
// (left) and L0B (right), and multiplied into the L0C accumulator (acc),
// which the loop carries; the fix pipe stores the f32 accumulator as f16.

!A = !pl.tensor<128x512xf16>
!B = !pl.tensor<512x256xf16>
!C = !pl.tensor<128x256xf16>
!AMat = !pl.tile<128x64xf16, mat>
!BMat = !pl.tile<64x256xf16, mat>
!ALeft = !pl.tile<128x64xf16, left>
!BRight = !pl.tile<64x256xf16, right>
!Acc = !pl.tile<128x256xf32, acc>

func.func @matmul_tensors(%a: !A, %b: !B) -> !pl.tensor<128x256xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c = pl.incore_scope name "matmul" -> !pl.tensor<128x256xf32> {
    %p = pl.tensor.matmul %a, %b : !A, !B -> !pl.tensor<128x256xf32>
    pl.yield %p : !pl.tensor<128x256xf32>
  }
  return %c : !pl.tensor<128x256xf32>
}

func.func @matmul_kernel(%a: !A, %b: !B, %c: !C {pl.direction = #pl.direction<out>}) -> !C
    attributes {pl.kind = #pl.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %init = pl.tile.create : !Acc
  %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%partial = %init) -> (!Acc) {
    %am = pl.tile.load %a[%c0, %k] : !A -> !AMat
    %bm = pl.tile.load %b[%k, %c0] : !B -> !BMat
    %al = pl.tile.move %am : !AMat -> !ALeft
    %br = pl.tile.move %bm : !BMat -> !BRight
    // The first step overwrites the accumulator, the others add to it.
    %first = arith.cmpi eq, %k, %c0 : index
    %next = pl.tile.matmul_acc %partial, %al, %br init %first : !Acc, !ALeft, !BRight
    scf.yield %next : !Acc
  }
  %c2 = pl.tile.store %acc, %c[%c0, %c0] : !Acc, !C
  return %c2 : !C
}

func.func @main(%a: !A, %b: !B) -> !C attributes {pl.kind = #pl.kind<orchestration>} {
  %c = pl.tensor.create() : !C
  %c2, %task = pl.submit @matmul_kernel(%a, %b, %c) : (!A, !B, !C) -> !C
  return %c2 : !C
}
