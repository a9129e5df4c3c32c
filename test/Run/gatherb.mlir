// pto-run's pl.tile.gatherb against numpy on the bytes: each 32-byte block
// of the result is the source's storage from a byte offset (any offset,
// not only whole blocks), read as another element type (i8 bytes as i16,
// compared exactly); an offset whose block leaves the source is an
// error at the op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(11); np.save('%t/x.npy', r.integers(-128, 128, (4, 64)).astype(np.int8)); np.save('%t/o.npy', r.integers(0, 4 * 64 - 32, (2, 8)).astype(np.uint32))"
// RUN: pto-run %s --entry blocks --input x=%t/x.npy --input o=%t/o.npy -o %t/out
// RUN: /usr/bin/python3 -c "import numpy as np; x = np.load('%t/x.npy').tobytes(); o = np.load('%t/o.npy'); g = np.load('%t/out/result0.npy'); want = np.frombuffer(b''.join(x[int(b):int(b) + 32] for b in o.reshape(-1)), np.uint16).reshape(2, 128); assert g.dtype == np.int16 and np.array_equal(g.view(np.uint16), want), (g, want); print('gathered', int(o.min()), int(o.max()))" | FileCheck %s
// CHECK: gathered
// RUN: /usr/bin/python3 -c "import numpy as np; o = np.zeros((2, 8), np.uint32); o[1, 3] = 4 * 64 - 31; np.save('%t/bad.npy', o)"
// RUN: not pto-run %s --entry blocks --input x=%t/x.npy --input o=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: gatherb.mlir:[[# @LINE + 8]]:8: error: gatherb: offset 225 at [1, 3] reads past the source's 256 bytes
// BAD-NOT: internal error

func.func @blocks(%x: !pl.tensor<4x64xi8>, %o: !pl.tensor<2x8xui32>) -> !pl.tensor<2x128xi16> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %out = pl.tensor.create() : !pl.tensor<2x128xi16>
  %tx = pl.tile.load %x[%c0, %c0] : !pl.tensor<4x64xi8> -> !pl.tile<4x64xi8, vec>
  %to = pl.tile.load %o[%c0, %c0] : !pl.tensor<2x8xui32> -> !pl.tile<2x8xui32, vec>
  %g = pl.tile.gatherb %tx, %to : !pl.tile<4x64xi8, vec>, !pl.tile<2x8xui32, vec> -> !pl.tile<2x128xi16, vec>
  %r = pl.tile.store %g, %out[%c0, %c0] : !pl.tile<2x128xi16, vec>, !pl.tensor<2x128xi16>
  return %r : !pl.tensor<2x128xi16>
}
