// One section per pld verifier rule; the same expectations hold in pto-opt
// and in stock mlir-opt with the plugin.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

// expected-error @+1 {{pld.dtensor must have at least one dimension}}
func.func @dtensor_rank0(%s: !pld.dtensor<i32>) {
  return
}

// -----

// expected-error @+1 {{pld.dtensor dimensions must be positive or '?', got 0}}
func.func @dtensor_zero_dim(%s: !pld.dtensor<0x1xi32>) {
  return
}

// -----

func.func @notify_offsets_rank(%s: !pld.dtensor<?x1xi32>, %i: index, %v: i32) {
  // expected-error @+1 {{'pld.system.notify' op offsets rank (1) must match target tensor rank (2)}}
  pld.system.notify %s[%i] to %v, %v set : !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @wait_offsets_rank(%s: !pld.dtensor<4xi32>, %i: index, %v: i32) {
  // expected-error @+1 {{'pld.system.wait' op offsets rank (2) must match signal tensor rank (1)}}
  pld.system.wait %s[%i, %i], %v ge : !pld.dtensor<4xi32>
  return
}

// -----

func.func @notify_unknown_op(%s: !pld.dtensor<4xi32>, %i: index, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'op' [atomic_add, set]}}
  pld.system.notify %s[%i] to %v, %v add : !pld.dtensor<4xi32>
  return
}

// -----

func.func @notify_op_out_of_range(%s: !pld.dtensor<4xi32>, %i: index, %v: i32) {
  // expected-error @+1 {{invalid properties {op = 2 : i32} for op pld.system.notify}}
  "pld.system.notify"(%s, %i, %v, %v) <{op = 2 : i32}> : (!pld.dtensor<4xi32>, index, i32, i32) -> ()
  return
}

// -----

func.func @wait_cmp_out_of_range(%s: !pld.dtensor<4xi32>, %i: index, %v: i32) {
  // expected-error @+1 {{invalid properties {cmp = -1 : i32} for op pld.system.wait}}
  "pld.system.wait"(%s, %i, %v) <{cmp = -1 : i32}> : (!pld.dtensor<4xi32>, index, i32) -> ()
  return
}

// -----

func.func @rank_needs_comm_ctx(%s: !pld.dtensor<4xi32>) {
  // expected-error @+1 {{'pld.system.rank' op operand #0 must be Handle to the runtime comm context of one domain on one device, but got '!pld.dtensor<4xi32>'}}
  %r = "pld.system.rank"(%s) : (!pld.dtensor<4xi32>) -> i32
  return
}

// -----

func.func @get_comm_ctx_needs_dtensor(%t: !pl.tensor<4xi32>) {
  // expected-error @+1 {{'pld.system.get_comm_ctx' op operand #0 must be pld distributed tensor, but got '!pl.tensor<4xi32>'}}
  %c = "pld.system.get_comm_ctx"(%t) : (!pl.tensor<4xi32>) -> !pld.comm_ctx
  return
}
