// Arrays a loop carries and a branch yields, as values: an update inside
// the loop of an array it does not carry starts from that array each
// iteration; the loop yields a fresh array in place of the one it
// carries; two carried arrays swap every iteration; a branch yields one
// of two arrays. Lowerings that keep an array in one storage must copy
// where a carried or yielded array lives elsewhere.
!Out = !pl.tensor<4x8xi32>
!A = !pl.array<i32, 8>

func.func @fill(%out: !Out {pl.direction = #pl.direction<inout>}) -> !Out attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %hundred = arith.constant 100 : i32
  %base = pl.array.create : !A
  %init = pl.array.create : !A
  %p0 = pl.array.create : !A
  %q0 = pl.array.update_element %p0[%c0], %hundred : !A, i32
  %o, %last, %p, %q = scf.for %k = %c0 to %c8 step %c1 iter_args(%t = %out, %l = %init, %pp = %p0, %qq = %q0) -> (!Out, !A, !A, !A) {
    %km = arith.addi %k, %c7 : index
    %prev = arith.remui %km, %c8 : index
    %ki = arith.index_cast %k : index to i32
    // Element k - 1 of a fresh update of the base: 0 (the base is zeros).
    %u = pl.array.update_element %base[%k], %ki : !A, i32
    %y = pl.array.get_element %u[%prev] : !A -> i32
    %t1 = pl.tensor.write %t[%c0, %k], %y : !Out, i32
    // The carried array is last iteration's fresh one: k - 1 at k - 1.
    %z = pl.array.get_element %l[%prev] : !A -> i32
    %t2 = pl.tensor.write %t1[%c1, %k], %z : !Out, i32
    // The swapped pair: element 0 of pp is 0 on even k, 100 on odd k.
    %pz = pl.array.get_element %pp[%c0] : !A -> i32
    %t3 = pl.tensor.write %t2[%c2, %k], %pz : !Out, i32
    // A branch picks q on k >= 4, else a copy of p updated at 1.
    %late = arith.cmpi uge, %k, %c3 : index
    %pick = scf.if %late -> (!A) {
      scf.yield %qq : !A
    } else {
      %w = pl.array.update_element %pp[%c1], %ki : !A, i32
      scf.yield %w : !A
    }
    %e0 = pl.array.get_element %pick[%c0] : !A -> i32
    %e1 = pl.array.get_element %pick[%c1] : !A -> i32
    %e = arith.addi %e0, %e1 : i32
    %t4 = pl.tensor.write %t3[%c3, %k], %e : !Out, i32
    %f = pl.array.create : !A
    %f2 = pl.array.update_element %f[%k], %ki : !A, i32
    scf.yield %t4, %f2, %qq, %pp : !Out, !A, !A, !A
  }
  return %o : !Out
}

func.func @main() -> !Out attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.tensor.create() : !Out
  %r = pl.call @fill(%o) : (!Out) -> !Out
  return %r : !Out
}
