// RUN: pto-opt %s --split-input-file --verify-diagnostics --pl-estimate-cycles -o /dev/null
// RUN: pto-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pl-estimate-cycles{max-iterations=3})' -o /dev/null

// The estimates below are worked by hand from docs/cost-model.md's table.
// A 32x128 f32 tile is 16384 bytes: a load 280 cycles (16384 / 58.56
// bytes per cycle, rounded up), a store 150 (/ 109.38); the add takes 64
// repeats (two 256-byte repeats per row): 10 + 2 * 64 + 14 = 152.
//
// The loop of pl-insert-sync: each iteration waits for the last store
// before it loads (set/wait mte3 -> mte2 at its head), the add waits for
// both loads, the store for the add. So nothing overlaps: 560 + 152 + 150
// = 862 cycles an iteration, 3448 for four. MTE2 is the busiest pipe, 4 *
// 560 = 2240 cycles: the ratio is 3448 / 2240 = 1.54. (With
// max-iterations=3 the last iteration repeats the third's 862
// cycles: the same figures.)
//
// The data bound: held only by their pipes and what they read, the loads
// run back to back (the k-th pair ends at 560 k), and the last add and
// store follow the last pair: 2240 + 152 + 150 = 2542 cycles, ratio 3448
// / 2542 = 1.36. No synchronisation and buffer plan does better.

