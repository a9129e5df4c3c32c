"""Compares pto-run's random tiles (DIR/NAME.npy) with TRANDOM's printed
bits (a file of a name line, then one line per row of the valid region):
prints, per tile, how many elements are equal."""
import sys

import numpy as np

directory, printed = sys.argv[1], sys.argv[2]
blocks, name = {}, None
for line in open(printed):
    words = line.split()
    if len(words) == 1 and not words[0].isdigit():
        name = words[0]
        blocks[name] = []
    else:
        blocks[name].append([int(w) for w in words])
for name, rows in blocks.items():
    expected = np.array(rows, dtype=np.uint64)
    got = np.load("%s/%s.npy" % (directory, name))
    got = got[: expected.shape[0], : expected.shape[1]].astype(np.int64).astype(np.uint32)
    equal = int((got.astype(np.uint64) == expected).sum())
    print("%s: %d of %d equal" % (name, equal, expected.size))
