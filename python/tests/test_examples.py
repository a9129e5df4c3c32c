"""The tutorial's program (python/examples/tiled_matmul.py), run as the
documentation runs it and imported."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np

from conftest import PYTHON_DIR, REPO

EXAMPLE = PYTHON_DIR / "examples" / "tiled_matmul.py"


def _load():
    spec = importlib.util.spec_from_file_location("tiled_matmul_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tutorial_matches_its_golden(tmp_path, capsys):
    example = _load()
    errors = example.tutorial(tmp_path)
    assert set(errors) == {"as written", "lowered"}
    assert all(error <= 1e-4 for error in errors.values()), errors
    printed = capsys.readouterr().out
    assert "pl.tile.matmul_acc" in printed and "#pl.kind<aic>" in printed
    assert (tmp_path / "matmul_kernel.cpp").is_file()
    assert "TMATMUL" in (tmp_path / "matmul_kernel.cpp").read_text()


def test_the_golden_is_a_matmul():
    example = _load()
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (example.M, example.K)).astype(np.float16)
    b = rng.uniform(-1, 1, (example.K, example.N)).astype(np.float16)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(example.golden(a, b), exact, rtol=1e-5, atol=1e-5)


def test_the_documented_command_runs_from_the_repository_root(tmp_path):
    environment = dict(os.environ, PYTHONPATH="python")
    completed = subprocess.run(
        [sys.executable, "python/examples/tiled_matmul.py", str(tmp_path / "cpp")],
        cwd=REPO, env=environment, capture_output=True, text=True, timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert "max |C - golden| lowered:" in completed.stdout
