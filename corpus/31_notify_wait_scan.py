"""out[r] = sum_{p<=r} x[p]; grand = sum_p x[p]; carry[r] = out[r]; signal cells: ready 1 on r>0, done count P-1 on rank 0."""
import numpy as np

ENTRY = "main"
RANKS = [2, 3, 4]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    return {
        "x": rng.standard_normal((P, 8, 32)).astype(np.float32),
        "out": np.zeros((P, 8, 32), np.float32),
        "grand": np.zeros((8, 32), np.float32),
    }


def golden(x, P):
    pre = np.cumsum(x["x"].astype(np.float64), axis=0)
    sig = np.zeros((P, 2, 1), np.int32)
    sig[1:, 0, 0] = 1
    sig[0, 1, 0] = P - 1
    return {
        "out": pre.astype(np.float32),
        "grand": pre[-1].astype(np.float32),
        "carry": pre.astype(np.float32),
        "signal": sig,
    }
