"""Periodic vertical 3-point sum over the stacked (16P)x32 grid; total on rank 0 = column sums of the result."""
import numpy as np

ENTRY = "main"
RANKS = [2, 3, 4]
RTOL, ATOL = 1e-5, 1e-4
# Ranks add into rank 0's total in the order they arrive: its bits vary
# from run to run.
ORDER_DEPENDENT = True


def inputs(P, rng):
    return {
        "x": rng.standard_normal((P, 16, 32)).astype(np.float32),
        "y": np.zeros((P, 16, 32), np.float32),
    }


def golden(x, P):
    g = x["x"].astype(np.float64).reshape(P * 16, 32)
    y = np.roll(g, 1, axis=0) + g + np.roll(g, -1, axis=0)
    total = np.zeros((P, 1, 32))
    total[0, 0] = y.sum(axis=0)
    return {
        "y": y.reshape(P, 16, 32).astype(np.float32),
        "total": total.astype(np.float32),
        "block": x["x"].copy(),
    }
