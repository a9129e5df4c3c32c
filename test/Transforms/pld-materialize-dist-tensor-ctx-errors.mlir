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
