// One section per rule of window buffers, remote access, collectives and
// comm domains, in pto-opt and in stock mlir-opt with the plugin.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @world_size_in_kernel() attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{'pld.system.world_size' op can only be used in a host orchestrator}}
  %w = pld.system.world_size : i64
  return
}

// -----

func.func @rank_on_host(%c: !pld.comm_ctx) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  // expected-error @+1 {{'pld.system.rank' op is an InCore operation; a host orchestrator cannot use it}}
  %r = pld.system.rank %c : i32
  return
}

// -----

func.func @alloc_in_kernel(%n: i64) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{'pld.tensor.alloc_window_buffer' op can only be used in a host orchestrator}}
  %b = pld.tensor.alloc_window_buffer %n name "x" : i64 -> !pl.ptr
  return
}

// -----

func.func @alloc_empty_name(%n: i64) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{requires a non-empty name}}
  %b = pld.tensor.alloc_window_buffer %n name "" : i64 -> !pl.ptr
  return
}

// -----

func.func @alloc_twice(%n: i64) attributes {pl.level = #pl.level<host>} {
  %a = pld.tensor.alloc_window_buffer %n name "buf" : i64 -> !pl.ptr
  // expected-error @+1 {{window buffer name 'buf' is already declared in the program}}
  %b = pld.tensor.alloc_window_buffer %n name "buf" : i64 -> !pl.ptr
  return
}

// -----

func.func @defer_wait_dtype(%s: !pld.dtensor<4xi64>, %i: index, %g: i32) {
  // expected-error @+1 {{'pld.system.defer_wait' op signal dtype must be i32, got i64}}
  pld.system.defer_wait %s[%i], %g ge : !pld.dtensor<4xi64>
  return
}

// -----

func.func @defer_wait_eq(%s: !pld.dtensor<4xi32>, %i: index, %g: i32) {
  // expected-error @+1 {{'pld.system.defer_wait' op only supports ge}}
  pld.system.defer_wait %s[%i], %g eq : !pld.dtensor<4xi32>
  return
}

// -----

func.func @remote_load_rank(%d: !pld.dtensor<4x256xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{needs the target's rank (2) of offsets and tile dimensions}}
  %t = pld.tile.remote_load %d[%i] from %p : !pld.dtensor<4x256xf32> -> !pl.tile<1x256xf32, vec>
  return
}

// -----

func.func @remote_load_dtype(%d: !pld.dtensor<4x256xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{the tile must have the target's element type f32, got f16}}
  %t = pld.tile.remote_load %d[%i, %i] from %p : !pld.dtensor<4x256xf32> -> !pl.tile<1x256xf16, vec>
  return
}

// -----

func.func @remote_load_sub_byte(%d: !pld.dtensor<4x256xi1>, %i: index, %p: i32) {
  // expected-error @+1 {{only byte-sized element types can be read remotely, got i1}}
  %t = pld.tile.remote_load %d[%i, %i] from %p : !pld.dtensor<4x256xi1> -> !pl.tile<1x256xi1, vec>
  return
}

// -----

func.func @remote_store_space(%t: !pl.tile<1x256xf32, mat>, %d: !pld.dtensor<4x256xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{the source tile must be in 'vec' or 'acc', got 'mat'}}
  pld.tile.remote_store %t, %d[%i, %i] to %p none : !pl.tile<1x256xf32, mat>, !pld.dtensor<4x256xf32>
  return
}

// -----

func.func @remote_store_target_rank(%t: !pl.tile<1x256xf32, vec>, %d: !pld.dtensor<256xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{target rank must be >= 2 to hold a 2-D push}}
  pld.tile.remote_store %t, %d[%i] to %p none : !pl.tile<1x256xf32, vec>, !pld.dtensor<256xf32>
  return
}

// -----

func.func @remote_store_leading(%t: !pl.tensor<2x1x256xf32>, %d: !pld.dtensor<4x4x256xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{source leading dimension 0 must be 1}}
  pld.tensor.remote_store %t, %d[%i, %i, %i] to %p none : !pl.tensor<2x1x256xf32>, !pld.dtensor<4x4x256xf32>
  return
}

// -----

