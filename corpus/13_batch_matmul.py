"""c = alpha * (a @ w), batched over 4 (f16 operands, f32 result)."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    return {
        "a": rng.uniform(-1, 1, (4, 16, 32)).astype(np.float16),
        "w": rng.uniform(-1, 1, (4, 32, 24)).astype(np.float16),
        "alpha": np.array(rng.uniform(0.5, 2.0), np.float32),
    }


def golden(x, P):
    c = np.matmul(x["a"].astype(np.float64), x["w"].astype(np.float64))
    return {"result0": c.astype(np.float32) * x["alpha"]}
