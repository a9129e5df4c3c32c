// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-program-to-emitc=entry=main --verify-diagnostics

// What convert-pl-program-to-emitc refuses
// (docs/passes/convert-pl-program-to-emitc.md).

// expected-error @below {{convert-pl-program-to-emitc: entry=@main names no function of the module}}
module {
  func.func @other() attributes {pl.kind = #pl.kind<orchestration>} {
    return
  }
}

// -----

// expected-error @below {{convert-pl-program-to-emitc: @main is neither a kernel, an orchestration nor a host program}}
func.func @main() {
  return
}

// -----

// expected-error @below {{convert-pl-program-to-emitc: parameter #0 (!pl.ptr) is neither a tensor nor a scalar a host can pass}}
func.func @main(%s: !pl.ptr) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// expected-error @below {{convert-pl-program-to-emitc: an empty orchestration}}
func.func private @main() attributes {pl.kind = #pl.kind<orchestration>}

// -----

// expected-error @below {{convert-pl-program-to-emitc: parameter #0: !pl.ptr is neither a tensor nor a scalar}}
func.func @main(%s: !pl.ptr) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}

// -----

// expected-error @below {{convert-pl-program-to-emitc: parameter #0: windows of dynamic shape given from outside are not simulated yet}}
func.func @main(%w: !pld.dtensor<?x8xf32>) attributes {pl.level = #pl.level<host>} {
  return
}

// -----

// expected-error @below {{convert-pl-program-to-emitc: parameter #0: the size in bytes of the window overflows 64 bits}}
func.func @main(%w: !pld.dtensor<4611686018427387904x4xf32>) attributes {pl.level = #pl.level<host>} {
  return
}

// -----

func.func @main(%x: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @below {{convert-pl-program-to-emitc: @k is not a translated kernel}}
  pl.call @k(%x) : (!pl.tensor<8xf32>) -> ()
  return
}
func.func @k(%x: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<incore>} {
  return
}

// -----

func.func @main() attributes {pl.level = #pl.level<host>} {
  pld.comm_domain "d" devices [] slots ["w"] {
    %c8 = arith.constant 8 : i64
    %c0 = arith.constant 0 : index
    %buf = pld.tensor.alloc_window_buffer %c8 name "w" : i64 -> !pl.ptr
    %w = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<2xf32>
    // expected-error @below {{convert-pl-program-to-emitc: a kernel argument that is not a host tensor}}
    pl.call @k(%w) : (!pld.dtensor<2xf32>) -> ()
  }
  return
}
func.func @k(%w: !pld.dtensor<2xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

func.func @main(%x: !pl.tensor<8xf32>) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @below {{convert-pl-program-to-emitc: result #0 of the call is not a tensor the kernel was given: only results that return a parameter are translated}}
  %r = pl.call @k(%x) : (!pl.tensor<8xf32>) -> !pl.tensor<8xf32>
  return %r : !pl.tensor<8xf32>
}
func.func @k(%x: !pl.tensor<8xf32>) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %y = pl.tensor.create() : !pl.tensor<8xf32>
  return %y : !pl.tensor<8xf32>
}


// -----

func.func @main() attributes {pl.level = #pl.level<host>} {
  %c8 = arith.constant 8 : i64
  // expected-error @below {{convert-pl-program-to-emitc: a window buffer outside a comm domain}}
  %buf = pld.tensor.alloc_window_buffer %c8 name "w" : i64 -> !pl.ptr
  return
}


// -----

func.func @main(%x: !pl.tensor<8xf32>) attributes {pl.level = #pl.level<host>} {
  pld.comm_domain "d" devices [] slots [] {
    %c0 = arith.constant 0 : index
    // expected-error @below {{convert-pl-program-to-emitc: dispatches with results are not simulated yet}}
    %r = pld.dispatch @chip(%x) on %c0 : (!pl.tensor<8xf32>) -> !pl.tensor<8xf32>
  }
  return
}
func.func @chip(%x: !pl.tensor<8xf32>) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  return %x : !pl.tensor<8xf32>
}

// -----

