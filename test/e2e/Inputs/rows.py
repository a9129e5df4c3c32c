"""Writes a float32 .npy of the given shape with values uniform in [-4, 4)
(seeded): python3 rows.py OUT.npy SEED DIM [DIM...]. No numpy needed."""
import random
import sys

import npy

path, seed, dims = sys.argv[1], int(sys.argv[2]), [int(d) for d in sys.argv[3:]]
random.seed(seed)
npy.write(path, "<f4", "f", dims, [random.uniform(-4, 4) for _ in range(npy.count(dims))])
