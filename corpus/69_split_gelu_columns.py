"""y = h * sigmoid(1.702 h), h = x w + b (f16 operands, f32 product)."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-4, 1e-4


def inputs(P, rng):
    return {
        "x": rng.uniform(-1, 1, (32, 64)).astype(np.float16),
        "w": rng.uniform(-1, 1, (64, 128)).astype(np.float16),
        "b": rng.uniform(-1, 1, (1, 128)).astype(np.float32),
        "y": np.zeros((32, 128), np.float32),
    }


def golden(x, P):
    h = x["x"].astype(np.float64) @ x["w"].astype(np.float64) + x["b"].astype(np.float64)
    y = h / (1 + np.exp(-1.702 * h))
    return {"y": y.astype(np.float32), "x": x["x"], "w": x["w"], "b": x["b"]}
