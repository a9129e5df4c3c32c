"""Loops: ``for i in pl.range(...)`` emits one ``scf.for``.

The loop body is Python code that runs once, while the builder stands in
the loop's body block. Values the loop carries are PyPTO's
``init_values``: ``for i, (acc,) in pl.range(n, init_values=(x,))``, the
body ending with ``out = pl.yield_(new_acc)``; ``out`` (the loop's
results) is what the code after the loop uses.
"""

from __future__ import annotations

from typing import Iterator, Optional, Sequence, Union

from ..errors import BuildError
from ..ir import Attribute
from .ops import value
from .tracing import Loop, Tracer, current
from .values import Operand, Var


class range:  # noqa: N801 - PyPTO's name, shadowing the builtin on purpose
    """``pl.range(stop)``, ``pl.range(start, stop[, step])``: an ``scf.for``
    over ``index`` values, iterated exactly once by a Python ``for``."""

    def __init__(
        self,
        start: Operand,
        stop: Optional[Operand] = None,
        step: Operand = 1,
        *,
        init_values: Sequence[Operand] = (),
        unroll: bool = False,
    ) -> None:
        if stop is None:
            start, stop = 0, start
        self._bounds = (start, stop, step)
        self._inits = tuple(init_values)
        self._unroll = unroll
        self._state = "new"
        self._tracer: Optional[Tracer] = None
        self._loop: Optional[Loop] = None

    def __iter__(self) -> Iterator:
        return self

    def __next__(self) -> Union[Var, tuple[Var, tuple[Var, ...]]]:
        if self._state == "new":
            return self._open()
        if self._state == "open":
            self._close()
        raise StopIteration

    def _open(self) -> Union[Var, tuple[Var, tuple[Var, ...]]]:
        tracer = current()
        start, stop, step = (value(b, "index") for b in self._bounds)
        inits = [value(v) for v in self._inits]
        attributes = {"pl.unroll": Attribute.unit(tracer.context)} if self._unroll else None
        op = tracer.builder.create("scf.for", [start, stop, step, *inits],
                                   results=[v.type for v in inits], attributes=attributes, regions=1)
        body = op.regions[0].append_block([start.type, *(v.type for v in inits)])
        loop = Loop(op)
        tracer.scope.loops.append(loop)
        tracer.builder.push(body)
        self._tracer, self._loop, self._state = tracer, loop, "open"
        arguments = [Var(a) for a in body.arguments]
        if not self._inits:
            return arguments[0]
        return arguments[0], tuple(arguments[1:])

    def _close(self) -> None:
        tracer, loop = self._tracer, self._loop
        assert tracer is not None and loop is not None
        self._state = "closed"
        if not loop.yielded:
            if loop.op.results:
                raise BuildError("a loop with init_values ends its body with pl.yield_(...)")
            tracer.builder.create("scf.yield")
        tracer.builder.pop()
        tracer.scope.loops.pop()


def yield_(*values: Operand) -> Union[Var, tuple[Var, ...], None]:
    """Ends the innermost ``pl.range`` body with ``scf.yield`` of ``values``
    (the next iteration's ``init_values``) and returns the loop's results."""
    tracer = current()
    if not tracer.scope.loops:
        raise BuildError("pl.yield_ is called inside a pl.range loop")
    loop = tracer.scope.loops[-1]
    if loop.yielded:
        raise BuildError("pl.yield_ is called once per loop body")
    tracer.builder.create("scf.yield", [value(v) for v in values])
    loop.yielded = True
    results = [Var(r) for r in loop.op.results]
    if not results:
        return None
    return results[0] if len(results) == 1 else tuple(results)
