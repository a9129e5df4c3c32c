// RUN: pto-opt --verify-roundtrip %s --pl-derive-task-dependencies --split-input-file --verify-diagnostics | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --split-input-file --pass-pipeline='builtin.module(pl-derive-task-dependencies)' 2>/dev/null | FileCheck %s

!T = !pl.tensor<16x32xf32>
func.func @add(%a: !T, %b: !T, %o: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %o : !T
}
func.func @exp(%a: !T, %o: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %o : !T
}

// A read after a write (through the result @add returns), a write after a
// write, a write after a read; reads of one tensor need nothing; a call
// another task waits for becomes a submit.
// CHECK-LABEL: func.func @hazards
// CHECK: pl.runtime_scope manual {
// CHECK-NEXT: %[[A:.*]], %[[T0:.*]] = pl.submit @add(%arg0, %arg1, %{{.*}}) :
// CHECK-NEXT: %{{.*}}, %[[T1:.*]] = pl.submit @exp(%[[A]], %arg2) deps(%[[T0]]) :
// CHECK-NEXT: pl.submit @exp(%arg0, %arg2) deps(%[[T1]]) :
// CHECK-NEXT: pl.submit @exp(%arg0, %arg1) deps(%[[T0]]) :
// CHECK-NEXT: }
func.func @hazards(%x: !T, %y: !T, %o: !T {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %s = pl.tensor.create() : !T
  pl.runtime_scope manual {
    %a = pl.call @add(%x, %y, %s) : (!T, !T, !T) -> !T
    %e, %t1 = pl.submit @exp(%a, %o) : (!T, !T) -> !T
    %f, %t2 = pl.submit @exp(%x, %o) : (!T, !T) -> !T
    %g, %t3 = pl.submit @exp(%x, %y) : (!T, !T) -> !T
    pl.yield
  }
  return
}

// The dependencies written are kept and not repeated; windows of one
// tensor are that tensor.
// CHECK-LABEL: func.func @windows
// CHECK: %{{.*}}, %[[T0:.*]] = pl.submit @exp(%{{.*}}, %{{.*}}) :
// CHECK-NEXT: %{{.*}}, %[[T1:.*]] = pl.submit @exp(%{{.*}}, %{{.*}}) deps(%[[T0]]) :
// CHECK-NEXT: pl.submit @exp(%{{.*}}, %{{.*}}) deps(%[[T0]], %[[T1]]) :
func.func @windows(%x: !pl.tensor<16x32xf32>, %big: !pl.tensor<32x32xf32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  pl.runtime_scope manual {
    %top = pl.tensor.slice %big[%c0, %c0] : !pl.tensor<32x32xf32> -> !T
    %bottom = pl.tensor.slice %big[%c16, %c0] : !pl.tensor<32x32xf32> -> !T
    %a, %t0 = pl.submit @exp(%x, %top) : (!T, !T) -> !T
    %b, %t1 = pl.submit @exp(%x, %bottom) : (!T, !T) -> !T
    %c, %t2 = pl.submit @exp(%top, %x) deps(%t0) : (!T, !T) -> !T
    pl.yield
  }
  return
}

// Automatic scopes are the runtime's to track.
// CHECK-LABEL: func.func @automatic
// CHECK: pl.call @add
// CHECK-NEXT: pl.call @exp
func.func @automatic(%x: !T, %y: !T, %o: !T {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %s = pl.tensor.create() : !T
  pl.runtime_scope {
    %a = pl.call @add(%x, %y, %s) : (!T, !T, !T) -> !T
    %e = pl.call @exp(%a, %o) : (!T, !T) -> !T
    pl.yield
  }
  return
}

// -----

// Tasks in a loop of a manual scope: the scope becomes automatic.
!T = !pl.tensor<16x32xf32>
func.func @exp(%a: !T, %o: !T {pl.direction = #pl.direction<inout>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %o : !T
}
// CHECK-LABEL: func.func @looped
// CHECK: pl.runtime_scope {
// CHECK: pl.call @exp
func.func @looped(%x: !T, %o: !T {pl.direction = #pl.direction<inout>}, %n: index) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-warning @+1 {{pl-derive-task-dependencies: the tasks in loops or branches of this manual scope get no derived dependencies; it runs as an automatic scope}}
  pl.runtime_scope manual {
    scf.for %i = %c0 to %n step %c1 {
      %e = pl.call @exp(%x, %o) : (!T, !T) -> !T
    }
    pl.yield
  }
  return
}

// -----

// A written tensor chosen by a branch cannot be traced to one tensor.
!T = !pl.tensor<16x32xf32>
func.func @exp(%a: !T, %o: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %o : !T
}
// CHECK-LABEL: func.func @untraced
// CHECK: pl.runtime_scope {
func.func @untraced(%x: !T, %o: !T {pl.direction = #pl.direction<out>}, %p: !T {pl.direction = #pl.direction<out>}, %c: i1) attributes {pl.kind = #pl.kind<orchestration>} {
  %which = scf.if %c -> (!T) {
    scf.yield %o : !T
  } else {
    scf.yield %p : !T
  }
  // expected-warning @+1 {{pl-derive-task-dependencies: a task of this manual scope writes a tensor that cannot be traced to one tensor; it runs as an automatic scope}}
  pl.runtime_scope manual {
    %e, %t = pl.submit @exp(%x, %which) : (!T, !T) -> !T
    pl.yield
  }
  return
}
