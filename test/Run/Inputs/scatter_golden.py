"""Checks pto-run's scatters (Run/gather-scatter.mlir) against plain loops:
each index position in row-major order writes its source element, so a
later position wins where indices repeat."""
import sys

import numpy as np

d = sys.argv[1]
t = lambda n: np.load(f"{d}/{n}.npy")
out = lambda n: np.load(f"{d}/sout/{n}.npy")

b, k, v = t("b").copy(), t("k"), t("v")
for i in range(k.shape[0]):
    for j in range(k.shape[1]):
        b[i, k[i, j]] = v[i, j]
assert np.array_equal(out("result0"), b), (out("result0"), b)

z, zk, zv = t("z").copy(), t("zk"), t("zv")
for p in np.ndindex(zk.shape):
    z[(zk[p],) + p[1:]] = zv[p]
assert np.array_equal(out("result1"), z)

flat = np.zeros(32, np.float32)
for j, at in enumerate(t("fk")[0]):
    flat[at] = t("f")[0, j]
assert np.array_equal(out("result2"), flat.reshape(4, 8))
rows = t("b").copy()
for p, at in enumerate(t("uk").ravel()):
    rows[at] = t("ur")[p]
assert np.array_equal(out("result3"), rows)
spread = t("k2").copy()
spread[:, 2::4] = t("k")
assert np.array_equal(out("result4"), spread)
print("scattered")
