"""s = q @ k^T (f16 operands, f32 product) and g = x^T @ d (f32)."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-3, 1e-3


def inputs(P, rng):
    return {
        "q": rng.uniform(-1, 1, (64, 512)).astype(np.float16),
        "k": rng.uniform(-1, 1, (128, 512)).astype(np.float16),
        "x": rng.uniform(-1, 1, (32, 16)).astype(np.float32),
        "d": rng.uniform(-1, 1, (32, 48)).astype(np.float32),
    }


def golden(x, P):
    q, k = x["q"].astype(np.float64), x["k"].astype(np.float64)
    a, d = x["x"].astype(np.float64), x["d"].astype(np.float64)
    return {"result0": (q @ k.T).astype(np.float32), "result1": (a.T @ d).astype(np.float32)}
