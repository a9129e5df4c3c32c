#!/usr/bin/python3
"""The program corpus, stage by stage, against goldens computed with numpy.

Every program corpus/NAME.mlir has a spec corpus/NAME.py (numpy only):
ENTRY (the function run), RANKS (the rank counts it runs at), RTOL and ATOL,
inputs(P, rng) -> {parameter: array} and golden(inputs, P) -> {output:
array}, computed from the inputs without the project's tools. Each program
goes through the stages

  verify        pto-opt parses and verifies it
  lower         pto-opt --pass-pipeline='builtin.module(pld-lower-distributed)'
  pipeline      pto-opt --pto-a2a3-pipeline
  pto-run       pto-run of the program as written matches the golden, at
                every P of RANKS
  pto-run-a2a3  pto-run after pto-a2a3-pipeline matches the golden
  upstream      upstream passes (UPSTREAM: canonicalize, cse, sccp, inline,
                symbol-dce, licm) change no output bit: pto-run of the
                program as written and after pto-a2a3-pipeline, each with
                and without them (within RTOL and ATOL when the spec sets
                ORDER_DEPENDENT: outputs that ranks accumulate into in the
                order they arrive differ from run to run)
  a2a3          pto-translate --target=a2a3 writes every file and every
                kernel it lists compiles against pto-isa (clang++ -fsyntax-only
                -D__CPU_SIM)
  a2a3sim       pto-translate --target=a2a3sim; run_ENTRY.cpp, built on
                pto-isa's CPU backend (scripts/pto-isa-cxx.sh), matches the
                golden at every P
  runtime       the same with --entry=runtime (the device's kernel entries
                and PTO2 orchestrations on the simulator's runtime)

An output is compared when the golden names it; every output the golden
names must be compared (a tool that does not write it fails the stage). A
tensor parameter the golden does not name is an input the program must leave
unchanged: the host programs compare it with the input.

  scripts/corpus.py [--only NAME]... [--stages S,S,...] [--jobs N] [--keep DIR]
                    [--markdown FILE | --check FILE] [--tools DIR]

prints one line per program and stage (`NAME STAGE: ok` or `NAME STAGE:
FAILS: first error`), then `corpus: N of M programs pass every stage`, and
exits 1 when a stage failed. --markdown writes the corpus x stage table
(docs/corpus.md); --check compares the table with FILE instead and exits 1
only when they differ (printing the difference), so a test can hold the
table to what the tools do. Paths in messages are relative to the checkout
(pto-isa's as $PTO_ISA_ROOT). Run it with /usr/bin/python3 (Debian's
python3-numpy); the stages that compile need pto-isa and clang++ 22.
"""

import argparse
import concurrent.futures
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, "corpus")
CXX = os.path.join(REPO, "scripts", "pto-isa-cxx.sh")
STAGES = ["verify", "lower", "pipeline", "pto-run", "pto-run-a2a3", "upstream", "a2a3", "a2a3sim", "runtime"]
UPSTREAM = "canonicalize,cse,sccp,inline,symbol-dce,func.func(loop-invariant-code-motion)"
TIMEOUT = 600
SEED = 20261201


