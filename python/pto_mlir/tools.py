"""The command-line tools, driven from Python: pto-translate, pto-run, pto-opt.

Translation and execution live in the tools (Rust, with their own C++
emitter and interpreter), not in the C API, so they run as subprocesses.
A :class:`Module` is written with its locations, so a tool's diagnostics
point at the lines that built each op (a Python line, for a module built
from Python). A tool's failure is a :class:`ToolError` with its stderr and
the diagnostics parsed from it.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Mapping, Optional, Sequence, Union

from ._paths import tool_path
from .errors import ToolError
from .module import Module

Program = Union[Module, str, os.PathLike]

_FILE_MARKER = re.compile(r"^// ----- (?P<name>.+?) -----$", re.MULTILINE)


def _program_file(program: Program, directory: Path) -> Path:
    """A file holding ``program``: a Module (written with locations), MLIR
    text, or a path to an existing file (used as is)."""
    if isinstance(program, Module):
        return program.write(directory / "program.mlir", debug_info=True)
    if isinstance(program, os.PathLike):
        return Path(program)
    if isinstance(program, str):
        path = directory / "program.mlir"
        path.write_text(program)
        return path
    raise TypeError(f"a program is a Module, MLIR text or a path, not {type(program).__name__}")


def _invoke(tool: str, arguments: Sequence[str], timeout: Optional[float]) -> subprocess.CompletedProcess:
    command = [str(tool_path(tool)), *arguments]
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as error:
        raise ToolError(tool, -1, f"{tool}: timed out after {timeout} s", command) from error
    if completed.returncode != 0:
        raise ToolError(tool, completed.returncode, completed.stderr or completed.stdout, command)
    return completed


def split_files(stream: str) -> dict[str, str]:
    """The files of pto-translate's standard output (``// ----- FILE -----``)."""
    files: dict[str, str] = {}
    matches = list(_FILE_MARKER.finditer(stream))
    for match, following in zip(matches, matches[1:] + [None]):
        end = following.start() if following is not None else len(stream)
        files[match["name"]] = stream[match.end():end].lstrip("\n")
    return files


def translate(
    program: Program,
    *,
    target: str = "a2a3",
    entry: Optional[str] = None,
    output_dir: Optional[Union[str, os.PathLike]] = None,
    allow_partial: bool = False,
    timeout: Optional[float] = 300,
) -> dict[str, str]:
    """``pto-translate --mlir-to-cce``: the C++ files by name (kernels,
    orchestrations, ``manifest.json``, ``run_*.cpp`` for ``a2a3sim``).
    With ``output_dir`` they are also written there."""
    if target not in ("a2a3", "a2a3sim"):
        raise ValueError(f"target is a2a3 or a2a3sim, not {target!r}")
    with tempfile.TemporaryDirectory(prefix="pto-translate-") as scratch:
        source = _program_file(program, Path(scratch))
        arguments = ["--mlir-to-cce", f"--target={target}", str(source)]
        if entry is not None:
            arguments.append(f"--entry={entry}")
        if allow_partial:
            arguments.append("--allow-partial")
        if output_dir is not None:
            Path(output_dir).mkdir(parents=True, exist_ok=True)
            _invoke("pto-translate", [*arguments, "-o", str(output_dir)], timeout)
            return {p.name: p.read_text() for p in sorted(Path(output_dir).iterdir()) if p.is_file()}
        completed = _invoke("pto-translate", arguments, timeout)
        return split_files(completed.stdout)


def _default_entry(module: Module) -> Optional[str]:
    """pto-run's default (the only host orchestrator, else ``@main``), or
    else the module's only orchestration: what a front-end program names
    its entry."""
    functions = module.functions
    if "main" in functions:
        return None
    if any(str(f.attribute("pl.level")) == "#pl.level<host>" for f in functions.values()):
        return None
    orchestrations = [name for name, f in functions.items()
                      if str(f.attribute("pl.kind")) == "#pl.kind<orchestration>"]
    return orchestrations[0] if len(orchestrations) == 1 else None


def run(
    program: Program,
    *,
    entry: Optional[str] = None,
    inputs: Optional[Mapping[str, "numpy.ndarray"]] = None,
    ranks: Optional[int] = None,
    random_inputs: bool = False,
    seed: Optional[int] = None,
    pass_pipeline: Optional[str] = None,
    timeout: Optional[float] = None,
    memory_limit: Optional[str] = None,
) -> dict[str, "numpy.ndarray"]:
    """Runs ``program`` in pto-run and returns every output by name
    (tensor parameters of the entry, ``result0``..., window buffers).

    ``inputs`` maps an entry parameter's name (``%name`` in the source, or
    ``argN``) to an array; ``random_inputs`` draws the others.
    """
    import numpy

    if entry is None and isinstance(program, Module):
        entry = _default_entry(program)
    with tempfile.TemporaryDirectory(prefix="pto-run-") as scratch:
        directory = Path(scratch)
        source = _program_file(program, directory)
        output = directory / "out"
        output.mkdir()
        arguments = [str(source), "-o", str(output)]
        for name, value in (inputs or {}).items():
            path = directory / f"input_{len(arguments)}.npy"
            numpy.save(path, numpy.asarray(value))
            arguments += ["--input", f"{name}={path}"]
        if entry is not None:
            arguments += ["--entry", entry]
        if ranks is not None:
            arguments += ["--ranks", str(ranks)]
        if random_inputs:
            arguments.append("--random-inputs")
        if seed is not None:
            arguments += ["--seed", str(seed)]
        if pass_pipeline is not None:
            arguments += ["--pass-pipeline", pass_pipeline]
        if timeout is not None:
            arguments += ["--timeout", str(timeout)]
        if memory_limit is not None:
            arguments += ["--memory-limit", str(memory_limit)]
        # pto-run keeps its own wall-clock limit; the subprocess gets a margin.
        _invoke("pto-run", arguments, None if timeout is None else timeout + 30)
        return {path.stem: numpy.load(path) for path in sorted(output.glob("*.npy"))}


def opt(program: Program, arguments: Sequence[str] = (), *, timeout: Optional[float] = 300) -> str:
    """``pto-opt ARGUMENTS PROGRAM``: what it prints."""
    with tempfile.TemporaryDirectory(prefix="pto-opt-") as scratch:
        source = _program_file(program, Path(scratch))
        return _invoke("pto-opt", [*arguments, str(source)], timeout).stdout
