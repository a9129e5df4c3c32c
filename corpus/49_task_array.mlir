// Task ids kept in an array, as PyPTO's MoE orchestrations keep each
// group's producer (`q_ready = pl.array.create(N, pl.TASK_ID)`): a loop
// submits one task per group of 8 rows and records its id in the group's
// slot; a fifth slot stays invalid. A dummy task joins the five slots
// (the invalid one adds no dependency), and the last task, which adds 1
// to every row, depends on it alone.
!X = !pl.tensor<32x64xf32>
!W = !pl.tensor<8x64xf32>
!Ids = !pl.array<!pl.task_id, 5>

func.func @scale_rows(%x: !X, %o: !X {pl.direction = #pl.direction<inout>}, %row: index) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %three = arith.constant 3.0 : f32
  %w = pl.tensor.slice %x[%row, %c0] : !X -> !W
  %s = pl.tensor.muls %w, %three : !W, f32
  %r = pl.tensor.assemble %s into %o[%row, %c0] : !W, !X
  return %r : !X
}

func.func @add_one(%a: !X) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %one = arith.constant 1.0 : f32
  %s = pl.tensor.adds %a, %one : !X, f32
  return %s : !X
}

func.func @main(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %o = pl.tensor.create() : !X
  %none = pl.array.create : !Ids
  %r, %ids = scf.for %g = %c0 to %c4 step %c1 iter_args(%t = %o, %a = %none) -> (!X, !Ids) {
    %row = arith.muli %g, %c8 : index
    %t2, %id = pl.submit @scale_rows(%x, %t, %row) : (!X, !X, index) -> !X
    %a2 = pl.array.update_element %a[%g], %id : !Ids, !pl.task_id
    scf.yield %t2, %a2 : !X, !Ids
  }
  %i0 = pl.array.get_element %ids[%c0] : !Ids -> !pl.task_id
  %i1 = pl.array.get_element %ids[%c1] : !Ids -> !pl.task_id
  %i2 = pl.array.get_element %ids[%c2] : !Ids -> !pl.task_id
  %i3 = pl.array.get_element %ids[%c3] : !Ids -> !pl.task_id
  %i4 = pl.array.get_element %ids[%c4] : !Ids -> !pl.task_id
  %all = pl.system.task_dummy deps(%i0, %i1, %i2, %i3, %i4)
  %c, %t3 = pl.submit @add_one(%r) deps(%all) : (!X) -> !X
  return %c : !X
}