func.func @remote_store_atomic(%t: !pl.tile<1x256xi64, vec>, %d: !pld.dtensor<4x256xi64>, %i: index, %p: i32) {
  // expected-error @+1 {{an atomic add: the source element type must be f32, bf16, f16, i32, i16 or i8, got i64}}
  pld.tile.remote_store %t, %d[%i, %i] to %p add : !pl.tile<1x256xi64, vec>, !pld.dtensor<4x256xi64>
  return
}

// -----

func.func @remote_store_dtype(%t: !pl.tensor<1x256xf16>, %d: !pld.dtensor<4x256xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{source and target element types differ: f16 and f32}}
  pld.tensor.remote_store %t, %d[%i, %i] to %p none : !pl.tensor<1x256xf16>, !pld.dtensor<4x256xf32>
  return
}

// -----

func.func @allreduce_dtype(%d: !pld.dtensor<4x256xi32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{'pld.tensor.allreduce' op target dtype must be f16 or f32, got i32}}
  %r = pld.tensor.allreduce %d, %s sum mesh cores 1 : !pld.dtensor<4x256xi32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @allreduce_needs_signal(%d: !pld.dtensor<4x256xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{requires an explicit signal outside host orchestrator functions}}
  %r = pld.tensor.allreduce %d sum mesh cores 1 : !pld.dtensor<4x256xf32>
  return
}

// -----

func.func @allreduce_cores(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{cores > 1 is supported only in a host orchestrator; use pl.spmd_scope}}
  %r = pld.tensor.allreduce %d, %s sum mesh cores 2 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @allreduce_cores_positive(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{cores must be > 0, got 0}}
  %r = pld.tensor.allreduce %d, %s sum mesh cores 0 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @host_ring_synthesis(%d: !pld.dtensor<4x256xf32>) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{ring mode requires an explicit signal; host signal synthesis only supports mesh}}
  %r = pld.tensor.allreduce %d sum ring cores 1 : !pld.dtensor<4x256xf32>
  return
}

// -----

func.func @mesh_signal_shape(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<4x4xi32>) {
  // expected-error @+1 {{signal dim 1 must be the constant 1, got !pld.dtensor<4x4xi32> (a mesh signal; a ring-shaped signal cannot be shared with mesh collectives)}}
  %r = pld.tensor.allreduce %d, %s sum mesh cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<4x4xi32>
  return
}

// -----

func.func @ring_signal_shape(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<4x4xi32>) {
  // expected-error @+1 {{a ring signal must be [2*(NR-1), NR], got 4x4}}
  %r = pld.tensor.allreduce %d, %s sum ring cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<4x4xi32>
  return
}

// -----

func.func @host_lanes(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<8x2xi32>) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{a host signal [W, lanes] needs lanes >= cores (4), got !pld.dtensor<8x2xi32>}}
  %r = pld.tensor.allreduce %d, %s sum mesh cores 4 : !pld.dtensor<4x256xf32>, !pld.dtensor<8x2xi32>
  return
}

// -----

func.func @barrier_signal_dtype(%s: !pld.dtensor<?x1xi64>) {
  // expected-error @+1 {{'pld.tensor.barrier' op signal must be i32, got i64}}
  %r = pld.tensor.barrier %s : !pld.dtensor<?x1xi64>
  return
}

// -----

func.func @barrier_mesh(%s: !pld.dtensor<8xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{signal must be 2D [NR, 1], got !pld.dtensor<8xi32>}}
  %r = pld.tensor.barrier %s : !pld.dtensor<8xi32>
  return
}

// -----

func.func @barrier_host_rank(%s: !pld.dtensor<8x1xi32>) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{a host builtin signal must be rank-1 [W], got !pld.dtensor<8x1xi32>}}
  %r = pld.tensor.barrier %s : !pld.dtensor<8x1xi32>
  return
}

// -----

func.func @broadcast_root(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{'pld.tensor.broadcast' op root must be >= 0}}
  %r = pld.tensor.broadcast %d, %s root -1 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @host_f32(%d: !pld.dtensor<4x256xf16>, %s: !pld.dtensor<8xi32>) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{host builtin collectives support f32 only, got f16}}
  %r = pld.tensor.broadcast %d, %s root 0 : !pld.dtensor<4x256xf16>, !pld.dtensor<8xi32>
  return
}

// -----

