// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-to-emitc --verify-diagnostics

func.func @unplanned(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{convert-pl-to-emitc: this tile has no planned address (run pl-plan-memory first)}}
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  return
}

// -----

func.func @no_lowering(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{convert-pl-to-emitc: 'pl.tensor.exp' has no lowering to EmitC yet}}
  %u = pl.tensor.exp %x : !pl.tensor<16x64xf32>
  return
}

// -----

func.func @kernel(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @main(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  // expected-error @+1 {{convert-pl-to-emitc: this module dispatches the kernels it would lower; lower each kernel in a module of its own (pto-translate --mlir-to-cce does)}}
  pl.call @kernel(%x) : (!pl.tensor<16x64xf32>) -> ()
  return
}

// -----

// TTRANS writes a scratch tile the op does not name (the a2a3 pipeline's
// pl-flatten-tile-nd-to-2d adds one).
func.func @transpose_without_scratch(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{convert-pl-to-emitc: TTRANS needs a scratch tile (tmp): run pl-flatten-tile-nd-to-2d first}}
  %r = pl.tile.transpose %t axes 0, 1 {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec> -> !pl.tile<64x16xf32, vec>
  return
}

// -----

// pto-isa's TPUT moves data through a staging tile: the tensor form must
// be given one first.
func.func @unstaged(%dst: !pld.dtensor<4x256xf32> {pl.direction = #pl.direction<out>}, %src: !pl.tensor<4x256xf32>, %peer: i32, %ctx: !pld.comm_ctx) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{convert-pl-to-emitc: pto-isa's TPUT/TGET move data through a staging tile: run pl-convert-tensor-to-tile (pto-a2a3-pipeline), which gives the transfer one}}
  pld.tensor.put %dst to %peer from %src none chunk 0, 0 : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>
  return
}

// -----

// What pto-isa's a2a3 instructions take (docs/translate.md, "What pto-isa
// takes"): pl promotes mixed element types, TADD converts nothing.
func.func @mixed() attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.tile.create : !pl.tile<16x64xf16, vec>
  %b = pl.tile.create : !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{convert-pl-to-emitc: pto-isa's TADD takes one element type for its destination and sources (f32 and f16 here): cast the operand first}}
  %s = pl.tile.add %a, %b : !pl.tile<16x64xf16, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
  return
}

// -----

func.func @remainder_i16() attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.tile.create : !pl.tile<16x64xi16, vec>
  %t = pl.tile.create : !pl.tile<1x128xi16, vec>
  // expected-error @+1 {{convert-pl-to-emitc: pto-isa's TREM on a2a3 takes f32, i32 tiles, not i16}}
  %r = pl.tile.rem %a, %a, %t : !pl.tile<16x64xi16, vec>, !pl.tile<16x64xi16, vec>, !pl.tile<1x128xi16, vec> -> !pl.tile<16x64xi16, vec>
  return
}

// -----

// a2a3's TCVT has no f16 -> bf16 step: it would compile and leave the
// result unwritten.
func.func @cast_chain() attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.tile.create : !pl.tile<16x64xf16, vec>
  // expected-error @+1 {{convert-pl-to-emitc: pto-isa's TCVT on a2a3 does not convert f16 to bf16 in one step (it would leave the result unwritten): run pl-legalize-tile-cast (pto-a2a3-pipeline), which converts through intermediate types}}
  %r = pl.tile.cast %a rint : !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xbf16, vec>
  return
}

// -----

// Only pl ops take pl values here: a tile carried by scf.while (which
// planning does not give one buffer, as it does scf.for's) is refused, not
// left behind in half-converted IR.
func.func @carried_by_while(%x: !pl.tensor<16x64xf32>, %n: index) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{convert-pl-to-emitc: this op takes a !pl.tile<16x64xf32, vec> and is not a pl op; it is not translated yet}}
  %r:2 = scf.while (%i = %c0, %a = %t) : (index, !pl.tile<16x64xf32, vec>) -> (index, !pl.tile<16x64xf32, vec>) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i, %a : index, !pl.tile<16x64xf32, vec>
  } do {
  ^bb0(%j: index, %b: !pl.tile<16x64xf32, vec>):
    %next = arith.addi %j, %c1 : index
    scf.yield %next, %b : index, !pl.tile<16x64xf32, vec>
  }
  return
}

// -----

// A view's dynamic extent is not known (pl.tensor.view has no sizes): its
// dim is refused, not read as -1.
func.func @dynamic_view(%x: !pl.tensor<?x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %v = pl.tensor.view %x : !pl.tensor<?x64xf32> -> !pl.tensor<?x64xf32>
  // expected-error @+1 {{convert-pl-to-emitc: dimension 0 of this view is dynamic and its extent is not known here; views of dynamic shape are not translated yet}}
  %n = pl.tensor.dim %v, 0 : !pl.tensor<?x64xf32>
  return
}

