#!/usr/bin/env python3
"""The emitted C++ on pto-isa's own CPU backend, program by program.

For every program of examples/**/*.mlir and test/e2e/Inputs/*.mlir, for each
of the targets

  a2a3sim          pto-translate --target=a2a3sim (kernels called directly)
  a2a3sim-runtime  pto-translate --target=a2a3sim --entry=runtime (kernel
                   entries, PTO2 orchestrations: the programs runtime.test
                   runs that way)
  a2a3             pto-translate --target=a2a3 (the device's files)

it translates the program (--allow-partial where the table below says the
program is partial by design), compiles every kernel the manifest lists (and
the builtin collectives header, when emitted) against pto-isa with
-fsyntax-only, and for the a2a3sim targets builds every host program
run_F.cpp on pto-isa's CPU backend (scripts/pto-isa-cxx.sh), runs it on
inputs drawn here and compares its outputs with pto-run's execution of F on
the same inputs (the host program does the comparison, --golden). F's
options (rank counts, special inputs, tolerances) are the table's, taken
from test/e2e/*.test; a host program the table does not name runs once, on
uniform inputs.

Each kernel prints `compiles: TARGET/PROGRAM/FILE` or `does not compile:
... : FIRST ERROR`; each run of a host program `matches: TARGET/PROGRAM/run_F.cpp
[--ranks P]`, `differs: ...: THE FIRST MISMATCH LINE`, `does not build: ...`
or `fails: ...` (a crash, a time-out, pto-run refusing the inputs); then

  kernels: N of M compile; programs: N of M match pto-run

The exit code is 1 when anything failed (a translation too).

  scripts/conformance.py [--only PROGRAM]... [--keep DIR] [--backend=pto-isa|sim] [--tools DIR]
                         [--compare-backends [--no-vectorize]]

PROGRAM is a file's stem (`ops`, `08_allreduce`) or its path. --backend=sim
runs the same on the project's instruction model, with the hazard checker:
a check of this table. Python's standard library only (no numpy).

--compare-backends is the differential of the model and pto-isa: for the
a2a3sim targets it builds every host program on both backends, runs both
on the same inputs (the model with the hazard checker), each against
pto-run's golden and with --output-dir, and compares every output .npy of
the model with pto-isa's bit for bit (kernels are not compiled on their
own, the a2a3 target is left out). Each run prints `matches: RUN on
pto-isa` and `matches: RUN on the model` (or differs, fails, ...), then
`agrees: RUN`, or for each output that differs `disagrees: RUN OUTPUT: N of
M elements differ, first at index I [INDICES]: model X, pto-isa Y, pto-run
Z` (floats with their bits; pto-run's value where its golden has the
output); then

  programs: N of M runs match pto-run (on pto-isa and on the model)
  backends: N of M runs agree bit for bit

--no-vectorize builds pto-isa's side with clang's loop vectorizer off
(NO_VECTORIZE below): its reductions then add in their source's order.
"""

import argparse
import glob
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "test", "e2e", "Inputs"))
import npy  # noqa: E402 (the .npy writer the e2e inputs use)
CXX = os.path.join(REPO, "scripts", "pto-isa-cxx.sh")
PIPELINE = "builtin.module(pto-a2a3-pipeline)"
COMPILE_TIMEOUT = 600
RUN_TIMEOUT = 300


class Run:
    """One run of a host program run_ENTRY.cpp.

    ranks: --ranks for pto-run and the program (distributed programs).
    seed: seeds the inputs drawn here.
    draw: how an input is drawn, by name: "integers" (whole floats in
      [-100, 100], integers in [-1000, 1000]: sums exact in any order),
      (LOW, HIGH) (integers), "edges" (integers) or Edges(...) (floats):
      edge cases, see Edges; otherwise floats are uniform in [-1, 1) and
      integers zero, as pto-run's --random-inputs draws them.
    extents: the shape of an input of dynamic shape, by name: extents or
      expressions of P (the rank count), e.g. ["P", 256].
    rtol, atol: the comparison's tolerances (else the host program's).
    pipeline: pto-run runs pto-a2a3-pipeline first (default: when ENTRY is
      not in the source, a function the pipeline made).
    label: named in the run's lines ("[edges]"), to tell apart two runs of
      one host program.
    adjust: called with the drawn values (a dict of lists by input name),
      which it may change before they are written: keeps a combination of
      inputs out of a run.
    in_order: its f32 row sums match pto-run only in pto-run's order (sums
      of edge values of very different magnitudes): left out of a run of
      vectorised pto-isa against pto-run alone (no --compare-backends, no
      --no-vectorize), whose four partial row sums (NO_VECTORIZE) differ.
    """

    def __init__(self, entry, ranks=None, seed=1, draw=None, extents=None, rtol=None, atol=None, pipeline=None,
                 label=None, adjust=None, in_order=False):
        self.entry, self.ranks, self.seed = entry, ranks, seed
        self.draw, self.extents = draw or {}, extents or {}
        self.rtol, self.atol, self.pipeline = rtol, atol, pipeline
        self.label, self.adjust, self.in_order = label, adjust, in_order


RANGES = {"b": (-2 ** 7, 2 ** 7 - 1), "h": (-2 ** 15, 2 ** 15 - 1), "i": (-2 ** 31, 2 ** 31 - 1),
          "q": (-2 ** 63, 2 ** 63 - 1), "B": (0, 2 ** 8 - 1), "H": (0, 2 ** 16 - 1), "I": (0, 2 ** 32 - 1)}


