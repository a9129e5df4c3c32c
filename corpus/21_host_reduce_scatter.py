"""x is [P*P, 64] = P blocks of P rows; out[r] = (r + 1) * sum_p x[p*P + r]."""
import numpy as np

ENTRY = "main"
RANKS = [2, 3, 4]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    return {
        "x": rng.standard_normal((P * P, 64)).astype(np.float32),
        "out": np.zeros((P * P, 64), np.float32),
    }


def golden(x, P):
    blocks = x["x"].astype(np.float64).reshape(P, P, 64)  # [device, row, col]
    summed = blocks.sum(axis=0)  # [row, col]
    out = np.zeros((P * P, 64), np.float64)
    out[:P] = summed * (np.arange(P) + 1)[:, None]
    return {"out": out.astype(np.float32)}