// -----

func.func @column_of_columns(%x: !pl.tensor<16x1xf32>, %y: !pl.tensor<1x1xf32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 8192 : i64}} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x1xf32> -> !pl.tile<16x1xf32, vec>
  // expected-error @below {{convert-pl-to-emitc: a column reduction of a column vector (an [N, 1] col_major tile, what a row reduction makes) is not translated: pto-isa's column reductions take row-major tiles}}
  %s = pl.tile.col_max %t {pl.addresses = array<i64: 64>} : !pl.tile<16x1xf32, vec> -> !pl.tile<1x1xf32, vec>
  %r = pl.tile.store %s, %y[%c0, %c0] : !pl.tile<1x1xf32, vec>, !pl.tensor<1x1xf32>
  return
}

// -----

// expected-error @+1 {{convert-pl-to-emitc: parameter #1: a bf16 scalar parameter is not translated yet (EmitC's __bf16 is not pto-isa's bfloat16_t); pass it as f32 and cast it in the kernel}}
func.func @bf16_scalar(%x: !pl.tensor<16x64xf32>, %s: bf16) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// pto-isa's masked gather streams into its destination's storage: rows
// padded to 32 bytes would take the next row's elements.
func.func @gather_mask_padded(%x: !pl.tensor<2x8xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<2x8xf32> -> !pl.tile<2x8xf32, vec>
  // expected-error @+1 {{pto-isa's masked TGATHER fills its destination's storage row after row: the result's rows must be a whole number of 32 bytes, got !pl.tile<2x4xf32, vec>}}
  %g = pl.tile.gather_mask %t p0101 {pl.addresses = array<i64: 256>} : !pl.tile<2x8xf32, vec> -> !pl.tile<2x4xf32, vec>
  return
}

// -----

// pto-isa's TGATHER reads a flat index of its source's storage.
func.func @gather_padded_rows(%x: !pl.tensor<2x4xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<2x4xf32> -> !pl.tile<2x4xf32, vec>
  %i = pl.tile.create {pl.addresses = array<i64: 256>} : !pl.tile<1x8xi32, vec>
  %tmp = pl.tile.create {pl.addresses = array<i64: 512>} : !pl.tile<1x8xi32, vec>
  // expected-error @+1 {{pto-isa's TGATHER indexes the source's storage, whose rows are padded to 32 bytes here: gather from one row, or from rows of a whole number of 32 bytes, got !pl.tile<2x4xf32, vec>}}
  %g = pl.tile.gather %t, %i, %tmp {pl.addresses = array<i64: 768>} : !pl.tile<2x4xf32, vec>, !pl.tile<1x8xi32, vec>, !pl.tile<1x8xi32, vec> -> !pl.tile<1x8xf32, vec>
  return
}

// -----

// A while loop carrying an array has no lowering yet (a for loop's or a
// branch's has).
func.func @array_while(%i: index, %v: i32) -> i32 attributes {pl.kind = #pl.kind<aiv>} {
  %a = pl.array.create : !pl.array<i32, 4>
  %false = arith.constant false
  // expected-error @+1 {{convert-pl-to-emitc: an array a while loop carries is not translated yet}}
  %r = scf.while (%b = %a) : (!pl.array<i32, 4>) -> !pl.array<i32, 4> {
    scf.condition(%false) %b : !pl.array<i32, 4>
  } do {
  ^bb0(%c: !pl.array<i32, 4>):
    %d = pl.array.update_element %c[%i], %v : !pl.array<i32, 4>, i32
    scf.yield %d : !pl.array<i32, 4>
  }
  %n = pl.array.get_element %r[%i] : !pl.array<i32, 4> -> i32
  return %n : i32
}

// -----

// TSCATTER indexes the destination's storage: rows padded to 32 bytes
// would put a row-major flat index in the wrong place.
func.func @scatter_padded(%x: !pl.tensor<2x4xf32>, %at: !pl.tensor<2x4xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<2x4xf32> -> !pl.tile<2x4xf32, vec>
  %i = pl.tile.load %at[%c0, %c0] {pl.addresses = array<i64: 64>} : !pl.tensor<2x4xi32> -> !pl.tile<2x4xi32, vec>
  // expected-error @+1 {{convert-pl-to-emitc: pto-isa's TSCATTER indexes the destination's storage, whose rows are padded to 32 bytes here: scatter into one row, or into rows of a whole number of 32 bytes, got !pl.tile<4x4xf32, vec>}}
  %s = pl.tile.scatter %t, %i {pl.addresses = array<i64: 128>} : !pl.tile<2x4xf32, vec>, !pl.tile<2x4xi32, vec> -> !pl.tile<4x4xf32, vec>
  return
}

// -----

