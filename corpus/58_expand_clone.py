"""Broadcasts of a block, a row per batch, a column per row, and a copy
into [4, 8, 32] targets."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 0, 0


def inputs(P, rng):
    return {
        "b": rng.uniform(-1, 1, (1, 8, 32)).astype(np.float32),
        "r": rng.uniform(-1, 1, (4, 1, 32)).astype(np.float32),
        "c": rng.uniform(-1, 1, (4, 8, 1)).astype(np.float32),
        "x": rng.uniform(-1, 1, (4, 8, 32)).astype(np.float32),
        "yb": np.zeros((4, 8, 32), np.float32),
        "yr": np.zeros((4, 8, 32), np.float32),
        "yc": np.zeros((4, 8, 32), np.float32),
        "yx": np.zeros((4, 8, 32), np.float32),
    }


def golden(x, P):
    shape = (4, 8, 32)
    return {
        "yb": np.broadcast_to(x["b"], shape).copy(),
        "yr": np.broadcast_to(x["r"], shape).copy(),
        "yc": np.broadcast_to(x["c"], shape).copy(),
        "yx": x["x"].copy(),
    }
