"""out[r] = w[r] - lr * mean_p g[p]; the grad window holds sum_p g[p] on every rank."""
import numpy as np

ENTRY = "main"
RANKS = [2, 3, 4]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    return {
        "w": rng.standard_normal((P, 4, 64)).astype(np.float32),
        "g": rng.standard_normal((P, 4, 64)).astype(np.float32),
        "lr": np.array(0.25, np.float32),
        "out": np.zeros((P, 4, 64), np.float32),
    }


def golden(x, P):
    g = x["g"].astype(np.float64)
    total = g.sum(axis=0)
    out = x["w"].astype(np.float64) - float(x["lr"]) * total[None] / P
    return {
        "out": out.astype(np.float32),
        "grad": np.ascontiguousarray(np.broadcast_to(total, (P, 4, 64)), dtype=np.float32),
    }
