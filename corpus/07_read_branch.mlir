// pl.tensor.read in the orchestration picks a kernel per row block: for each
// of four 16-row blocks the orchestration reads mode = cfg[i] and an scf.if
// calls @square (mode != 0) or @relu (mode == 0) on the block's slice, then
// assembles the block into the result.
!X = !pl.tensor<64x32xf32>
!B = !pl.tensor<16x32xf32>
!Cfg = !pl.tensor<4xi32>

func.func @relu(%x: !B) -> !B attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.relu %x : !B
  return %r : !B
}

func.func @square(%x: !B) -> !B attributes {pl.kind = #pl.kind<incore>} {
  %r = pl.tensor.mul %x, %x : !B, !B -> !B
  return %r : !B
}

func.func @main(%x: !X, %cfg: !Cfg) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i32
  %out = pl.tensor.create() : !X
  %y = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!X) {
    %row = arith.muli %i, %c16 : index
    %mode = pl.tensor.read %cfg[%i] : !Cfg -> i32
    %xs = pl.tensor.slice %x[%row, %c0] : !X -> !B
    %sq = arith.cmpi ne, %mode, %zero : i32
    %r = scf.if %sq -> (!B) {
      %a = pl.call @square(%xs) : (!B) -> !B
      scf.yield %a : !B
    } else {
      %b = pl.call @relu(%xs) : (!B) -> !B
      scf.yield %b : !B
    }
    %o2 = pl.tensor.assemble %r into %o[%row, %c0] : !B, !X
    scf.yield %o2 : !X
  }
  return %y : !X
}
