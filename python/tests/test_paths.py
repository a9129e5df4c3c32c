"""Where the package finds its libraries and tools."""

from __future__ import annotations

from pathlib import Path

import pytest

from pto_mlir import _paths
from pto_mlir.errors import LibraryNotFoundError, ToolNotFoundError


def test_repository_layout_is_found_without_environment(monkeypatch, repo):
    monkeypatch.delenv(_paths.LIBRARY_DIR_ENV, raising=False)
    monkeypatch.delenv(_paths.TOOLS_DIR_ENV, raising=False)
    assert _paths.library_dir().resolve().parent == (repo / "target").resolve()
    assert _paths.tool_path("pto-run").name == "pto-run"
    assert _paths.tool_path("pto-run").parent.parent.resolve() == (repo / "target").resolve()


def test_installed_layout_comes_before_the_repository():
    package = Path(_paths.__file__).resolve().parent
    # PREFIX/lib/python/pto_mlir -> PREFIX/lib and PREFIX/bin
    assert _paths.library_candidates()[0] == package.parent.parent
    assert _paths.tools_candidates()[0] == package.parent.parent.parent / "bin"


def test_environment_overrides_and_reports_what_is_missing(monkeypatch, tmp_path):
    monkeypatch.setenv(_paths.LIBRARY_DIR_ENV, str(tmp_path))
    with pytest.raises(LibraryNotFoundError, match="libMLIR-C.so"):
        _paths.library_dir()
    monkeypatch.setenv(_paths.TOOLS_DIR_ENV, str(tmp_path))
    with pytest.raises(ToolNotFoundError, match="pto-translate"):
        _paths.tool_path("pto-translate")


def test_a_missing_tool_is_an_exception_of_the_api(monkeypatch, tmp_path, context):
    import pto_mlir

    monkeypatch.setenv(_paths.TOOLS_DIR_ENV, str(tmp_path))
    module = pto_mlir.Module.parse("func.func @f() { return }", context)
    with pytest.raises(ToolNotFoundError):
        pto_mlir.translate(module)


def test_import_works_without_libraries_and_the_first_use_says_why(tmp_path):
    import subprocess
    import sys

    from conftest import PYTHON_DIR

    script = (
        "import pto_mlir, pto_mlir.language\n"
        "try:\n"
        "    pto_mlir.Context()\n"
        "except pto_mlir.LibraryNotFoundError as error:\n"
        "    print('LibraryNotFoundError:', error)\n"
    )
    environment = {"PYTHONPATH": str(PYTHON_DIR), _paths.LIBRARY_DIR_ENV: str(tmp_path), "PATH": "/usr/bin:/bin"}
    completed = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True,
                               timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith(f"LibraryNotFoundError: {_paths.LIBRARY_DIR_ENV}={tmp_path} has no")
