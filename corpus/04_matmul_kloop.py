"""c = a @ b (32x128 by 128x64, f32)."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    return {
        "a": rng.uniform(-1, 1, (32, 128)).astype(np.float32),
        "b": rng.uniform(-1, 1, (128, 64)).astype(np.float32),
    }


def golden(x, P):
    c = x["a"].astype(np.float64) @ x["b"].astype(np.float64)
    return {"result0": c.astype(np.float32)}
