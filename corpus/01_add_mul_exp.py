"""y = exp((a + b) * b), elementwise over 64x64 f32."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-5, 1e-6


def inputs(P, rng):
    return {
        "a": rng.uniform(-1, 1, (64, 64)).astype(np.float32),
        "b": rng.uniform(-1, 1, (64, 64)).astype(np.float32),
        "y": np.zeros((64, 64), np.float32),
    }


def golden(x, P):
    a, b = x["a"], x["b"]
    t = (a + b) * b  # f32 arithmetic, rounded per step
    return {"y": np.exp(t.astype(np.float64)).astype(np.float32),
            "a": a, "b": b}
