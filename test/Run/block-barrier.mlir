// pl.system.syncall in pto-run: the blocks of a launch that starts them
// together run at once and wait for each other; a barrier some block never
// reaches is a deadlock report, and a launch that does not start its
// blocks together cannot hold one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pto-run %s --entry together --random-inputs --seed 3 -o %t
// RUN: /usr/bin/python3 -c "import numpy as np; c = np.load('%t/result0.npy'); o = np.load('%t/result1.npy'); assert np.allclose(o, np.tile(c.sum(axis=0), (4, 1)), rtol=1e-6), o; print('every block read every row')" | FileCheck %s --check-prefix=TOGETHER
// RUN: not pto-run %s --entry apart --random-inputs 2>&1 | FileCheck %s --check-prefix=APART
// RUN: not pto-run %s --entry skipped --random-inputs 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: not pto-run %s --entry partial --random-inputs 2>&1 | FileCheck %s --check-prefix=PARTIAL

!X = !pl.tensor<4x64xf32>
!Row = !pl.tile<1x64xf32, vec>
!All = !pl.tile<4x64xf32, vec>

// Each block copies its row, waits, then every block reads all rows: the
// sum of the rows' copies equals the sum of the rows.
// TOGETHER: every block read every row
func.func @copy_then_sum(%x: !X, %copy: !X {pl.direction = #pl.direction<inout>},
                         %out: !X {pl.direction = #pl.direction<out>}) -> (!X, !X) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %b = pl.tile.get_block_idx
  %t = pl.tile.load %x[%b, %c0] : !X -> !Row
  %copied = pl.tile.store %t, %copy[%b, %c0] : !Row, !X
  pl.system.syncall hard aiv_only
  %all = pl.tile.load %copied[%c0, %c0] : !X -> !All
  %s = pl.tile.col_sum %all : !All -> !Row
  %o = pl.tile.store %s, %out[%b, %c0] : !Row, !X
  return %copied, %o : !X, !X
}
func.func @together(%x: !X) -> (!X, !X) attributes {pl.kind = #pl.kind<orchestration>} {
  %c4 = arith.constant 4 : index
  %copy = pl.tensor.create() : !X
  %out = pl.tensor.create() : !X
  %c, %o, %t = pl.submit @copy_then_sum(%x, %copy, %out) blocks %c4 sync_start : (!X, !X, !X) -> (!X, !X)
  return %c, %o : !X, !X
}

// APART: error: a pl.system.syncall in a launch of 4 blocks that does not start them together: its blocks may run one after another and the barrier never completes (launch it with sync_start)
func.func @apart(%x: !X) -> (!X, !X) attributes {pl.kind = #pl.kind<orchestration>} {
  %c4 = arith.constant 4 : index
  %copy = pl.tensor.create() : !X
  %out = pl.tensor.create() : !X
  %c, %o, %t = pl.submit @copy_then_sum(%x, %copy, %out) blocks %c4 : (!X, !X, !X) -> (!X, !X)
  return %c, %o : !X, !X
}

// Block 0 skips the barrier.
// DEADLOCK: error: block {{[1-3]}} waits at a pl.system.syncall that never completes: block 0 ended without reaching it (the launch deadlocks on the device)
func.func @skip_first(%x: !X {pl.direction = #pl.direction<inout>}) -> !X attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %b = pl.tile.get_block_idx
  %first = arith.cmpi eq, %b, %c0 : index
  scf.if %first {
  } else {
    pl.system.syncall hard aiv_only
  }
  return %x : !X
}
func.func @skipped(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %c4 = arith.constant 4 : index
  %r, %t = pl.submit @skip_first(%x) blocks %c4 sync_start : (!X) -> !X
  return %r : !X
}

// A soft barrier counts `used` blocks; pto-run's spans the launch.
// PARTIAL: error: a soft pl.system.syncall for 2 blocks in a launch of 4: pto-run runs a barrier across the whole launch
func.func @soft_two(%ws: !pl.tensor<16xi32> {pl.direction = #pl.direction<inout>}) -> !pl.tensor<16xi32> attributes {pl.kind = #pl.kind<aiv>} {
  %two = arith.constant 2 : i32
  pl.system.syncall soft aiv_only on %ws : !pl.tensor<16xi32> used %two
  return %ws : !pl.tensor<16xi32>
}
func.func @partial(%ws: !pl.tensor<16xi32>) -> !pl.tensor<16xi32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c4 = arith.constant 4 : index
  %r, %t = pl.submit @soft_two(%ws) blocks %c4 sync_start : (!pl.tensor<16xi32>) -> !pl.tensor<16xi32>
  return %r : !pl.tensor<16xi32>
}
