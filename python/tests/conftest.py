"""Shared fixtures: the package on the path, one context, the repository."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parent.parent
REPO = PYTHON_DIR.parent
if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))

import pto_mlir  # noqa: E402


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def context() -> pto_mlir.Context:
    """One context for the whole run: making one loads every dialect."""
    return pto_mlir.Context()


def line_of(marker: str, path: str) -> int:
    """The line of ``path`` holding ``marker`` (a comment tag in a test),
    so tests do not hard-code line numbers."""
    for number, text in enumerate(Path(path).read_text().splitlines(), 1):
        if marker in text:
            return number
    raise AssertionError(f"{marker} not in {path}")
