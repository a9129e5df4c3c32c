"""Pass pipelines, run in process through MLIR's pass manager.

Every upstream pass and every pl/pld pass is registered when a
:class:`~pto_mlir.context.Context` is made, so a pipeline is the same text
``pto-opt --pass-pipeline=...`` takes (docs/passes/ lists the project's).
"""

from __future__ import annotations

import re
import sys
from typing import Optional

from . import _capi as C
from .context import Context
from .errors import ClosedContextError, Diagnostic, DiagnosticError, PassPipelineError
from .module import Module


def _parser_diagnostic(text: str) -> Diagnostic:
    """The pipeline parser's message (``MLIR Textual PassPipeline
    Parser:1:5: error: 'x' does not refer to ...`` and a caret line) as a
    diagnostic located in the pipeline text."""
    first, _, rest = text.strip().partition("\n")
    match = re.match(r"^.*?:(\d+):(\d+): error: (.*)$", first)
    if not match:
        return Diagnostic("error", text.strip() or "the pass pipeline does not parse",
                          location="pass pipeline")
    return Diagnostic("error", match[3], file="pass pipeline", line=int(match[1]), column=int(match[2]),
                      notes=(Diagnostic("note", rest.rstrip()),) if rest.strip() else ())


class PassManager:
    """A pass manager on ``builtin.module`` holding one pipeline.

    ``pipeline`` is either anchored (``builtin.module(pl-outline-incore-scopes)``)
    or a list of elements to nest under the module
    (``pl-outline-incore-scopes, func.func(canonicalize)``).

    Running it may erase or replace any op of the module: the ops, blocks,
    regions and values looked up before :meth:`run` raise
    :class:`~pto_mlir.errors.StaleObjectError` afterwards (look them up
    again); the module, its ``operation`` and its ``body`` stay valid.
    """

    _release_rank = 2

    def __init__(self, pipeline: str = "", context: Optional[Context] = None, *, verify: bool = True) -> None:
        self.context = context if context is not None else Context.default()
        self._handle = C.mlirPassManagerCreate(self.context.handle)
        self.context._track(self)
        C.mlirPassManagerEnableVerifier(self._handle, verify)
        self._texts: list[str] = []
        if pipeline:
            self.add(pipeline)

    def add(self, pipeline: str) -> "PassManager":
        """Appends a pipeline (anchored or elements); raises
        :class:`PassPipelineError` with the parser's message when it does not
        parse (an unknown pass, a bad option)."""
        printer = C.Printer()
        ref, _buffer = C.string_ref(pipeline)
        op_pm = C.mlirPassManagerGetAsOpPassManager(self.handle)
        with self.context.diagnostics() as collected:
            if pipeline.lstrip().startswith("builtin.module("):
                result = C.mlirParsePassPipeline(op_pm, ref, printer.callback, None)
            else:
                result = C.mlirOpPassManagerAddPipeline(op_pm, ref, printer.callback, None)
        if not result.value:
            raise PassPipelineError(f"invalid pass pipeline {pipeline!r}",
                                    [_parser_diagnostic(printer.text()), *collected])
        self._texts.append(pipeline)
        return self

    @property
    def handle(self) -> C.MlirPassManager:
        """The C handle, after checking that the context is still open."""
        self.context.check_alive()
        if self._handle is None:
            raise ClosedContextError("the pass manager was destroyed with its context")
        return self._handle

    @property
    def pipeline(self) -> str:
        """The pipeline as MLIR prints it (every option spelled out)."""
        return C.printed(C.mlirPrintPassPipeline, C.mlirPassManagerGetAsOpPassManager(self.handle))

    def run(self, module: Module) -> list[Diagnostic]:
        """Runs the pipeline on ``module`` in place. Returns the warnings
        and remarks the passes emitted; raises :class:`DiagnosticError`
        with the errors when a pass fails."""
        if module.context is not self.context:
            raise ValueError("the module belongs to another context than the pass manager")
        manager = self.handle
        op = module.operation.handle
        try:
            with self.context.diagnostics() as collected:
                result = C.mlirPassManagerRunOnOp(manager, op)
        finally:
            # Passes may have erased any op: what was looked up is stale.
            module.invalidate()
        if not result.value:
            raise DiagnosticError(f"the pass pipeline {' + '.join(self._texts)!r} failed", collected)
        return collected

    def __str__(self) -> str:
        return self.pipeline

    def _release(self) -> None:
        if getattr(self, "_handle", None) is not None and self.context.alive and not sys.is_finalizing():
            handle, self._handle = self._handle, None
            C.mlirPassManagerDestroy(handle)

    def __del__(self) -> None:
        try:
            self._release()
        except Exception:  # never raise from a finalizer
            pass


def run_pipeline(module: Module, pipeline: str, *, verify: bool = True) -> Module:
    """Runs ``pipeline`` on ``module`` in place and returns it."""
    PassManager(pipeline, module.context, verify=verify).run(module)
    return module
