#!/usr/bin/env python3
"""Grammar-aware mutation fuzzing of pto-opt, pto-translate and pto-run.

Seeds are the project's own MLIR programs (examples/, test/). Each run takes
a seed, applies a few mutations that keep it close to valid IR (integer
literals to boundary values, shape extents, element types, memory spaces,
enum keywords, deleted or duplicated lines, op names swapped within a
family, pass options) and runs one tool on it under a time and memory
limit. An outcome is a finding when the tool

- dies of a signal, or exits with a code other than 0 and 1 (usage errors
  of the command line itself excepted: the fuzzer builds valid command
  lines);
- prints a panic or an internal error;
- does not finish within the time limit;
- reports an error without a location (`<unknown>:0`, or an `error:` line
  that names no `file:line:col` and no tool);
- exits 1 but leaves a partly written output behind.

Findings are written to --out (one .mlir per finding with its command and
what happened on its first lines, the format of shared/regressions/fuzz/)
and summarised by class. The exit code is 1 when there is any finding.

The smoke run in the test suite: `scripts/fuzz.py --runs 1500 --seed 1`.
A longer campaign: `scripts/fuzz.py --runs 100000 --seed $RANDOM --out fuzz-out`.
"""

import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BOUNDARY = ["0", "1", "-1", "2", "3", "7", "16", "17", "255", "256", "4096", "65536",
            "2147483647", "2147483648", "-2147483648", "4294967296",
            "9223372036854775807", "-9223372036854775808"]
DIMS = ["1", "2", "3", "16", "17", "32", "64", "100", "128", "256", "512", "?", "0", "65536"]
ELEMENTS = ["f32", "f16", "bf16", "i32", "i16", "i8", "ui8", "i64", "i1", "index"]
SPACES = ["vec", "mat", "left", "right", "acc", "bias"]
KEYWORDS = {
    "sum": ["max", "min", "prod"], "mesh": ["ring"], "ring": ["mesh"],
    "atomic_add": ["set"], "set": ["atomic_add"], "ge": ["eq"], "eq": ["ge"],
    "none": ["add"], "aiv": ["aic", "incore", "orchestration"], "aic": ["aiv", "incore"],
    "incore": ["aiv", "aic", "orchestration"], "orchestration": ["incore", "aiv"],
    "in": ["out", "inout"], "out": ["in", "inout"], "inout": ["in", "out"],
    "host": ["chip"], "chip": ["host"],
}
FAMILIES = [
    ["add", "sub", "mul", "div", "maximum", "minimum"],
    ["exp", "sqrt", "rsqrt", "abs", "neg", "relu", "recip", "log"],
    ["row_sum", "row_max", "row_min", "row_prod"],
    ["col_sum", "col_max", "col_min", "col_prod"],
    ["row_expand_add", "row_expand_sub", "row_expand_mul", "row_expand_div"],
    ["allgather", "all_to_all"], ["put", "get"], ["load", "store"],
    ["matmul", "matmul_acc"],
]
PASSES = [
    "pl-verify-constants", "pl-outline-incore-scopes", "pl-convert-tensor-to-tile",
    "pld-lower-distributed", "pld-lower-composite-ops", "pld-synthesize-allreduce-signals",
    "pld-materialize-comm-domains", "pld-lower-host-collectives",
    "pld-materialize-dist-tensor-ctx", "pld-insert-comm-fence", "pto-a2a3-pipeline",
    "func.func(pl-flatten-tile-nd-to-2d)", "func.func(pl-tile-matmul-l0)",
    "func.func(pl-infer-memory-space)", "func.func(pl-plan-memory)",
    "pl-insert-sync", "pl-verify-sync",
    "pld-comm-stats{nranks=3}", "func.func(pld-specialize-nranks{nranks=2})",
    "canonicalize", "cse", "sccp", "symbol-dce", "inline",
    "func.func(loop-invariant-code-motion)", "remove-dead-values",
]


