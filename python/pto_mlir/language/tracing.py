"""The state of a program being built from Python functions.

The front end traces: a decorated function's body runs once with
:class:`~pto_mlir.language.values.Var` arguments, and every ``pl.*`` call
appends an op where the builder stands. This module holds who is being
built: the module, the functions already emitted, and per function its
open loops and hoisted constants.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from ..builder import Builder, Function
from ..errors import BuildError
from ..ir import Attribute, Operation, Type, Value
from ..locations import Location
from ..module import Module

if TYPE_CHECKING:
    from .functions import KernelFunction


@dataclass
class Loop:
    """An ``scf.for`` whose body is being traced."""

    op: Operation
    yielded: bool = False


@dataclass
class FunctionScope:
    """A function whose body is being traced."""

    function: Function
    loops: list[Loop] = field(default_factory=list)
    constants: dict[tuple[str, object], Value] = field(default_factory=dict)
    last_constant: Optional[Operation] = None


class Tracer:
    """Builds Python functions (and what they call) into one module."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.context = module.context
        self.builder = Builder.for_module(module)
        self.built: dict[str, "KernelFunction"] = {}
        self.scopes: list[FunctionScope] = []
        # What a method's `self` is while a @pl.program class is built.
        self.owner: object = None

    @property
    def scope(self) -> FunctionScope:
        if not self.scopes:
            raise BuildError("pl ops are called inside a function being built (pl.program)")
        return self.scopes[-1]

    def constant(self, value: object, type: Type) -> Value:
        """An ``arith.constant`` at the top of the function, made once per
        value and type: constants read as the examples write them."""
        scope = self.scope
        key = (str(type), value)
        if key in scope.constants:
            return scope.constants[key]
        if isinstance(value, bool) or type.is_integer or type.is_index:
            attribute = Attribute.integer(int(value), type)
        else:
            attribute = Attribute.float(float(value), type)
        op = self.builder.create("arith.constant", results=[type], attributes={"value": attribute},
                                 insert=False)
        entry = scope.function.entry
        if scope.last_constant is not None:
            entry.insert_after(scope.last_constant, op)
        elif entry.first_operation is not None:
            entry.insert_before(entry.first_operation, op)
        else:
            entry.append(op)
        scope.last_constant = op
        scope.constants[key] = op.result
        return op.result

    def location(self) -> Location:
        return Location.caller(self.context)


_active: list[Tracer] = []


def current() -> Tracer:
    """The tracer of the program being built."""
    if not _active:
        raise BuildError(
            "pl ops and kernel calls only work while a program is built: "
            "pass the entry function to pl.program(...)"
        )
    return _active[-1]


def push(tracer: Tracer) -> None:
    _active.append(tracer)


def pop() -> None:
    _active.pop()
