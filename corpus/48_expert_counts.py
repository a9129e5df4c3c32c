"""Routes per expert among 64 ids in [0, 8), and each expert's first slot
(the exclusive running sum of the counts)."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 0.0, 0.0


def inputs(P, rng):
    return {"ids": rng.integers(0, 8, (4, 16)).astype(np.int32)}


def golden(x, P):
    counts = np.bincount(x["ids"].ravel(), minlength=8).astype(np.int32)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
    return {"result0": np.stack([counts, starts]), "ids": x["ids"]}
