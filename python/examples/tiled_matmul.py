"""Tiled matmul from Python: C[M, N] = A[M, K] x B[K, N] on the cube core.

The program of examples/tiles/tiled_matmul.mlir, written with the
PyPTO-style front end: per K step the kernel loads A's and B's slices into
L1 (mat), moves them to L0A (left) and L0B (right), and accumulates their
product in the L0C accumulator (acc) that the loop carries; the
orchestration creates C and calls the kernel. docs/python.md walks
through it; run it from the repository root with

    PYTHONPATH=python /usr/bin/python3 python/examples/tiled_matmul.py /tmp/pto-matmul
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

import pto_mlir
import pto_mlir.language as pl

M, K, N = 64, 256, 128
K_STEP = 64

A = pl.Tensor[[M, K], pl.FP16]
B = pl.Tensor[[K, N], pl.FP16]
C = pl.Tensor[[M, N], pl.FP32]


@pl.kernel
def matmul_kernel(a: A, b: B, c: pl.Out[C]) -> C:
    acc = pl.create_tile([M, N], pl.FP32, target_memory=pl.Acc)
    for k, (partial,) in pl.range(0, K, K_STEP, init_values=(acc,)):
        a_mat = pl.load(a, [0, k], [M, K_STEP], target_memory=pl.Mat)
        b_mat = pl.load(b, [k, 0], [K_STEP, N], target_memory=pl.Mat)
        a_left = pl.move(a_mat, pl.Left)
        b_right = pl.move(b_mat, pl.Right)
        # The first step overwrites the accumulator, the others add to it.
        step = pl.matmul_acc(partial, a_left, b_right, init=pl.eq(k, 0))
        total = pl.yield_(step)
    return pl.store(total, [0, 0], c)


@pl.orchestration
def main(a: A, b: B) -> C:
    c = pl.create_tensor([M, N], pl.FP32)
    return matmul_kernel(a, b, c)


def golden(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C in f32, per K step as the kernel rounds it: each step's product
    summed exactly, added to the f32 accumulator."""
    c = np.zeros((M, N), np.float32)
    for k in range(0, K, K_STEP):
        step = a[:, k:k + K_STEP].astype(np.float64) @ b[k:k + K_STEP, :].astype(np.float64)
        c = (c.astype(np.float64) + step).astype(np.float32)
    return c


def tutorial(out_dir: Path) -> dict[str, float]:
    """Builds, verifies, lowers, runs and translates the program; returns
    the largest error of each run against the numpy golden."""
    module = pl.program(main)  # traced and verified
    print(module)

    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    expected = golden(a, b)

    errors = {}
    outputs = pto_mlir.run(module, inputs={"a": a, "b": b})
    errors["as written"] = float(np.abs(outputs["result0"] - expected).max())

    lowered = module.clone()
    pto_mlir.run_pipeline(lowered, "builtin.module(pto-a2a3-pipeline)")
    kernel = lowered.functions["matmul_kernel"]
    print("after pto-a2a3-pipeline the kernel is", kernel.attribute("pl.kind"))
    outputs = pto_mlir.run(lowered, inputs={"a": a, "b": b})
    errors["lowered"] = float(np.abs(outputs["result0"] - expected).max())

    files = pto_mlir.translate(module, target="a2a3", output_dir=out_dir)
    print("pto-translate wrote", ", ".join(sorted(files)), "in", out_dir)
    for name, error in errors.items():
        print(f"max |C - golden| {name}: {error:.3g}")
    return errors


if __name__ == "__main__":
    # The C++ goes where the first argument says, else a new temporary directory.
    errors = tutorial(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="pto-matmul-")))
    sys.exit(0 if all(e <= 1e-4 for e in errors.values()) else 1)
