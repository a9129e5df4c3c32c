#!/usr/bin/env python3
"""Estimated cycles of every kernel of the examples and the corpus.

Benchmark (not a test). Each program of examples/**/*.mlir and
corpus/*.mlir goes through pto-a2a3-pipeline, then pl-estimate-cycles
(docs/cost-model.md); its remarks give each kernel's estimated cycles, its
pipe bound (the busiest pipe's work) and their ratio; distributed kernels
as rank 0 of 4 (`nranks`, `rank`). Prints one line per kernel, then how many kernels are within 1.15x of their bound and the
geometric mean of the ratios.

  scripts/bench-cycles.py [--tools DIR] [--markdown FILE] [--only NAME]...

--markdown writes the table into FILE after its `<!-- figures: ... -->`
line (replacing what follows it). Python's standard library only.
"""

import argparse
import glob
import math
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REMARK = re.compile(
    r"remark: (?:'func.func' op )?pl-estimate-cycles: @(\S+): (\d+) cycles .*?; pipe bound (\d+) cycles \((\w+)\); "
    r"ratio ([\d.]+); busy: ([^;]*)(?:; approximate: (.*))?$"
)
TARGET = 1.15
# Distributed kernels are estimated as rank 0 of this many.
NRANKS = 4


def programs(only):
    paths = sorted(glob.glob(os.path.join(REPO, "examples", "**", "*.mlir"), recursive=True))
    paths += sorted(glob.glob(os.path.join(REPO, "corpus", "*.mlir")))
    for path in paths:
        stem = os.path.splitext(os.path.basename(path))[0]
        if not only or stem in only:
            yield os.path.relpath(path, REPO), stem


def estimate(tools, path):
    """The kernels' (name, cycles, bound, pipe, ratio, busy, approximations)."""
    opt = os.path.join(tools, "pto-opt")
    lowered = subprocess.run(
        [opt, "--pto-a2a3-pipeline", path], cwd=REPO, capture_output=True, text=True
    )
    if lowered.returncode != 0:
        return None, lowered.stderr.strip().splitlines()[0] if lowered.stderr else "failed"
    estimated = subprocess.run(
        [
            opt,
            f"--pass-pipeline=builtin.module(func.func(pl-estimate-cycles{{nranks={NRANKS} rank=0}}))",
            "--mlir-print-op-on-diagnostic=false",
            "-o",
            os.devnull,
        ],
        input=lowered.stdout,
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    if estimated.returncode != 0:
        return None, estimated.stderr.strip().splitlines()[0]
    kernels = []
    for line in estimated.stderr.splitlines():
        match = REMARK.search(line)
        if match:
            name, cycles, bound, pipe, ratio, busy, approximate = match.groups()
            kernels.append((name, int(cycles), int(bound), pipe, float(ratio), busy, approximate or ""))
    return kernels, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", default=os.path.join(REPO, "target", "debug"))
    parser.add_argument("--markdown", metavar="FILE")
    parser.add_argument("--only", action="append", metavar="NAME")
    args = parser.parse_args()
    rows, failures = [], []
    for path, stem in programs(args.only):
        kernels, error = estimate(args.tools, path)
        if kernels is None:
            failures.append((stem, error))
            print(f"{stem}: FAILS: {error}", flush=True)
            continue
        for name, cycles, bound, pipe, ratio, busy, approximate in kernels:
            rows.append((stem, name, cycles, bound, pipe, ratio, approximate))
            note = f" [{approximate}]" if approximate else ""
            print(f"{stem} @{name}: {cycles} cycles, bound {bound} ({pipe}), ratio {ratio:.2f}{note}", flush=True)
    ratios = [r[5] for r in rows if r[3] > 0]
    within = sum(1 for r in ratios if r <= TARGET)
    mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else 0.0
    summary = (
        f"kernels: {len(rows)}; within {TARGET}x of the pipe bound: {within} of {len(ratios)}; "
        f"geometric mean ratio {mean:.2f}; programs that fail to estimate: {len(failures)}"
    )
    print(summary)
    if args.markdown:
        lines = [
            "",
            "| program | kernel | cycles | pipe bound | ratio | assumed |",
            "|---|---|---|---|---|---|",
        ]
        for stem, name, cycles, bound, pipe, ratio, approximate in rows:
            lines.append(f"| `{stem}` | `@{name}` | {cycles} | {bound} ({pipe}) | {ratio:.2f} | {approximate} |")
        for stem, error in failures:
            lines.append(f"| `{stem}` | | fails: {error} | | | |")
        lines += ["", summary + ".", ""]
        with open(args.markdown) as f:
            text = f.read()
        marker = text.index("<!-- figures:")
        end = text.index("\n", marker) + 1
        with open(args.markdown, "w") as f:
            f.write(text[:end] + "\n".join(lines))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
