"""Writes an int32 .npy of the given shape with values uniform in
[-1000, 1000] (seeded): python3 ints.py OUT.npy SEED DIM [DIM...]."""
import random
import struct
import sys

path, seed, dims = sys.argv[1], int(sys.argv[2]), [int(d) for d in sys.argv[3:]]
random.seed(seed)
count = 1
for d in dims:
    count *= d
shape = ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "")
header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%s), }" % shape
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    out.write(struct.pack("<%di" % count, *(random.randint(-1000, 1000) for _ in range(count))))
