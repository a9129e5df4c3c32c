"""y[:, :48] = 2 x[:, :48], y[:, 48:] = alpha x[:, 48:], column blocks of 16."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-6, 1e-6


def inputs(P, rng):
    return {
        "x": rng.uniform(-1, 1, (32, 64)).astype(np.float32),
        "alpha": np.array(rng.uniform(-3.0, -0.5), np.float32),
    }


def golden(x, P):
    a = x["x"]
    y = np.empty_like(a)
    y[:, :48] = a[:, :48] * np.float32(2)
    y[:, 48:] = a[:, 48:] * x["alpha"]
    return {"result0": y, "x": a}
