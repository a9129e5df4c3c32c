"""The MLIR context with every dialect and pass the toolkit knows.

A :class:`Context` is what pto-opt sets up: all upstream dialects (func,
arith, scf, math, memref, emitc, ...) plus ``pl`` and ``pld``, loaded, so
that ops can be built through the generic C API, and every upstream and
pto pass registered, so that any pipeline text parses. It also owns the
one diagnostic handler of the context, which turns MLIR's diagnostics into
:class:`~pto_mlir.errors.Diagnostic` values for the exception that reports
them.

The context also knows what still holds C objects in it (modules,
detached ops, pass managers): :meth:`Context.close` destroys them before
the context itself, and every IR object checks that its context is alive
before it calls into C, so that a closed context raises
:class:`~pto_mlir.errors.ClosedContextError` instead of crashing.
"""

from __future__ import annotations

import sys
import weakref
from contextlib import contextmanager
from typing import Iterator, Optional

from . import _capi as C
from .errors import ClosedContextError, Diagnostic

_SEVERITIES = {0: "error", 1: "warning", 2: "note", 3: "remark"}
_passes_registered = False


def _register_passes() -> None:
    """Registers upstream and pto passes in MLIR's global registry, once."""
    global _passes_registered
    if not _passes_registered:
        C.mlirRegisterAllPasses()
        C.ptoRegisterPasses()
        _passes_registered = True


def resolve_location(location: C.MlirLocation) -> tuple[Optional[str], Optional[int], Optional[int]]:
    """The ``file, line, col`` a location points at, looking through names,
    call sites (the callee: the op's own place) and fused locations."""
    for _ in range(64):
        if C.is_null(location):
            break
        if C.mlirLocationIsAFileLineColRange(location):
            return (
                C.identifier_str(C.mlirLocationFileLineColRangeGetFilename(location)),
                C.mlirLocationFileLineColRangeGetStartLine(location),
                C.mlirLocationFileLineColRangeGetStartColumn(location),
            )
        if C.mlirLocationIsAName(location):
            location = C.mlirLocationNameGetChildLoc(location)
        elif C.mlirLocationIsACallSite(location):
            location = C.mlirLocationCallSiteGetCallee(location)
        elif C.mlirLocationIsAFused(location):
            count = C.mlirLocationFusedGetNumLocations(location)
            parts = (C.MlirLocation * count)()
            C.mlirLocationFusedGetLocations(location, parts)
            for part in parts:
                found = resolve_location(part)
                if found[0] is not None:
                    return found
            break
        else:
            break
    return None, None, None


def _convert(diagnostic: C.MlirDiagnostic) -> Diagnostic:
    location = C.mlirDiagnosticGetLocation(diagnostic)
    file, line, column = resolve_location(location)
    notes = tuple(
        _convert(C.mlirDiagnosticGetNote(diagnostic, i))
        for i in range(C.mlirDiagnosticGetNumNotes(diagnostic))
    )
    return Diagnostic(
        severity=_SEVERITIES.get(C.mlirDiagnosticGetSeverity(diagnostic), "error"),
        message=C.printed(C.mlirDiagnosticPrint, diagnostic),
        file=file,
        line=line,
        column=column,
        location=C.printed(C.mlirLocationPrint, location),
        notes=notes,
    )


def default_context(context: Optional["Context"]) -> "Context":
    """``context``, or the shared :meth:`Context.default` when it is None."""
    return context if context is not None else Context.default()


