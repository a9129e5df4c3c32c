"""numpy goldens of test/Transforms/pl-lower-auto-vector-split.mlir: pto-run's
results as written and after the a2a3 pipeline, which splits each kernel's
vector work between the two vector cores."""

import sys

import numpy as np

out = sys.argv[1]


def load(name):
    return np.load(f"{out}/{name}.npy").astype(np.float64)


def f16(a):
    return a.astype(np.float16).astype(np.float64)


x, w, b, c, v = load("x"), load("w"), load("b"), load("c"), load("v")
p = x @ w
rows = np.exp((p + b) - (p + b).max(axis=1, keepdims=True))
columns = (p * c).sum(axis=0, keepdims=True)
e = np.exp(p)
looped = [2 * (f16(e) @ v), 2 * e.sum(axis=1, keepdims=True)]
gathered = f16(np.exp(load("ga"))) @ load("gb")
for name, goldens, tolerance in [
    ("rows", [rows], 1e-5),
    ("columns", [columns], 1e-4),
    ("looped", looped, 2e-3),
    ("gathered", [gathered], 1e-4),
]:
    for i, golden in enumerate(goldens):
        for stage in ("written", "lowered"):
            got = load(f"{name}-{stage}/result{i}")
            error = np.abs(got - golden).max()
            assert np.allclose(got, golden, rtol=tolerance, atol=tolerance), (name, stage, i, error)
    print(f"{name}: written and split match numpy")
