// One section per rule of function kinds, dispatch and scopes.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'func.func' op a incore function is at level chip_die, not chip}}
func.func @wrong_level() attributes {pl.kind = #pl.kind<incore>, pl.level = #pl.level<chip>} {
  return
}

// -----

// expected-error @+1 {{'func.func' op a orchestration function has role orchestrator, not subworker}}
func.func @wrong_role() attributes {pl.kind = #pl.kind<orchestration>, pl.role = #pl.role<subworker>} {
  return
}

// -----

// expected-error @+1 {{'pl.kind' must be a #kind attribute, got #pl.level<chip>}}
func.func @wrong_attr() attributes {pl.kind = #pl.level<chip>} {
  return
}

// -----

// pl.split asks an incore kernel to share its vector work between the
// vector cores.
// expected-error @+1 {{'func.func' op 'pl.split' shares an incore kernel's vector work between the vector cores; this function is of kind orchestration}}
func.func @split_orchestration() attributes {pl.kind = #pl.kind<orchestration>, pl.split = #pl.split<up_down>} {
  return
}

// -----

// expected-error @+1 {{'pl.split' must be a #pl.split attribute, got #pl.kind<incore>}}
func.func @split_wrong_attr() attributes {pl.kind = #pl.kind<incore>, pl.split = #pl.kind<incore>} {
  return
}

// -----

func.func @kind_on_other_op() {
  // expected-error @+1 {{'pl.kind' applies to func.func}}
  %c = arith.constant {pl.kind = #pl.kind<incore>} 0 : index
  return
}

// -----

// expected-error @+1 {{unknown pl attribute 'pl.kernel'}}
func.func @unknown_attr() attributes {pl.kernel} {
  return
}

// -----

// expected-error @+1 {{a kernel takes tensors and scalars, not tiles: argument #0 is !pl.tile<16x16xf32>}}
func.func @tile_param(%t: !pl.tile<16x16xf32>) attributes {pl.kind = #pl.kind<incore>} {
  return
}

// -----

func.func @other() attributes {pl.kind = #pl.kind<incore>} {
  return
}
// expected-error @+1 {{a kernel dispatches nothing, found pl.call}}
func.func @kernel_dispatches() attributes {pl.kind = #pl.kind<aiv>} {
  pl.call @other() : () -> ()
  return
}

// -----

// expected-error @+1 {{an aic (cube) kernel holds no vec tiles, found pl.tile.create}}
func.func @aic_vec() attributes {pl.kind = #pl.kind<aic>} {
  %t = pl.tile.create : !pl.tile<16x16xf32, vec>
  return
}

// -----

// expected-error @+1 {{an aiv (vector) kernel holds no 'acc' tiles, found pl.tile.create}}
func.func @aiv_acc() attributes {pl.kind = #pl.kind<aiv>} {
  %t = pl.tile.create : !pl.tile<16x16xf32, acc>
  return
}

// -----

// expected-error @+1 {{an orchestration computes no tiles: pl.tile.create belongs in an InCore kernel or scope}}
func.func @orchestration_computes() attributes {pl.kind = #pl.kind<orchestration>} {
  %t = pl.tile.create : !pl.tile<16x16xf32, vec>
  return
}

// -----

// expected-error @+1 {{argument #0 of type i32 cannot be 'out': only tensors are written}}
func.func @scalar_out(%n: i32 {pl.direction = #pl.direction<out>}) {
  return
}

// -----

func.func @not_a_kernel() {
  return
}
func.func @calls_plain() {
  // expected-error @+1 {{'pl.call' op dispatches kernels (incore, aic, aiv, group, spmd), but '@not_a_kernel' is a function without pl.kind}}
  pl.call @not_a_kernel() : () -> ()
  return
}

// -----

func.func @missing_callee() {
  // expected-error @+1 {{'pl.call' op '@nowhere' does not name a function}}
  pl.call @nowhere() : () -> ()
  return
}

// -----

func.func @k(%a: i32) attributes {pl.kind = #pl.kind<incore>} {
  return
}
func.func @mismatch(%x: i64) {
  // expected-error @+1 {{'pl.submit' op operand and result types must match '@k' : (i32) -> ()}}
  %t = pl.submit @k(%x) : (i64) -> ()
  return
}

// -----

func.func @nested() {
  pl.incore_scope {
    // expected-error @+1 {{'pl.incore_scope' op InCore scopes do not nest}}
    pl.incore_scope {
      pl.yield
    }
    pl.yield
  }
  return
}

// -----

func.func @scope_in_kernel() attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{a incore_scope sits in an opaque or orchestration function, not in a kernel}}
  pl.incore_scope {
    pl.yield
  }
  return
}

// -----

func.func @cluster_in_kernel() attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{'pl.cluster_scope' op a cluster_scope sits in an opaque or orchestration function, not in a kernel}}
  pl.cluster_scope {
    pl.yield
  }
  return
}