class Edges:
    """Edge-case inputs. An integer input's draw "edges": half the elements
    edge values, 0, ±1, ±2, ±3, the powers of two ±2^k (k up to 30) and
    their neighbours ±(2^k ± 1), ±(2^24 ± 2) (where f32 stops holding every
    integer), the type's extremes and their neighbours; a quarter uniform
    over the type's range, a quarter uniform in [-1000, 1000].

    A float input's draw Edges(...), one of
      scale=S: floats the program scales by S (in f32) and converts to an
        int32: the integer edge values divided by S (and from groups of
        their own ±0 and the smallest subnormals), kept where S x in f32 is inside int32: beyond it the
        conversion is undefined (pto-isa's static_cast from double is
        C++'s undefined behaviour, pto-run wraps); half the elements, the
        rest uniform in [-1, 1);
      limit=L: |x| <= L, a bound under which the program's arithmetic stays
        finite (an infinity is not within any tolerance of another in the
        golden comparison), and never NaN (no tolerance either): about half
        the elements edge values, alike from each group of ±0 (+0 alone
        with zeros="+0", none with zeros=False), ± subnormals (the smallest, a few, the largest), the
        smallest normals, ±1 and its neighbours in f32 and ±0.5, ±1.5, ±2,
        ±3, ± powers of two from 2^-20 up to L, ±L; a quarter uniform in
        [-1, 1), a quarter of magnitudes log-uniform in [2^-20, L].
    """

    def __init__(self, limit=None, scale=None, zeros=True):
        if (limit is None) == (scale is None):
            raise ValueError("Edges: a float draw takes a limit or a scale")
        self.limit, self.scale, self.zeros = limit, scale, zeros

    @staticmethod
    def integers(low, high):
        values = {0, 1, 2, 3, 2 ** 24 - 2, 2 ** 24 + 2}
        for k in range(2, 31):
            values.update((2 ** k - 1, 2 ** k, 2 ** k + 1))
        values |= {-v for v in values}
        values.update((low, low + 1, high, high - 1))
        return sorted(v for v in values if low <= v <= high)

    def floats(self):
        """The edge values, in groups drawn alike: ±0 and the subnormals
        would be rare among a hundred powers of two."""
        groups = [[0.0, -0.0] if self.zeros is True else [0.0]] if self.zeros else []
        if self.scale is not None:
            groups.append([2.0 ** -149, -2.0 ** -149])
            groups.append([x for x in (f32(v / self.scale) for v in Edges.integers(-2 ** 31, 2 ** 31 - 1))
                           if -2 ** 31 <= f32(x * f32(self.scale)) < 2 ** 31])
        else:
            limit = f32(self.limit)
            signed = lambda magnitudes: [s * m for m in magnitudes if m <= limit for s in (1, -1)]
            groups.append(signed([2.0 ** -149, 3 * 2.0 ** -149, 2.0 ** -140, (2 ** 23 - 1) * 2.0 ** -149]))
            groups.append(signed([2.0 ** -126, 2.0 ** -125]))
            groups.append(signed([1.0, 1 - 2.0 ** -24, 1 + 2.0 ** -23, 0.5, 1.5, 2.0, 3.0]))
            groups.append(signed([2.0 ** k for k in range(-20, 128)]))
            groups.append(signed([limit]))
        return [g for g in groups if g]

    @staticmethod
    def draw_integers(rng, count, code):
        low, high = RANGES[code]
        edges = Edges.integers(low, high)
        small = (max(low, -1000), min(high, 1000))
        return [rng.choice(edges) if p < 0.5 else rng.randint(low, high) if p < 0.75 else rng.randint(*small)
                for p in (rng.random() for _ in range(count))]

    def draw(self, rng, count):
        groups = self.floats()
        edge = lambda: rng.choice(rng.choice(groups))
        if self.scale is not None:
            return [edge() if rng.random() < 0.5 else rng.uniform(-1.0, 1.0) for _ in range(count)]
        top = math.log2(self.limit)
        return [edge() if p < 0.45 else rng.uniform(-1.0, 1.0) if p < 0.7
                else rng.choice((-1, 1)) * min(2.0 ** rng.uniform(-20, top), f32(self.limit))
                for p in (rng.random() for _ in range(count))]


