// RUN: pto-opt --verify-roundtrip %s --pld-lower-host-collectives --split-input-file --verify-diagnostics

func.func @no_domain() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %bytes = arith.constant 1024 : i64
  %b = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
  %w = pld.tensor.window %b : !pl.ptr -> !pld.dtensor<?xi32>
  // expected-error @+1 {{host collectives must be inside a pld.comm_domain; run pld-materialize-comm-domains first}}
  %r = pld.tensor.barrier %w : !pld.dtensor<?xi32>
  return
}

// -----

func.func @root_outside(%x: index) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [0, 1] slots ["data", "sig"] {
    %bytes = arith.constant 1024 : i64
    %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %w0 = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<1x256xf32>
    %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
    %w1 = pld.tensor.window %b1 : !pl.ptr -> !pld.dtensor<2xi32>
    // expected-error @+1 {{broadcast root 2 is outside the domain's 2 devices}}
    %r = pld.tensor.broadcast %w0, %w1 root 2 : !pld.dtensor<1x256xf32>, !pld.dtensor<2xi32>
  }
  return
}

// -----

func.func @small_signal() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [0, 1, 2] slots ["data", "sig"] {
    %bytes = arith.constant 1024 : i64
    %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %w0 = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<1x256xf32>
    %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
    %w1 = pld.tensor.window %b1 : !pl.ptr -> !pld.dtensor<2xi32>
    // expected-error @+1 {{the signal has 2 rows for a domain of 3 devices}}
    %r = pld.tensor.reduce_scatter %w0, %w1 sum : !pld.dtensor<1x256xf32>, !pld.dtensor<2xi32>
  }
  return
}

// -----

func.func @one_buffer_twice() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [] slots ["data", "sig"] {
    %bytes = arith.constant 4096 : i64
    %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %in = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<1x256xf32>
    %out = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<4x256xf32>
    %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
    %w1 = pld.tensor.window %b1 : !pl.ptr -> !pld.dtensor<?xi32>
    // expected-error @+1 {{allgather input and target must be different window allocations}}
    %r = pld.tensor.allgather %in, %out, %w1 : !pld.dtensor<1x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<?xi32>
  }
  return
}

// -----

func.func @unbound_input(%in: !pld.dtensor<1x256xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [] slots ["data", "sig"] {
    %bytes = arith.constant 4096 : i64
    %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %out = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<4x256xf32>
    %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
    %w1 = pld.tensor.window %b1 : !pl.ptr -> !pld.dtensor<?xi32>
    // expected-error @+1 {{allgather input must be a window-bound !pld.dtensor (a view of an alloc_window_buffer) when called from a host orchestrator}}
    %r = pld.tensor.allgather %in, %out, %w1 : !pld.dtensor<1x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<?xi32>
  }
  return
}

// -----

func.func @ring_cores() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [] slots ["data", "sig"] {
    %bytes = arith.constant 1024 : i64
    %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %w0 = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<1x256xf32>
    %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
    %rows = arith.constant 2 : index
    %cols = arith.constant 2 : index
    %w1 = pld.tensor.window %b1 sizes(%rows, %cols) : !pl.ptr -> !pld.dtensor<?x?xi32>
    // expected-error @+1 {{ring allreduce does not support cores > 1, got 2}}
    %r = pld.tensor.allreduce %w0, %w1 sum ring cores 2 : !pld.dtensor<1x256xf32>, !pld.dtensor<?x?xi32>
  }
  return
}

// -----

func.func @ring_signal_shape() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [0, 1, 2, 3] slots ["data", "sig"] {
    %bytes = arith.constant 1024 : i64
    %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %w0 = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<1x256xf32>
    %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
    %w1 = pld.tensor.window %b1 : !pl.ptr -> !pld.dtensor<5x4xi32>
    // expected-error @+1 {{a ring signal over 4 devices must be [7, 4], got !pld.dtensor<5x4xi32>}}
    %r = pld.tensor.allreduce %w0, %w1 sum ring cores 1 : !pld.dtensor<1x256xf32>, !pld.dtensor<5x4xi32>
  }
  return
}

// -----

func.func @ring_uneven() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [0, 1, 2] slots ["data", "sig"] {
    %bytes = arith.constant 1024 : i64
    %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %w0 = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<1x256xf32>
    %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
    %w1 = pld.tensor.window %b1 : !pl.ptr -> !pld.dtensor<?x3xi32>
    // expected-error @+1 {{a ring target must be static with an element count divisible by 3, got !pld.dtensor<1x256xf32>}}
    %r = pld.tensor.allreduce %w0, %w1 sum ring cores 1 : !pld.dtensor<1x256xf32>, !pld.dtensor<?x3xi32>
  }
  return
}

// -----

func.func @ring_too_wide() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.comm_domain "comm_d0" devices [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] slots ["data", "sig"] {
    %bytes = arith.constant 4096 : i64
    %b0 = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %w0 = pld.tensor.window %b0 : !pl.ptr -> !pld.dtensor<17x16xf32>
    %b1 = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
    %rows = arith.constant 2 : index
    %cols = arith.constant 2 : index
    %w1 = pld.tensor.window %b1 sizes(%rows, %cols) : !pl.ptr -> !pld.dtensor<?x?xi32>
    // expected-error @+1 {{ring allreduce spans at most 16 devices, the domain has 17}}
    %r = pld.tensor.allreduce %w0, %w1 sum ring cores 1 : !pld.dtensor<17x16xf32>, !pld.dtensor<?x?xi32>
  }
  return
}
