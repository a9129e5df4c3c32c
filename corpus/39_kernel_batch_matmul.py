"""c[i] = a[i] @ w[i] and d[i] = b[i] @ v over 3 batches (f16 operands, f32 products)."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-4, 1e-4


def inputs(P, rng):
    return {
        "a": rng.uniform(-1, 1, (3, 16, 32)).astype(np.float16),
        "w": rng.uniform(-1, 1, (3, 32, 32)).astype(np.float16),
        "b": rng.uniform(-1, 1, (3, 128, 512)).astype(np.float16),
        "v": rng.uniform(-1, 1, (512, 64)).astype(np.float16),
    }


def golden(x, P):
    c = np.matmul(x["a"].astype(np.float64), x["w"].astype(np.float64))
    d = np.matmul(x["b"].astype(np.float64), x["v"].astype(np.float64))
    return {"result0": c.astype(np.float32), "result1": d.astype(np.float32)}
