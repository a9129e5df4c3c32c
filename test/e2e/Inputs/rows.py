"""Writes a float32 .npy of the given shape with values uniform in [-4, 4)
(seeded), or whole numbers in [-100, 100] with --integers (sums of them are
exact in any order): python3 rows.py OUT.npy SEED DIM [DIM...] [--integers].
No numpy needed."""
import random
import sys

import npy

args = [a for a in sys.argv[1:] if a != "--integers"]
path, seed, dims = args[0], int(args[1]), [int(d) for d in args[2:]]
random.seed(seed)
draw = (lambda: float(random.randint(-100, 100))) if "--integers" in sys.argv else (lambda: random.uniform(-4, 4))
npy.write(path, "<f4", "f", dims, [draw() for _ in range(npy.count(dims))])
