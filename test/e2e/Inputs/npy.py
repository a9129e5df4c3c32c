"""Writes a little-endian, C-ordered .npy (no numpy needed)."""
import struct


def write(path, descr, code, dims, values):
    """`descr` the numpy type ('<f4', '<i4'), `code` its struct code."""
    shape = ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, shape)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        out.write(struct.pack("<%d%s" % (len(values), code), *values))


def count(dims):
    total = 1
    for d in dims:
        total *= d
    return total
