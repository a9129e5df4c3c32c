"""Drive pto-mlir from Python: parse, build, verify, transform, run, translate.

Pure Python over MLIR's C API (``libMLIR-C.so``) and the project's
(``libpto_mlir.so``) through ctypes, plus the command-line tools for what
only they do (``pto-run``, ``pto-translate``). docs/python.md is the guide.

- :class:`Context`, :class:`Module` (``parse``, ``parse_file``, ``verify``,
  ``str``), :class:`Type`, :class:`Attribute`, :class:`Location`,
  :class:`Operation`, :class:`Block`, :class:`Region`, :class:`Value`;
- :mod:`pto_mlir.types`: ``tile``, ``tensor``, ``dtensor``, ``comm_ctx``...;
- :class:`Builder`: any op by name, functions, constants;
- :class:`PassManager`, :func:`run_pipeline`;
- :func:`run` (pto-run), :func:`translate` (pto-translate), :func:`opt`;
- :mod:`pto_mlir.language`: the PyPTO-style front end.
"""

from .builder import Argument, Builder, Function
from .context import Context
from .errors import (
    BuildError, ClosedContextError, Diagnostic, DiagnosticError, LibraryNotFoundError, PassPipelineError,
    PtoMlirError, StaleObjectError, ToolError, ToolNotFoundError,
)
from .ir import Attribute, Block, Operation, Region, Type, Value
from .locations import Location
from .module import Module
from .passes import PassManager, run_pipeline
from .tools import opt, run, translate
from . import types

__all__ = [
    "Argument", "Attribute", "Block", "BuildError", "Builder", "ClosedContextError", "Context", "Diagnostic",
    "DiagnosticError", "Function", "LibraryNotFoundError", "Location", "Module", "Operation", "PassManager",
    "PassPipelineError", "PtoMlirError", "Region", "StaleObjectError", "ToolError", "ToolNotFoundError", "Type",
    "Value", "opt", "run", "run_pipeline", "translate", "types",
]
