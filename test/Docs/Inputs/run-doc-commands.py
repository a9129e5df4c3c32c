#!/usr/bin/python3
"""Runs every ```sh block of README.md and docs/*.md as written.

Each block runs with bash (-e, pipefail) from the top of the checkout, as
the docs say to; what it writes there (files git does not track, outside
target/) is removed after it. PATH is the system's plus cargo's: nothing
puts the project's tools or LLVM's bin directory on it, so a command that
names a tool bare fails here as it would in a fresh shell. A block is left out only when the line before its fence is
`<!-- not run by the test suite: REASON -->`; the report lists those.

  run-doc-commands.py REPO [--only FILE]...

prints one line per block (`FILE:LINE: ok`, `skipped: REASON` or
`FAILS`, with the block's output), then `doc commands: N run, N skipped,
N failed`, and exits 1 when a block failed.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)
SKIP = re.compile(r"<!-- not run by the test suite: (.+?) -->\s*$")
TIMEOUT = 900


def blocks(path):
    """(line, body, skip reason or None) of each sh block of `path`."""
    text = open(path, encoding="utf-8").read()
    for match in BLOCK.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skip = SKIP.search(before)
        yield line, match.group(1), skip.group(1) if skip else None


def untracked(repo):
    """The files and directories git does not track, outside target/."""
    listed = subprocess.run(["git", "-C", repo, "ls-files", "--others", "--directory", "-z"],
                            stdout=subprocess.PIPE, check=True).stdout.decode()
    return {p for p in listed.split("\0") if p and not p.startswith("target/")}


def remove_new(repo, before):
    """Removes what a block left that was not there before it."""
    for path in sorted(untracked(repo) - before):
        full = os.path.join(repo, path)
        if os.path.isdir(full) and not os.path.islink(full):
            shutil.rmtree(full, ignore_errors=True)
        elif os.path.lexists(full):
            os.remove(full)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("repo")
    parser.add_argument("--only", action="append", default=[])
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    files = args.only or ["README.md"] + sorted(
        os.path.relpath(p, repo) for p in glob.glob(os.path.join(repo, "docs", "*.md")))
    cargo = shutil.which("cargo")
    path = ":".join(([os.path.dirname(cargo)] if cargo else [])
                    + ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"])
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("PTO_MLIR_", "PYTHON"))}
    environment["PATH"] = path
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    ran = skipped = failed = 0
    for name in files:
        for line, body, reason in blocks(os.path.join(repo, name)):
            where = "%s:%d" % (name, line)
            if reason:
                skipped += 1
                print("%s: skipped: %s" % (where, reason))
                continue
            ran += 1
            before = untracked(repo)
            try:
                done = subprocess.run(["bash", "-euo", "pipefail", "-c", body], cwd=repo, env=environment,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
                code, output = done.returncode, done.stdout.decode("utf-8", "replace")
            except subprocess.TimeoutExpired as timeout:
                code, output = "timeout", (timeout.stdout or b"").decode("utf-8", "replace")
            finally:
                remove_new(repo, before)
            if code == 0:
                print("%s: ok" % where)
            else:
                failed += 1
                print("%s: FAILS (exit %s)\n--- block\n%s--- output (last 40 lines)\n%s" % (
                    where, code, body, "\n".join(output.splitlines()[-40:])))
    print("doc commands: %d run, %d skipped, %d failed" % (ran, skipped, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
