"""h_{i+1} = 0.5 * h_i + w from h_0 = x: h_2 + h_4, and h_5."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    return {
        "x": rng.uniform(-1, 1, (16, 64)).astype(np.float32),
        "w": rng.uniform(-1, 1, (16, 64)).astype(np.float32),
    }


def golden(x, P):
    h = x["x"].astype(np.float64)
    total = np.zeros_like(h)
    for i in range(4):
        h = 0.5 * h + x["w"]
        if i % 2 == 1:
            total += h
    last = 0.5 * h + x["w"]
    return {"result0": total.astype(np.float32), "result1": last.astype(np.float32), **x}
