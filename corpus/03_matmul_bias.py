"""c = a @ w + bias with f16 operands, f32 product and bias."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    return {
        "a": rng.uniform(-1, 1, (64, 32)).astype(np.float16),
        "w": rng.uniform(-1, 1, (32, 48)).astype(np.float16),
        "bias": rng.uniform(-1, 1, (1, 48)).astype(np.float32),
    }


def golden(x, P):
    p = x["a"].astype(np.float64) @ x["w"].astype(np.float64)
    p = p.astype(np.float32)
    return {"result0": p + x["bias"]}
