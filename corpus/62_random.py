"""Philox-4x32 random bits as pto-isa's TRANDOM places them: element
(r, c) is word (c % 256) // 64 of the generator run on the counter plus
(r * groups + c // 256) * storage_columns / 4 + c % 64."""
import numpy as np

ENTRY = "main"
RANKS = [1]
RTOL, ATOL = 0.0, 0.0

M0, M1 = 0xD2511F53, 0xCD9E8D57
K0, K1 = 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF


def inputs(P, rng):
    return {
        "k0": np.array(0x1234, np.int32),
        "k1": np.array(-0x5678, np.int32),
        "c0": np.array(-3, np.int32),
        "c1": np.array(2, np.int32),
    }


def philox(counter, key, rounds):
    n = [(counter >> (32 * i)) & MASK for i in range(4)]
    k0, k1 = key
    for _ in range(rounds):
        p0, p1 = n[0] * M0, n[2] * M1
        n = [(p1 >> 32) ^ n[1] ^ k0, p1 & MASK, (p0 >> 32) ^ n[3] ^ k1, p0 & MASK]
        k0, k1 = (k0 + K0) & MASK, (k1 + K1) & MASK
    return n


def random(shape, valid, key, words, rounds):
    rows, cols = shape
    vr, vc = valid
    storage = (cols + 7) // 8 * 8
    groups = (vc + 255) // 256
    counter = sum((w & MASK) << (32 * i) for i, w in enumerate(words))
    out = np.zeros(shape, np.uint32)
    for r in range(vr):
        for c in range(vc):
            n = (counter + (r * groups + c // 256) * storage // 4 + c % 64) % (1 << 128)
            out[r, c] = philox(n, [k & MASK for k in key], rounds)[(c % 256) // 64]
    return out


def golden(x, P):
    key = [int(x["k0"]), int(x["k1"])]
    block = random((4, 256), (4, 256), key, [int(x["c0"]), int(x["c1"]), 3, 4], 10)
    carry = random((3, 40), (3, 33), key, [-16, -1, 5, 0], 7).view(np.int32)
    return {"result0": block, "result1": carry}
