"""Kernels and orchestrations as decorated Python functions.

``@pl.kernel`` / ``@pl.orchestration`` (or ``@pl.function(type=...)``)
record a Python function and its annotated signature; nothing is built
until :func:`program` traces the entry, which builds every function it
calls on the way: a call of a kernel inside an orchestration emits
``pl.call`` and puts the kernel's ``func.func`` into the module (before
its caller, as the examples order them).
"""

from __future__ import annotations

import ast
import enum
import inspect
import os
import textwrap
import typing
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable, Optional, Union

from ..builder import Argument
from ..context import Context
from ..errors import BuildError
from ..ir import Attribute
from ..locations import Location
from ..module import Module
from .annotations import Spec, is_spec
from .ops import value
from .tracing import FunctionScope, Tracer, current, pop, push
from .values import Var


class FunctionType(enum.Enum):
    """PyPTO's function types and the ``pl.kind`` each becomes."""

    Opaque = None
    Orchestration = "orchestration"
    InCore = "incore"
    AIC = "aic"
    AIV = "aiv"
    Inline = "inline"


_DISPATCHED = ("incore", "aic", "aiv", "group", "spmd")


@dataclass
class SourcePositions:
    """Where a function's pieces are in its file (1-based lines and
    columns): its ``def``, each parameter, its last ``return``."""

    definition: tuple[int, int]
    parameters: dict[str, tuple[int, int]] = field(default_factory=dict)
    end: Optional[tuple[int, int]] = None


def _source_positions(fn: Callable) -> SourcePositions:
    """Reads the function's source (when there is one) so that the
    ``func.func``, its arguments and its ``func.return`` point at the
    ``def``, the parameters and the ``return``."""
    positions = SourcePositions((fn.__code__.co_firstlineno, 1))
    try:
        lines, first = inspect.getsourcelines(fn)
        source = textwrap.dedent("".join(lines))
        indent = len(lines[0]) - len(lines[0].lstrip())
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return positions
    node = tree.body[0]
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return positions

    def place(item: ast.AST) -> tuple[int, int]:
        return first + item.lineno - 1, item.col_offset + indent + 1

    positions.definition = place(node)
    positions.parameters = {a.arg: place(a) for a in node.args.args}
    returns = [n for n in ast.walk(node) if isinstance(n, ast.Return)]
    if returns:
        positions.end = place(max(returns, key=lambda n: (n.lineno, n.col_offset)))
    return positions


class KernelFunction:
    """A Python function to be built as a ``func.func`` of one kind."""

    def __init__(self, fn: Callable, kind: FunctionType, name: Optional[str] = None,
                 namespace: Optional[dict] = None) -> None:
        self.fn = fn
        self.kind = kind
        self.name = name or fn.__name__
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        # Annotations may be strings (`from __future__ import annotations`)
        # naming locals of the scope that defines the function.
        hints = inspect.get_annotations(fn, eval_str=True, locals=namespace)
        parameters = list(inspect.signature(fn).parameters.values())
        self.is_method = bool(parameters) and parameters[0].name == "self" and "self" not in hints
        if self.is_method:
            parameters = parameters[1:]
        self.parameters: list[tuple[str, Spec]] = []
        for parameter in parameters:
            spec = hints.get(parameter.name)
            if not is_spec(spec):
                raise BuildError(
                    f"parameter {parameter.name!r} of {self.name} needs an annotation such as "
                    "pl.Tensor[[64, 64], pl.FP32]"
                )
            self.parameters.append((parameter.name, spec))
        self.results: list[Spec] = self._result_specs(hints.get("return"))

    def _result_specs(self, annotation: Any) -> list[Spec]:
        if annotation is None or annotation is type(None):
            return []
        if is_spec(annotation):
            return [annotation]
        if typing.get_origin(annotation) is tuple:
            items = typing.get_args(annotation)
        elif isinstance(annotation, tuple):
            items = annotation
        else:
            items = ()
        if items and all(is_spec(i) for i in items):
            return list(items)
        raise BuildError(f"the result annotation of {self.name} is not a pl type: {annotation!r}")

    # -- building --------------------------------------------------------

    def emit(self, tracer: Tracer, owner: Any = None) -> None:
        """Builds this function into ``tracer``'s module (once)."""
        if self.name in tracer.built:
            if tracer.built[self.name] is not self:
                raise BuildError(f"two functions are named {self.name!r}")
            return
        tracer.built[self.name] = self
        context = tracer.context
        filename = self.fn.__code__.co_filename
        source = _source_positions(self.fn)
        location = Location.file(filename, *source.definition, context)
        arguments = [
            Argument(name, spec.mlir_type(context),
                     {"pl.direction": f"#pl.direction<{spec.direction}>"} if spec.direction != "in" else None)
            for name, spec in self.parameters
        ]
        argument_locations = [
            Location.file(filename, *source.parameters.get(name, source.definition), context)
            for name, _spec in self.parameters
        ]
        attributes = {"pl.kind": f"#pl.kind<{self.kind.value}>"} if self.kind.value else None
        # Callees go before the function that calls them first.
        before = tracer.scopes[0].function.op if tracer.scopes else None
        function = tracer.builder.function(
            self.name, arguments, [s.mlir_type(context) for s in self.results], attributes,
            location=location, before=before, argument_locations=argument_locations)
        scope = FunctionScope(function)
        tracer.scopes.append(scope)
        tracer.builder.push(function.entry)
        try:
            args = [Var(v) for v in function.arguments]
            returned = self.fn(owner, *args) if self.is_method else self.fn(*args)
            if scope.loops:
                raise BuildError(f"{self.name}: a pl.range loop was left before its end (a break?)")
            if returned is None:
                values = []
            elif isinstance(returned, (tuple, list)):
                values = [value(v) for v in returned]
            else:
                values = [value(returned)]
            end = Location.file(filename, *(source.end or source.definition), context)
            tracer.builder.return_(values, location=end)
        finally:
            tracer.builder.pop()
            tracer.scopes.pop()

    def __call__(self, *args: Any) -> Union[Var, tuple[Var, ...], None]:
        """Inside a function being built: a call of this one (``pl.call`` of
        a kernel, ``func.call`` otherwise)."""
        tracer = current()
        self.emit(tracer, tracer.owner)
        if len(args) != len(self.parameters):
            raise BuildError(f"{self.name} takes {len(self.parameters)} arguments, got {len(args)}")
        context = tracer.context
        operands = [value(a, spec.mlir_type(context)) for a, (_n, spec) in zip(args, self.parameters)]
        results = [s.mlir_type(context) for s in self.results]
        name = "pl.call" if self.kind.value in _DISPATCHED else "func.call"
        created = tracer.builder.create(name, operands, results,
                                        {"callee": Attribute.symbol(self.name, context)})
        outs = [Var(r) for r in created.results]
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else tuple(outs)

    def build(self, context: Optional[Context] = None, *, verify: bool = True) -> Module:
        """A module of this function and everything it calls."""
        return program(self, context=context, verify=verify)

    def __repr__(self) -> str:
        return f"<pl function {self.name} ({self.kind.name})>"