func.func @allgather_same(%d: !pld.dtensor<1x256xf32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{input and target must be different buffers}}
  %r = pld.tensor.allgather %d, %d, %s : !pld.dtensor<1x256xf32>, !pld.dtensor<1x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @allgather_row(%i: !pl.tensor<2x256xf32>, %d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{input must be [1, SIZE] (this rank's single chunk), got !pl.tensor<2x256xf32>}}
  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<2x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @allgather_size(%i: !pl.tensor<1x128xf32>, %d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{input and target must have one row size}}
  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x128xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @allgather_signal_rows(%i: !pl.tensor<1x256xf32>, %d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<3x1xi32>) {
  // expected-error @+1 {{signal rows must equal the rank count, got !pld.dtensor<3x1xi32>}}
  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<3x1xi32>
  return
}

// -----

func.func @allgather_incore_window(%i: !pld.dtensor<1x256xf32>, %d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{input must be a plain pl.tensor on the InCore path}}
  %r = pld.tensor.allgather %i, %d, %s : !pld.dtensor<1x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @allgather_host_plain(%i: !pl.tensor<1x256xf32>, %d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<4xi32>) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{input must be a window-bound pld.dtensor in a host orchestrator}}
  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<4xi32>
  return
}

// -----

func.func @reduce_scatter_op(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{only sum is supported (max, min and prod lowerings are not implemented)}}
  %r = pld.tensor.reduce_scatter %d, %s max : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @reduce_scatter_rank(%d: !pld.dtensor<256xf32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{target must be [NR, SIZE], got !pld.dtensor<256xf32>}}
  %r = pld.tensor.reduce_scatter %d, %s sum : !pld.dtensor<256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @all_to_all_rows(%i: !pl.tensor<2x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{input and target must have one row count}}
  %r = pld.tensor.all_to_all %i, %d, %s : !pl.tensor<2x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @all_to_all_dtype(%i: !pl.tensor<4x64xf16>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<?x1xi32>) {
  // expected-error @+1 {{input and target must have one element type, got f16 and f32}}
  %r = pld.tensor.all_to_all %i, %d, %s : !pl.tensor<4x64xf16>, !pld.dtensor<4x64xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @comm_domain_devices() attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{devices must be sorted, distinct worker indices, got [1, 0]}}
  pld.comm_domain "d" devices [1, 0] slots ["a"] {
    pld.yield
  }
  return
}

// -----

func.func @comm_domain_slots() attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{slots must be the names of window buffers}}
  pld.comm_domain "d" devices [] slots [""] {
    pld.yield
  }
  return
}

// -----

func.func @comm_domain_in_kernel() attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{'pld.comm_domain' op can only be used in a host orchestrator}}
  pld.comm_domain "d" devices [] slots [] {
    pld.yield
  }
  return
}

// -----

// expected-error @+1 {{pld.dtensor window name must not be empty}}
func.func @empty_window(%d: !pld.dtensor<4xf32, window = "">) {
  return
}

// -----

func.func @put_dtype(%d: !pld.dtensor<4x256xf32>, %s: !pl.tensor<4x256xf16>, %p: i32) {
  // expected-error @+1 {{'pld.tensor.put' op dst and src element types differ: f32 and f16}}
  pld.tensor.put %d to %p from %s none chunk 0, 0 : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf16>
  return
}

// -----

func.func @put_full_shape(%d: !pld.dtensor<4x256xf32>, %s: !pl.tensor<4x128xf32>, %p: i32) {
  // expected-error @+1 {{full-slice dst and src must have the same shape; dimension 1 is 256 and 128}}
  pld.tensor.put %d to %p from %s none chunk 0, 0 : !pld.dtensor<4x256xf32>, !pl.tensor<4x128xf32>
  return
}

// -----

func.func @put_region_ranks(%d: !pld.dtensor<4x256xf32>, %s: !pl.tensor<4x256xf32>, %p: i32, %i: index) {
  // expected-error @+1 {{region needs 2 dst offsets, 2 src offsets and 2 extents, got 1, 2 and 2}}
  pld.tensor.put %d to %p from %s region [%i] [%i, %i] [%i, %i] none chunk 0, 0 : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>
  return
}

// -----

func.func @chunk_negative(%d: !pl.tensor<4x256xf32>, %s: !pld.dtensor<4x256xf32>, %p: i32) {
  // expected-error @+1 {{chunk_rows and chunk_cols must be non-negative (0 = full)}}
  pld.tensor.get %d to %p from %s chunk -1, 0 : !pl.tensor<4x256xf32>, !pld.dtensor<4x256xf32>
  return
}

// -----

