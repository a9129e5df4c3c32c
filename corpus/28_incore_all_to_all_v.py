"""out[d] = sum over sources s of the first min(counts[s][d], 2) rows of tokens[s] block d; recv_counts[d][s] = that count."""
import numpy as np

ENTRY = "main"
RANKS = [4]
RTOL, ATOL = 1e-5, 1e-5


def inputs(P, rng):
    return {
        "tokens": rng.standard_normal((P * 8, 32)).astype(np.float32),
        "counts": rng.integers(0, 4, (P * 4, 1)).astype(np.int32),
        "out": np.zeros((P, 32), np.float32),
    }


def golden(x, P):
    tok = x["tokens"].astype(np.float64).reshape(P, 4, 2, 32)  # [src, dest, row, col]
    cnt = np.minimum(x["counts"].reshape(P, 4), 2)  # [src, dest]
    out = np.zeros((P, 32))
    recv = np.zeros((P, 4, 1), np.int32)
    for d in range(P):
        for s in range(P):
            k = cnt[s, d]
            out[d] += tok[s, d, :k].sum(axis=0)
            recv[d, s, 0] = k
    return {"out": out.astype(np.float32), "recv_counts": recv}