def load_spec(name):
    spec = importlib.util.spec_from_file_location("corpus_" + name, os.path.join(CORPUS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for field in ("ENTRY", "RANKS", "inputs", "golden"):
        if not hasattr(module, field):
            raise SystemExit("corpus.py: error: corpus/%s.py has no %s" % (name, field))
    return module


def pto_isa_root():
    chosen = subprocess.run([CXX, "--backend=pto-isa", "--print-backend"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    words = chosen.stdout.split()
    if chosen.returncode != 0 or len(words) < 2:
        raise SystemExit("corpus.py: error: pto-isa's CPU backend is not available: %s" % chosen.stderr.strip())
    return words[1].split("=", 1)[1]


PTO_ISA_ROOT = None


def first_error(text, work):
    text = text.replace(work + "/", "").replace(REPO + "/", "")
    if PTO_ISA_ROOT:
        text = text.replace(PTO_ISA_ROOT + "/", "$PTO_ISA_ROOT/")
    lines = text.splitlines()
    line = next((l for l in lines if "error:" in l or "MISMATCH" in l), None)
    line = line or next((l for l in lines if l.strip()), "no output")
    line = line.strip()
    return line if len(line) <= 300 else line[:300] + " ..."


class Program:
    """One corpus program's run through the stages."""

    def __init__(self, name, args, work):
        self.name, self.args = name, args
        self.path = os.path.join(CORPUS, name + ".mlir")
        self.work = os.path.join(work, name)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.spec = load_spec(name)
        self.results = {}
        self.data = {}

    def tool(self, name):
        return os.path.join(self.args.tools, name)

    def run(self, command, cwd=None):
        try:
            done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  timeout=TIMEOUT, errors="replace")
            return done.returncode, done.stdout + done.stderr
        except subprocess.TimeoutExpired:
            return None, "error: timed out after %d s" % TIMEOUT

    def fail(self, stage, text):
        self.results[stage] = "FAILS: " + first_error(text, self.work)

    def ok(self, stage):
        self.results[stage] = "ok"

    def stages(self):
        wanted = self.args.stages
        code, out = self.run([self.tool("pto-opt"), self.path, "-o", os.devnull])
        if code != 0:
            self.fail("verify", out)
            return
        self.ok("verify")
        for stage, pipeline in (("lower", "pld-lower-distributed"), ("pipeline", "pto-a2a3-pipeline")):
            if stage in wanted:
                code, out = self.run([self.tool("pto-opt"), "--pass-pipeline=builtin.module(%s)" % pipeline,
                                      self.path, "-o", os.devnull])
                self.ok(stage) if code == 0 else self.fail(stage, out)
        for ranks in self.spec.RANKS:
            self.prepare(ranks)
        if "pto-run" in wanted:
            self.pto_run("pto-run", [])
        if "pto-run-a2a3" in wanted:
            self.pto_run("pto-run-a2a3", ["--pass-pipeline=builtin.module(pto-a2a3-pipeline)"])
        if "upstream" in wanted:
            self.upstream()
        if "a2a3" in wanted:
            self.device()
        for stage, flags in (("a2a3sim", []), ("runtime", ["--entry=runtime"])):
            if stage in wanted:
                self.simulate(stage, flags)

    def prepare(self, ranks):
        """Inputs and goldens at `ranks`, as .npy files."""
        rng = np.random.default_rng(SEED + ranks)
        inputs = self.spec.inputs(ranks, rng)
        golden = self.spec.golden({k: v.copy() for k, v in inputs.items()}, ranks)
        directory = os.path.join(self.work, "P%d" % ranks)
        os.makedirs(os.path.join(directory, "golden"), exist_ok=True)
        files = {}
        for name, value in inputs.items():
            files[name] = os.path.join(directory, "in_%s.npy" % name)
            np.save(files[name], np.asarray(value, order="C"))
        for name, value in golden.items():
            np.save(os.path.join(directory, "golden", name + ".npy"), np.asarray(value, order="C"))
        # The host programs write every tensor parameter: one the golden
        # does not name must come back unchanged.
        unchanged = {}
        for name, value in inputs.items():
            if name not in golden and np.asarray(value).ndim > 0:
                unchanged[name] = os.path.join(directory, "unchanged", name + ".npy")
        if unchanged:
            os.makedirs(os.path.join(directory, "unchanged"), exist_ok=True)
            for name, path in unchanged.items():
                np.save(path, np.asarray(inputs[name], order="C"))
        self.data[ranks] = (files, os.path.join(directory, "golden"), sorted(golden), unchanged)

    def tolerances(self):
        return ["--rtol", str(getattr(self.spec, "RTOL", 1e-5)), "--atol", str(getattr(self.spec, "ATOL", 1e-5))]

    def compared(self, text, outputs, verdict):
        """Which of `outputs` the run's report names with `verdict`."""
        found = {m.group(1) for m in re.finditer(r"^(\S+): %s" % verdict, text, re.M)}
        return [o for o in outputs if o not in found]

    def pto_run(self, stage, extra):
        for ranks in self.spec.RANKS:
            files, golden, outputs, _ = self.data[ranks]
            command = [self.tool("pto-run"), self.path, "--entry", self.spec.ENTRY, "--ranks", str(ranks),
                       "--golden", golden, *self.tolerances(), *extra]
            for name, path in files.items():
                command += ["--input", "%s=%s" % (name, path)]
            code, out = self.run(command)
            missing = self.compared(out, outputs, "ok") if code == 0 else []
            if code != 0 or missing:
                self.fail(stage, out if code != 0 else "error: P=%d: not compared: %s" % (ranks, ", ".join(missing)))
                return
        self.ok(stage)

    def upstream(self):
        """Each stage's outputs, bit for bit, with UPSTREAM run after it."""
        for ranks in self.spec.RANKS:
            files, _, _, _ = self.data[ranks]
            for stage in ("", "pto-a2a3-pipeline"):
                before = os.path.join(self.work, "P%d" % ranks, "upstream-before-" + (stage or "written"))
                shutil.rmtree(before, ignore_errors=True)
                command = [self.tool("pto-run"), self.path, "--entry", self.spec.ENTRY, "--ranks", str(ranks)]
                for name, path in files.items():
                    command += ["--input", "%s=%s" % (name, path)]
                first = ["--pass-pipeline=builtin.module(%s)" % stage] if stage else []
                code, out = self.run(command + first + ["-o", before])
                if code == 0:
                    outputs = sorted(f[:-len(".npy")] for f in os.listdir(before) if f.endswith(".npy"))
                    pipeline = ",".join(p for p in (stage, UPSTREAM) if p)
                    exact = ["--rtol", "0", "--atol", "0"]
                    tolerances = self.tolerances() if getattr(self.spec, "ORDER_DEPENDENT", False) else exact
                    code, out = self.run(command + ["--pass-pipeline=builtin.module(%s)" % pipeline,
                                                    "--golden", before, *tolerances])
                    missing = self.compared(out, outputs, "ok") if code == 0 else []
                    if missing:
                        code, out = 1, "error: P=%d: not compared: %s" % (ranks, ", ".join(missing))
                if code != 0:
                    self.fail("upstream", out)
                    return
        self.ok("upstream")

    def translate(self, out, flags):
        shutil.rmtree(out, ignore_errors=True)
        return self.run([self.tool("pto-translate"), "--mlir-to-cce", *flags, self.path, "-o", out])

    def device(self):
        out = os.path.join(self.work, "a2a3")
        code, text = self.translate(out, ["--target=a2a3"])
        if code != 0:
            self.fail("a2a3", text)
            return
        with open(os.path.join(out, "manifest.json")) as manifest:
            sources = [k["source"] for k in json.load(manifest).get("kernels", []) if k.get("source")]
        if os.path.exists(os.path.join(out, "pto_builtin_collectives.hpp")):
            sources.append("pto_builtin_collectives.hpp")
        for source in sources:
            language = ["-x", "c++"] if source.endswith(".hpp") else []
            code, text = self.run([CXX, "--backend=pto-isa", "-fsyntax-only", "-I.", *language, source], cwd=out)
            if code != 0:
                self.fail("a2a3", "%s: %s" % (source, first_error(text, self.work)))
                return
        self.ok("a2a3")

    def simulate(self, stage, flags):
        out = os.path.join(self.work, stage)
        code, text = self.translate(out, ["--target=a2a3sim", *flags])
        if code != 0:
            self.fail(stage, text)
            return
        host = "run_%s.cpp" % self.spec.ENTRY
        if not os.path.exists(os.path.join(out, host)):
            self.fail(stage, "error: pto-translate wrote no %s" % host)
            return
        binary = os.path.join(out, "run")
        code, text = self.run([CXX, "--backend=pto-isa", "-O1", "-I.", host, "-o", binary], cwd=out)
        if code != 0:
            self.fail(stage, "does not build: " + first_error(text, self.work))
            return
        for ranks in self.spec.RANKS:
            files, golden, outputs, unchanged = self.data[ranks]
            merged = os.path.join(out, "golden-P%d" % ranks)
            shutil.rmtree(merged, ignore_errors=True)
            shutil.copytree(golden, merged)
            for name, path in unchanged.items():
                shutil.copy(path, os.path.join(merged, name + ".npy"))
            command = [binary, "--ranks", str(ranks), "--golden", merged, *self.tolerances()]
            for name, path in files.items():
                command += ["--input", "%s=%s" % (name, path)]
            code, text = self.run(command, cwd=out)
            missing = self.compared(text, outputs, "matches the golden") if code == 0 else []
            if code != 0 or missing:
                self.fail(stage, text if code != 0 else "error: P=%d: not compared: %s" % (ranks, ", ".join(missing)))
                return
        self.ok(stage)


def markdown(rows, stages):
    lines = [
        "<!-- Generated by scripts/corpus.py --markdown docs/corpus.md; do not edit. -->",
        "",
        "# The program corpus, stage by stage",
        "",
        "Programs of `corpus/` (PyPTO's programming style in pl/pld), each with a",
        "numpy golden in `corpus/NAME.py`; `scripts/corpus.py` runs the stages",
        "(its header says what each checks). A failing stage shows its first",
        "error below the table.",
        "",
        "| program | P | " + " | ".join(stages) + " |",
        "|---|---|" + "---|" * len(stages),
    ]
    notes = []
    for name, ranks, results in rows:
        cells = []
        for stage in stages:
            result = results.get(stage)
            if result is None:
                cells.append("—")
            elif result == "ok":
                cells.append("ok")
            else:
                notes.append("%s, %s: %s" % (name, stage, result[len("FAILS: "):]))
                cells.append("**no** (%d)" % len(notes))
        lines.append("| `%s` | %s | %s |" % (name, ",".join(map(str, ranks)), " | ".join(cells)))
    passed = sum(all(r.get(s) == "ok" for s in stages) for _, _, r in rows)
    lines += ["", "%d of %d programs pass every stage." % (passed, len(rows)), ""]
    if notes:
        lines += ["## Failures", ""] + ["%d. %s" % (i + 1, n.replace("|", "\\|")) for i, n in enumerate(notes)] + [""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="this program alone; repeatable")
    parser.add_argument("--stages", default=",".join(STAGES), help="comma-separated stages (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="programs run at once (default 2)")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it")
    parser.add_argument("--markdown", metavar="FILE", help="write the corpus x stage table to FILE")
    parser.add_argument("--check", metavar="FILE", help="compare the corpus x stage table with FILE")
    parser.add_argument("--tools", default=os.path.join(REPO, "target", "debug"),
                        help="where pto-opt, pto-run and pto-translate are (default target/debug)")
    args = parser.parse_args()
    args.tools = os.path.abspath(args.tools)
    global PTO_ISA_ROOT
    PTO_ISA_ROOT = pto_isa_root()
    args.stages = [s for s in args.stages.split(",") if s]
    unknown = set(args.stages) - set(STAGES)
    if unknown:
        print("corpus.py: error: no stage %s (stages: %s)" % (", ".join(sorted(unknown)), ", ".join(STAGES)),
              file=sys.stderr)
        return 2
    args.stages = [s for s in STAGES if s in args.stages]
    names = sorted(f[:-5] for f in os.listdir(CORPUS) if f.endswith(".mlir"))
    if args.only:
        unknown = set(args.only) - set(names)
        if unknown:
            print("corpus.py: error: no program %s in corpus/" % ", ".join(sorted(unknown)), file=sys.stderr)
            return 2
        names = [n for n in names if n in args.only]
    for name in names:
        if not os.path.exists(os.path.join(CORPUS, name + ".py")):
            print("corpus.py: error: corpus/%s.mlir has no spec corpus/%s.py" % (name, name), file=sys.stderr)
            return 2
    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="pto-corpus-")
    os.makedirs(work, exist_ok=True)

    def one(name):
        program = Program(name, args, work)
        program.stages()
        return program

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            programs = list(pool.map(one, names))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    rows = []
    for program in programs:
        for stage in args.stages:
            result = program.results.get(stage, "not reached")
            print("%s %s: %s" % (program.name, stage, result), flush=True)
        rows.append((program.name, program.spec.RANKS, program.results))
    passed = sum(all(p.results.get(s) == "ok" for s in args.stages) for p in programs)
    print("corpus: %d of %d programs pass every stage" % (passed, len(programs)), flush=True)
    table = markdown(rows, args.stages)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(table)
    if args.check:
        with open(args.check) as expected:
            want = expected.read()
        if want != table:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), table.splitlines(True), args.check,
                                                       "the corpus now"))
            print("corpus.py: error: %s is not what the tools do now (regenerate it with --markdown)" % args.check)
            return 1
        print("corpus.py: %s is what the tools do" % args.check)
        return 0
    return 0 if passed == len(programs) else 1


if __name__ == "__main__":
    sys.exit(main())
