"""Writes a float32 .npy of the given shape with values uniform in [-4, 4)
(seeded), or whole numbers in [-100, 100] with --integers (sums of them are
exact in any order), or zeros with --zeros; float16 with --f16:
python3 rows.py OUT.npy SEED DIM [DIM...] [--integers] [--zeros] [--f16].
No numpy needed."""
import random
import sys

import npy

args = [a for a in sys.argv[1:] if a not in ("--integers", "--zeros", "--f16")]
path, seed, dims = args[0], int(args[1]), [int(d) for d in args[2:]]
random.seed(seed)
draw = (lambda: float(random.randint(-100, 100))) if "--integers" in sys.argv else (lambda: random.uniform(-4, 4))
if "--zeros" in sys.argv:
    draw = lambda: 0.0
descr, code = ("<f2", "e") if "--f16" in sys.argv else ("<f4", "f")
npy.write(path, descr, code, dims, [draw() for _ in range(npy.count(dims))])