// expected-remark @+1 {{pl-estimate-cycles: @add: 3448 cycles (1.86 us at 1.85 GHz); pipe bound 2240 cycles (mte2); ratio 1.54; data bound 2542 cycles (ratio 1.36); busy: mte1 0, mte2 2240, mte3 600, m 0, v 608, s 0, fix 0}}
func.func @add(%arg0: !pl.tensor<128x128xf32>, %arg1: !pl.tensor<128x128xf32>, %arg2: !pl.tensor<128x128xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<128x128xf32> attributes {pl.kind = #pl.kind<aiv>, pl.memory = {vec = 32768 : i64}} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c32 = arith.constant 32 : index
  %0 = scf.for %arg3 = %c0 to %c128 step %c32 iter_args(%arg4 = %arg2) -> (!pl.tensor<128x128xf32>) {
    pl.system.sync_src set mte3 wait mte2 event 0
    pl.system.sync_dst set mte3 wait mte2 event 0
    pl.system.sync_src set v wait mte2 event 0
    pl.system.sync_dst set v wait mte2 event 0
    pl.system.pipe_barrier mte2
    %1 = pl.tile.load %arg0[%arg3, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<128x128xf32> -> !pl.tile<32x128xf32, vec>
    %2 = pl.tile.load %arg1[%arg3, %c0] {pl.addresses = array<i64: 16384>} : !pl.tensor<128x128xf32> -> !pl.tile<32x128xf32, vec>
    pl.system.sync_src set mte2 wait v event 0
    pl.system.sync_dst set mte2 wait v event 0
    %3 = pl.tile.add %1, %2 {pl.addresses = array<i64: 0>} : !pl.tile<32x128xf32, vec>, !pl.tile<32x128xf32, vec> -> !pl.tile<32x128xf32, vec>
    pl.system.sync_src set v wait mte3 event 0
    pl.system.sync_dst set v wait mte3 event 0
    %4 = pl.tile.store %3, %arg4[%arg3, %c0] : !pl.tile<32x128xf32, vec>, !pl.tensor<128x128xf32>
    scf.yield %4 : !pl.tensor<128x128xf32>
  }
  pl.system.pipe_barrier all
  return %0 : !pl.tensor<128x128xf32>
}

// -----

// Without synchronisation the pipes overlap completely (the kernel would
// race, but the figure is the bound): MTE2 loads back to back, 8 * 280 =
// 2240 cycles, and finishes last. It even beats the data bound (2542, as
// above): its adds do not wait for their loads.

// expected-remark @+1 {{pl-estimate-cycles: @overlapped: 2240 cycles (1.21 us at 1.85 GHz); pipe bound 2240 cycles (mte2); ratio 1.00; data bound 2542 cycles (ratio 0.88); busy: mte1 0, mte2 2240, mte3 600, m 0, v 608, s 0, fix 0}}
func.func @overlapped(%arg0: !pl.tensor<128x128xf32>, %arg1: !pl.tensor<128x128xf32>, %arg2: !pl.tensor<128x128xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<128x128xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c32 = arith.constant 32 : index
  %0 = scf.for %arg3 = %c0 to %c128 step %c32 iter_args(%arg4 = %arg2) -> (!pl.tensor<128x128xf32>) {
    %1 = pl.tile.load %arg0[%arg3, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<128x128xf32> -> !pl.tile<32x128xf32, vec>
    %2 = pl.tile.load %arg1[%arg3, %c0] {pl.addresses = array<i64: 16384>} : !pl.tensor<128x128xf32> -> !pl.tile<32x128xf32, vec>
    %3 = pl.tile.add %1, %2 {pl.addresses = array<i64: 32768>} : !pl.tile<32x128xf32, vec>, !pl.tile<32x128xf32, vec> -> !pl.tile<32x128xf32, vec>
    %4 = pl.tile.store %3, %arg4[%arg3, %c0] : !pl.tile<32x128xf32, vec>, !pl.tensor<128x128xf32>
    scf.yield %4 : !pl.tensor<128x128xf32>
  }
  return %0 : !pl.tensor<128x128xf32>
}

// -----

// A trip count from a kernel argument is not known: the loop runs
// unknown-trips times (1), and the remark says so. An inner loop's bound
// from the outer induction variable is known: for %i = 0, 1, 2 it runs
// %i + 1 times, 6 exps of a 16x64 f32 tile (16 repeats: 13 + 32 + 18 =
// 63 cycles), 378 cycles on V.

// expected-remark @+1 {{pl-estimate-cycles: @bounds: 378 cycles (0.20 us at 1.85 GHz); pipe bound 378 cycles (v); ratio 1.00; data bound 378 cycles (ratio 1.00); busy: mte1 0, mte2 0, mte3 0, m 0, v 378, s 0, fix 0; approximate: 1 loop(s) of unknown trip count run 1 time(s)}}
func.func @bounds(%n: index) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %t = pl.tile.create {pl.addresses = array<i64: 0>} : !pl.tile<16x64xf32, vec>
  scf.for %k = %c0 to %n step %c1 {
    scf.for %i = %c0 to %c3 step %c1 {
      %upper = arith.addi %i, %c1 : index
      scf.for %j = %c0 to %upper step %c1 {
        %e = pl.tile.exp %t {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
      }
    }
  }
  return
}

// -----

// The cube: a 16x32 f16 left and 32x16 f16 right tile make a 16x16 f32
// accumulator in 6 + 1 * 1 * 2 * 1 = 8 cycles (16 f16 of K per fractal);
// its 1024 bytes leave through FIX at 40.63 bytes per cycle: 26 cycles.
// The store waits for the matmul.

// expected-remark @+1 {{pl-estimate-cycles: @cube: 34 cycles (0.02 us at 1.85 GHz); pipe bound 26 cycles (fix); ratio 1.31; data bound 34 cycles (ratio 1.00); busy: mte1 0, mte2 0, mte3 0, m 8, v 0, s 0, fix 26}}
func.func @cube(%out: !pl.tensor<16x16xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x16xf32> attributes {pl.kind = #pl.kind<aic>} {
  %c0 = arith.constant 0 : index
  %l = pl.tile.create {pl.addresses = array<i64: 0>} : !pl.tile<16x32xf16, left>
  %r = pl.tile.create {pl.addresses = array<i64: 0>} : !pl.tile<32x16xf16, right>
  %a = pl.tile.matmul %l, %r {pl.addresses = array<i64: 0>} : !pl.tile<16x32xf16, left>, !pl.tile<32x16xf16, right> -> !pl.tile<16x16xf32, acc>
  pl.system.sync_src set m wait fix event 0
  pl.system.sync_dst set m wait fix event 0
  %o = pl.tile.store %a, %out[%c0, %c0] : !pl.tile<16x16xf32, acc>, !pl.tensor<16x16xf32>
  pl.system.pipe_barrier all
  return %o : !pl.tensor<16x16xf32>
}

// -----

// A transfer through a staging tile is two steps, one after the other: its
// 4096 bytes come in on MTE2 (70 cycles) and only then leave on MTE3 (38),
// 108 cycles, though neither pipe is busy more than 70.

// expected-remark @+1 {{pl-estimate-cycles: @put: 108 cycles (0.06 us at 1.85 GHz); pipe bound 70 cycles (mte2); ratio 1.54; data bound 108 cycles (ratio 1.00); busy: mte1 0, mte2 70, mte3 38, m 0, v 0, s 0, fix 0}}
func.func @put(%d: !pld.dtensor<16x64xf32>, %src: !pl.tensor<16x64xf32>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %stage = pl.tile.create {pl.addresses = array<i64: 0>} : !pl.tile<16x64xf32, vec>
  pld.tile.put %d to %peer from %src stage %stage none : !pld.dtensor<16x64xf32>, !pl.tensor<16x64xf32>, !pl.tile<16x64xf32, vec>
  pl.system.pipe_barrier all
  return
}

// -----

// Orchestrations are not kernels: no estimate.
func.func @host(%x: !pl.tensor<16x16xf32>) -> !pl.tensor<16x16xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  return %x : !pl.tensor<16x16xf32>
}

// -----

// A kernel must be planned: its tiles need their addresses.
func.func @unplanned(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{pl-estimate-cycles: a tile without a planned address; run pl-plan-memory first}}
  %t = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  return
}
