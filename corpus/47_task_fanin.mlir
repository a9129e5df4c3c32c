// Tasks joined by a dummy task, as PyPTO's MoE orchestrations fan in:
// two SPMD launches sized to the device (pl.system.available_cluster_count:
// one block per core group, 8 rows each) scale x and y; a dummy task waits
// for both (and for the invalid id, which adds no dependency); the sum
// depends on the dummy task alone.
!X = !pl.tensor<192x64xf32>
!W = !pl.tensor<8x64xf32>

func.func @scale(%x: !X, %o: !X {pl.direction = #pl.direction<out>}) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  %b = pl.tensor.get_block_idx
  %row = arith.muli %b, %c8 : index
  %w = pl.tensor.slice %x[%row, %c0] : !X -> !W
  %s = pl.tensor.muls %w, %two : !W, f32
  %r = pl.tensor.assemble %s into %o[%row, %c0] : !W, !X
  return %r : !X
}

func.func @sum(%a: !X, %b: !X) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.add %a, %b : !X, !X -> !X
  return %s : !X
}

func.func @main(%x: !X, %y: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %n = pl.system.available_cluster_count
  %blocks = arith.index_cast %n : i32 to index
  %o1 = pl.tensor.create() : !X
  %a, %t1 = pl.submit @scale(%x, %o1) blocks %blocks : (!X, !X) -> !X
  %o2 = pl.tensor.create() : !X
  %b, %t2 = pl.submit @scale(%y, %o2) blocks %blocks : (!X, !X) -> !X
  %none = pl.system.task_invalid
  %both = pl.system.task_dummy deps(%t1, %t2, %none)
  %c, %t3 = pl.submit @sum(%a, %b) deps(%both) : (!X, !X) -> !X
  return %c : !X
}
