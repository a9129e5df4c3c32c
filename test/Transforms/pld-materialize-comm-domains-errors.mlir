// RUN: pto-opt --verify-roundtrip %s --pld-materialize-comm-domains --split-input-file --verify-diagnostics

!Row = !pld.dtensor<1x256xf32>
func.func @chip(%a: !Row) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
func.func @device_from_memory(%t: !pl.tensor<4xindex>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %bytes = arith.constant 1024 : i64
  %b = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
  %w = pld.tensor.window %b : !pl.ptr -> !Row
  %c0 = arith.constant 0 : index
  %d = pl.tensor.read %t[%c0] : !pl.tensor<4xindex> -> index
  // expected-error @+1 {{the device must be a constant or the induction variable of an enclosing scf.for}}
  pld.dispatch @chip(%w) on %d : (!Row) -> ()
  return
}

// -----

!Row = !pld.dtensor<1x256xf32>
func.func @chip(%a: !Row) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
func.func @dynamic_loop(%n: index) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %bytes = arith.constant 1024 : i64
  %b = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
  %w = pld.tensor.window %b : !pl.ptr -> !Row
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %d = %c0 to %n step %c1 {
    // expected-error @+1 {{the device loop's bounds must be constants (step 1) or end at pld.system.world_size}}
    pld.dispatch @chip(%w) on %d : (!Row) -> ()
  }
  return
}

// -----

func.func @no_window() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %bytes = arith.constant 1024 : i64
  // expected-error @+1 {{window buffer "data" has no window}}
  %b = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
  return
}

// -----

func.func @no_consumer() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %bytes = arith.constant 1024 : i64
  // expected-error @+1 {{window buffer "data" is not passed to any chip orchestration dispatch}}
  %b = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
  %w = pld.tensor.window %b : !pl.ptr -> !pld.dtensor<1x256xf32>
  return
}

// -----

func.func @barrier_only() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %bytes = arith.constant 1024 : i64
  %b = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
  %w = pld.tensor.window %b : !pl.ptr -> !pld.dtensor<?xi32>
  // expected-error @+1 {{the barrier's signal buffer has no inferred devices; dispatch it to a chip orchestration}}
  %r = pld.tensor.barrier %w : !pld.dtensor<?xi32>
  return
}

