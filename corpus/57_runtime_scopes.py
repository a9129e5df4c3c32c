"""Rows of x scaled in a loop of automatic runtime scopes, then added to
y and exponentiated in a manual scope whose second task waits for the
first."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-6, 1e-6


def inputs(P, rng):
    return {
        "x": rng.uniform(-1, 1, (64, 64)).astype(np.float32),
        "y": rng.uniform(-1, 1, (64, 64)).astype(np.float32),
        "s": np.array(0.5, np.float32),
        "out": np.zeros((64, 64), np.float32),
    }


def golden(x, P):
    scaled = (x["x"] * x["s"]).astype(np.float32)
    total = (scaled + x["y"]).astype(np.float32)
    return {"out": np.exp(total.astype(np.float64)).astype(np.float32)}
