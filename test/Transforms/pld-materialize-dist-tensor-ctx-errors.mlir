// RUN: pto-opt --verify-roundtrip %s -split-input-file --pld-materialize-dist-tensor-ctx -verify-diagnostics -o /dev/null

func.func @k(%d: !pld.dtensor<4xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @orch(%buf: !pl.ptr) attributes {pl.kind = #pl.kind<orchestration>} {
  %d = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<4xf32>
  // expected-error @+1 {{cannot determine the communication context of the distributed tensor passed as argument #0 to '@k'}}
  pl.call @k(%d) : (!pld.dtensor<4xf32>) -> ()
  return
}

// -----

func.func @kernel(%buf: !pl.ptr) attributes {pl.kind = #pl.kind<aiv>} {
  %d = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<4xf32>
  // expected-error @+1 {{cannot resolve the communication context here; take the distributed tensor as a parameter}}
  %ctx = pld.system.get_comm_ctx %d : !pld.dtensor<4xf32>
  %me = pld.system.rank %ctx : i32
  return
}

// -----

// A context is decided where the tensor is passed: it cannot depend on the
// branch taken.
func.func @k(%d: !pld.dtensor<4xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @orch(%a: !pld.dtensor<4xf32>, %b: !pld.dtensor<4xf32>, %c: i1) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{the branches of this scf.if yield distributed tensors of different communication contexts (result #0)}}
  %x = scf.if %c -> !pld.dtensor<4xf32> {
    scf.yield %a : !pld.dtensor<4xf32>
  } else {
    scf.yield %b : !pld.dtensor<4xf32>
  }
  pl.call @k(%x) : (!pld.dtensor<4xf32>) -> ()
  pl.call @k(%x) : (!pld.dtensor<4xf32>) -> ()
  return
}

// -----

// Nor on the iteration: a loop that swaps two tensors rebinds its carries.
func.func @k(%d: !pld.dtensor<4xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @orch(%a: !pld.dtensor<4xf32>, %b: !pld.dtensor<4xf32>, %n: index) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{this loop rebinds the distributed tensor it carries (#0) to one of another communication context}}
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (!pld.dtensor<4xf32>, !pld.dtensor<4xf32>) {
    pl.call @k(%x) : (!pld.dtensor<4xf32>) -> ()
    scf.yield %y, %x : !pld.dtensor<4xf32>, !pld.dtensor<4xf32>
  }
  return
}

// -----

func.func @kernel(%a: !pld.dtensor<4xf32>, %b: !pld.dtensor<4xf32>, %c: i1) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{this loop rebinds the distributed tensor it carries (#0) to one of another communication context}}
  %w = scf.while (%x = %a) : (!pld.dtensor<4xf32>) -> !pld.dtensor<4xf32> {
    scf.condition(%c) %x : !pld.dtensor<4xf32>
  } do {
  ^bb0(%y: !pld.dtensor<4xf32>):
    scf.yield %b : !pld.dtensor<4xf32>
  }
  %ctx = pld.system.get_comm_ctx %w : !pld.dtensor<4xf32>
  %me = pld.system.rank %ctx : i32
  return
}