class Context:
    """An MLIR context with the toolkit's dialects loaded and passes registered.

    ``threading`` is off by default: diagnostics then arrive in program
    order and the two-core machines the toolkit targets gain little.
    """

    _default: Optional["Context"] = None

    def __init__(self, *, threading: bool = False, allow_unregistered: bool = False) -> None:
        registry = C.mlirDialectRegistryCreate()
        try:
            C.mlirRegisterAllDialects(registry)
            C.ptoRegisterDialects(registry)
            self._handle = C.mlirContextCreateWithThreading(threading)
            C.mlirContextAppendDialectRegistry(self._handle, registry)
        finally:
            C.mlirDialectRegistryDestroy(registry)
        # Ops are built through the generic C API, which only knows the ops
        # of loaded dialects: load them all now rather than on first parse.
        C.mlirContextLoadAllAvailableDialects(self._handle)
        C.mlirContextSetAllowUnregisteredDialects(self._handle, allow_unregistered)
        _register_passes()
        self._collectors: list[list[Diagnostic]] = []
        self.unclaimed: list[Diagnostic] = []
        self._handler = C.MlirDiagnosticHandler(self._on_diagnostic)
        self._handler_id = C.mlirContextAttachDiagnosticHandler(self._handle, self._handler, None, None)
        # What owns C objects in this context (modules, detached ops, pass
        # managers), each with a `_release()`; weak, so that they go away
        # with their last Python reference.
        self._resources: "weakref.WeakSet[object]" = weakref.WeakSet()
        self._alive = True

    @classmethod
    def default(cls) -> "Context":
        """A context shared by calls that are given none (a new one once
        the previous default was closed)."""
        if cls._default is None or not cls._default.alive:
            cls._default = cls()
        return cls._default

    @property
    def handle(self) -> C.MlirContext:
        self.check_alive()
        return self._handle

    @property
    def alive(self) -> bool:
        return self._alive

    def check_alive(self) -> None:
        """Raises :class:`ClosedContextError` once the context was closed."""
        if not self._alive:
            raise ClosedContextError(
                "the context was closed: the modules, ops, values, types and attributes made in it "
                "can no longer be used")

    def _track(self, resource: object) -> None:
        """Registers an object owning C objects in this context, released
        (in order of its `_release_rank`) when the context closes."""
        self._resources.add(resource)

    def _untrack(self, resource: object) -> None:
        self._resources.discard(resource)

    def _on_diagnostic(self, diagnostic: Optional[int], _user: Optional[int]) -> int:
        try:
            converted = _convert(C.MlirDiagnostic(diagnostic))
        except Exception as error:  # never let an exception unwind into C
            converted = Diagnostic("error", f"(diagnostic could not be read: {error})")
        (self._collectors[-1] if self._collectors else self.unclaimed).append(converted)
        return 1  # handled: nothing reaches MLIR's default stderr printer

    @contextmanager
    def diagnostics(self) -> Iterator[list[Diagnostic]]:
        """Collects the diagnostics emitted inside the ``with`` block."""
        collected: list[Diagnostic] = []
        self._collectors.append(collected)
        try:
            yield collected
        finally:
            self._collectors.remove(collected)

    def is_registered_operation(self, name: str) -> bool:
        ref, _buffer = C.string_ref(name)
        return bool(C.mlirContextIsRegisteredOperation(self.handle, ref))

    @property
    def allow_unregistered(self) -> bool:
        return bool(C.mlirContextGetAllowUnregisteredDialects(self.handle))

    def _release_resources(self) -> None:
        """Destroys what still holds C objects in the context, those whose
        IR uses another's values before that other (detached ops before
        modules, pass managers last); each refuses to touch its IR once
        something it uses is gone, so a cycle only leaks."""
        pending = sorted((r for r in list(self._resources) if getattr(r, "parent", None) is None),
                         key=lambda r: getattr(r, "_release_rank", 0))
        while pending:
            used = {id(k.root()) for r in pending for k in getattr(r, "keep", ())}
            ready = [r for r in pending if id(r) not in used] or pending[:1]
            for resource in ready:
                try:
                    resource._release()
                except Exception:  # keep closing: the context goes regardless
                    pass
            done = {id(r) for r in ready}
            pending = [r for r in pending if id(r) not in done]

    def close(self) -> None:
        """Destroys the context; every object built in it becomes unusable."""
        if self._alive:
            self._release_resources()
            self._alive = False
            C.mlirContextDetachDiagnosticHandler(self._handle, self._handler_id)
            C.mlirContextDestroy(self._handle)

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        # At interpreter exit the ctypes machinery may already be gone.
        if getattr(self, "_alive", False) and not sys.is_finalizing():
            try:
                self.close()
            except Exception:
                pass