def seeds():
    found = []
    for root in ["examples", "test"]:
        for directory, _, files in os.walk(os.path.join(REPO, root)):
            if "Regressions" in directory or "Output" in directory:
                continue
            for name in sorted(files):
                if name.endswith(".mlir"):
                    path = os.path.join(directory, name)
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                    # Split-input-file tests: one section each.
                    for section in text.split("// -----"):
                        body = "\n".join(l for l in section.splitlines() if not l.lstrip().startswith("//"))
                        if "func.func" in body and len(body) < 20000:
                            found.append(body)
    return sorted(set(found))


def replace_one(text, rng, pattern, choose, group=0):
    """`text` with one match of `pattern` (its `group`) replaced by
    `choose(match)`."""
    hits = list(re.finditer(pattern, text))
    if not hits:
        return text
    m = rng.choice(hits)
    return text[:m.start(group)] + choose(m) + text[m.end(group):]


def new_shape(m, rng):
    dims = m.group(1).split("x")[:-1]
    dims[rng.randrange(len(dims))] = rng.choice(DIMS)
    return "x".join(dims) + "x"


def mutate(text, rng):
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(9)
        lines = text.splitlines()
        if kind == 0:
            text = replace_one(text, rng, r"(?<![\w.%#@x])-?\d+(?![\w.])", lambda m: rng.choice(BOUNDARY))
        elif kind == 1:
            text = replace_one(text, rng, r"<((?:[\d?]+x)+)", lambda m: new_shape(m, rng), group=1)
        elif kind == 2:
            text = replace_one(text, rng, r"\b(f32|f16|bf16|i32|i16|i8|i64)\b", lambda m: rng.choice(ELEMENTS))
        elif kind == 3:
            text = replace_one(text, rng, r"\b(vec|mat|left|right|acc|bias)\b", lambda m: rng.choice(SPACES))
        elif kind == 4:
            keywords = r"\b(" + "|".join(KEYWORDS) + r")\b"
            text = replace_one(text, rng, keywords, lambda m: rng.choice(KEYWORDS[m.group(0)]))
        elif kind == 5 and len(lines) > 3:
            del lines[rng.randrange(1, len(lines) - 1)]
            text = "\n".join(lines)
        elif kind == 6 and len(lines) > 3:
            lines.insert(rng.randrange(1, len(lines) - 1), lines[rng.randrange(1, len(lines) - 1)])
            text = "\n".join(lines)
        elif kind == 7:
            family = rng.choice(FAMILIES)
            text = replace_one(text, rng, r"\.(" + "|".join(family) + r")\b", lambda m: rng.choice(family), group=1)
        elif len(lines) > 2:
            # A character dropped.
            i = rng.randrange(len(lines))
            if lines[i]:
                j = rng.randrange(len(lines[i]))
                lines[i] = lines[i][:j] + lines[i][j + 1:]
            text = "\n".join(lines)
    return text + "\n"


def command(tools, path, out, rng):
    tool = rng.choice(["opt", "opt", "opt", "translate", "run"])
    if tool == "opt":
        chosen = rng.sample(PASSES, rng.randint(1, 3))
        pipeline = "builtin.module(" + ",".join(chosen) + ")"
        return [os.path.join(tools, "pto-opt"), path, "--pass-pipeline=" + pipeline, "-o", out]
    if tool == "translate":
        target = rng.choice(["a2a3", "a2a3sim"])
        entry = rng.choice(["runtime", "kernel"])
        return [os.path.join(tools, "pto-translate"), "--mlir-to-cce", "--target=" + target,
                "--entry=" + entry, path, "-o", out]
    return [os.path.join(tools, "pto-run"), "--random-inputs", "--ranks", str(rng.choice([1, 2, 3, 4])),
            "--timeout", "5", path, "-o", out]


LOCATED = re.compile(r"^(\S+:\d+:\d+|<[\w -]+>:\d+:\d+|pto-\w+): error:")


