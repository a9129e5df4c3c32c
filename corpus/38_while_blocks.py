"""y[16i:16i+16] = x[16i:16i+16] * (i + 1) while 16i < limit = meta[0]; meta[1] = blocks done."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-6, 1e-6


def inputs(P, rng):
    return {
        "x": rng.uniform(-4, 4, (128, 32)).astype(np.float32),
        "y": rng.uniform(-1, 1, (128, 32)).astype(np.float32),
        "meta": np.array([rng.integers(20, 100), -1], np.int32),
    }


def golden(x, P):
    limit = int(x["meta"][0])
    blocks = -(-limit // 16)
    y = x["y"].copy()
    for i in range(blocks):
        y[16 * i:16 * i + 16] = x["x"][16 * i:16 * i + 16] * np.float32(i + 1)
    return {"y": y, "x": x["x"], "meta": np.array([limit, blocks], np.int32)}
