// pto-run's index sequences, sorts and gathers against numpy: f32 and f16
// scores (with ties) sorted by block into (value, index) pairs, merged by
// runs and by lists (cut short, and stopped when a list runs out), the
// indices read back out of the pairs as i32 and used to gather, a
// descending ui16 sequence that wraps, and a reinterpreted view. The
// golden decodes the pairs' bytes with numpy's views.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(3); x = r.integers(-20, 20, (2, 64)).astype(np.float32); np.save('%t/x.npy', x); np.save('%t/h.npy', x[:1, :32].astype(np.float16))"
// RUN: pto-run %s --input x=%t/x.npy --input h=%t/h.npy -o %t/out
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/s.npy', np.random.default_rng(5).integers(-50, 50, (1, 256)).astype(np.float32))"
// RUN: pto-run %s --entry runs --input x=%t/s.npy -o %t/runs
// RUN: /usr/bin/python3 %S/Inputs/sorting_golden.py %t | FileCheck %s
// CHECK: sorted
// A merge that stops when a list runs out leaves the rest of its row
// undefined:
// RUN: not pto-run %s --entry unfinished --input x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=UNDEFINED
// UNDEFINED: error: {{.*}}never written
// A gather index past the source is an error, not a read of anything:
// RUN: not pto-run %s --entry outside 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: error: {{.*}}gather index 64 at [0, 0] is outside the source's 64 elements

!X = !pl.tensor<2x64xf32>

func.func @main(%x: !X, %h: !pl.tensor<1x32xf16>)
    -> (!pl.tensor<2x128xf32>, !pl.tensor<1x128xf16>, !pl.tensor<1x128xf32>, !pl.tensor<1x64xf32>,
        !pl.tensor<1x64xi32>, !pl.tensor<1x64xf32>, !pl.tensor<1x8xui16>, !pl.tensor<2x128xi16>)
    attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %z16 = arith.constant 3 : i16
  %block = arith.constant 64 : i32
  %seq = pl.tensor.ci %z : i32 -> !pl.tensor<1x64xui32>
  %seq2 = pl.tensor.concat %seq, %seq axis 0 : !pl.tensor<1x64xui32>, !pl.tensor<1x64xui32> -> !pl.tensor<2x64xui32>
  %pairs = pl.tensor.sort32 %x, %seq2 : !X, !pl.tensor<2x64xui32> -> !pl.tensor<2x128xf32>
  %hseq = pl.tensor.ci %z : i32 -> !pl.tensor<1x32xui32>
  %hpairs = pl.tensor.sort32 %h, %hseq : !pl.tensor<1x32xf16>, !pl.tensor<1x32xui32> -> !pl.tensor<1x128xf16>
  // Row 0's two blocks, each sorted, merged as two lists (four runs of
  // one block for the format-1 merge need 256 elements).
  %row0 = pl.tensor.slice %pairs[%c0, %c0] : !pl.tensor<2x128xf32> -> !pl.tensor<1x128xf32>
  %a = pl.tensor.slice %row0[%c0, %c0] : !pl.tensor<1x128xf32> -> !pl.tensor<1x64xf32>
  %c64 = arith.constant 64 : index
  %b = pl.tensor.slice %row0[%c0, %c64] : !pl.tensor<1x128xf32> -> !pl.tensor<1x64xf32>
  %merged = pl.tensor.mrgsort_format2 %a, %b : !pl.tensor<1x64xf32>, !pl.tensor<1x64xf32> -> !pl.tensor<1x128xf32>
  %top = pl.tensor.mrgsort_format2 %a, %b : !pl.tensor<1x64xf32>, !pl.tensor<1x64xf32> -> !pl.tensor<1x64xf32>
  %idx = pl.tensor.gather_mask %merged p1010 : !pl.tensor<1x128xf32> -> !pl.tensor<1x64xi32>
  %vals = pl.tensor.gather_mask %merged p0101 : !pl.tensor<1x128xf32> -> !pl.tensor<1x64xf32>
  %down = pl.tensor.ci %z16 descending : i16 -> !pl.tensor<1x8xui16>
  %bits = pl.tensor.reinterpret_view %pairs : !pl.tensor<2x128xf32> -> !pl.tensor<2x256xi16>
  %half = pl.tensor.slice %bits[%c0, %c0] : !pl.tensor<2x256xi16> -> !pl.tensor<2x128xi16>
  return %pairs, %hpairs, %merged, %top, %idx, %vals, %down, %half
      : !pl.tensor<2x128xf32>, !pl.tensor<1x128xf16>, !pl.tensor<1x128xf32>, !pl.tensor<1x64xf32>,
        !pl.tensor<1x64xi32>, !pl.tensor<1x64xf32>, !pl.tensor<1x8xui16>, !pl.tensor<2x128xi16>
}