def classify(returncode, stderr, timed_out, out, tool):
    if timed_out:
        return "hang"
    if returncode < 0:
        return "signal-%d" % -returncode
    if "panicked" in stderr or "internal error" in stderr:
        return "panic"
    if returncode not in (0, 1):
        return "exit-%d" % returncode
    for line in stderr.splitlines():
        if "error:" in line and not LOCATED.match(line.strip()):
            return "unlocated-error"
        if "<unknown>:0" in line and "error" in line:
            return "unlocated-error"
    if returncode == 1 and os.path.exists(out) and tool != "pto-run":
        if os.path.isfile(out) or os.listdir(out):
            return "partial-output"
    return None


def limit_memory():
    gib = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (gib, gib))
    os.nice(10)


def one(args):
    index, text, tools, base_seed, scratch, timeout = args
    rng = random.Random(base_seed * 1_000_003 + index)
    mutated = mutate(text, rng)
    path = os.path.join(scratch, "in-%d.mlir" % index)
    out = os.path.join(scratch, "out-%d" % index)
    with open(path, "w", encoding="utf-8") as f:
        f.write(mutated)
    argv = command(tools, path, out, rng)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=timeout,
                              preexec_fn=limit_memory, stdin=subprocess.DEVNULL)
        finding = classify(done.returncode, done.stderr, False, out, os.path.basename(argv[0]))
        stderr = done.stderr
    except OSError as error:
        raise SystemExit("fuzz: error: cannot run %s: %s" % (argv[0], error.strerror))
    except subprocess.TimeoutExpired as expired:
        finding, stderr = "hang", (expired.stderr or b"").decode(errors="replace") if isinstance(expired.stderr, bytes) else (expired.stderr or "")
    first = next((l for l in stderr.splitlines() if l.strip()), "")
    outcome = finding or ("exit-0" if not first or "error:" not in stderr else "diagnosed")
    result = (finding, argv, mutated, first, os.path.basename(argv[0]), outcome)
    for leftover in (path, out):
        if os.path.isdir(leftover):
            shutil.rmtree(leftover, ignore_errors=True)
        elif os.path.exists(leftover):
            os.remove(leftover)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per run")
    parser.add_argument("--tools", default=os.path.join(REPO, "target", "debug"))
    parser.add_argument("--out", help="directory for the findings")
    args = parser.parse_args()
    corpus = seeds()
    if not corpus:
        print("fuzz: error: no seeds", file=sys.stderr)
        return 2
    scratch = tempfile.mkdtemp(prefix="pto-fuzz-")
    rng = random.Random(args.seed)
    work = [(i, rng.choice(corpus), args.tools, args.seed, scratch, args.timeout) for i in range(args.runs)]
    findings = []
    outcomes = {}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for finding, argv, text, first, tool, outcome in pool.map(one, work):
            outcomes[(tool, outcome)] = outcomes.get((tool, outcome), 0) + 1
            if finding:
                findings.append((finding, argv, text, first))
    shutil.rmtree(scratch, ignore_errors=True)
    classes = {}
    for finding, argv, text, first in findings:
        classes.setdefault(finding, []).append((argv, text, first))
    if args.out and findings:
        os.makedirs(args.out, exist_ok=True)
        for n, (finding, argv, text, first) in enumerate(findings):
            with open(os.path.join(args.out, "%s-%04d.mlir" % (finding, n)), "w", encoding="utf-8") as f:
                f.write("// %s: %s\n// RUN: %s\n%s" % (finding, first[:300], " ".join(argv), text))
    print("fuzz: %d runs from %d seeds (seed %d), %d findings" % (args.runs, len(corpus), args.seed, len(findings)))
    print("  outcomes: " + ", ".join("%s %s %d" % (tool, outcome, n) for (tool, outcome), n in sorted(outcomes.items())))
    for finding, cases in sorted(classes.items()):
        print("  %s: %d (e.g. %s: %s)" % (finding, len(cases), os.path.basename(cases[0][0][0]), cases[0][2][:200]))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