// pto-isa's tiles are 2-D: a rank-1 tile moving to or from memory is an
// error at the op (it once panicked in the translator).
func.func @rank_one(%x: !pl.tensor<64xf32>, %y: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{convert-pl-to-emitc: pto-isa's tiles are 2-D and !pl.tile<64xf32, vec> is not: give the tensor a leading extent of 1 (a row [1, N]) to translate it}}
  %t = pl.tile.load %x[%c0] {pl.addresses = array<i64: 0>} : !pl.tensor<64xf32> -> !pl.tile<64xf32, vec>
  %s = pl.tile.store %t, %y[%c0] : !pl.tile<64xf32, vec>, !pl.tensor<64xf32>
  return
}

// -----

// A compare gather is scalar loops by then (pl-lower-math-ops).
func.func @gather_compare(%x: !pl.tensor<16x64xf32>, %k: f32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{pl-lower-math-ops (pto-a2a3-pipeline) makes it scalar loops}}
  %i, %n = pl.tile.gather_compare %t, %k gt {pl.addresses = array<i64: 4096, 8192>} : !pl.tile<16x64xf32, vec>, f32 -> !pl.tile<16x8xi32, vec>, !pl.tile<1x16xi32, vec>
  return
}

// -----

// An mscatter is stores by then (pl-lower-math-ops).
func.func @mscatter(%x: !pl.tensor<16x64xf32>, %t: !pl.tensor<64x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %s = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  %i = pl.tile.create {pl.addresses = array<i64: 4096>} : !pl.tile<1x16xi32, vec>
  // expected-error @+1 {{pl-lower-math-ops (pto-a2a3-pipeline) makes it stores}}
  %w = pl.tile.mscatter %s, %i into %t row : !pl.tile<16x64xf32, vec>, !pl.tile<1x16xi32, vec>, !pl.tensor<64x64xf32>
  return
}

// -----

// Random bits are scalar arithmetic by then (pl-lower-math-ops).
func.func @random(%k: i32) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{a2a3 has no TRANDOM}}
  %r = pl.tile.random key(%k, %k) counter(%k, %k, %k, %k) {pl.addresses = array<i64: 0>} : !pl.tile<4x64xui32, vec>
  return
}

// -----

// A row-major vec tile read column-major (nd as dn) feeds no a2a3 vector
// instruction.
func.func @transposed_vec_view(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 4096 : i64}} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{convert-pl-to-emitc: a transpose_view of a tile without boxes (nd as dn) feeds no a2a3 instruction; use pl.tile.transpose}}
  %v = pl.tile.transpose_view %t {pl.addresses = array<i64: 0>} : !pl.tile<16x64xf32, vec> -> !pl.tile<64x16xf32, vec, blayout = col_major>
  return
}

// -----

// a2a3 moves a zn L1 tile into L0 in 16x16 fractals: an f32 one stored 8
// rows high cannot move.
func.func @transposed_f32_rows(%x: !pl.tensor<32x8xf32>) attributes {pl.kind = #pl.kind<aic>, pl.memory = {mat = 1024 : i64, left = 1024 : i64}} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<32x8xf32> -> !pl.tile<32x8xf32, mat>
  pl.system.sync_src set mte2 wait mte1 event 0
  pl.system.sync_dst set mte2 wait mte1 event 0
  %v = pl.tile.transpose_view %t {pl.addresses = array<i64: 0>} : !pl.tile<32x8xf32, mat> -> !pl.tile<8x32xf32, mat, blayout = row_major, slayout = col_major>
  // expected-error @+1 {{a2a3 moves a transposed (zn) L1 tile into L0 in 16x16 fractals: !pl.tile<8x32xf32, mat, blayout = row_major, slayout = col_major> is stored as 8x32, so its extents must be multiples of 16}}
  %l = pl.tile.move %v {pl.addresses = array<i64: 0>} : !pl.tile<8x32xf32, mat, blayout = row_major, slayout = col_major> -> !pl.tile<8x32xf32, left>
  pl.system.pipe_barrier all
  return
}

// -----

func.func @pipe_without_gm() attributes {pl.kind = #pl.kind<aiv>} {
  %c2v = pl.system.reserve_buffer "r" size 4096 base 0 : i32
  // expected-error @+1 {{convert-pl-to-emitc: this pipe has no slot buffer in global memory, which a2a3's pipes go through: run pl-inject-gm-pipe-buffer (pto-a2a3-pipeline does)}}
  pl.system.aiv_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
  return
}

// -----

func.func @unplanned_ring(%gm: !pl.tensor<4096xi8>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{convert-pl-to-emitc: this ring has no planned address (run pl-plan-memory first)}}
  %c2v = pl.system.reserve_buffer "r" size 4096 : i32
  pl.system.aiv_initialize_pipe c2v c2v %c2v gm %gm : !pl.tensor<4096xi8> slot_size 2048 slots 2
  return
}
