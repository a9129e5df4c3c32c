// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-orchestration-to-emitc=runtime=pto2 --verify-diagnostics

!M = !pl.tensor<64x64xf32>
func.func @first(%x: !M) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
// expected-error @+1 {{convert-pl-orchestration-to-emitc: runtime=pto2 wants one orchestration per module (every orchestration's entry is `aicpu_orchestration_entry`)}}
func.func @second(%x: !M) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}

// -----

!M = !pl.tensor<64x64xf32>
func.func @calls_incore(%x: !M) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  %out = pl.tensor.create() : !M
  // expected-error @+1 {{convert-pl-orchestration-to-emitc: @scale is not a translated kernel}}
  %r = pl.call @scale(%x, %out) : (!M, !M) -> !M
  return %out : !M
}
func.func @scale(%x: !M, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<incore>} {
  return %y : !M
}

// -----

// The runtime hands outputs in: a parameter cannot be one.
!M = !pl.tensor<64x64xf32>
// expected-error @+1 {{convert-pl-orchestration-to-emitc: result #0 is not a tensor this orchestration creates; the runtime hands outputs in as arguments}}
func.func @returns_parameter(%x: !M) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  return %x : !M
}

// -----

!M = !pl.tensor<64x64xf32>
func.func @tensor_op(%x: !M) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{convert-pl-orchestration-to-emitc: 'pl.tensor.add' in an orchestration is not emitted for the runtime yet}}
  %y = pl.tensor.add %x, %x : !M, !M -> !M
  %out = pl.tensor.create() : !M
  return %out : !M
}

// -----

func.func @columns(%x: !pl.tensor<64x32xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{convert-pl-orchestration-to-emitc: a slice that is not dense in its tensor whatever its dynamic extents (axis 1) is not emitted for the runtime: kernels take dense tensors}}
  %s = pl.tensor.slice %x[%c0, %c0] : !pl.tensor<64x32xf32> -> !pl.tensor<64x16xf32>
  pl.call @k(%s) : (!pl.tensor<64x16xf32>) -> ()
  return
}
func.func @k(%x: !pl.tensor<64x16xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

func.func @copy(%x: !pl.tensor<16x64xf32>, %out: !pl.tensor<32x64xf32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{convert-pl-orchestration-to-emitc: this assemble is not emitted for the runtime: its source is not a tensor the orchestration creates and only kernels fill (through views) for it}}
  %o = pl.tensor.assemble %x into %out[%c0, %c0] : !pl.tensor<16x64xf32>, !pl.tensor<32x64xf32>
  return
}

// -----

// A read of a tensor a task writes would race with the task: the
// orchestration does not wait for its tasks.
!M = !pl.tensor<16x64xf32>
func.func @read_after_task(%x: !M, %y: !M {pl.direction = #pl.direction<inout>}) -> f32 attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %r = pl.call @fill(%x, %y) : (!M, !M) -> !M
  // expected-error @+1 {{convert-pl-orchestration-to-emitc: this access is not emitted for the runtime: a task of the orchestration also takes this tensor, and the orchestration does not wait for its tasks (the access would race with them)}}
  %v = pl.tensor.read %r[%c0, %c0] : !M -> f32
  return %v : f32
}
func.func @fill(%x: !M, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !M
}

// -----

// A fill in a loop would run again while an earlier iteration's tasks
// write into the tensor.
!M = !pl.tensor<16x64xf32>
func.func @full_in_loop(%n: index) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{convert-pl-orchestration-to-emitc: a pl.tensor.full in a loop or a branch is not emitted for the runtime: the orchestration fills a tensor once, before the tasks that write into it}}
    %z = pl.tensor.full %zero() : f32 -> !M
  }
  return
}

// -----

