"""Row sums, column maxima and minima of a 48x64 f32 matrix, and the total."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-5, 2e-5   # f32 sums in a fixed order vs exact sums


def inputs(P, rng):
    return {"x": rng.uniform(-1, 1, (48, 64)).astype(np.float32)}


def golden(x, P):
    v = x["x"]
    rs = v.astype(np.float64).sum(axis=1, keepdims=True).astype(np.float32)
    return {
        "result0": rs,
        "result1": v.max(axis=0, keepdims=True),
        "result2": v.min(axis=0, keepdims=True),
        "result3": v.astype(np.float64).sum().reshape(1, 1).astype(np.float32),
    }