// Eight sorted blocks of 32 pairs, merged four runs at a time.
func.func @runs(%x: !pl.tensor<1x256xf32>) -> !pl.tensor<1x512xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %z = arith.constant 0 : i32
  %block = arith.constant 64 : i32
  %seq = pl.tensor.ci %z : i32 -> !pl.tensor<1x256xui32>
  %pairs = pl.tensor.sort32 %x, %seq : !pl.tensor<1x256xf32>, !pl.tensor<1x256xui32> -> !pl.tensor<1x512xf32>
  %runs = pl.tensor.mrgsort_format1 %pairs, %block : !pl.tensor<1x512xf32>, i32
  return %runs : !pl.tensor<1x512xf32>
}

func.func @unfinished(%x: !X) -> !pl.tensor<1x64xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %seq = pl.tile.ci %z : i32 -> !pl.tile<1x32xui32, vec>
  %one = pl.tile.load %x[%c0, %c0] : !X -> !pl.tile<1x32xf32, vec>
  %p = pl.tile.sort32 %one, %seq : !pl.tile<1x32xf32, vec>, !pl.tile<1x32xui32, vec> -> !pl.tile<1x64xf32, vec>
  %short = pl.tile.slice %p[%c0, %c0] : !pl.tile<1x64xf32, vec> -> !pl.tile<1x4xf32, vec>
  %tmp = pl.tile.create : !pl.tile<1x68xf32, vec>
  %m = pl.tile.mrgsort_format2 %short, %p tmp %tmp exhausted : (!pl.tile<1x4xf32, vec>, !pl.tile<1x64xf32, vec>), !pl.tile<1x68xf32, vec> -> !pl.tile<1x64xf32, vec>
  %t = pl.tile.reinterpret_view %m : !pl.tile<1x64xf32, vec> -> !pl.tile<1x64xi32, vec>
  %u = pl.tile.cast %t none : !pl.tile<1x64xi32, vec> -> !pl.tile<1x64xf32, vec>
  %out = pl.tensor.create() : !pl.tensor<1x64xf32>
  %r = pl.tile.store %u, %out[%c0, %c0] : !pl.tile<1x64xf32, vec>, !pl.tensor<1x64xf32>
  return %r : !pl.tensor<1x64xf32>
}

func.func @outside() -> !pl.tensor<1x8xf32> attributes {pl.kind = #pl.kind<incore>} {
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1.0 : f32
  %src = pl.tile.full %one : f32 -> !pl.tile<1x64xf32, vec>
  %idx = pl.tile.ci %c64 : i32 -> !pl.tile<1x8xi32, vec>
  %tmp = pl.tile.create : !pl.tile<1x8xi32, vec>
  %g = pl.tile.gather %src, %idx, %tmp : !pl.tile<1x64xf32, vec>, !pl.tile<1x8xi32, vec>, !pl.tile<1x8xi32, vec> -> !pl.tile<1x8xf32, vec>
  %c0 = arith.constant 0 : index
  %out = pl.tensor.create() : !pl.tensor<1x8xf32>
  %r = pl.tile.store %g, %out[%c0, %c0] : !pl.tile<1x8xf32, vec>, !pl.tensor<1x8xf32>
  return %r : !pl.tensor<1x8xf32>
}
