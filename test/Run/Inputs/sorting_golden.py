"""The golden of test/Run/sorting.mlir, from numpy alone: each output of
pto-run decoded from its bytes (a pair is the value, then the uint32
index) and compared with a stable sort of the inputs. Prints `sorted`."""
import sys

import numpy as np

out = sys.argv[1]
x = np.load(out + "/x.npy")
h = np.load(out + "/h.npy")
s = np.load(out + "/s.npy")


def result(name, directory="out"):
    return np.load("%s/%s/%s.npy" % (out, directory, name))


def pairs32(row):
    """The (value, index) pairs of a row of f32 elements."""
    words = np.ascontiguousarray(row, dtype=np.float32).view(np.uint32)
    return list(zip(row[0::2].tolist(), words[1::2].tolist()))


def ordered(values, first=0):
    """values' (value, index) pairs, descending, ties by index."""
    order = np.argsort(-np.asarray(values, dtype=np.float64), kind="stable")
    return [(float(values[i]), int(i) + first) for i in order]


# Block sorts of f32 rows.
pairs = result("result0")
for r in range(2):
    for block in range(2):
        got = pairs32(pairs[r, block * 64:(block + 1) * 64])
        want = ordered(x[r, block * 32:(block + 1) * 32], block * 32)
        assert got == want, ("sort32", r, block, got, want)

# f16 pairs: value, 0, then the index's low and high halves.
hp = result("result1")[0]
halves = hp.view(np.uint16)
got = [(float(hp[4 * k]), int(halves[4 * k + 2]) | int(halves[4 * k + 3]) << 16) for k in range(32)]
assert all(halves[4 * k + 1] == 0 for k in range(32))
assert got == ordered(h[0].astype(np.float32)), ("sort32 f16", got)

# The two blocks of row 0 merged, whole and cut to 32 pairs.
whole = ordered(x[0])
assert pairs32(result("result2")[0]) == whole, "mrgsort_format2"
assert pairs32(result("result3")[0]) == whole[:32], "mrgsort_format2, cut"
assert result("result4")[0].tolist() == [i for _, i in whole], "gather_mask p1010"
assert result("result5")[0].tolist() == [v for v, _ in whole], "gather_mask p0101"

# A descending ui16 sequence from 3 wraps.
assert result("result6")[0].tolist() == [3, 2, 1, 0, 65535, 65534, 65533, 65532], "ci"

# The pairs' bytes read as i16: the first 128 of each row.
assert np.array_equal(result("result7"), pairs.view(np.int16)[:, :128]), "reinterpret_view"

# Four-run merges of eight blocks: two sorted runs of 128 pairs.
runs = result("result0", "runs")[0]
for group in range(2):
    got = pairs32(runs[group * 256:(group + 1) * 256])
    assert got == ordered(s[0, group * 128:(group + 1) * 128], group * 128), ("mrgsort_format1", group)

print("sorted")