def _defining_locals() -> dict:
    """The names visible where the user applies the decorator: that scope's
    locals, then its callers' up to module level (a class body inside a
    function sees the function's locals, as its annotations would)."""
    frame = inspect.currentframe()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(here + os.sep):
        frame = frame.f_back
    names: dict = {}
    while frame is not None and frame.f_locals is not frame.f_globals:
        for key, item in frame.f_locals.items():
            names.setdefault(key, item)
        frame = frame.f_back
    return names


def function(fn: Optional[Callable] = None, *, type: FunctionType = FunctionType.Opaque,
             name: Optional[str] = None) -> Any:
    """``@pl.function`` or ``@pl.function(type=pl.FunctionType.InCore)``."""
    def wrap(f: Callable) -> KernelFunction:
        return KernelFunction(f, type, name, _defining_locals())

    return wrap(fn) if fn is not None else wrap


def kernel(fn: Optional[Callable] = None, *, name: Optional[str] = None) -> Any:
    """An InCore kernel (``pl.kind = #pl.kind<incore>``): tile code, which
    ``pto-a2a3-pipeline`` turns into an aiv or aic kernel."""
    return function(fn, type=FunctionType.InCore, name=name)


def orchestration(fn: Optional[Callable] = None, *, name: Optional[str] = None) -> Any:
    """An orchestration (``pl.kind = #pl.kind<orchestration>``): creates
    tensors and calls kernels."""
    return function(fn, type=FunctionType.Orchestration, name=name)


def program(*functions: Any, context: Optional[Context] = None, verify: bool = True) -> Module:
    """Builds ``functions`` (and what they call) into one module; verifies
    it unless ``verify=False``, raising :class:`DiagnosticError` at the
    Python lines of the ops the verifier refuses.

    A class (PyPTO's ``@pl.program`` style) stands for its functions; its
    methods call each other through ``self``.
    """
    context = context if context is not None else Context.default()
    module = Module.create(context, Location.caller(context))
    tracer = Tracer(module)
    push(tracer)
    try:
        for item in functions:
            if isinstance(item, KernelFunction):
                item.emit(tracer, tracer.owner)
            elif isinstance(item, type):
                members = {k: v for k, v in vars(item).items() if isinstance(v, KernelFunction)}
                tracer.owner = SimpleNamespace(**members)
                for member in members.values():
                    member.emit(tracer, tracer.owner)
            else:
                raise BuildError(f"pl.program builds pl functions or classes of them, not {item!r}")
    finally:
        pop()
    if verify:
        module.verify()
    return module
