// One section per rule of the cross-core ops and of groups.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @push_on_vector() attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.tile.create : !pl.tile<16x32xf32, vec>
  // expected-error @+1 {{'pl.tile.tpush_to_aiv' op tpush_to_aiv runs on the cube core: it belongs in an aic kernel, not in a function of kind aiv}}
  pl.tile.tpush_to_aiv %a none : !pl.tile<16x32xf32, vec>
  return
}

// -----

func.func @push_from_mat() attributes {pl.kind = #pl.kind<aic>} {
  %a = pl.tile.create : !pl.tile<16x32xf32, mat>
  // expected-error @+1 {{'pl.tile.tpush_to_aiv' op the pushed tile must be in 'acc', got 'mat'}}
  pl.tile.tpush_to_aiv %a none : !pl.tile<16x32xf32, mat>
  return
}

// -----

func.func @odd_rows() attributes {pl.kind = #pl.kind<aic>} {
  %a = pl.tile.create : !pl.tile<15x32xf32, acc>
  // expected-error @+1 {{'pl.tile.tpush_to_aiv' op the pushed tile is split up_down, but its rows (15) are odd: the two vector cores take equal halves}}
  pl.tile.tpush_to_aiv %a up_down : !pl.tile<15x32xf32, acc>
  return
}

// -----

func.func @push_f16_acc() attributes {pl.kind = #pl.kind<aic>} {
  %a = pl.tile.create : !pl.tile<16x32xf16, acc>
  // expected-error @+1 {{'pl.tile.tpush_to_aiv' op the pushed tile is an accumulator: its element type must be f32 or i32, got f16}}
  pl.tile.tpush_to_aiv %a none : !pl.tile<16x32xf16, acc>
  return
}

// -----

// expected-error @+1 {{an aiv (vector) kernel holds no 'mat' tiles, found pl.tile.tpop_from_aic}}
func.func @pop_into_mat() attributes {pl.kind = #pl.kind<aiv>} {
  %t = pl.tile.tpop_from_aic none : !pl.tile<16x32xf32, mat>
  return
}

// -----

func.func @pop_rank3() attributes {pl.kind = #pl.kind<aic>} {
  // expected-error @+1 {{'pl.tile.tpop_from_aiv' op the popped tile must be a 2-D tile, got rank 3}}
  %t = pl.tile.tpop_from_aiv none : !pl.tile<2x16x32xf16, mat>
  return
}

// -----

func.func @pipe_id() attributes {pl.kind = #pl.kind<aic>} {
  // expected-error @+1 {{'pl.tile.tpop_from_aiv' op pipe id must be in [0, 7], got 9}}
  %t = pl.tile.tpop_from_aiv none id 9 : !pl.tile<16x32xf16, mat>
  return
}

// -----

func.func @not_set_up() attributes {pl.kind = #pl.kind<aic>} {
  // expected-error @+1 {{'pl.tile.tpop_from_aiv' op pipe 0 is not set up in this kernel (pl.system.aic_initialize_pipe / aiv_initialize_pipe)}}
  %t = pl.tile.tpop_from_aiv none : !pl.tile<16x32xf16, mat>
  return
}

// -----

func.func @slot_too_small() attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "r" size 2048 : i32
  pl.system.aiv_initialize_pipe c2v c2v %r slot_size 1024 slots 2
  // expected-error @+1 {{'pl.tile.tpop_from_aic' op the popped tile takes 2048 bytes, more than pipe 0's 1024-byte slot}}
  %t = pl.tile.tpop_from_aic none : !pl.tile<16x32xf32, vec>
  return
}

// -----

func.func @free_other() attributes {pl.kind = #pl.kind<aiv>} {
  %t = pl.tile.create : !pl.tile<16x32xf32, vec>
  // expected-error @+1 {{'pl.system.tfree_to_aic' op tfree_to_aic gives back a slot: its operand must be the result of a pl.tile.tpop_from_aic}}
  pl.system.tfree_to_aic %t : !pl.tile<16x32xf32, vec>
  return
}

// -----

