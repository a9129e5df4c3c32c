"""exp(x + b) and its scaled f16 cast, on 512-element vectors."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-6, 1e-6


def inputs(P, rng):
    return {
        "x": rng.uniform(-2, 2, 512).astype(np.float32),
        "b": rng.uniform(-1, 1, 512).astype(np.float32),
        "s": np.array(0.25, np.float32),
    }


def golden(x, P):
    a = (x["x"] + x["b"]).astype(np.float32)
    e = np.exp(a.astype(np.float64)).astype(np.float32)
    m = (e * x["s"]).astype(np.float32)
    return {"result0": e, "result1": m.astype(np.float16)}
