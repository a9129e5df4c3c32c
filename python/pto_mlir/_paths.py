"""Where the shared libraries and the tools are.

The package is used from two layouts: the repository (``python/pto_mlir``
beside ``target/<profile>``) and an install prefix (``PREFIX/lib/python/
pto_mlir`` with the libraries in ``PREFIX/lib`` and the tools in
``PREFIX/bin``). Environment variables override both, so a test suite can
point at one profile's build explicitly.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import LibraryNotFoundError, ToolNotFoundError

LIBRARY_DIR_ENV = "PTO_MLIR_LIBRARY_DIR"
TOOLS_DIR_ENV = "PTO_MLIR_TOOLS_DIR"
LIBRARIES = ("libMLIR-C.so", "libpto_mlir.so")
TOOLS = ("pto-opt", "pto-translate", "pto-run")

_PACKAGE_DIR = Path(__file__).resolve().parent


def _repository_builds() -> list[Path]:
    """``<repo>/target/debug`` then ``target/release``: the repository layout."""
    repo = _PACKAGE_DIR.parent.parent
    return [repo / "target" / "debug", repo / "target" / "release"]


def library_candidates() -> list[Path]:
    """The directories searched for the libraries, in order."""
    return [_PACKAGE_DIR.parent.parent, *_repository_builds()]


def tools_candidates() -> list[Path]:
    """The directories searched for the tools, in order."""
    return [_PACKAGE_DIR.parent.parent.parent / "bin", *_repository_builds()]


def library_dir() -> Path:
    """The directory holding both libMLIR-C.so and libpto_mlir.so."""
    override = os.environ.get(LIBRARY_DIR_ENV)
    if override:
        directory = Path(override)
        missing = [name for name in LIBRARIES if not (directory / name).is_file()]
        if missing:
            raise LibraryNotFoundError(
                f"{LIBRARY_DIR_ENV}={override} has no {', '.join(missing)}"
            )
        return directory
    for directory in library_candidates():
        if all((directory / name).is_file() for name in LIBRARIES):
            return directory
    searched = ", ".join(str(d) for d in library_candidates())
    raise LibraryNotFoundError(
        f"libMLIR-C.so and libpto_mlir.so not found (searched {searched}); "
        f"build the repository (scripts/setup.sh) or set {LIBRARY_DIR_ENV}"
    )


def tool_path(tool: str) -> Path:
    """The executable of ``tool`` (pto-opt, pto-translate or pto-run)."""
    override = os.environ.get(TOOLS_DIR_ENV)
    if override:
        path = Path(override) / tool
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ToolNotFoundError(f"{TOOLS_DIR_ENV}={override} has no executable {tool}")
        return path
    for directory in tools_candidates():
        path = directory / tool
        if path.is_file() and os.access(path, os.X_OK):
            return path
    searched = ", ".join(str(d) for d in tools_candidates())
    raise ToolNotFoundError(
        f"{tool} not found (searched {searched}); build the repository or set {TOOLS_DIR_ENV}"
    )
