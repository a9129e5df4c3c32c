"""Writes a float32 .npy of the given shape with values uniform in [-4, 4)
(seeded): python3 rows.py OUT.npy ROWS COLS SEED. No numpy needed."""
import random
import struct
import sys

path, rows, cols, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
random.seed(seed)
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    out.write(struct.pack("<%df" % (rows * cols), *(random.uniform(-4, 4) for _ in range(rows * cols))))
