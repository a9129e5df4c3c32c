"""Compares two .npy window outputs ([P, rows, 8] i32) and prints, per copy
r, the rank and rank count it recorded in row r."""
import struct
import sys


def cells(path):
    data = open(path, "rb").read()
    header = struct.unpack("<H", data[8:10])[0]
    shape = eval(data[10:10 + header].decode().split("'shape': ")[1].split("}")[0].rstrip(", "))
    values = struct.unpack("<%di" % (len(data[10 + header:]) // 4), data[10 + header:])
    return data, shape, values


written, shape, values = cells(sys.argv[1])
lowered, _, _ = cells(sys.argv[2])
per = shape[1] * shape[2]
ranks = "; ".join("rank %d: %d of %d" % (r, values[r * per + r * shape[2]], values[r * per + r * shape[2] + 1]) for r in range(shape[0]))
print("%s; %d copies; %s" % ("same" if written == lowered else "differ", shape[0], ranks))