func.func @pipeline_chunks(%d: !pl.tensor<4x256xf32>, %s: !pld.dtensor<4x256xf32>, %p: i32) {
  // expected-error @+1 {{pipeline requires both chunk_rows > 0 and chunk_cols > 0}}
  pld.tensor.get %d to %p from %s chunk 1, 0 pipeline : !pl.tensor<4x256xf32>, !pld.dtensor<4x256xf32>
  return
}

// -----

func.func @dynamic_needs_chunk(%d: !pl.tensor<?x256xf32>, %s: !pld.dtensor<?x256xf32>, %p: i32) {
  // expected-error @+1 {{a dynamic leading transfer dim needs a static chunk_rows}}
  pld.tensor.get %d to %p from %s chunk 0, 0 : !pl.tensor<?x256xf32>, !pld.dtensor<?x256xf32>
  return
}

// -----

func.func @put_atomic(%d: !pld.dtensor<4xi64>, %s: !pl.tensor<4xi64>, %p: i32) {
  // expected-error @+1 {{an atomic add element type must be f32, bf16, f16, i32, i16 or i8, got i64}}
  pld.tensor.put %d to %p from %s add chunk 0, 0 : !pld.dtensor<4xi64>, !pl.tensor<4xi64>
  return
}

// -----

func.func @put_on_host(%d: !pld.dtensor<4xf32>, %s: !pl.tensor<4xf32>, %p: i32) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{'pld.tensor.put' op is an InCore operation; a host orchestrator cannot use it}}
  pld.tensor.put %d to %p from %s none chunk 0, 0 : !pld.dtensor<4xf32>, !pl.tensor<4xf32>
  return
}

// -----

func.func @a2av_divides(%i: !pl.tensor<8x64xf32>, %t: !pld.dtensor<8x64xf32>, %s: !pld.dtensor<3x1xi32>, %c: !pl.tensor<3xi32>, %r: !pld.dtensor<3x1xi32>) {
  // expected-error @+1 {{signal dim 0 (3) must divide target dim 0 (8)}}
  %v = pld.tensor.all_to_all_v %i, %t, %s, %c, %r : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<3x1xi32>, !pl.tensor<3xi32>, !pld.dtensor<3x1xi32>
  return
}

// -----

func.func @a2av_static(%i: !pl.tensor<8x64xf32>, %t: !pld.dtensor<8x64xf32>, %s: !pld.dtensor<?x1xi32>, %c: !pl.tensor<4xi32>, %r: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{target dim 0 and signal dim 0 must be compile-time constants}}
  %v = pld.tensor.all_to_all_v %i, %t, %s, %c, %r : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<?x1xi32>, !pl.tensor<4xi32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @a2av_send(%i: !pl.tensor<8x64xf32>, %t: !pld.dtensor<8x64xf32>, %s: !pld.dtensor<4x1xi32>, %c: !pl.tensor<4xi64>, %r: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{send_counts must be i32 [4] or [4, 1]}}
  %v = pld.tensor.all_to_all_v %i, %t, %s, %c, %r : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pl.tensor<4xi64>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @a2av_recv(%i: !pl.tensor<8x64xf32>, %t: !pld.dtensor<8x64xf32>, %s: !pld.dtensor<4x1xi32>, %c: !pl.tensor<4xi32>, %r: !pld.dtensor<4xi32>) {
  // expected-error @+1 {{recv_counts must be i32 [4, 1], got !pld.dtensor<4xi32>}}
  %v = pld.tensor.all_to_all_v %i, %t, %s, %c, %r : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pl.tensor<4xi32>, !pld.dtensor<4xi32>
  return
}

// -----

func.func @kernel(%d: !pld.dtensor<4xf32>) attributes {pl.kind = #pl.kind<incore>} {
  return
}
func.func @dispatch_kernel(%d: !pld.dtensor<4xf32>, %r: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{'pld.dispatch' op runs chip orchestrations, but '@kernel' is incore}}
  pld.dispatch @kernel(%d) on %r : (!pld.dtensor<4xf32>) -> ()
  return
}

// -----

func.func @chip(%d: !pld.dtensor<4xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
func.func @dispatch_from_chip(%d: !pld.dtensor<4xf32>, %r: index) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{'pld.dispatch' op can only be used in a host orchestrator}}
  pld.dispatch @chip(%d) on %r : (!pld.dtensor<4xf32>) -> ()
  return
}

