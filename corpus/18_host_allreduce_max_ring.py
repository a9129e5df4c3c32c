"""out[r] = (x[r] - max_p x[p]) + 0.5 * sum_p x[p]; windows hold the max and the sum."""
import numpy as np

ENTRY = "main"
RANKS = [2, 3, 4]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    x = rng.uniform(-2.0, 2.0, (P, 8, 64)).astype(np.float32)
    return {"x": x, "out": np.zeros((P, 8, 64), np.float32)}


def golden(x, P):
    xs = x["x"].astype(np.float64)
    peak = xs.max(axis=0)
    total = xs.sum(axis=0)
    out = (xs - peak[None]) + 0.5 * total[None]
    return {
        "out": out.astype(np.float32),
        "peak": np.ascontiguousarray(np.broadcast_to(peak, (P, 8, 64)), dtype=np.float32),
        "total": np.ascontiguousarray(np.broadcast_to(total, (P, 8, 64)), dtype=np.float32),
    }
