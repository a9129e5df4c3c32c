"""y = 2x + 1 per device block; out[d*P + s] = y[s*P + d] (block transpose); recv windows likewise."""
import numpy as np

ENTRY = "main"
RANKS = [2, 3, 4]
RTOL, ATOL = 1e-6, 1e-6


def inputs(P, rng):
    return {
        "x": rng.standard_normal((P * P, 32)).astype(np.float32),
        "out": np.zeros((P * P, 32), np.float32),
    }


def golden(x, P):
    y = (2.0 * x["x"].astype(np.float64) + 1.0).reshape(P, P, 32)  # [src, dest, col]
    recv = np.transpose(y, (1, 0, 2))  # [dest, src, col]
    return {
        "out": recv.reshape(P * P, 32).astype(np.float32),
        "recv": recv.astype(np.float32),
        "send": y.astype(np.float32),
    }
