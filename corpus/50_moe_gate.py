"""Each token's chosen experts' softmax probabilities, renormalised."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-5, 1e-6


def inputs(P, rng):
    experts = np.stack([rng.choice(64, 8, replace=False) for _ in range(16)])
    return {
        "scores": rng.standard_normal((16, 64)).astype(np.float32),
        "experts": experts.astype(np.int32),
    }


def golden(x, P):
    s = x["scores"].astype(np.float64)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    g = np.take_along_axis(p, x["experts"], axis=1)
    w = g / g.sum(axis=1, keepdims=True)
    return {"result0": w.astype(np.float32), "scores": x["scores"], "experts": x["experts"]}
