"""Writes a float32 .npy of the given shape with values uniform in [-4, 4)
(seeded): python3 rows.py OUT.npy SEED DIM [DIM...]. No numpy needed."""
import random
import struct
import sys

path, seed, dims = sys.argv[1], int(sys.argv[2]), [int(d) for d in sys.argv[3:]]
random.seed(seed)
count = 1
for d in dims:
    count *= d
shape = ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "")
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % shape
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    out.write(struct.pack("<%df" % count, *(random.uniform(-4, 4) for _ in range(count))))
