// pl.tensor.create_l1: a tensor in the cube's L1 that rows are gathered
// into before a matmul reads it (paged attention's keys). pto-run runs it
// against numpy; pl-convert-tensor-to-tile makes it a mat tile, and the
// gathers into it stop at pl-lower-math-ops with a located error (a row of
// an NZ tile is no window a load writes).
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; r = np.random.default_rng(3); np.save('%t/p.npy', r.uniform(-1, 1, (16, 64)).astype(np.float16)); np.save('%t/pool.npy', r.uniform(-1, 1, (256, 128)).astype(np.float16))"
// RUN: pto-run %s --input p=%t/p.npy --input pool=%t/pool.npy -o %t
// RUN: /usr/bin/python3 -c "import numpy as np; p, pool, o = [np.load('%t/' + n + '.npy').astype(np.float64) for n in ('p', 'pool', 'result0')]; g = p @ pool[0:256:4]; assert np.allclose(o, g, rtol=1e-3, atol=1e-3), abs(o - g).max(); print('gathered rows multiply')" | FileCheck %s --check-prefix=NUMPY
// RUN: pto-opt %s --pass-pipeline='builtin.module(pl-convert-tensor-to-tile)' | FileCheck %s --check-prefix=TILE
// RUN: not pto-opt %s --pto-a2a3-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWER

// NUMPY: gathered rows multiply
// TILE-LABEL: func.func @gathered
// TILE: %[[L1:.*]] = pl.tile.create : !pl.tile<64x128xf16, mat>
// TILE: scf.for {{.*}} iter_args(%{{.*}} = %[[L1]]) -> (!pl.tile<64x128xf16, mat>)
// TILE: pl.tile.gather_row
// LOWER: create-l1.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'pl.tile.gather_row' op pl-lower-math-ops: a gather_row into a tile in mat is not lowered yet
!P = !pl.tensor<16x64xf16>
!Pool = !pl.tensor<256x128xf16>
!KV = !pl.tensor<64x128xf16>
!O = !pl.tensor<16x128xf32>

// Rows 4r of the pool, gathered into L1, as the right operand of p @ kv.
func.func @gathered(%p: !P, %pool: !Pool) -> !O attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %kv0 = pl.tensor.create_l1 : !KV
  %kv = scf.for %r = %c0 to %c64 step %c1 iter_args(%t = %kv0) -> (!KV) {
    %src = arith.muli %r, %c4 : index
    %t2 = pl.tensor.gather_row %pool[%src, %c0] into %t[%r, %c0] shape [1, 128] : !Pool, !KV
    scf.yield %t2 : !KV
  }
  %o = pl.tensor.matmul %p, %kv : !P, !KV -> !O
  return %o : !O
}

func.func @main(%p: !P, %pool: !Pool) -> !O attributes {pl.kind = #pl.kind<orchestration>} {
  %o = pl.call @gathered(%p, %pool) : (!P, !Pool) -> !O
  return %o : !O
}
