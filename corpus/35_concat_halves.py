"""w = [relu(a) | 2b] (columns), s = [a ; b] (rows), 16x32 f32 halves."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-6, 1e-6


def inputs(P, rng):
    return {
        "a": rng.uniform(-1, 1, (16, 32)).astype(np.float32),
        "b": rng.uniform(-1, 1, (16, 32)).astype(np.float32),
    }


def golden(x, P):
    a, b = x["a"], x["b"]
    w = np.concatenate([np.maximum(a, 0), b * np.float32(2)], axis=1)
    s = np.concatenate([a, b], axis=0)
    return {"result0": w, "result1": s, "a": a, "b": b}
