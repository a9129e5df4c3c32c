"""y[r] = relu(x[r])*alpha (even r) or beta - x[r]*alpha (odd r), +1 on rank lead % P; acc = sum_r y[r]."""
import numpy as np

ENTRY = "main"
RANKS = [2, 3, 4]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    return {
        "x": rng.standard_normal((P, 16, 32)).astype(np.float32),
        "alpha": np.array(1.5, np.float32),
        "beta": np.array(-0.75, np.float32),
        "lead": np.array(5, np.int32),
        "out": np.zeros((P, 16, 32), np.float32),
    }


def golden(x, P):
    xs = x["x"].astype(np.float64)
    a, b, lead = float(x["alpha"]), float(x["beta"]), int(x["lead"])
    y = np.empty_like(xs)
    for r in range(P):
        y[r] = np.maximum(xs[r], 0) * a if r % 2 == 0 else b - xs[r] * a
        if r == lead % P:
            y[r] += 1.0
    total = y.sum(axis=0)
    return {
        "out": y.astype(np.float32),
        "acc": np.ascontiguousarray(np.broadcast_to(total, (P, 16, 32)), dtype=np.float32),
    }
