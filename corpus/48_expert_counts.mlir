// Routes per expert, as PyPTO's MoE dispatch counts them: a kernel walks
// the 64 routed expert ids (pl.tensor.read, a scalar loop) and counts each
// expert's routes in an array of 8 counters (pl.array.create,
// get_element, update_element), carried through the loops; then writes
// the counts and, for each expert, where its routes start (a running sum
// of the counts, a second array).
!Ids = !pl.tensor<4x16xi32>
!Counts = !pl.tensor<2x8xi32>
!A = !pl.array<i32, 8>

func.func @count(%ids: !Ids, %out: !Counts {pl.direction = #pl.direction<inout>}) -> !Counts attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %empty = pl.array.create : !A
  %counts = scf.for %r = %c0 to %c4 step %c1 iter_args(%a = %empty) -> (!A) {
    %row = scf.for %c = %c0 to %c16 step %c1 iter_args(%b = %a) -> (!A) {
      %e = pl.tensor.read %ids[%r, %c] : !Ids -> i32
      %ei = arith.index_cast %e : i32 to index
      %n = pl.array.get_element %b[%ei] : !A -> i32
      %n1 = arith.addi %n, %one : i32
      %u = pl.array.update_element %b[%ei], %n1 : !A, i32
      scf.yield %u : !A
    }
    scf.yield %row : !A
  }
  %starts0 = pl.array.create : !A
  %starts, %total = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %starts0, %sum = %zero) -> (!A, i32) {
    %s1 = pl.array.update_element %s[%k], %sum : !A, i32
    %n = pl.array.get_element %counts[%k] : !A -> i32
    %sum1 = arith.addi %sum, %n : i32
    scf.yield %s1, %sum1 : !A, i32
  }
  %o = scf.for %k = %c0 to %c8 step %c1 iter_args(%t = %out) -> (!Counts) {
    %n = pl.array.get_element %counts[%k] : !A -> i32
    %s = pl.array.get_element %starts[%k] : !A -> i32
    %w = pl.tensor.write %t[%c0, %k], %n : !Counts, i32
    %w2 = pl.tensor.write %w[%c1, %k], %s : !Counts, i32
    scf.yield %w2 : !Counts
  }
  return %o : !Counts
}

func.func @main(%ids: !Ids) -> !Counts attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.tensor.create() : !Counts
  %r = pl.call @count(%ids, %o) : (!Ids, !Counts) -> !Counts
  return %r : !Counts
}