func.func @free_wrong_way() attributes {pl.kind = #pl.kind<aic>} {
  %r = pl.system.reserve_buffer "r" size 2048 : i32
  pl.system.aic_initialize_pipe v2c v2c %r slot_size 1024 slots 2
  %t = pl.tile.tpop_from_aiv none : !pl.tile<16x32xf16, mat>
  // expected-error @+1 {{'pl.system.tfree_to_aic' op tfree_to_aic runs on a vector core: it belongs in an aiv kernel, not in a function of kind aic}}
  pl.system.tfree_to_aic %t : !pl.tile<16x32xf16, mat>
  return
}

// -----

func.func @missing_ring() attributes {pl.kind = #pl.kind<aic>} {
  // expected-error @+1 {{'pl.system.aic_initialize_pipe' op a pipe that carries c2v takes the c2v ring's address}}
  pl.system.aic_initialize_pipe c2v slot_size 2048 slots 2
  return
}

// -----

func.func @extra_ring() attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "r" size 4096 : i32
  // expected-error @+1 {{'pl.system.aiv_initialize_pipe' op a pipe that does not carry v2c takes no v2c ring}}
  pl.system.aiv_initialize_pipe c2v c2v %r v2c %r slot_size 2048 slots 2
  return
}

// -----

func.func @ring_not_reserved() attributes {pl.kind = #pl.kind<aiv>} {
  %r = arith.constant 0 : i32
  // expected-error @+1 {{'pl.system.aiv_initialize_pipe' op the c2v ring is the one this kernel reserves: it must be the result of a pl.system.reserve_buffer}}
  pl.system.aiv_initialize_pipe c2v c2v %r slot_size 2048 slots 2
  return
}

// -----

func.func @slot_size() attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "r" size 4096 : i32
  // expected-error @+1 {{'pl.system.aiv_initialize_pipe' op slot_size must be a positive multiple of 32 bytes of at most 524288, got 100}}
  pl.system.aiv_initialize_pipe c2v c2v %r slot_size 100 slots 2
  return
}

// -----

func.func @slots() attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "r" size 4096 : i32
  // expected-error @+1 {{'pl.system.aiv_initialize_pipe' op slots must be in [1, 64], got 0}}
  pl.system.aiv_initialize_pipe c2v c2v %r slot_size 2048 slots 0
  return
}

// -----

func.func @local_slots() attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "r" size 4096 : i32
  // expected-error @+1 {{'pl.system.aiv_initialize_pipe' op local slots must be in [1, 2] (the ring's slots), got 4}}
  pl.system.aiv_initialize_pipe c2v c2v %r slot_size 2048 slots 2 local 4
  return
}

// -----

func.func @reserve_size() attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{'pl.system.reserve_buffer' op the reserved size must be a positive multiple of 32 bytes, got 0}}
  %r = pl.system.reserve_buffer "r" size 0 : i32
  return
}

// -----

func.func @reserve_twice() attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{'pl.system.reserve_buffer' op the kernel reserves 'r' 2 times: a ring's name is its own}}
  %r = pl.system.reserve_buffer "r" size 64 : i32
  %s = pl.system.reserve_buffer "r" size 64 : i32
  return
}

// -----

func.func @reserve_in_orchestration() attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{'pl.system.reserve_buffer' op reserve_buffer sets up a pipe of a core group: it belongs in an aic or aiv kernel, not in a function of kind orchestration}}
  %r = pl.system.reserve_buffer "r" size 64 : i32
  return
}

// -----

func.func @peer() attributes {pl.kind = #pl.kind<aic>} {
  return
}
func.func @import_same_side() attributes {pl.kind = #pl.kind<aic>} {
  // expected-error @+1 {{'pl.system.import_peer_buffer' op imports from the other core of the group, an aiv kernel, but '@peer' is aic}}
  %r = pl.system.import_peer_buffer "r" from @peer : i32
  return
}

// -----

func.func @peer() attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "other" size 64 : i32
  return
}
func.func @import_unreserved() attributes {pl.kind = #pl.kind<aic>} {
  // expected-error @+1 {{'pl.system.import_peer_buffer' op '@peer' reserves no buffer 'r'}}
  %r = pl.system.import_peer_buffer "r" from @peer : i32
  return
}

// -----

