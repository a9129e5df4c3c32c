"""y[8i:8i+8] = x[8i:8i+8] * (i + 1) over the four row blocks of 32x64 f32."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 0.0, 0.0


def inputs(P, rng):
    return {
        "x": rng.uniform(-1, 1, (32, 64)).astype(np.float32),
        "y": np.zeros((32, 64), np.float32),
    }


def golden(x, P):
    scale = np.repeat(np.arange(1, 5, dtype=np.float32), 8)[:, None]
    return {"y": (x["x"] * scale).astype(np.float32), "x": x["x"]}
