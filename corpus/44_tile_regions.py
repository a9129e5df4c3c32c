"""Causal masking with a triangular mask and a carried bias, swapped row
halves, a partial sum over the first 8 rows, those rows grown to 32 with
-inf padding, and an elementwise product."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 0.0, 0.0


def inputs(P, rng):
    # Multiples of 1/8: the sums and products here are exact in f32.
    draw = lambda: (rng.integers(-64, 64, (16, 32)) / 8.0).astype(np.float32)
    return {"s": draw(), "t": draw(), "bias": draw()}


def golden(x, P):
    s, t, bias = (x[k].astype(np.float64) for k in ("s", "t", "bias"))
    mask = np.tril(np.ones((16, 32)))            # 1 where col <= row
    masked = s * mask + (mask - 1.0) * 100.0 + bias
    swapped = np.concatenate([s[:, 16:], s[:, :16]], axis=1)
    summed = s.copy()
    summed[:8] += t[:8]
    grown = np.full((32, 32), -np.inf)
    grown[:8] = t[:8]
    f32 = lambda a: a.astype(np.float32)
    return {"result0": f32(masked), "result1": f32(swapped), "result2": f32(summed),
            "result3": f32(grown), "result4": f32(s * t),
            "s": x["s"], "t": x["t"], "bias": x["bias"]}
