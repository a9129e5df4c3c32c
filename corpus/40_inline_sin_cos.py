"""y = sin(a) + cos(b), z = sin(a) * b over 32x64 f32 (a, b in [-60, 60])."""
import numpy as np

ENTRY = "main"
RANKS = [1]
# The f32 decomposition is within about 2e-7 of the true sine and cosine.
RTOL, ATOL = 1e-5, 2e-6


def inputs(P, rng):
    return {
        "a": rng.uniform(-60, 60, (32, 64)).astype(np.float32),
        "b": rng.uniform(-60, 60, (32, 64)).astype(np.float32),
        "y": np.zeros((32, 64), np.float32),
        "z": np.zeros((32, 64), np.float32),
    }


def golden(x, P):
    a = x["a"].astype(np.float64)
    b = x["b"].astype(np.float64)
    s = np.sin(a).astype(np.float32)
    c = np.cos(b).astype(np.float32)
    return {"y": (s + c).astype(np.float32),
            "z": (s * x["b"]).astype(np.float32),
            "a": x["a"], "b": x["b"]}