// -----

func.func @stage_dtype(%d: !pld.dtensor<4x256xf32>, %s: !pl.tensor<4x256xf32>, %p: i32, %t: !pl.tile<1x128xf16, vec>) {
  // expected-error @+1 {{stage must be a 2-D tile of the destination's element type f32, got !pl.tile<1x128xf16, vec>}}
  pld.tile.put %d to %p from %s stage %t none : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>, !pl.tile<1x128xf16, vec>
  return
}

// -----

func.func @stage_pair(%d: !pl.tensor<4x256xf32>, %s: !pld.dtensor<4x256xf32>, %p: i32, %a: !pl.tile<1x128xf32, vec>, %b: !pl.tile<2x128xf32, vec>) {
  // expected-error @+1 {{the second stage must match the first, got !pl.tile<1x128xf32, vec> and !pl.tile<2x128xf32, vec>}}
  pld.tile.get %d to %p from %s stage %a, %b : !pl.tensor<4x256xf32>, !pld.dtensor<4x256xf32>, !pl.tile<1x128xf32, vec>, !pl.tile<2x128xf32, vec>
  return
}

// -----

func.func @builtin_in_kernel(%s: !pld.dtensor<8xi32>, %dev: index) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{'pld.builtin.barrier' op can only be used in a host orchestrator}}
  pld.builtin.barrier %s on %dev directions [#pl.direction<inout>] : !pld.dtensor<8xi32>, index
  return
}

// -----

func.func @builtin_directions(%s: !pld.dtensor<8xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{directions must list one #pl.direction per tensor operand (1)}}
  pld.builtin.barrier %s on %dev directions [] : !pld.dtensor<8xi32>, index
  return
}

// -----

func.func @builtin_dtype_attr(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<8xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{dtype f16 must be the data's element type f32}}
  pld.builtin.broadcast %d, %s root 0 f16 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
  return
}

// -----

func.func @builtin_lanes(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<8x2xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{a [W, lanes] signal needs constant lanes >= cores (4), got !pld.dtensor<8x2xi32>}}
  pld.builtin.allreduce %d, %s sum f32 cores 4 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8x2xi32>, index
  return
}

// -----

func.func @builtin_ring_rows(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<6x4xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{a ring signal must be [2*(NR-1)+1, NR], got 6x4}}
  pld.builtin.allreduce_ring %d, %s sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<6x4xi32>, index
  return
}

// -----

func.func @builtin_ring_wide(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<35x18xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{a ring spans at most 16 ranks}}
  pld.builtin.allreduce_ring %d, %s sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<35x18xi32>, index
  return
}

// -----

func.func @builtin_ring_divides(%d: !pld.dtensor<3x5xf32>, %s: !pld.dtensor<7x4xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{src must be static with an element count divisible by 4}}
  pld.builtin.allreduce_ring %d, %s sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<3x5xf32>, !pld.dtensor<7x4xi32>, index
  return
}

// -----

func.func @builtin_rank_one(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<8x1xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{signal must be rank-1 [W], got !pld.dtensor<8x1xi32>}}
  pld.builtin.reduce_scatter %d, %s sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8x1xi32>, index
  return
}

// -----

func.func @builtin_f32(%d: !pld.dtensor<4x256xf16>, %s: !pld.dtensor<8xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{supports f32 only, got f16}}
  pld.builtin.reduce_scatter %d, %s sum f16 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf16>, !pld.dtensor<8xi32>, index
  return
}

// -----

func.func @builtin_same_window(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<8xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{input and target must be different windows}}
  pld.builtin.all_to_all %d, %d, %s f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
  return
}

// -----

func.func @builtin_gather_row(%i: !pld.dtensor<2x256xf32>, %d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<8xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{input must be [1, SIZE], got !pld.dtensor<2x256xf32>}}
  pld.builtin.allgather %i, %d, %s f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<2x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
  return
}

// -----

func.func @tail_padding_f32(%d: !pld.dtensor<4x256xf32>, %p: i32, %c: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{tail_padding needs an f16, rank-2 target and explicit valid extents}}
  %t = pld.tile.remote_load %d[%c0, %c0] from %p valid(%c) tail_padding : !pld.dtensor<4x256xf32> -> !pl.tile<1x256xf32, vec, valid = 1x?>
  return
}

// -----

