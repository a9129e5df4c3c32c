"""y = [[0]; [x | fill] * w] (zeros 16x64 stacked over the widened product)."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 0.0, 0.0


def inputs(P, rng):
    return {
        "x": rng.uniform(-1, 1, (16, 48)).astype(np.float32),
        "w": rng.uniform(-1, 1, (16, 64)).astype(np.float32),
        "fill": np.array(rng.uniform(-3, 3), np.float32),
    }


def golden(x, P):
    wide = np.concatenate([x["x"], np.full((16, 16), x["fill"], np.float32)], axis=1)
    y = np.concatenate([np.zeros((16, 64), np.float32), wide * x["w"]], axis=0)
    return {"result0": y}
