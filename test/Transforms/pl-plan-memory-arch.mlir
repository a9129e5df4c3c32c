// Capacities come from the arch: two 100 KiB vector tiles live at once do
// not fit the 184 KiB of a2a3's UB left for tiles, and fit a5's 248 KiB.
// RUN: not pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-plan-memory))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=A2A3
// RUN: pto-opt --verify-roundtrip %s --pass-pipeline='builtin.module(func.func(pl-plan-memory{arch=a5}))' | FileCheck %s --check-prefix=A5

// A2A3: error: 'pl.tile.recip' op pl-plan-memory: vec overflows: this tile needs 102400 B at address 102400, past the 188416 B of vec; 204800 B are live here in 2 buffers
// A5: pl.memory = {vec = 204800 : i64}
!Mid = !pl.tile<100x256xf32, vec>
func.func @two(%x: !pl.tensor<100x256xf32>, %out: !pl.tensor<100x256xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<100x256xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] : !pl.tensor<100x256xf32> -> !Mid
  %b = pl.tile.recip %a : !Mid
  %c = pl.tile.add %a, %b : !Mid, !Mid -> !Mid
  %r = pl.tile.store %c, %out[%c0, %c0] : !Mid, !pl.tensor<100x256xf32>
  return %r : !pl.tensor<100x256xf32>
}
