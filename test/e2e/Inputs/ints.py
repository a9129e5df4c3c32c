"""Writes an int32 .npy of the given shape with values uniform in
[-1000, 1000], or [LOW, HIGH] (seeded):
python3 ints.py OUT.npy SEED DIM [DIM...] [--range LOW HIGH]."""
import random
import sys

import npy

args = sys.argv[1:]
low, high = -1000, 1000
if "--range" in args:
    at = args.index("--range")
    low, high = int(args[at + 1]), int(args[at + 2])
    args = args[:at]
path, seed, dims = args[0], int(args[1]), [int(d) for d in args[2:]]
random.seed(seed)
npy.write(path, "<i4", "i", dims, [random.randint(low, high) for _ in range(npy.count(dims))])
