"""y = x * scale + 1 (f32) and ids + offset (i32), scalars from the entry."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-6, 1e-6


def inputs(P, rng):
    return {
        "x": rng.uniform(-1, 1, (32, 64)).astype(np.float32),
        "ids": rng.integers(-1000, 1000, (32, 64)).astype(np.int32),
        "scale": np.array(rng.uniform(0.5, 3.0), np.float32),
        "offset": np.array(rng.integers(-50, 50), np.int32),
    }


def golden(x, P):
    y = x["x"] * x["scale"]  # f32, rounded
    y = y + np.float32(1.0)
    return {"result0": y.astype(np.float32),
            "result1": (x["ids"] + x["offset"]).astype(np.int32)}
