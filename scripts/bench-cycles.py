#!/usr/bin/env python3
"""Estimated cycles of every kernel of the examples and the corpus.

Benchmark (not a test). Each program of examples/**/*.mlir and
corpus/*.mlir goes through pto-a2a3-pipeline, then pl-estimate-cycles
(docs/cost-model.md); its remarks give each kernel's estimated cycles, its
pipe bound (the busiest pipe's work), its data bound (what the kernel's
data dependences and pipe order allow) and the ratios of the cycles to
them; distributed kernels as rank 0 of 4 (`nranks`, `rank`). Prints one
line per kernel, then how many kernels are within 1.15x of each bound and
the geometric means of the ratios.

  scripts/bench-cycles.py [--tools DIR] [--lower-with DIR] [--markdown FILE] [--baseline FILE] [--only NAME]...

--lower-with runs pto-a2a3-pipeline with the pto-opt in DIR (another
version's compiler, estimated with this version's cost model: how the
baseline is made). --markdown writes the table into FILE after its `<!-- figures: ... -->`
line (replacing what follows it). --baseline takes an earlier run's
printed output and adds its cycles to the table as "before".
Python's standard library only.
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
    r"ratio ([\d.]+); data bound (\d+) cycles \(ratio ([\d.]+)\); busy: ([^;]*)(?:; approximate: (.*))?$"
)
TARGET = 1.15
# How the remark says a loop's trip count was assumed.
UNKNOWN = "unknown trip count"
# Distributed kernels are estimated as rank 0 of this many.
NRANKS = 4


def programs(only):
    paths = sorted(glob.glob(os.path.join(REPO, "examples", "**", "*.mlir"), recursive=True))
    paths += sorted(glob.glob(os.path.join(REPO, "corpus", "*.mlir")))
    for path in paths:
        stem = os.path.splitext(os.path.basename(path))[0]
        if not only or stem in only:
            yield os.path.relpath(path, REPO), stem


def estimate(tools, path, lower_with=None):
    """The kernels' (name, cycles, bound, pipe, ratio, data bound, data ratio,
    busy, approximations)."""
    opt = os.path.join(tools, "pto-opt")
    lowered = subprocess.run(
        [os.path.join(lower_with or tools, "pto-opt"), "--pto-a2a3-pipeline", path],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    if lowered.returncode != 0:
        return None, lowered.stderr.strip().splitlines()[0] if lowered.stderr else "failed"
    estimated = subprocess.run(
        [
            opt,
            f"--pass-pipeline=builtin.module(pl-estimate-cycles{{nranks={NRANKS} rank=0}})",
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
            name, cycles, bound, pipe, ratio, data, data_ratio, busy, approximate = match.groups()
            kernels.append(
                (name, int(cycles), int(bound), pipe, float(ratio), int(data), float(data_ratio), busy, approximate or "")
            )
    return kernels, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", default=os.path.join(REPO, "target", "debug"))
    parser.add_argument("--markdown", metavar="FILE")
    parser.add_argument("--only", action="append", metavar="NAME")
    parser.add_argument("--baseline", metavar="FILE")
    parser.add_argument("--lower-with", metavar="DIR")
    args = parser.parse_args()
    baseline = {}
    if args.baseline:
        with open(args.baseline) as f:
            for line in f:
                match = re.match(r"(\S+) @(\S+): (\d+) cycles", line)
                if match:
                    baseline[(match.group(1), match.group(2))] = (int(match.group(3)), UNKNOWN in line)
    rows, failures = [], []
    for path, stem in programs(args.only):
        kernels, error = estimate(args.tools, path, args.lower_with)
        if kernels is None:
            failures.append((stem, error))
            print(f"{stem}: FAILS: {error}", flush=True)
            continue
        for name, cycles, bound, pipe, ratio, data, data_ratio, busy, approximate in kernels:
            rows.append((stem, name, cycles, bound, pipe, ratio, data, data_ratio, approximate))
            note = f" [{approximate}]" if approximate else ""
            print(
                f"{stem} @{name}: {cycles} cycles, bound {bound} ({pipe}), ratio {ratio:.2f}, "
                f"data bound {data}, ratio {data_ratio:.2f}{note}",
                flush=True,
            )

    def summarise(ratios):
        within = sum(1 for r in ratios if r <= TARGET)
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else 0.0
        return within, mean

    bounded = [r for r in rows if r[3] > 0]
    within, mean = summarise([r[5] for r in bounded])
    data_within, data_mean = summarise([r[7] for r in bounded])
    summary = (
        f"kernels: {len(rows)}; within {TARGET}x of the pipe bound: {within} of {len(bounded)}, "
        f"of the data bound: {data_within} of {len(bounded)}; geometric mean ratio {mean:.2f} "
        f"(to the data bound {data_mean:.2f}); programs that fail to estimate: {len(failures)}"
    )
    if baseline:
        # A loop of unknown trip count runs unknown-trips times: unrolled,
        # that is other work than before, so such kernels are not compared.
        before = [
            (baseline[(r[0], r[1])][0], r[2])
            for r in rows
            if (r[0], r[1]) in baseline and not baseline[(r[0], r[1])][1] and UNKNOWN not in r[8]
        ]
        faster = sum(1 for b, a in before if a < b)
        slower = sum(1 for b, a in before if a > b)
        speedup = math.exp(sum(math.log(b / a) for b, a in before if a > 0) / len(before)) if before else 1.0
        summary += (
            f"; against the baseline (the {len(before)} kernels whose loops' trip counts are known): "
            f"{faster} faster, {slower} slower, {len(before) - faster - slower} unchanged, "
            f"geometric mean speed-up {speedup:.2f}x"
        )
    print(summary)
    if args.markdown:
        lines = [
            "",
            "| program | kernel | before | cycles | pipe bound | ratio | data bound | ratio | assumed |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for stem, name, cycles, bound, pipe, ratio, data, data_ratio, approximate in rows:
            old = baseline.get((stem, name), ("",))[0]
            lines.append(
                f"| `{stem}` | `@{name}` | {old} | {cycles} | {bound} ({pipe}) | {ratio:.2f} | {data} | {data_ratio:.2f} | {approximate} |"
            )
        for stem, error in failures:
            lines.append(f"| `{stem}` | | | fails: {error} | | | | | |")
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