func.func @main(%s: !pld.dtensor<8xi32>) attributes {pl.level = #pl.level<host>} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{convert-pl-program-to-emitc: a builtin collective outside a comm domain}}
  pld.builtin.barrier %s on %c0 directions [#pl.direction<inout>] : !pld.dtensor<8xi32>, index
  return
}

// -----

func.func @main(%x: !pl.tensor<8xf32>) attributes {pl.level = #pl.level<host>} {
  pld.comm_domain "d" devices [] slots [] {
    %c0 = arith.constant 0 : index
    // expected-error @below {{convert-pl-program-to-emitc: a scalar access to a host tensor inside a comm domain would race the dispatches, which run on the devices' threads: it is not simulated}}
    %v = pl.tensor.read %x[%c0] : !pl.tensor<8xf32> -> f32
  }
  return
}

// -----

func.func @main(%x: !pl.tensor<8xf32>) attributes {pl.level = #pl.level<host>} {
  pld.comm_domain "d" devices [] slots [] {
    %c0 = arith.constant 0 : index
    pld.dispatch @chip(%x) on %c0 : (!pl.tensor<8xf32>) -> ()
  }
  return
}
// The chips are lowered by convert-pl-orchestration-to-emitc{runtime=sim},
// which reports what it refuses.
// expected-error @below {{convert-pl-orchestration-to-emitc: @k is not a translated kernel}}
func.func @chip(%x: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @k(%x) : (!pl.tensor<8xf32>) -> ()
  return
}
func.func @k(%x: !pl.tensor<8xf32>) attributes {pl.kind = #pl.kind<incore>} {
  return
}

// -----

func.func @main(%x: !pld.dtensor<1x8xf32>) attributes {pl.level = #pl.level<host>} {
  pld.comm_domain "d" devices [] slots ["s"] {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : i64
    %sb = pld.tensor.alloc_window_buffer %c64 name "s" : i64 -> !pl.ptr
    %s = pld.tensor.window %sb : !pl.ptr -> !pld.dtensor<?x1xi32>
    // expected-error @below {{convert-pl-program-to-emitc: a builtin allreduce of a value that is not a window view}}
    pld.builtin.allreduce %x, %s sum f32 cores 1 on %c0 directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<1x8xf32>, !pld.dtensor<?x1xi32>, index
  }
  return
}

// -----

func.func @main() attributes {pl.level = #pl.level<host>} {
  pld.comm_domain "d" devices [] slots ["s", "w"] {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : i64
    %sb = pld.tensor.alloc_window_buffer %c64 name "s" : i64 -> !pl.ptr
    %s = pld.tensor.window %sb : !pl.ptr -> !pld.dtensor<4xi32>
    %wb = pld.tensor.alloc_window_buffer %c64 name "w" : i64 -> !pl.ptr
    %w = pld.tensor.window %wb : !pl.ptr -> !pld.dtensor<4x?xf32>
    // expected-error @below {{convert-pl-program-to-emitc: a builtin reduce_scatter of rows of dynamic extent is not simulated yet}}
    pld.builtin.reduce_scatter %w, %s sum f32 on %c0 directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x?xf32>, !pld.dtensor<4xi32>, index
  }
  return
}


// -----

func.func @main(%x: !pl.tensor<64x32xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{convert-pl-program-to-emitc: a slice of a host tensor that is not contiguous in it (axis 1 is partial inside a wider outer axis) is not simulated: kernels take dense tensors}}
  %s = pl.tensor.slice %x[%c0, %c0] : !pl.tensor<64x32xf32> -> !pl.tensor<64x16xf32>
  pl.call @k(%s) : (!pl.tensor<64x16xf32>) -> ()
  return
}
func.func @k(%x: !pl.tensor<64x16xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

func.func @main(%x: !pl.tensor<64x32xf16>) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @below {{convert-pl-program-to-emitc: a host tensor viewed with a layout, strides or a valid shape is not simulated (only its shape may change)}}
  %v = pl.tensor.view %x : !pl.tensor<64x32xf16> -> !pl.tensor<32x64xf16, dn>
  pl.call @k(%v) : (!pl.tensor<32x64xf16, dn>) -> ()
  return
}
func.func @k(%x: !pl.tensor<32x64xf16, dn>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// A branch choosing between two tensors: no one buffer is its result.
func.func @main(%x: !pl.tensor<8xf32>, %y: !pl.tensor<8xf32>, %flag: i1) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @below {{convert-pl-program-to-emitc: branch result #0 is not one tensor both branches update in place (assembled into, written, viewed, or returned by a kernel it is passed to): a branch choosing between tensors is not simulated on the host}}
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

// numpy has no bf16 type for the simulator's .npy files.
// expected-error @below {{convert-pl-program-to-emitc: parameter #0: bf16 data on the simulator's host is not simulated: numpy has no bf16 type for its .npy files}}
func.func @main(%x: !pl.tensor<16x16xbf16>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// A bool buffer would be a std::vector<bool>.
// expected-error @below {{convert-pl-program-to-emitc: parameter #0: i1 (bool) data on the simulator's host is not simulated yet}}
func.func @main(%x: !pl.tensor<16x32xi1>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
