#!/usr/bin/env python3
"""Runs every input of a regressions folder with the command its header records.

Each input names, in a `// RUN (...): COMMAND` line near its top, the command
that once crashed, hung, panicked or printed an unlocated error (written as
run from the checkout root: `%s` is the file, `out/` an output path). This
driver runs that command with the tools of this build and checks that it now
ends cleanly:

- exit status 0 or 1 (no signal, no other status), within the time limit,
  under an address-space limit;
- nothing on stderr says 'panicked', 'internal error' or '<unknown>:0';
- every line with 'error:' is located: `FILE:LINE:COL: error: ...`, where
  FILE is the input, '<stdin>', or '<pass-options>' (pass option errors:
  the column in the pass's option text, see docs/pto-opt.md);
- on failure nothing was written to the `-o` output.

Inputs listed in EXPECTED_FAILURES are known to fail (the fix lives in code
this branch does not own); they are reported as XFAIL, and as a failure once
they pass, so the list shrinks with the fixes.

Usage: run-fuzz.py --tools DIR --plugin LIB --work DIR FOLDER
"""

import argparse
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys

# Verifier overflows in dialects/src/verify/common.rs; fixed where that code
# is maintained. Remove an entry when its input passes.
EXPECTED_FAILURES: set = set()

TIMEOUT_SECONDS = 30
ADDRESS_SPACE_LIMIT = 4 << 30

LOCATED = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: ")
FORBIDDEN = ["panicked", "internal error", "<unknown>:0"]
# LLVM's option parser reports bad values without "error:".
LLVM_OPTION_ERROR = re.compile(r"^\S+: (for the -+\S+ option: |Unknown command line argument)")


def recorded_command(path):
    with open(path, "rb") as f:
        head = f.read(8192).decode("latin-1")
    for line in head.splitlines():
        match = re.match(r"^// RUN \([^)]*\): (.*)$", line)
        if match:
            return match.group(1)
    return None


def map_command(command, args, path, out_dir):
    """The recorded command with this build's tools, the file and out/."""
    plugin = args.plugin
    words = []
    for word in shlex.split(command):
        word = word.replace("%s", path)
        if word.startswith("out/"):
            word = os.path.join(out_dir, word[len("out/") :])
        word = word.replace("target/debug/libpto_mlir.so", plugin)
        if word.startswith("target/debug/"):
            word = os.path.join(args.tools, word[len("target/debug/") :])
        elif word == "mlir-opt-22":
            word = "mlir-opt"
        words.append(word)
    return words


def outputs_of(words):
    outputs = []
    for i, word in enumerate(words):
        if word == "-o" and i + 1 < len(words):
            outputs.append(words[i + 1])
        elif word.startswith("-o="):
            outputs.append(word[3:])
    return outputs


def limit_resources():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))
    os.nice(10)


def check(name, args, path, work):
    """Returns a list of problems (empty: the input ends cleanly)."""
    command = recorded_command(path)
    if command is None:
        return ["no '// RUN (...): COMMAND' line"]
    out_dir = os.path.join(work, name + ".out")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    words = map_command(command, args, path, out_dir)
    try:
        result = subprocess.run(
            words,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            preexec_fn=limit_resources,
        )
    except subprocess.TimeoutExpired:
        return [f"no exit within {TIMEOUT_SECONDS} s: {shlex.join(words)}"]
    except OSError as error:
        return [f"cannot run {shlex.join(words)}: {error}"]
    stderr = result.stderr.decode("utf-8", "replace")
    problems = []
    if result.returncode < 0:
        problems.append(f"killed by signal {-result.returncode}")
    elif result.returncode not in (0, 1):
        problems.append(f"exit status {result.returncode}")
    for word in FORBIDDEN:
        if word in stderr:
            problems.append(f"stderr says '{word}'")
    for line in stderr.splitlines():
        if LLVM_OPTION_ERROR.match(line):
            problems.append(f"unlocated option error: {line[:200]}")
            continue
        if not re.search(r"\berror:( |$)", line):
            continue
        match = LOCATED.match(line)
        if not match:
            problems.append(f"unlocated error: {line[:200]}")
        elif match.group("file") not in (path, "<stdin>", "<pass-options>"):
            problems.append(f"error located in an unexpected file: {line[:200]}")
    if result.returncode != 0:
        for output in outputs_of(words):
            if os.path.exists(output):
                problems.append(f"failed, but wrote {output}")
    if problems:
        problems.insert(0, f"command: {shlex.join(words)}")
        problems.append("stderr:\n" + "\n".join("    " + l for l in stderr.splitlines()[:40]))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("folder")
    args = parser.parse_args()
    args.tools = os.path.abspath(args.tools)
    args.plugin = os.path.abspath(args.plugin)

    os.makedirs(args.work, exist_ok=True)
    names = sorted(n for n in os.listdir(args.folder) if n.endswith(".mlir"))
    missing = EXPECTED_FAILURES - set(names)
    failed = 0
    for name in sorted(missing):
        print(f"FAIL: {name}: listed in EXPECTED_FAILURES but not in {args.folder}")
        failed += 1
    for name in names:
        problems = check(name, args, os.path.join(args.folder, name), args.work)
        expected = name in EXPECTED_FAILURES
        if problems and expected:
            print(f"XFAIL: {name}")
        elif problems:
            failed += 1
            print(f"FAIL: {name}")
            for problem in problems:
                print("  " + problem)
        elif expected:
            failed += 1
            print(f"XPASS: {name}: now passes; remove it from EXPECTED_FAILURES")
        else:
            print(f"PASS: {name}")
    print(f"{len(names)} inputs, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
