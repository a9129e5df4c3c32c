// A while loop over row blocks with an index counter: the orchestration
// reads a row limit from memory, and while block i starts below it, calls a
// kernel that writes x * (i + 1) into the same block of the inout %y (the
// counter is the kernel's index scalar); the loop's result, the number of
// blocks done, is written back as meta[1]. Rows past the last block keep
// their values.
!X = !pl.tensor<128x32xf32>
!B = !pl.tensor<16x32xf32>
!M = !pl.tensor<2xi32>

func.func @scaled(%x: !B, %k: index, %out: !B {pl.direction = #pl.direction<out>}) -> !B attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k1 = arith.addi %k, %c1 : index
  %ki = arith.index_cast %k1 : index to i32
  %kf = arith.sitofp %ki : i32 to f32
  %s = pl.tensor.muls %x, %kf : !B, f32
  %o = pl.tensor.assemble %s into %out[%c0, %c0] : !B, !B
  return %o : !B
}

func.func @main(%x: !X, %y: !X {pl.direction = #pl.direction<inout>}, %meta: !M {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %limit32 = pl.tensor.read %meta[%c0] : !M -> i32
  %limit = arith.index_cast %limit32 : i32 to index
  %blocks = scf.while (%i = %c0) : (index) -> index {
    %row = arith.muli %i, %c16 : index
    %go = arith.cmpi slt, %row, %limit : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    %row = arith.muli %j, %c16 : index
    %xs = pl.tensor.slice %x[%row, %c0] : !X -> !B
    %ys = pl.tensor.slice %y[%row, %c0] : !X -> !B
    %r = pl.call @scaled(%xs, %j, %ys) : (!B, index, !B) -> !B
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  %done = arith.index_cast %blocks : index to i32
  %meta2 = pl.tensor.write %meta[%c1], %done : !M, i32
  return
}
