"""A paged cache's rows through a block table, and a window of its rows
(a runtime count of them) into a block of zeros, scaled."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 0, 0


def inputs(P, rng):
    return {
        "cache": rng.uniform(-4, 4, (256, 128)).astype(np.float16),
        # 16 logical positions over 4 logical pages of 16 rows
        "idx": rng.integers(0, 64, (1, 16)).astype(np.int32),
        # logical page -> physical page (16 pages of 16 rows)
        "table": rng.permutation(16).astype(np.int32).reshape(1, 16),
        "start": np.array(rng.integers(0, 250), np.int32),
        "count": np.array(3, np.int32),
        "scale": np.array(0.5, np.float16),
    }


def golden(x, P):
    cache, idx, table = x["cache"], x["idx"][0], x["table"][0]
    physical = table[idx // 16] * 16 + idx % 16
    k = cache[physical, :]
    w = np.zeros((8, 64), np.float16)
    s, n = int(x["start"]), int(x["count"])
    w[2:2 + n, :] = cache[s:s + n, 32:96]
    return {"result0": k, "result1": (w * x["scale"]).astype(np.float16)}