func.func @shard_shape(%a: !pl.tile<16x32xf32, acc>) -> !pl.tile<16x16xf32, vec> {
  // expected-error @+1 {{'pl.tile.aiv_shard' op split up_down halves the rows: the result must be 8x32, got 16x16}}
  %h = pl.tile.aiv_shard %a up_down : !pl.tile<16x32xf32, acc> -> !pl.tile<16x16xf32, vec>
  return %h : !pl.tile<16x16xf32, vec>
}

// -----

func.func @shard_space(%a: !pl.tile<16x32xf32, vec>) -> !pl.tile<8x32xf32, vec> {
  // expected-error @+1 {{'pl.tile.aiv_shard' op the operand must be in 'acc', got 'vec'}}
  %h = pl.tile.aiv_shard %a up_down : !pl.tile<16x32xf32, vec> -> !pl.tile<8x32xf32, vec>
  return %h : !pl.tile<8x32xf32, vec>
}

// -----

func.func @gather_element(%a: !pl.tensor<8x32xf16>) -> !pl.tensor<16x32xf32> {
  // expected-error @+1 {{'pl.tensor.aic_gather' op the result's element type must be the operand's, f16, got f32}}
  %h = pl.tensor.aic_gather %a up_down : !pl.tensor<8x32xf16> -> !pl.tensor<16x32xf32>
  return %h : !pl.tensor<16x32xf32>
}

// -----

func.func @gather_none(%a: !pl.tensor<8x32xf16>) -> !pl.tensor<16x32xf16> {
  // expected-error @+1 {{'pl.tensor.aic_gather' op with split none the result has the operand's shape, 8x32}}
  %h = pl.tensor.aic_gather %a none : !pl.tensor<8x32xf16> -> !pl.tensor<16x32xf16>
  return %h : !pl.tensor<16x32xf16>
}

// -----

// expected-error @+1 {{a group only launches its aic and aiv kernels (pl.call) and makes their pipes' gm slot buffers (pl.tensor.create), found arith.addi}}
func.func @group_computes() attributes {pl.kind = #pl.kind<group>} {
  %c = arith.constant 1 : i32
  %s = arith.addi %c, %c : i32
  return
}

// -----

func.func @k() attributes {pl.kind = #pl.kind<incore>} {
  return
}
func.func @group_incore() attributes {pl.kind = #pl.kind<group>} {
  // expected-error @+1 {{'pl.call' op a group launches an aic and an aiv kernel, but '@k' is incore}}
  pl.call @k() : () -> ()
  return
}

// -----

func.func @a() attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @b() attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @group_two_aiv() attributes {pl.kind = #pl.kind<group>} {
  // expected-error @+1 {{'pl.call' op a group launches one aic and one aiv kernel, but calls two aiv kernels}}
  pl.call @a() : () -> ()
  pl.call @b() : () -> ()
  return
}

// -----

func.func @c() attributes {pl.kind = #pl.kind<aic>} {
  %r = pl.system.import_peer_buffer "r" from @v : i32
  pl.system.aic_initialize_pipe c2v c2v %r slot_size 2048 slots 2
  return
}
func.func @v() attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "r" size 8192 : i32
  pl.system.aiv_initialize_pipe c2v c2v %r slot_size 4096 slots 2
  return
}
func.func @group_pipes_differ() attributes {pl.kind = #pl.kind<group>} {
  // expected-error @+1 {{'pl.call' op pipe 0 is set up differently by @c (c2v slot_size 2048 slots 2) and @v (c2v slot_size 4096 slots 2)}}
  pl.call @c() : () -> ()
  pl.call @v() : () -> ()
  return
}

// -----

func.func @gm_not_parameter() attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "r" size 2048 : i32
  %gm = pl.tensor.create() : !pl.tensor<4096xi8>
  // expected-error @+1 {{the gm slot buffer must be a parameter of the kernel: the group passes the same buffer to both halves}}
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<4096xi8> slot_size 2048 slots 2
  return
}

// -----

func.func @gm_small(%gm: !pl.tensor<512xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "r" size 2048 : i32
  // expected-error @+1 {{the gm slot buffer holds 2048 bytes, but the pipe's slots take 4096 (slot_size × slots)}}
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<512xf32> slot_size 2048 slots 2
  return
}

// -----

