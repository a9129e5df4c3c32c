"""pto_mlir from an installed tree: where it found its libraries, and a
parsed, verified and transformed module."""

import sys

import pto_mlir
from pto_mlir import _paths

print("libraries:", _paths.library_dir())
module = pto_mlir.Module.parse_file(sys.argv[1])
module.verify()
pto_mlir.run_pipeline(module, "builtin.module(func.func(pld-specialize-nranks{nranks=8}),canonicalize)")
print(module)