def f32(x):
    """x rounded to f32 (to nearest even)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


class Program:
    """runs: the runs of its host programs. runtime: also translated with
    --entry=runtime. partial: the targets it is translated for with
    --allow-partial (True: all), because part of it cannot be translated by
    design. direct: translated for a2a3sim without --entry=runtime."""

    def __init__(self, runs=(), runtime=False, partial=(), direct=True):
        self.runs, self.runtime, self.direct = list(runs), runtime, direct
        self.partial = set(TARGETS) if partial is True else set(partial)


TARGETS = ["a2a3sim", "a2a3sim-runtime", "a2a3"]
TRANSLATE = {
    "a2a3sim": ["--target=a2a3sim"],
    "a2a3sim-runtime": ["--target=a2a3sim", "--entry=runtime"],
    "a2a3": ["--target=a2a3"],
}

def prelu_off_zero(tile, slope, zero=lambda x: x == 0):
    """A Run's adjust: where the prelu's operand made from input `tile`
    is ±0 (`zero` of the input's element), its slope (input `slope`) is
    made non-negative. TPRELU of ±0 by a negative slope is where pto-isa's
    CPU backend and pl differ: pto-isa computes x > 0 ? x : x * slope, a
    zero of the product's sign (+0 * -1 = -0), pl (pto-run and the model)
    x >= 0 ? x : x * slope, the zero itself."""
    def adjust(values):
        values[slope] = [abs(y) if zero(x) else y for x, y in zip(values[tile], values[slope])]
    return adjust


MATMUL_F16 = dict(rtol=1e-2, atol=1e-2)
MATMUL_F32 = dict(rtol=1e-3, atol=1e-4)

# What test/e2e/*.test run, program by program (seeds, rank counts, inputs
# of their own, tolerances).
TABLE = {
    # distributed.test (and runtime.test for 05, 08 and 16).
    "examples/distributed/01_hello_rank.mlir": Program([Run("main", ranks=4), Run("main", ranks=2)]),
    "examples/distributed/02_window_buffer.mlir": Program([Run("main", ranks=2), Run("main", ranks=4)]),
    "examples/distributed/04_barrier.mlir": Program(),  # a library function: nothing to run
    "examples/distributed/05_remote_load_store.mlir": Program(
        [Run("main", ranks=2, seed=1), Run("main", ranks=4, seed=2)], runtime=True),
    "examples/distributed/06_put_get.mlir": Program(
        [Run("main", ranks=2, seed=2, extents={"copy": ["P", 256]}),
         Run("main", ranks=4, seed=4, extents={"copy": ["P", 256]})]),
    "examples/distributed/07_dynamic_rank_count.mlir": Program(
        [Run("main", ranks=3, seed=3), Run("main", ranks=2, seed=31), Run("main", ranks=4, seed=32)]),
    # a2a3: host programs given windows from outside get no host orchestrator.
    "examples/distributed/08_allreduce.mlir": Program(
        [Run("main", ranks=2, seed=9), Run("main", ranks=3, seed=10), Run("main", ranks=4, seed=11)],
        runtime=True, partial=["a2a3"]),
    "examples/distributed/11_host_allreduce.mlir": Program(
        [Run("main", ranks=2, seed=12, extents={"output": ["P", 256]}),
         Run("main", ranks=4, seed=14, extents={"output": ["P", 256]})]),
    "examples/distributed/12_broadcast.mlir": Program([Run("main", ranks=4, seed=4), Run("main", ranks=2, seed=41)]),
    "examples/distributed/13_allgather.mlir": Program([Run("main", ranks=2, seed=5), Run("main", ranks=4, seed=51)]),
    "examples/distributed/14_reduce_scatter.mlir": Program([Run("main", ranks=4, seed=6), Run("main", ranks=2, seed=61)]),
    "examples/distributed/15_all_to_all.mlir": Program(
        [Run("main", ranks=2, seed=7, extents={"input": ["P*P", 256]}),
         Run("main", ranks=3, seed=71, extents={"input": ["P*P", 256]}),
         Run("main", ranks=4, seed=72, extents={"input": ["P*P", 256]})]),
    "examples/distributed/16_putting_it_together.mlir": Program(
        [Run("main", ranks=2, seed=8), Run("main", ranks=4, seed=9)], runtime=True),
    # tiles.test and runtime.test.
    "examples/tiles/elementwise_add.mlir": Program(
        [Run("main", seed=1), Run("add_tensors", seed=2), Run("add_kernel", seed=6, pipeline=True), Run("add", seed=7)],
        runtime=True),
    "examples/tiles/matmul_operands.mlir": Program(),  # tile functions only: nothing to run
    # @softmax_tensors (a dynamic shape) is not converted to tiles.
    "examples/tiles/row_softmax.mlir": Program(
        [Run("main", seed=5, extents={"x": [70, 256]}),
         Run("softmax_kernel", seed=6, extents={"x": [70, 256], "y": [70, 256]}),
         Run("softmax_tensors", seed=7, extents={"x": [70, 256]}),
         Run("softmax", seed=8, extents={"arg0": [70, 256], "arg1": [70, 256]})],
        runtime=True, partial=True),
    "examples/tiles/tiled_matmul.mlir": Program(
        [Run("main", seed=3, **MATMUL_F16), Run("matmul_tensors", seed=4, **MATMUL_F32),
         Run("matmul_kernel", seed=5, **MATMUL_F16), Run("matmul", seed=6, **MATMUL_F32)],
        runtime=True),
    # distributed.test: atomics, the host collectives.
    "test/e2e/Inputs/atomics.mlir": Program(
        [Run("main", ranks=4, seed=31, draw={"input": "integers"}, extents={"input": ["P", 256]}),
         Run("main", ranks=2, seed=32, draw={"input": "integers"}, extents={"input": ["P", 256]})]),
    "test/e2e/Inputs/host_allreduce_large.mlir": Program(
        [Run("main", ranks=3, seed=16, extents={"output": ["P", 20480]})]),
    "test/e2e/Inputs/host_collectives.mlir": Program(
        [Run("main", ranks=4, seed=21, draw={"counts": (0, 3)})], runtime=True),
    "test/e2e/Inputs/host_dynamic.mlir": Program(
        [Run("main", ranks=2, seed=41, extents={"input": ["P*P", 256]}),
         Run("main", ranks=3, seed=42, extents={"input": ["P*P", 256]})]),
    # every-instruction.test, and each function again on edge cases
    # (sim-vs-pto-isa.test), bounded where the arithmetic would overflow:
    # products of x and y (binary) stay below 2^120, 0.375 x / 0.375
    # (scalar) below 2^102, exp's argument (unary) within ±64, a row
    # product of 32 values (reductions) below 2^96, expdif's argument
    # (expansions: x less a sum of 32 y / 16 or 16 y / 8) within ±48.
    # Left out where pto-isa's CPU backend and pl differ: the prelu of ±0
    # by a negative slope (prelu_off_zero), the abs of -0 (unary: +0
    # alone; pto-isa's TABS, src < 0 ? -src : src, keeps -0, pl's abs
    # gives +0). Runs with row sums are in_order (see Run).
    "test/e2e/Inputs/every_instruction.mlir": Program(
        [Run("binary", seed=21), Run("scalar", seed=22), Run("unary", seed=23), Run("integer", seed=24),
         Run("reductions", seed=25), Run("expansions", seed=26), Run("select_move", seed=27),
         Run("trig", seed=28), Run("indexing", seed=29), Run("regions", seed=30),
         Run("cube", seed=41, draw={"a": "integers", "b": "integers", "bias": "integers", "v": "integers"}),
         Run("binary", seed=121, draw={"x": Edges(limit=2.0 ** 60), "y": Edges(limit=2.0 ** 60)}, label="edges",
             adjust=prelu_off_zero("x", "y")),
         Run("scalar", seed=122, draw={"x": Edges(limit=2.0 ** 100)}, label="edges"),
         Run("unary", seed=123, draw={"x": Edges(limit=64.0, zeros="+0")}, label="edges"),
         Run("trig", seed=128, draw={"x": Edges(limit=4.0)}, label="edges"),
         # x and y scaled by 1000 and truncated to int32: integer edge
         # values through every bitwise op, shift and remainder (whose
         # operands the function masks: defined for any int32) and the
         # wrapping cast to i16.
         Run("integer", seed=124, draw={"x": Edges(scale=1000), "y": Edges(scale=1000)}, label="edges"),
         Run("reductions", seed=125, draw={"x": Edges(limit=8.0)}, label="edges", in_order=True),
         Run("expansions", seed=126, draw={"x": Edges(limit=16.0), "y": Edges(limit=16.0)}, label="edges",
             in_order=True),
         Run("select_move", seed=127, draw={"x": Edges(limit=2.0 ** 100), "y": Edges(limit=2.0 ** 100)},
             label="edges"),
         # Ties (repeated edge values, ±0) sort by index and merge from the
         # earlier list.
         Run("indexing", seed=129, draw={"x": Edges(limit=2.0 ** 100)}, label="edges"),
         # Sums and products of two edge values, and of three for the
         # carrying ops, stay finite below 2^100.
         Run("regions", seed=130, draw={"x": Edges(limit=2.0 ** 50), "y": Edges(limit=2.0 ** 50)},
             label="edges")]),
    # ops.test, and each function again on edge cases (sim-vs-pto-isa.test).
    # integer_ops is defined for every int32 a and b: its remainder divides
    # (a & b | 5 ^ 3) << 1 >> 1, in [-2^30, 2^30), by the odd b | 1, so
    # neither a zero divisor nor INT32_MIN % -1 (which traps on x86) occurs.
    # Float bounds: lrelu x prelu y (float_ops) below 2^120, exp's argument
    # (windows, accumulate) within ±64, f16 sums of 128 values below 2^15;
    # no prelu of ±0 (lrelu's x * 0.25 is ±0 also where it underflows) by
    # a negative y (prelu_off_zero).
    "test/e2e/Inputs/ops.mlir": Program(
        [Run("integer_ops", seed=1, draw={"a": "integers", "b": "integers"}), Run("float_ops", seed=7),
         Run("shapes", seed=8), Run("broadcasts", seed=10), Run("f16_sums", seed=11), Run("windows", seed=9),
         Run("accumulate", seed=11),
         Run("integer_ops", seed=101, draw={"a": "edges", "b": "edges"}, label="edges"),
         Run("float_ops", seed=107, draw={"x": Edges(limit=2.0 ** 60), "y": Edges(limit=2.0 ** 60)}, label="edges",
             adjust=prelu_off_zero("x", "y", lambda x: x == 0 or x < 0 and f32(x * 0.25) == 0)),
         Run("shapes", seed=108, draw={"x": Edges(limit=2.0 ** 100)}, label="edges"),
         Run("broadcasts", seed=110, draw={"x": Edges(limit=2.0 ** 100)}, label="edges", in_order=True),
         Run("f16_sums", seed=111, draw={"x": Edges(limit=256.0)}, label="edges", in_order=True),
         Run("windows", seed=109, draw={"x": Edges(limit=64.0)}, label="edges"),
         Run("accumulate", seed=112, draw={"x": Edges(limit=64.0), "y": Edges(limit=64.0)}, label="edges")]),
    # runtime.test: a kernel with scalar parameters, so --entry=runtime only.
    "test/e2e/Inputs/runtime.mlir": Program([Run("rows", seed=1), Run("subtract", seed=2),
                                             Run("scale_row", seed=3, draw={"row": (0, 63)})],
                                            runtime=True, direct=False),
    "test/e2e/Inputs/tasks.mlir": Program([Run("chain", seed=10), Run("twice", seed=11)], runtime=True),
    # tiles.test.
    "test/e2e/Inputs/views.mlir": Program([Run("pad_max", seed=3, pipeline=True)]),
}

# The host programs' element types: .npy descriptor and struct code.
TYPES = {
    "float": ("<f4", "f"), "half": ("<f2", "e"), "int32_t": ("<i4", "i"), "int16_t": ("<i2", "h"),
    "int8_t": ("|i1", "b"), "int64_t": ("<i8", "q"), "uint32_t": ("<u4", "I"), "uint16_t": ("<u2", "H"),
    "uint8_t": ("|u1", "B"), "size_t": ("<i8", "q"),
}
INPUT = re.compile(r'pto::sim::input<(\w+)>\(\w+, "(\w+)", \{([^}]*)\}\)')
# An output a driver makes: zeroed, and given to pto-run as zeros too (a
# kernel that writes part of it leaves the rest as it was).
OUTPUT = re.compile(r'pto::sim::output<(\w+)>\(\w+, "(\w+)", \{([^}]*)\}\)')
# A scalar parameter: a one-element .npy (an index, size_t, as an int64).
SCALAR = re.compile(r'pto::sim::scalar<(\w+)>\(\w+, "(\w+)"\)')
SLOT = re.compile(r'pto::sim::fill_slot<(\w+)>\(\w+, \w+, "(\w+)"((?:, [^,)]+)*)\)')


def programs():
    found = sorted(glob.glob(os.path.join(REPO, "examples", "**", "*.mlir"), recursive=True))
    found += sorted(glob.glob(os.path.join(REPO, "test", "e2e", "Inputs", "*.mlir")))
    return [os.path.relpath(path, REPO) for path in found]


def write_npy(path, descr, code, dims, values):
    npy.write(path, descr, code, dims, values)


class Driver:
    def __init__(self, args, work, pto_isa_root):
        self.args, self.work, self.root = args, work, pto_isa_root
        self.tools = args.tools
        self.kernels = [0, 0]
        self.programs = [0, 0]
        self.backends = [0, 0]
        self.failed = False
        self.goldens = {}

    def say(self, line):
        print(line, flush=True)

    def first_error(self, text, fallback):
        lines = text.splitlines()
        line = next((l for l in lines if "error:" in l), None) or next((l for l in lines if l.strip()), fallback)
        line = line.replace(self.work + "/", "")
        if self.root:
            line = line.replace(self.root + "/", "$PTO_ISA_ROOT/")
        line = line.replace(REPO + "/", "").strip()
        line = line[2:] if line.startswith("./") else line
        return line if len(line) <= 400 else line[:400] + " ..."

    def run(self, command, cwd=None, timeout=COMPILE_TIMEOUT):
        try:
            done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  timeout=timeout, errors="replace")
            return done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as expired:
            out = expired.stdout.decode(errors="replace") if isinstance(expired.stdout, bytes) else expired.stdout or ""
            return None, out, "timed out after %d s" % timeout

    def cxx(self, *arguments, backend=None):
        return [CXX, "--backend=" + (backend or self.args.backend), *arguments]

    def check(self, path):
        table = TABLE.get(path)
        if table is None:
            print("note: %s is not in the conformance table: its host programs run once on uniform inputs" % path,
                  file=sys.stderr)
            table = Program()
        stem = os.path.splitext(os.path.basename(path))[0]
        for target in TARGETS:
            if target == "a2a3sim" and not table.direct or target == "a2a3sim-runtime" and not table.runtime:
                continue
            if target == "a2a3" and self.args.compare_backends:
                continue
            self.target(path, stem, table, target)

    def target(self, path, stem, table, target):
        label = "%s/%s" % (target, stem)
        out = os.path.join(self.work, target, stem)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        command = [os.path.join(self.tools, "pto-translate"), "--mlir-to-cce", *TRANSLATE[target]]
        if target in table.partial:
            command.append("--allow-partial")
        code, _, err = self.run(command + [os.path.join(REPO, path), "-o", out])
        if code != 0:
            self.failed = True
            self.say("does not translate: %s: %s" % (label, self.first_error(err, "exit code %s" % code)))
            return
        with open(os.path.join(out, "manifest.json")) as manifest:
            sources = [k["source"] for k in json.load(manifest).get("kernels", []) if k.get("source")]
        if os.path.exists(os.path.join(out, "pto_builtin_collectives.hpp")):
            sources.append("pto_builtin_collectives.hpp")
        for source in sources if not self.args.compare_backends else ():
            self.kernel(label, out, source)
        if target == "a2a3":
            return
        runs = {}
        for run in table.runs:
            runs.setdefault(run.entry, []).append(run)
        hosts = sorted(f for f in os.listdir(out) if f.startswith("run_") and f.endswith(".cpp"))
        for entry in sorted(set(runs) - {h[4:-4] for h in hosts}):
            self.programs[1] += 1
            self.failed = True
            self.say("fails: %s/run_%s.cpp: pto-translate wrote no such host program" % (label, entry))
        for host in hosts:
            entry = host[4:-4]
            self.host(path, stem, label, out, host, runs.get(entry) or [Run(entry)])

    def kernel(self, label, out, source):
        self.kernels[1] += 1
        language = ["-x", "c++"] if source.endswith(".hpp") else []
        code, _, err = self.run(self.cxx("-fsyntax-only", "-I.", *language, source), cwd=out)
        if code == 0:
            self.kernels[0] += 1
            self.say("compiles: %s/%s" % (label, source))
        else:
            self.failed = True
            self.say("does not compile: %s/%s: %s" % (label, source, self.first_error(err, "exit code %s" % code)))

    def host(self, path, stem, label, out, host, runs):
        backends = ["pto-isa", "sim"] if self.args.compare_backends else [self.args.backend]
        binaries, build_errors = {}, {}
        for backend in backends:
            directory = os.path.join(out, "bin", backend) if self.args.compare_backends else os.path.join(out, "bin")
            binaries[backend] = os.path.join(directory, host[:-4])
            os.makedirs(directory, exist_ok=True)
            flags = NO_VECTORIZE if backend == "pto-isa" and self.args.no_vectorize else []
            code, _, err = self.run(self.cxx("-O1", *flags, "-I.", host, "-o", binaries[backend], backend=backend),
                                    cwd=out)
            build_errors[backend] = None if code == 0 else self.first_error(err, "exit code %s" % code)
        with open(os.path.join(out, host)) as text:
            program_text = text.read()
        vectorised = "pto-isa" in backends and not self.args.no_vectorize and not self.args.compare_backends
        for run in runs:
            if run.in_order and vectorised:
                continue
            name = "%s/%s" % (label, host) + (" --ranks %d" % run.ranks if run.ranks else "")
            name += " [%s]" % run.label if run.label else ""
            files, golden, error = self.prepare(path, stem, program_text, run)
            if files is None:
                self.programs[1] += len(backends)
                self.failed = True
                self.say("fails: %s: %s" % (name, error))
                if self.args.compare_backends:
                    self.backends[1] += 1
                continue
            if error:
                # pto-run refused the inputs: a failure, but the backends
                # can still be compared with each other.
                self.programs[1] += len(backends)
                self.failed = True
                self.say("fails: %s: %s" % (name, error))
            outputs = {}
            for backend in backends:
                shown = name + (" on " + BACKEND_NAMES[backend] if self.args.compare_backends else "")
                if not error:
                    self.programs[1] += 1
                if build_errors[backend]:
                    self.failed = True
                    self.say("does not build: %s: %s" % (shown, build_errors[backend]))
                    continue
                outputs[backend] = None
                if self.args.compare_backends:
                    outputs[backend] = os.path.join(out, "outputs", backend, self.key(run))
                    shutil.rmtree(outputs[backend], ignore_errors=True)
                    os.makedirs(outputs[backend])
                verdict = self.execute(binaries[backend], backend, files, golden, run, outputs[backend])
                if error:
                    if verdict:
                        self.say("%s: %s: %s" % (verdict[0], shown, verdict[1]))
                elif verdict is None:
                    self.programs[0] += 1
                    self.say("matches: %s" % shown)
                else:
                    self.failed = True
                    self.say("%s: %s: %s" % (verdict[0], shown, verdict[1]))
            if self.args.compare_backends:
                self.backends[1] += 1
                if len(outputs) < len(backends):
                    self.failed = True
                    self.say("disagrees: %s: not built on both backends" % name)
                    continue
                lines = differences(outputs["sim"], outputs["pto-isa"], None if error else golden)
                if lines:
                    self.failed = True
                    for line in lines:
                        self.say("disagrees: %s %s" % (name, line))
                else:
                    self.backends[0] += 1
                    self.say("agrees: %s" % name)

    def draw(self, run, kind, name, dims):
        """Input `name`'s .npy descriptor, struct code, shape and values."""
        descr, code = TYPES.get(kind, (None, None))
        if descr is None:
            raise ValueError("an input of type %s" % kind)
        shape = [int(d) for d in dims]
        if any(d < 0 for d in shape):
            if name not in run.extents:
                raise ValueError("input %s has a dynamic shape: the table gives no extents for it" % name)
            shape = [int(eval(str(e), {"P": run.ranks or 1})) for e in run.extents[name]]
        count = 1
        for d in shape:
            count *= d
        rng = random.Random("%d:%s" % (run.seed, name))
        how = run.draw.get(name)
        integral = code not in "fe"
        if how == "edges":
            if not integral:
                raise ValueError("input %s: a float input's edge draw is Edges(limit=...) or Edges(scale=...)" % name)
            values = Edges.draw_integers(rng, count, code)
        elif isinstance(how, Edges):
            if integral:
                raise ValueError("input %s: an integer input's edge draw is \"edges\"" % name)
            values = how.draw(rng, count)
        elif isinstance(how, tuple):
            values = [rng.randint(how[0], how[1]) for _ in range(count)]
        elif how == "integers":
            values = [rng.randint(-1000, 1000) if integral else float(rng.randint(-100, 100)) for _ in range(count)]
        else:
            values = [0 if integral else rng.uniform(-1.0, 1.0) for _ in range(count)]
        return descr, code, shape, values

    @staticmethod
    def key(run):
        key = "%s-p%d" % (run.entry, run.ranks) if run.ranks else run.entry
        return key + "-s%d" % run.seed + ("-" + run.label if run.label else "")

    def prepare(self, path, stem, text, run):
        """The run's inputs (drawn once per program, run and input list)
        and pto-run's golden on them: (files, golden directory, None), or
        (files, None, pto-run's error), or (None, None, the draw's error)."""
        key = self.key(run)
        inputs = [(kind, name, [d.strip() for d in dims.split(",") if d.strip()]) for kind, name, dims in INPUT.findall(text)]
        ranks = str(run.ranks or 1)
        inputs += [(kind, name, [ranks] + [d.strip() for d in dims.split(",") if d.strip()])
                   for kind, name, dims in SLOT.findall(text)]
        inputs += [(kind, name, []) for kind, name in SCALAR.findall(text)]
        signature = (stem, key, tuple((k, n, tuple(d)) for k, n, d in inputs))
        golden = os.path.join(self.work, "golden", stem, key)
        if signature not in self.goldens:
            directory = os.path.join(self.work, "inputs", stem, key)
            shutil.rmtree(directory, ignore_errors=True)
            shutil.rmtree(golden, ignore_errors=True)
            os.makedirs(directory)
            try:
                drawn = {name: self.draw(run, kind, name, dims) for kind, name, dims in inputs}
                if run.adjust:
                    values = {name: values for name, (_, _, _, values) in drawn.items()}
                    run.adjust(values)
                    drawn = {name: (*drawn[name][:3], values[name]) for name in drawn}
                for kind, name, dims in OUTPUT.findall(text):
                    if re.fullmatch(r"result\d+", name):
                        continue  # a result: pto-run has no input for it
                    descr, code = TYPES[kind]
                    shape = [int(d) for d in dims.split(",") if d.strip()]
                    count = 1
                    for d in shape:
                        count *= d
                    drawn[name] = (descr, code, shape, [0] * count)
            except (ValueError, KeyError) as error:
                return None, None, str(error)
            files = {}
            for name, (descr, code, shape, values) in drawn.items():
                files[name] = os.path.join(directory, name + ".npy")
                write_npy(files[name], descr, code, shape, values)
            command = [os.path.join(self.tools, "pto-run"), os.path.join(REPO, path), "--entry", run.entry,
                       "--random-inputs", "--seed", str(run.seed), "-o", golden]
            if run.ranks:
                command += ["--ranks", str(run.ranks)]
            pipeline = run.pipeline
            if pipeline is None:
                with open(os.path.join(REPO, path)) as source:
                    pipeline = "func.func @%s(" % run.entry not in source.read()
            if pipeline:
                command.append("--pass-pipeline=" + PIPELINE)
            for name, file in files.items():
                command += ["--input", "%s=%s" % (name, file)]
            code, _, err = self.run(command, timeout=RUN_TIMEOUT)
            self.goldens[signature] = (files, None if code == 0 else "pto-run: " + self.first_error(err, "exit code %s" % code))
        files, error = self.goldens[signature]
        return files, None if error else golden, error

    def execute(self, binary, backend, files, golden, run, output_dir):
        """Runs a host program built for `backend` on the inputs `files`
        (writing its outputs into `output_dir`, if given); None when it
        matches the golden (or, with no golden, exits 0), else (verdict,
        line)."""
        command = [binary]
        if golden:
            command += ["--golden", golden]
        for name, file in files.items():
            command += ["--input", "%s=%s" % (name, file)]
        if run.ranks:
            command += ["--ranks", str(run.ranks)]
        if run.rtol is not None:
            command += ["--rtol", str(run.rtol), "--atol", str(run.atol)]
        if output_dir:
            command += ["--output-dir", output_dir]
        if backend == "sim":
            command.append("--hazards")
        code, out, err = self.run(command, timeout=RUN_TIMEOUT)
        bad = [l for l in out.splitlines() if "MISMATCH" in l or "NOT RELEASED" in l]
        good = [l for l in out.splitlines() if "matches the golden" in l or "every cell released" in l]
        if code == 0 and not bad:
            return None if good or not golden else ("fails", "no output was compared with the golden")
        if code == 1 and bad:
            return "differs", bad[0]
        if code is None:
            return "fails", err
        if code < 0:
            return "fails", "killed by signal %d: %s" % (-code, self.first_error(err, "no message"))
        return "fails", "exit code %d: %s" % (code, self.first_error(err, bad[0] if bad else "no message"))


BACKEND_NAMES = {"pto-isa": "pto-isa", "sim": "the model"}
# clang's loop vectorizer off: pto-isa marks its loops `vectorize(enable)
# interleave(enable)` (PTO_CPU_VECTORIZE_LOOP), which licenses reordering a
# reduction; at -O1 clang splits the f32 row sum (TROWSUM) into four
# partial sums, element j into sum j % 4, added in order at the end: an
# order neither its source, docs/a2a3-lowering.md nor pto-run has.
NO_VECTORIZE = ["-mllvm", "-force-vector-width=1", "-mllvm", "-force-vector-interleave=1"]


def read_npy(path):
    """(descriptor, shape, element bytes) of a little-endian, C-ordered
    .npy (version 1 to 3), or None when it is not one."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        return None
    if data[:6] != b"\x93NUMPY":
        return None
    if data[6] == 1:
        length, start = struct.unpack("<H", data[8:10])[0], 10
    else:
        length, start = struct.unpack("<I", data[8:12])[0], 12
    header = data[start:start + length].decode("latin-1")
    descr = re.search(r"'descr': '([^']+)'", header)
    shape = re.search(r"'shape': \(([^)]*)\)", header)
    if not descr or not shape or "'fortran_order': False" not in header:
        return None
    dims = tuple(int(d) for d in shape.group(1).split(",") if d.strip())
    return descr.group(1), dims, data[start + length:]


CODES = {descr: code for descr, code in TYPES.values()}
CODES.update({"<f8": "d", "|b1": "?", "<u8": "Q"})


def show(code, raw):
    value = struct.unpack("<" + code, raw)[0]
    if code in "efd":
        return "%r (0x%0*x)" % (value, 2 * len(raw), int.from_bytes(raw, "little"))
    return str(value)


def differences(model, isa, golden):
    """The outputs in which the model's run (directory `model`) and
    pto-isa's (`isa`) differ, bit for bit: lines `OUTPUT: N of M elements
    differ, first at index I [INDICES]: model X, pto-isa Y` (and pto-run's
    value there, from `golden`, when it has the output)."""
    names = sorted(set(os.listdir(model)) | set(os.listdir(isa)))
    if not names:
        return [": neither backend wrote an output"]
    lines = []
    for file in names:
        output = file[:-4] if file.endswith(".npy") else file
        a, b = read_npy(os.path.join(model, file)), read_npy(os.path.join(isa, file))
        if a is None or b is None:
            lines.append("%s: %s wrote no .npy of it" % (output, "the model" if a is None else "pto-isa"))
            continue
        if a[:2] != b[:2]:
            lines.append("%s: the model wrote %s %s, pto-isa %s %s" % (output, a[0], a[1], b[0], b[1]))
            continue
        code = CODES.get(a[0])
        size = struct.calcsize("<" + code) if code else 1
        if code is None or len(a[2]) != len(b[2]) or len(a[2]) % size:
            if a[2] != b[2]:
                lines.append("%s: the files differ (%s)" % (output, a[0]))
            continue
        count = len(a[2]) // size
        wrong = [i for i in range(count) if a[2][i * size:(i + 1) * size] != b[2][i * size:(i + 1) * size]]
        if not wrong:
            continue
        i = wrong[0]
        indices, rest = [], i
        for d in reversed(a[1]):
            indices.insert(0, rest % d if d else 0)
            rest = rest // d if d else 0
        line = "%s: %d of %d elements differ, first at index %d %s: model %s, pto-isa %s" % (
            output, len(wrong), count, i, list(indices), show(code, a[2][i * size:(i + 1) * size]),
            show(code, b[2][i * size:(i + 1) * size]))
        reference = read_npy(os.path.join(golden, file)) if golden else None
        if reference and reference[:2] == a[:2] and len(reference[2]) == len(a[2]):
            line += ", pto-run %s" % show(code, reference[2][i * size:(i + 1) * size])
        lines.append(line)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="PROGRAM", help="this program alone (a stem or a path); repeatable")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (translations, inputs, goldens, binaries)")
    parser.add_argument("--backend", choices=["pto-isa", "sim"], default="pto-isa",
                        help="what the C++ is compiled against (default pto-isa; sim: the project's model, with --hazards)")
    parser.add_argument("--compare-backends", action="store_true",
                        help="build every host program on both backends and compare their outputs bit for bit")
    parser.add_argument("--no-vectorize", action="store_true",
                        help="build pto-isa's host programs with clang's loop vectorizer off (reductions in their "
                             "source order)")
    parser.add_argument("--tools", default=os.path.join(REPO, "target", "debug"),
                        help="where pto-translate and pto-run are (default target/debug)")
    args = parser.parse_args()
    args.tools = os.path.abspath(args.tools)

    backend = "pto-isa" if args.compare_backends else args.backend
    chosen = subprocess.run([CXX, "--backend=" + backend, "--print-backend"], stdout=subprocess.PIPE, text=True)
    if chosen.returncode != 0:
        return 2
    words = chosen.stdout.split()
    root = words[1].split("=", 1)[1] if len(words) > 1 else None

    selected = programs()
    for path in sorted(set(TABLE) - set(selected)):
        print("note: the conformance table names %s, which is not a program any more" % path, file=sys.stderr)
    if args.only:
        wanted = set(args.only)
        unknown = wanted - {p for p in selected} - {os.path.splitext(os.path.basename(p))[0] for p in selected}
        if unknown:
            print("conformance.py: error: no program %s" % ", ".join(sorted(unknown)), file=sys.stderr)
            return 2
        selected = [p for p in selected if p in wanted or os.path.splitext(os.path.basename(p))[0] in wanted]

    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        work = os.path.abspath(args.keep)
    else:
        work = tempfile.mkdtemp(prefix="pto-conformance-")
    driver = Driver(args, work, root)
    try:
        for path in selected:
            driver.check(path)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if args.compare_backends:
        print("programs: %d of %d runs match pto-run (on pto-isa and on the model)" % tuple(driver.programs))
        print("backends: %d of %d runs agree bit for bit" % tuple(driver.backends), flush=True)
    else:
        print("kernels: %d of %d compile; programs: %d of %d match pto-run" % (*driver.kernels, *driver.programs),
              flush=True)
    return 1 if driver.failed else 0


if __name__ == "__main__":
    sys.exit(main())