// Only outputs the runtime hands in are filled.
!M = !pl.tensor<16x64xf32>
func.func @full_not_returned(%x: !M) attributes {pl.kind = #pl.kind<orchestration>} {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{convert-pl-orchestration-to-emitc: a pl.tensor.full that the orchestration does not return is not emitted for the runtime: it fills only the outputs the runtime hands in}}
  %z = pl.tensor.full %zero() : f32 -> !M
  %r = pl.call @fill(%x, %z) : (!M, !M) -> !M
  return
}
func.func @fill(%x: !M, %y: !M {pl.direction = #pl.direction<out>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !M
}

// -----

// A branch choosing between two tensors: no one buffer is its result.
func.func @main(%x: !pl.tensor<8xf32>, %y: !pl.tensor<8xf32>, %flag: i1) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @below {{convert-pl-orchestration-to-emitc: branch result #0 is not one tensor both branches update in place (assembled into, written, viewed, or returned by a kernel it is passed to): a branch choosing between tensors is not emitted for the runtime}}
  %r = scf.if %flag -> (!pl.tensor<8xf32>) {
    scf.yield %x : !pl.tensor<8xf32>
  } else {
    scf.yield %y : !pl.tensor<8xf32>
  }
  pl.call @k(%r) : (!pl.tensor<8xf32>) -> ()
  return
}
func.func @k(%x: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// An scf.while carrying a tensor: its carries are not one buffer yet.
!T = !pl.tensor<16x32xf32>
func.func @step(%y: !T {pl.direction = #pl.direction<inout>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !T
}
func.func @while_tensor(%n: index, %y: !T {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{convert-pl-orchestration-to-emitc: an scf.while carrying a tensor is not emitted for the runtime yet (an scf.for carrying one updated in place is)}}
  %res:2 = scf.while (%i = %c0, %t = %y) : (index, !T) -> (index, !T) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i, %t : index, !T
  } do {
  ^bb0(%i2: index, %t2: !T):
    %s = pl.call @step(%t2) : (!T) -> !T
    %i3 = arith.addi %i2, %c1 : index
    scf.yield %i3, %s : index, !T
  }
  return
}

// -----

// A runtime scope with results: what its block defines would be used past
// its closing brace.
!T = !pl.tensor<16x32xf32>
func.func @step(%y: !T {pl.direction = #pl.direction<inout>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !T
}
func.func @scope_results(%y: !T {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{convert-pl-orchestration-to-emitc: a runtime scope with results is not emitted for the runtime yet: make the tensors its tasks fill before it (then it yields nothing)}}
  %r = pl.runtime_scope -> !T {
    %s = pl.call @step(%y) : (!T) -> !T
    pl.yield %s : !T
  }
  return
}

// -----

// A loop rebinding a tensor keeps its descriptor in a variable, but a
// result the runtime hands in is written by the kernel that makes it: the
// last iteration's tensor is no such output.
!T = !pl.tensor<16x64xf32>
// expected-error @below {{convert-pl-orchestration-to-emitc: result #0 is not a tensor this orchestration creates; the runtime hands outputs in as arguments}}
func.func @main(%x: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%cur = %x) -> (!T) {
    %t = pl.tensor.create() : !T
    %next = pl.call @step(%cur, %t) : (!T, !T) -> !T
    scf.yield %next : !T
  }
  return %r : !T
}
func.func @step(%x: !T, %y: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !T
}

// -----

// The runtime gives a mixed task one argument list.
!X = !pl.tensor<16x32xf32>
func.func @main(%x: !X, %y: !X) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @k(%x, %y) : (!X, !X) -> ()
  return
}
func.func @k(%x: !X, %y: !X) attributes {pl.kind = #pl.kind<group>} {
  pl.call @k_aic(%x) : (!X) -> ()
  // expected-error @+1 {{convert-pl-orchestration-to-emitc: the kernels of core group @k take different parameters: the runtime gives a mixed task one argument list}}
  pl.call @k_aiv(%x, %y) : (!X, !X) -> ()
  return
}
func.func @k_aic(%x: !X) attributes {pl.kind = #pl.kind<aic>} {
  return
}
func.func @k_aiv(%x: !X, %y: !X) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
