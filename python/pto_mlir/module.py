"""Modules: what is parsed, verified, transformed, run and translated."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator, Optional, Union

from . import _capi as C
from .context import Context, default_context
from .errors import DiagnosticError
from .ir import Block, IROwner, Operation
from .locations import Location


def _name_arguments(op: Operation, source: str) -> None:
    """Gives each function argument its ``%name`` from the source text as a
    name location, as the tools do when they read a file, so printing
    keeps the names and pto-run's ``--input NAME=`` finds them."""
    lines = source.splitlines()
    for candidate in op.walk():
        if candidate.name != "func.func" or not candidate.regions or not candidate.regions[0].blocks:
            continue
        for argument in candidate.regions[0].blocks[0].arguments:
            if C.mlirLocationIsAName(C.mlirValueGetLocation(argument.handle)):
                continue
            _file, line, column = argument.location.file_line_col
            if not line or not column or line > len(lines):
                continue
            rest = lines[line - 1][column - 1:]
            if not rest.startswith("%"):
                continue
            name = ""
            for char in rest[1:]:
                if not (char.isalnum() or char in "_$."):
                    break
                name += char
            if name:
                argument.set_name(name)


class Module(IROwner):
    """A ``builtin.module``: what is parsed, verified, transformed, run.

    The module owns its IR: every op, block, region and value looked up in
    it holds the module, which lives as long as any of them does.
    """

    def __init__(self, handle: C.MlirModule, context: Context) -> None:
        if C.is_null(handle):
            raise ValueError("null module")
        self._handle = handle
        super().__init__(context)

    @property
    def handle(self) -> C.MlirModule:
        """The C handle, after checking that the context is still open."""
        self.check()
        return self._handle

    @staticmethod
    def create(context: Optional[Context] = None, location: Optional[Location] = None) -> "Module":
        """An empty module (to build into)."""
        context = default_context(context)
        location = location or Location.caller(context)
        return Module(C.mlirModuleCreateEmpty(location.handle), context)

    @staticmethod
    def parse(text: str, context: Optional[Context] = None) -> "Module":
        """Parses (and verifies) MLIR text; its locations say ``-``."""
        context = default_context(context)
        ref, _buffer = C.string_ref(text)
        with context.diagnostics() as collected:
            handle = C.mlirModuleCreateParse(context.handle, ref)
        if C.is_null(handle):
            raise DiagnosticError("the module did not parse", collected)
        module = Module(handle, context)
        _name_arguments(module.operation, text)
        return module

    @staticmethod
    def parse_file(path: Union[str, os.PathLike], context: Optional[Context] = None) -> "Module":
        """Parses (and verifies) an ``.mlir`` file; locations name the file."""
        context = default_context(context)
        path = Path(path)
        text = path.read_text()
        ref, _buffer = C.string_ref(str(path))
        with context.diagnostics() as collected:
            handle = C.mlirModuleCreateParseFromFile(context.handle, ref)
        if C.is_null(handle):
            raise DiagnosticError(f"{path} did not parse", collected)
        module = Module(handle, context)
        _name_arguments(module.operation, text)
        return module

    @property
    def operation(self) -> Operation:
        """The ``builtin.module`` op (valid across pass pipelines)."""
        return Operation(C.mlirModuleGetOperation(self.handle), self, pinned=True)

    @property
    def body(self) -> Block:
        """The module's block (valid across pass pipelines)."""
        return Block(C.mlirModuleGetBody(self.handle), self, pinned=True)

    @property
    def functions(self) -> dict[str, Operation]:
        """The top-level ``func.func`` ops by symbol name."""
        return {
            op.symbol_name: op
            for op in self.body.operations
            if op.name == "func.func" and op.symbol_name is not None
        }

    def walk(self) -> Iterator[Operation]:
        return self.operation.walk()

    def verify(self) -> None:
        """Raises :class:`DiagnosticError` when the module does not verify."""
        handle = self.operation.handle
        with self.context.diagnostics() as collected:
            ok = C.mlirOperationVerify(handle)
        if not ok:
            raise DiagnosticError("the module failed to verify", collected)

    def clone(self) -> "Module":
        op = C.mlirOperationClone(self.operation.handle)
        return Module(C.mlirModuleFromOperation(op), self.context)

    def to_text(self, *, debug_info: bool = False, generic: bool = False) -> str:
        return self.operation.to_text(debug_info=debug_info, generic=generic)

    def write(self, path: Union[str, os.PathLike], *, debug_info: bool = True) -> Path:
        """Writes the module as text; with locations by default, so a tool's
        diagnostics point where each op came from (Python lines included)."""
        path = Path(path)
        path.write_text(self.to_text(debug_info=debug_info))
        return path

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        if not self.context.alive:
            return "Module(<closed context>)"
        return f"Module({len(self.functions)} functions)"

    def _release(self) -> None:
        """Destroys the module (when its last view goes, or its context
        closes)."""
        if getattr(self, "_handle", None) is not None and self._can_release():
            self.destroyed = True
            C.mlirModuleDestroy(self._handle)
