// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(pl-verify-sync)' --split-input-file --verify-diagnostics

// A vector op reading a tile the load has not finished writing.
func.func @missing(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the earlier access}}
  %a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{pl-verify-sync: read-after-write on vec[0, 4096) is not synchronised: pl.tile.load (mte2) before this pl.tile.exp (v)}}
  %b = pl.tile.exp %a {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
  return
}

// -----

// Synchronised through a third pipe: MTE2 -> V, then V -> MTE3 orders the
// load before the store transitively; no error.
func.func @transitive(%x: !pl.tensor<16x64xf32>, %out: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  pl.system.sync_src set mte2 wait v event 0
  pl.system.sync_dst set mte2 wait v event 0
  %b = pl.tile.exp %a {pl.addresses = array<i64: 0>} : !pl.tile<16x64xf32, vec>
  pl.system.sync_src set v wait mte3 event 0
  pl.system.sync_dst set v wait mte3 event 0
  %r = pl.tile.store %b, %out[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  return
}

// -----

// The next iteration's load overwrites the tile the previous iteration's
// load wrote and its exp reads, with nothing ordering them (the first
// hazard found is reported: the write-after-write between the loads).
func.func @loop_carried(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+2 {{pl-verify-sync: write-after-write on vec[0, 4096) is not synchronised: pl.tile.load (mte2) before this pl.tile.load (mte2)}}
    // expected-note @+1 {{the earlier access}}
    %a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
    pl.system.sync_src set mte2 wait v event 0
    pl.system.sync_dst set mte2 wait v event 0
    %b = pl.tile.exp %a {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
  }
  return
}

// -----

// Synchronised on one branch only.
func.func @branch(%x: !pl.tensor<16x64xf32>, %flag: i1) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the earlier access}}
  %a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  scf.if %flag {
    pl.system.sync_src set mte2 wait v event 0
    pl.system.sync_dst set mte2 wait v event 0
  }
  // expected-error @+1 {{pl-verify-sync: read-after-write on vec[0, 4096) is not synchronised}}
  %b = pl.tile.exp %a {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
  return
}

// -----

// A wait whose set is only on the other path would hang.
func.func @hang(%flag: i1) attributes {pl.kind = #pl.kind<aiv>} {
  scf.if %flag {
    pl.system.sync_src set mte2 wait v event 3
  }
  // expected-error @+1 {{pl-verify-sync: this wait for event 3 from mte2 to v has no earlier set on this path: the kernel would hang}}
  pl.system.sync_dst set mte2 wait v event 3
  return
}

// -----

// expected-error @+1 {{pl-verify-sync: event 2 from v to mte3 is set but never waited for (it would satisfy a later kernel's wait)}}
func.func @leftover() attributes {pl.kind = #pl.kind<aiv>} {
  pl.system.sync_src set v wait mte3 event 2
  return
}

// -----

// Two vector ops on one buffer need a pipe barrier.
func.func @same_pipe(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  // expected-note @+1 {{the earlier access}}
  %a = pl.tile.full %zero {pl.addresses = array<i64: 0>} : f32 -> !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{pl-verify-sync: read-after-write on vec[0, 4096) is not synchronised: pl.tile.full (v) before this pl.tile.exp (v)}}
  %b = pl.tile.exp %a {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
  return
}

// -----

func.func @unplanned(%x: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{pl-verify-sync: a tile without a planned address; run pl-plan-memory first}}
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  return
}

// -----

// A row sum writes its scratch tile: planned into the buffer a store is
// still reading, it must wait for MTE3.
func.func @scratch_written(%x: !pl.tensor<16x64xf32>, %out: !pl.tensor<16x64xf32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  pl.system.sync_src set mte2 wait v event 0
  pl.system.sync_dst set mte2 wait v event 0
  %e = pl.tile.exp %a {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
  pl.system.pipe_barrier v
  pl.system.sync_src set v wait mte3 event 0
  pl.system.sync_dst set v wait mte3 event 0
  // expected-note @+1 {{the earlier access}}
  %r = pl.tile.store %e, %out[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  %tmp = pl.tile.create {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
  // expected-error @+1 {{pl-verify-sync: write-after-read on vec[4096, 8192) is not synchronised: pl.tile.store (mte3) before this pl.tile.row_sum (v)}}
  %s = pl.tile.row_sum %a, %tmp {pl.addresses = array<i64: 8192>} : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x1xf32, vec>
  return
}

// -----

// The slot protocol of a core group: a popped tile read after its free.
func.func @read_after_free() attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "r" size 8192 base 0 : i32
  pl.system.aiv_initialize_pipe c2v c2v %r slot_size 4096 slots 2
  %t = pl.tile.tpop_from_aic none {pl.addresses = array<i64: 0>} : !pl.tile<16x64xf32, vec>
  pl.system.tfree_to_aic %t : !pl.tile<16x64xf32, vec>
  pl.system.sync_src set mte2 wait v event 0
  pl.system.sync_dst set mte2 wait v event 0
  // expected-error @+1 {{pl-verify-sync: this op reads a popped tile after its slot is freed (the producer may have overwritten it)}}
  %e = pl.tile.exp %t {pl.addresses = array<i64: 8192>} : !pl.tile<16x64xf32, vec>
  return
}

// -----

// A popped tile never given back.
func.func @never_freed() attributes {pl.kind = #pl.kind<aiv>} {
  %r = pl.system.reserve_buffer "r" size 8192 base 0 : i32
  pl.system.aiv_initialize_pipe c2v c2v %r slot_size 4096 slots 2
  // expected-error @+1 {{pl-verify-sync: this popped tile's slot is given back 0 times: a pop is freed exactly once}}
  %t = pl.tile.tpop_from_aic none {pl.addresses = array<i64: 0>} : !pl.tile<16x64xf32, vec>
  return
}

// -----

// A call passes one tensor to both parameters: the store through %out and
// the later load through %a touch the same memory, and nothing orders them.
func.func @aliased(%a: !pl.tensor<16x64xf32>, %out: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<inout>}) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t1 = pl.tile.load %a[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  pl.system.sync_src set mte2 wait mte3 event 0
  pl.system.sync_dst set mte2 wait mte3 event 0
  // expected-note @+1 {{the earlier access}}
  %o1 = pl.tile.store %t1, %out[%c0, %c0] : !pl.tile<16x64xf32, vec>, !pl.tensor<16x64xf32>
  // expected-error @+1 {{pl-verify-sync: read-after-write on a global tensor is not synchronised: pl.tile.store (mte3) before this pl.tile.load (mte2)}}
  %t2 = pl.tile.load %a[%c0, %c0] {pl.addresses = array<i64: 4096>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
  pl.system.pipe_barrier all
  return %o1 : !pl.tensor<16x64xf32>
}
func.func @main(%x: !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.call @aliased(%x, %x) : (!pl.tensor<16x64xf32>, !pl.tensor<16x64xf32>) -> !pl.tensor<16x64xf32>
  return %r : !pl.tensor<16x64xf32>
}
