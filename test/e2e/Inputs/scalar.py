"""Writes a scalar .npy (shape ()): python3 scalar.py OUT.npy TYPE VALUE,
TYPE one of f32, f16, i64, i32, i16, i8 (an index parameter is an i64)."""
import struct
import sys

import npy

TYPES = {"f32": ("<f4", "f"), "f16": ("<f2", "e"), "i64": ("<i8", "q"), "i32": ("<i4", "i"),
         "i16": ("<i2", "h"), "i8": ("|i1", "b")}
path, kind, text = sys.argv[1:4]
descr, code = TYPES[kind]
npy.write(path, descr, code, [], [float(text) if kind.startswith("f") else int(text)])
