"""The exceptions of the package and the diagnostics they carry.

MLIR reports problems as diagnostics at locations; a Python user wants an
exception. Every failure the package reports is a :class:`PtoMlirError`,
and those that come from MLIR or from a tool carry the diagnostics as
structured :class:`Diagnostic` values, so a test can check the file, line
and message without parsing text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Optional


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic: severity, where (``file:line:col`` when known), what."""

    severity: str
    message: str
    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None
    location: str = ""
    notes: tuple["Diagnostic", ...] = field(default_factory=tuple)

    @property
    def where(self) -> str:
        """``file:line:col``, or the printed location when it has none."""
        if self.file is not None and self.line is not None:
            return f"{self.file}:{self.line}:{self.column or 0}"
        return self.location

    def __str__(self) -> str:
        head = f"{self.where}: " if self.where else ""
        text = f"{head}{self.severity}: {self.message}"
        for note in self.notes:
            # MLIR's "see current operation" notes print whole ops in
            # generic form; they stay in `notes` but not in the text.
            if not note.message.startswith("see current operation"):
                text += "\n" + str(note)
        return text


_LOCATED = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note|remark): (?P<msg>.*)$"
)


def parse_diagnostics(text: str) -> list[Diagnostic]:
    """The ``file:line:col: severity: message`` lines of a tool's output.

    Lines that follow a diagnostic without a location of their own (a
    source excerpt, a caret, continuation text) are kept in its message,
    notes become the previous error's notes.
    """
    found: list[Diagnostic] = []
    for line in text.splitlines():
        match = _LOCATED.match(line)
        if match:
            diagnostic = Diagnostic(
                severity=match["sev"],
                message=match["msg"],
                file=match["file"],
                line=int(match["line"]),
                column=int(match["col"]),
            )
            if diagnostic.severity == "note" and found:
                last = found[-1]
                found[-1] = Diagnostic(
                    last.severity, last.message, last.file, last.line, last.column,
                    last.location, last.notes + (diagnostic,),
                )
            else:
                found.append(diagnostic)
        elif line.strip() and ": error: " in line:
            found.append(Diagnostic(severity="error", message=line.split(": error: ", 1)[1],
                                    location=line.split(": error: ", 1)[0]))
    return found


class PtoMlirError(Exception):
    """Base of every error the package raises."""


class LibraryNotFoundError(PtoMlirError):
    """The shared libraries could not be found or loaded."""


class ToolNotFoundError(PtoMlirError):
    """pto-opt, pto-translate or pto-run could not be found."""


class DiagnosticError(PtoMlirError):
    """MLIR (or a tool) reported errors; ``diagnostics`` holds them."""

    def __init__(self, summary: str, diagnostics: Iterable[Diagnostic] = ()) -> None:
        self.summary = summary
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(self._text())

    def _text(self) -> str:
        if not self.diagnostics:
            return self.summary
        return self.summary + "\n" + "\n".join(str(d) for d in self.diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics of severity ``error``."""
        return [d for d in self.diagnostics if d.severity == "error"]


class PassPipelineError(DiagnosticError):
    """A pass pipeline did not parse (an unknown pass, a bad option)."""


class ToolError(DiagnosticError):
    """A tool exited with an error; ``stderr`` and ``returncode`` say how."""

    def __init__(self, tool: str, returncode: int, stderr: str, command: list[str]) -> None:
        self.tool = tool
        self.returncode = returncode
        self.stderr = stderr
        self.command = command
        diagnostics = parse_diagnostics(stderr)
        summary = f"{tool} failed (exit {returncode})"
        DiagnosticError.__init__(self, summary, diagnostics)

    def _text(self) -> str:
        return f"{self.summary}:\n{self.stderr.rstrip()}"


class BuildError(PtoMlirError):
    """The builder or the front end was used wrongly (before MLIR sees it)."""


class ClosedContextError(PtoMlirError, ValueError):
    """An object was used after its :class:`~pto_mlir.Context` was closed:
    the C objects behind it are gone."""


class StaleObjectError(PtoMlirError):
    """An IR object was used after the IR it pointed into may have been
    erased: a pass pipeline ran on its module since it was looked up, or
    the op it belongs to was destroyed. Look it up again from the module."""
