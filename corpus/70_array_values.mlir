// Arrays are values: an update makes a new array and leaves its operand as
// it was, however the program is nested. A kernel fills a base array,
// then in a loop updates the base (not carried by the loop) at k and
// reads the update, the base before it, and a second copy updated in a
// branch; after the loop it reads the base again. Lowerings that update
// one storage in place must copy where the operand is still read (or is
// updated again by a later iteration).
!Out = !pl.tensor<4x8xi32>
!A = !pl.array<i32, 8>

func.func @fill(%out: !Out {pl.direction = #pl.direction<inout>}, %seed: i32) -> !Out attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %ten = arith.constant 10 : i32
  %empty = pl.array.create : !A
  %base = pl.array.update_element %empty[%c0], %seed : !A, i32
  %o = scf.for %k = %c0 to %c8 step %c1 iter_args(%t = %out) -> (!Out) {
    // The base's element before k (mod 8): the seed at k = 1, else 0.
    %km = arith.addi %k, %c7 : index
    %prev = arith.remui %km, %c8 : index
    %before = pl.array.get_element %base[%prev] : !A -> i32
    %ki = arith.index_cast %k : index to i32
    %v = arith.muli %ki, %ten : i32
    %u = pl.array.update_element %base[%k], %v : !A, i32
    %x = pl.array.get_element %u[%k] : !A -> i32
    %y = pl.array.get_element %u[%c0] : !A -> i32
    %odd = arith.remui %k, %c2 : index
    %isodd = arith.cmpi ne, %odd, %c0 : index
    // A copy updated only in the branch: its first element is k on odd k.
    %w = scf.if %isodd -> (i32) {
      %b = pl.array.update_element %base[%c0], %ki : !A, i32
      %r = pl.array.get_element %b[%c0] : !A -> i32
      scf.yield %r : i32
    } else {
      %r = pl.array.get_element %base[%c0] : !A -> i32
      scf.yield %r : i32
    }
    %s = arith.addi %x, %y : i32
    %t1 = pl.tensor.write %t[%c0, %k], %s : !Out, i32
    %t2 = pl.tensor.write %t1[%c1, %k], %before : !Out, i32
    %t3 = pl.tensor.write %t2[%c2, %k], %w : !Out, i32
    %after = pl.array.get_element %base[%k] : !A -> i32
    %t4 = pl.tensor.write %t3[%c3, %k], %after : !Out, i32
    scf.yield %t4 : !Out
  }
  return %o : !Out
}

func.func @main(%seed: i32) -> !Out attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.tensor.create() : !Out
  %r = pl.call @fill(%o, %seed) : (!Out, i32) -> !Out
  return %r : !Out
}
