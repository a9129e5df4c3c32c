"""Rows of n / d (truncated), n % d, floor(n / d), ceil(n / d), n >> 1 and n / 4 for n < 0."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 0, 0


def inputs(P, rng):
    return {"meta": np.array([rng.integers(-999, -1), rng.integers(2, 9)], np.int32)}


def golden(x, P):
    n, d = (int(v) for v in x["meta"])
    quotient = abs(n) // d * (-1 if n < 0 else 1)
    values = [quotient, n - quotient * d, n // d, -((-n) // d), n >> 1, -(abs(n) // 4)]
    rows = np.repeat(np.array(values, np.float32)[:, None], 64, axis=1)
    return {"meta": x["meta"], "result0": rows}