func.func @a2av_in_host_loop(%i: !pld.dtensor<8x64xf32>, %t: !pld.dtensor<8x64xf32>, %s: !pld.dtensor<4x1xi32>, %c: !pld.dtensor<4xi32>, %r: !pld.dtensor<4x1xi32>, %n: index) attributes {pl.level = #pl.level<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    // expected-error @+1 {{'pld.tensor.all_to_all_v' op is not allowed inside a host loop}}
    %v = pld.tensor.all_to_all_v %i, %t, %s, %c, %r : !pld.dtensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4x1xi32>
  }
  return
}

// -----

func.func @builtin_a2av_in_host_loop(%i: !pld.dtensor<8x64xf32>, %t: !pld.dtensor<8x64xf32>, %s: !pld.dtensor<4x1xi32>, %c: !pld.dtensor<4xi32>, %r: !pld.dtensor<4x1xi32>, %n: index) attributes {pl.level = #pl.level<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %round = %c0 to %n step %c1 {
    scf.for %dev = %c0 to %n step %c1 {
      // expected-error @+1 {{'pld.builtin.all_to_all_v' op is not allowed inside a host loop}}
      pld.builtin.all_to_all_v %i, %t, %s, %c, %r f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>, #pl.direction<in>, #pl.direction<inout>] : !pld.dtensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4x1xi32>, index
    }
  }
  return
}

// -----

func.func @builtin_a2av_distinct(%i: !pld.dtensor<8x64xf32>, %s: !pld.dtensor<4x1xi32>, %c: !pld.dtensor<4xi32>, %dev: index) attributes {pl.level = #pl.level<host>} {
  // expected-error @+1 {{the five windows must be pairwise distinct}}
  pld.builtin.all_to_all_v %i, %i, %s, %c, %s f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>, #pl.direction<in>, #pl.direction<inout>] : !pld.dtensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4x1xi32>, index
  return
}

// -----

func.func @window_two_open_dims() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %bytes = arith.constant 1024 : i64
  %buf = pld.tensor.alloc_window_buffer %bytes name "ring" : i64 -> !pl.ptr
  // expected-error @+1 {{a view with 2 dynamic dimensions needs sizes(...) for them (only one can be inferred from the buffer)}}
  %w = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<?x?xi32>
  return
}

// -----

func.func @window_sizes_count() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %bytes = arith.constant 1024 : i64
  %n = arith.constant 4 : index
  %buf = pld.tensor.alloc_window_buffer %bytes name "sig" : i64 -> !pl.ptr
  // expected-error @+1 {{sizes(...) must give one value per dynamic dimension (0), got 1}}
  %w = pld.tensor.window %buf sizes(%n) : !pl.ptr -> !pld.dtensor<4x1xi32>
  return
}

// -----

// One region shape applies to dst and src: they have one rank.
func.func @put_region_ranks(%d: !pld.dtensor<4x256xf32>, %s: !pl.tensor<2x4x256xf32>, %p: i32, %i: index) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{a region transfer needs dst and src of one rank, got 2 and 3}}
  pld.tensor.put %d to %p from %s region [%i, %i] [%i, %i, %i] [%i, %i] none chunk 1, 256 : !pld.dtensor<4x256xf32>, !pl.tensor<2x4x256xf32>
  return
}

// -----

// A mesh signal's second dimension is the constant 1.
func.func @allgather_dynamic_lanes(%i: !pl.tensor<1x256xf32>, %d: !pld.dtensor<?x256xf32>, %s: !pld.dtensor<?x?xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{signal dim 1 must be the constant 1, got !pld.dtensor<?x?xi32>}}
  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x256xf32>, !pld.dtensor<?x256xf32>, !pld.dtensor<?x?xi32>
  return
}

// -----

// A [?, 1] signal is a mesh signal, not a ring's.
func.func @ring_on_a_mesh_signal(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{a ring signal must be [2*(NR-1), NR] for NR >= 2, got !pld.dtensor<?x1xi32>}}
  %r = pld.tensor.allreduce %d, %s sum ring cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

// On the InCore path a static signal fixes the rank count: the root is one
// of the ranks.
func.func @broadcast_root_past_the_ranks(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{root 4 is not a rank: the signal !pld.dtensor<4x1xi32> has 4}}
  %r = pld.tensor.broadcast %d, %s root 4 : !pld.dtensor<4x256xf32>, !pld.dtensor<4x1xi32>
  return
}
