"""The golden of Run/mgather.mlir: MGATHER's row and element forms under
each out-of-bounds mode, an index read as unsigned 32-bit."""
import sys

import numpy as np

d = sys.argv[1]
t = np.load(f"{d}/t.npy")
unsigned = lambda name: np.load(f"{d}/{name}.npy")[0].astype(np.int64) % 2**32
out = lambda k: np.load(f"{d}/out/result{k}.npy")


def modes(table, index):
    n = len(table)
    past = index >= n
    clamp = table[np.minimum(index, n - 1)]
    wrap = table[index % n]
    zero = np.where(past.reshape((-1,) + (1,) * (table.ndim - 1)), 0, table[np.where(past, 0, index)])
    return clamp, wrap, zero


rows = modes(t, unsigned("i"))
elements = modes(t.reshape(-1), unsigned("e"))
names = ["clamp", "wrap", "zero"]
for k, want in enumerate(rows):
    assert np.array_equal(out(k), want), (names[k], out(k), want)
for k, want in enumerate(elements):
    assert np.array_equal(out(3 + k)[0], want), (names[k], out(3 + k), want)
print("mgather: clamp wrap zero rows, clamp wrap zero elements")
