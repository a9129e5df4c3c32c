"""y = x * p[0] + p[1]; d = 2 * diag(y)."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-6, 1e-6


def inputs(P, rng):
    return {
        "x": rng.uniform(-1, 1, (32, 32)).astype(np.float32),
        "p": rng.uniform(-2, 2, (2,)).astype(np.float32),
    }


def golden(x, P):
    y = (x["x"] * x["p"][0]).astype(np.float32) + x["p"][1]
    return {"result0": y, "result1": (2 * np.diagonal(y)).astype(np.float32)}
