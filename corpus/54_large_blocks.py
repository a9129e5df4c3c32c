"""Row softmax of 512x512 f32 and a column normalisation of 16x8192 f32
scaled by a runtime scalar: tensors larger than the vector buffer."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-5, 1e-6


def inputs(P, rng):
    return {
        "x": rng.uniform(-4, 4, (512, 512)).astype(np.float32),
        "y": rng.uniform(-1, 1, (16, 8192)).astype(np.float32),
        "scale": np.array(rng.uniform(0.5, 3.0), np.float32),
    }


def golden(x, P):
    v = x["x"].astype(np.float64)
    e = np.exp(v - v.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    y = x["y"].astype(np.float64)
    s = np.abs(y).sum(axis=0, keepdims=True)
    z = y / s * np.float64(x["scale"])
    return {"result0": p.astype(np.float32),
            "result1": z.astype(np.float32),
            "result2": s.astype(np.float32)}
