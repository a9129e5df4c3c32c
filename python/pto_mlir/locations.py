"""Source locations: where an op comes from, and the Python caller.

Ops built from Python carry the file, line and column of the Python code
that asked for them, so MLIR's diagnostics (and a tool's, when the module
is written with its locations) point at the user's source.
"""

from __future__ import annotations

import inspect
import itertools
import os
import types
from typing import Optional

from . import _capi as C
from .context import Context, default_context, resolve_location

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _column(frame: "types.FrameType") -> int:
    """The 1-based column of the expression a frame is executing (Python
    3.11 records positions per instruction), else 1."""
    positions = getattr(frame.f_code, "co_positions", None)
    if positions is None or frame.f_lasti < 0:
        return 1
    position = next(itertools.islice(positions(), frame.f_lasti // 2, None), None)
    if position is None or position[2] is None:
        return 1
    return position[2] + 1


def caller_frame() -> tuple[str, int, int]:
    """The file, line and column of the innermost frame outside this
    package: the user's code that asked for an op, where its diagnostics
    should point."""
    frame = inspect.currentframe()
    while frame is not None:
        filename = frame.f_code.co_filename
        if not os.path.abspath(filename).startswith(_PACKAGE_DIR + os.sep):
            return filename, frame.f_lineno, _column(frame)
        frame = frame.f_back
    return "<unknown>", 0, 0


class Location:
    """Where an op comes from; diagnostics print it as ``file:line:col``."""

    def __init__(self, handle: C.MlirLocation, context: Context) -> None:
        self._handle = handle
        self.context = context

    @property
    def handle(self) -> C.MlirLocation:
        """The C handle, after checking that the context is still open."""
        self.context.check_alive()
        return self._handle

    @staticmethod
    def unknown(context: Optional[Context] = None) -> "Location":
        context = default_context(context)
        return Location(C.mlirLocationUnknownGet(context.handle), context)

    @staticmethod
    def file(filename: str, line: int, column: int = 1, context: Optional[Context] = None) -> "Location":
        context = default_context(context)
        ref, _buffer = C.string_ref(filename)
        return Location(C.mlirLocationFileLineColGet(context.handle, ref, line, column), context)

    @staticmethod
    def name(name: str, child: Optional["Location"] = None, context: Optional[Context] = None) -> "Location":
        """A name location (``loc("a"(child))``): a value's source name."""
        context = default_context(context if child is None else child.context)
        ref, _buffer = C.string_ref(name)
        child_handle = child.handle if child is not None else C.mlirLocationUnknownGet(context.handle)
        return Location(C.mlirLocationNameGet(context.handle, ref, child_handle), context)

    @staticmethod
    def caller(context: Optional[Context] = None) -> "Location":
        """The Python line and column that called into the package."""
        filename, line, column = caller_frame()
        return Location.file(filename, line, column, context)

    @property
    def file_line_col(self) -> tuple[Optional[str], Optional[int], Optional[int]]:
        return resolve_location(self.handle)

    def __str__(self) -> str:
        return C.printed(C.mlirLocationPrint, self.handle)

    def __repr__(self) -> str:
        if not self.context.alive:
            return "Location(<closed context>)"
        return f"Location({self})"