func.func @gm_dynamic(%gm: !pl.tensor<?xi8>) attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "r" size 2048 : i32
  // expected-error @+1 {{the gm slot buffer must be a tensor of static shape}}
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<?xi8> slot_size 2048 slots 2
  return
}

// -----

func.func @two_cube(%gm: !pl.tensor<4096xi8>) attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "r" from @two_vector : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<4096xi8> slot_size 2048 slots 2
  return
}
func.func @two_vector(%gm: !pl.tensor<4096xi8>) attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "r" size 2048 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<4096xi8> slot_size 2048 slots 2
  return
}
func.func @two_buffers() attributes {pl.kind = #pl.kind<group>} {
  %a = pl.tensor.create() : !pl.tensor<4096xi8>
  %b = pl.tensor.create() : !pl.tensor<4096xi8>
  // expected-error @+1 {{the group passes different gm slot buffers to @two_cube and @two_vector for pipe 0}}
  pl.call @two_cube(%a) : (!pl.tensor<4096xi8>) -> ()
  pl.call @two_vector(%b) : (!pl.tensor<4096xi8>) -> ()
  return
}

// -----

func.func @one_cube(%gm: !pl.tensor<4096xi8>) attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "r" from @one_vector : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<4096xi8> slot_size 2048 slots 2
  return
}
func.func @one_vector() attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "r" size 2048 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  return
}
func.func @one_buffer() attributes {pl.kind = #pl.kind<group>} {
  %a = pl.tensor.create() : !pl.tensor<4096xi8>
  // expected-error @+1 {{pipe 0 has a gm slot buffer in one half of the group only}}
  pl.call @one_cube(%a) : (!pl.tensor<4096xi8>) -> ()
  pl.call @one_vector() : () -> ()
  return
}

// -----

func.func @based_vector() attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "r" size 2048 base 1024 : i32
  return
}
func.func @based_cube() attributes {pl.kind = #pl.kind<aic>} {
  // expected-error @+1 {{records base 0, but '@based_vector' reserves 'r' at 1024}}
  %c2v = pl.system.import_peer_buffer "r" from @based_vector base 0 : i32
  return
}

// -----

// A split pipe runs both vector cores, and pto-isa's `none` pipe gives
// vector core 1 no tile: a group mixing them is refused.
!X = !pl.tensor<16x32xf32>
!Acc = !pl.tile<16x32xf32, acc>
func.func @main(%x: !X) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @k(%x) : (!X) -> ()
  return
}
func.func @k(%x: !X) attributes {pl.kind = #pl.kind<group>} {
  // expected-error @+1 {{the group of @k_aic and @k_aiv: its pipes mix `none` and split transfers}}
  pl.call @k_aic(%x) : (!X) -> ()
  pl.call @k_aiv(%x) : (!X) -> ()
  return
}
func.func @k_aic(%x: !X) attributes {pl.kind = #pl.kind<aic>} {
  %c2v = pl.system.import_peer_buffer "r" from @k_aiv : i32
  pl.system.aic_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  %a = pl.tile.create : !Acc
  pl.tile.tpush_to_aiv %a up_down : !Acc
  pl.tile.tpush_to_aiv %a none : !Acc
  return
}
func.func @k_aiv(%x: !X) attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "r" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  %h = pl.tile.tpop_from_aic up_down : !pl.tile<8x32xf32, vec>
  pl.system.tfree_to_aic %h : !pl.tile<8x32xf32, vec>
  %w = pl.tile.tpop_from_aic none : !pl.tile<16x32xf32, vec>
  pl.system.tfree_to_aic %w : !pl.tile<16x32xf32, vec>
  return
}

// -----

// A group launches its two kernels together as one mixed task: one kernel
// alone would never be launched.
func.func @lone(%x: !pl.tensor<16x32xf32>) attributes {pl.kind = #pl.kind<group>} {
  // expected-error @+1 {{a group launches one aic and one aiv kernel together, but calls only '@lone_aic'}}
  pl.call @lone_aic(%x) : (!pl.tensor<16x32xf32>) -> ()
  return
}
func.func @lone_aic(%x: !pl.tensor<16x32xf32>) attributes {pl.kind = #pl.kind<aic>} {
  return
}