// -----

func.func @runtime_scope_outside_orchestration() attributes {pl.kind = #pl.kind<opaque>} {
  // expected-error @+1 {{'pl.runtime_scope' op a runtime scope sits in an orchestration}}
  pl.runtime_scope {
    pl.yield
  }
  return
}

// -----

// pl.addresses (pl-plan-memory's output): one entry per result, >= 0 exactly
// for on-chip tiles.
func.func @addresses(%x: !pl.tensor<4x4xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'pl.addresses' entry 0 is -1 for a result of type !pl.tile<4x4xf32, vec>: on-chip tiles take an address >= 0, other results -1}}
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: -1>} : !pl.tensor<4x4xf32> -> !pl.tile<4x4xf32, vec>
  return
}

// -----

func.func @addresses_count() attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{'pl.addresses' has 2 entries for 1 results}}
  %c0 = arith.constant {pl.addresses = array<i64: -1, -1>} 0 : index
  return
}

// -----

func.func @addresses_scalar() attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{'pl.addresses' entry 0 is 0 for a result of type index}}
  %c0 = arith.constant {pl.addresses = array<i64: 0>} 0 : index
  return
}

// -----

// expected-error @+1 {{'pl.memory' entry 'l3' must name a memory space with a byte count >= 0}}
func.func @memory() attributes {pl.kind = #pl.kind<aiv>, pl.memory = {l3 = 4 : i64}} {
  return
}

// -----

// expected-error @+1 {{'pl.memory' must be a dictionary of memory space to bytes, got 4 : i64}}
func.func @memory_kind() attributes {pl.kind = #pl.kind<aiv>, pl.memory = 4 : i64} {
  return
}

// -----

// A kernel's declared directions cover what it does with each tensor.
// expected-error @+1 {{argument #1 is 'in', but the kernel writes it: declare it out or inout}}
func.func @writes_an_in(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<in>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %y2 = pl.tile.store %t, %y[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  return
}

// -----

// Writes through a view and a loop's iteration argument count.
// expected-error @+1 {{argument #1 is 'in', but the kernel writes it}}
func.func @writes_an_in_through_a_loop(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<64x64xf32> {pl.direction = #pl.direction<in>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %y) -> (!pl.tensor<64x64xf32>) {
    %o2 = pl.tile.store %t, %o[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<64x64xf32>
    scf.yield %o2 : !pl.tensor<64x64xf32>
  }
  return
}

// -----

// An atomic add reads what it adds into.
// expected-error @+1 {{argument #1 is 'out', but the kernel reads it (or adds into it): declare it inout}}
func.func @adds_into_an_out(%x: !pl.tensor<16x64xf32>, %y: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %y2 = pl.tile.store %t, %y[%c0, %c0] atomic_add : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  return
}

// -----

// A remote store writes the window it targets.
// expected-error @+1 {{argument #0 is 'in', but the kernel writes it}}
func.func @remote_store_into_an_in(%d: !pld.dtensor<4x256xf32> {pl.direction = #pl.direction<in>}, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.create : !pl.tile<1x256xf32, vec>
  pld.tile.remote_store %t, %d[%c0, %c0] to %peer none : !pl.tile<1x256xf32, vec>, !pld.dtensor<4x256xf32>
  return
}

// -----

// A scope's results are what its body yields.
func.func @scope_yields_an_index(%x: !pl.tensor<64xf32>) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{the body yields (index), but the scope's results are (!pl.tensor<64xf32>)}}
  %y = pl.incore_scope -> !pl.tensor<64xf32> {
    %c0 = arith.constant 0 : index
    pl.yield %c0 : index
  }
  return %y : !pl.tensor<64xf32>
}

// -----

func.func @scope_yields_nothing(%x: !pl.tensor<64xf32>) -> !pl.tensor<64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{the body yields (), but the scope's results are (!pl.tensor<64xf32>)}}
  %y = pl.incore_scope -> !pl.tensor<64xf32> {
    pl.yield
  }
  return %y : !pl.tensor<64xf32>
}

// -----

func.func @unroll_not_on_a_loop() {
  // expected-error @+1 {{'pl.unroll' applies to scf.for}}
  %c0 = arith.constant {pl.unroll} 0 : index
  return
}

// -----

func.func @unroll_not_unit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'pl.unroll' is a unit attribute}}
  scf.for %i = %c0 to %n step %c1 {
  } {pl.unroll = 2 : i64}
  return
}

// -----

func.func @buffer_set_negative() {
  // expected-error @+1 {{'pl.buffer_set' must be a non-negative integer}}
  %c0 = arith.constant {pl.buffer_set = -1 : i64} 0 : index
  return
}

// -----

func.func @buffer_set_not_an_integer() {
  // expected-error @+1 {{'pl.buffer_set' must be a non-negative integer}}
  %c0 = arith.constant {pl.buffer_set = "copy"} 0 : index
  return
}
