"""Writes an int32 .npy of the given shape with values uniform in
[-1000, 1000] (seeded): python3 ints.py OUT.npy SEED DIM [DIM...]."""
import random
import sys

import npy

path, seed, dims = sys.argv[1], int(sys.argv[2]), [int(d) for d in sys.argv[3:]]
random.seed(seed)
npy.write(path, "<i4", "i", dims, [random.randint(-1000, 1000) for _ in range(npy.count(dims))])
