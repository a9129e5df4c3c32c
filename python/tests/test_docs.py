"""docs/python.md stays true: its commands run as written from the
repository root, and its Python excerpts are the example files' code."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess

import pytest

from conftest import PYTHON_DIR, REPO

DOC = REPO / "docs" / "python.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", DOC.read_text(), re.MULTILINE | re.DOTALL)


def _commands() -> list[str]:
    commands = [line for block in _blocks("sh") for line in block.splitlines() if line.strip()]
    # The test commands run this file: they are the ones not run from here.
    return [c for c in commands if "pytest" not in c and "bin/lit" not in c]


def test_the_page_has_commands_and_excerpts():
    assert len(_commands()) >= 3
    assert len(_blocks("python")) >= 5


@pytest.mark.parametrize("command", _commands())
def test_every_command_runs_from_the_repository_root(command, tmp_path):
    environment = dict(os.environ)
    environment.pop("PYTHONPATH", None)
    completed = subprocess.run(command, shell=True, cwd=REPO, env=environment,
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    if "print(pto_mlir.types.tile" in command:
        assert completed.stdout.strip() == "!pl.tile<16x64xf32, vec>"


def test_every_python_excerpt_is_in_an_example():
    sources = "".join(path.read_text() for path in (PYTHON_DIR / "examples").glob("*.py"))
    for block in _blocks("python"):
        assert block in sources, f"not in python/examples: {block[:80]!r}"


def test_the_api_tour_runs(context, capsys):
    spec = importlib.util.spec_from_file_location("api_tour", PYTHON_DIR / "examples" / "api_tour.py")
    tour = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tour)
    outlined = tour.parse_and_transform(context)
    assert "pl.incore_scope" not in str(outlined)
    built = tour.build_by_name(context)
    tour.run_and_translate(built)
    tour.errors(context)
    printed = capsys.readouterr().out
    assert "-:2:45 unknown memory space or tile view field 'nowhere'" in printed
    assert "'no-such-pass' does not refer to a registered pass or pass pipeline" in printed
    assert "elementwise_add.mlir:36:17: error: no input for %a" in printed
