// Runtime scopes, as PyPTO's pl.scope() and pl.manual_scope(): a loop of
// automatic scopes (one PTO2_SCOPE per step, where the runtime tracks the
// tasks' tensors) scales each block of rows of x into a tensor made before
// the loop; a manual scope (PTO2_SCOPE(PTO2ScopeMode::MANUAL): the runtime
// tracks nothing inside, the submits pass the ids they wait for) adds the
// scaled rows to y and then the result's exponential, whose wait for the
// sum pl-derive-task-dependencies derives (the program names none). The
// scopes' tensors are made before them: a scope yields nothing the
// runtime sees.
!X = !pl.tensor<64x64xf32>
!R = !pl.tensor<16x64xf32>

func.func @scale(%x: !R, %s: f32, %o: !R {pl.direction = #pl.direction<out>}) -> !R attributes {pl.kind = #pl.kind<incore>} {
  %m = pl.tensor.muls %x, %s : !R, f32
  %c0 = arith.constant 0 : index
  %r = pl.tensor.assemble %m into %o[%c0, %c0] : !R, !R
  return %r : !R
}

func.func @add(%a: !X, %b: !X, %o: !X {pl.direction = #pl.direction<out>}) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %s = pl.tensor.add %a, %b : !X, !X -> !X
  %c0 = arith.constant 0 : index
  %r = pl.tensor.assemble %s into %o[%c0, %c0] : !X, !X
  return %r : !X
}

func.func @exp(%a: !X, %o: !X {pl.direction = #pl.direction<out>}) -> !X attributes {pl.kind = #pl.kind<incore>} {
  %e = pl.tensor.exp %a : !X
  %c0 = arith.constant 0 : index
  %r = pl.tensor.assemble %e into %o[%c0, %c0] : !X, !X
  return %r : !X
}

func.func @main(%x: !X, %y: !X, %s: f32, %out: !X {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %scaled = pl.tensor.create() : !X
  %sum = pl.tensor.create() : !X
  scf.for %i = %c0 to %c64 step %c16 {
    pl.runtime_scope {
      %rows = pl.tensor.slice %x[%i, %c0] : !X -> !R
      %into = pl.tensor.slice %scaled[%i, %c0] : !X -> !R
      %r = pl.call @scale(%rows, %s, %into) : (!R, f32, !R) -> !R
      pl.yield
    }
  }
  pl.runtime_scope manual {
    %a, %t0 = pl.submit @add(%scaled, %y, %sum) : (!X, !X, !X) -> !X
    %e, %t1 = pl.submit @exp(%a, %out) : (!X, !X) -> !X
    pl.yield
  }
  return
}
