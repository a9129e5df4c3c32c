"""numpy goldens of test/Run/mixed-kernels.mlir (attention, paged, mlp):
checks pto-run's results of the program as written and after the a2a3
pipeline."""

import sys

import numpy as np

which, out = sys.argv[1], sys.argv[2]


def load(name):
    return np.load(f"{out}/{name}.npy").astype(np.float64)


def f16(a):
    return a.astype(np.float16).astype(np.float64)


if which == "attention":
    q, k, v = load("q"), load("k"), load("v")
    s = (q @ k.T) / np.sqrt(128.0)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    # The kernel multiplies p (rounded to f16 per block) by v and
    # normalises by the f32 row sums: softmax(s) v to f16 precision.
    golden = (p @ v) / p.sum(axis=1, keepdims=True)
    tolerance = 2e-3
elif which == "paged":
    q, kt, vc = load("q"), load("kt"), load("vc")
    table = np.load(f"{out}/bt.npy")
    tokens = np.concatenate([np.arange(b * 64, b * 64 + 64) for b in table])
    k, v = kt[:, tokens].T, vc[tokens, :]
    s = (q @ k.T) / np.sqrt(128.0)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    golden = (p @ v) / p.sum(axis=1, keepdims=True)
    tolerance = 2e-3
else:
    x, wg, wu = load("x"), load("wg"), load("wu")
    g, u = x @ wg, x @ wu
    golden = g / (1 + np.exp(-g)) * u
    tolerance = 1e-4
for stage in ("written", "lowered"):
    got = load(f"{stage}/result0")
    error = np.abs(got - golden).max()
    assert np.allclose(got, golden, rtol=tolerance, atol=tolerance), (stage, error)
print(f"{which}: written and lowered match numpy")
