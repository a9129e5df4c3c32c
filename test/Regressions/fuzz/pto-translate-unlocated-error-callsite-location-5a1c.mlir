// pto-translate unlocated-error: loc(callsite("in.mlir":6:8 at "in.mlir":18:10)): warning: 'pl.tensor.muls' op pl-convert-tensor-to-tile: ...
// RUN (from the checkout root, %s = this file, under nice -n 10): target/debug/pto-translate --mlir-to-cce --target=a2a3 --entry=kernel %s -o out/o.d

!T = !pl.tensor<65536xf32>


func.func private @scale(%t: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<inline>} {
  %r = pl.tensor.muls %t, %s : !T, f32
  return %r : !T
}

func.func private @scale_twice(%t: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<inline>} {
  %a = func.call @scale(%t, %s) : (!T, f32) -> !T
  %b = func.call @scale(%a, %s) : (!T, f32) -> !T
  return %b : !T
}

func.func @in_scope(%x: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %y = pl.incore_scope -> !T {
    %v = func.call @scale(%x, %s) : (!T, f32) -> !T
    pl.yield %v : !T
  }
  return %y : !T
}

func.func @in_kernel(%x: !T, %s: f32) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %v = func.call @scale_twice(%x, %s) : (!T, f32) -> !T
  return %v : !T
}

func.func private @next(%i: index) -> index attributes {pl.kind = #pl.kind<inline>} {
  %c2 = arith.constant 2 : index
  %n = arith.addi %i, %c2 : index
  return %n : index
}

func.func @in_loop(%n: index) -> index attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
    %next = func.call @next(%acc) : (index) -> index
    scf.yield %next : index
  }
  return %r : index
}
