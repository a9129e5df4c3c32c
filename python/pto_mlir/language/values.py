"""Traced values: what a kernel's Python code computes with.

A :class:`Var` wraps an SSA value and gives it Python's operators, so a
kernel can write ``a + b`` for tiles (``pl.tile.add``), tensors
(``pl.tensor.add``) or scalars (``arith.addi``/``addf``), as PyPTO
dispatches its unified ``pl.add`` on the operand's type.
"""

from __future__ import annotations

from typing import Optional, Union

from ..errors import BuildError
from ..ir import Type, Value


class Var:
    """A value of the program being built (tile, tensor or scalar)."""

    __slots__ = ("value",)

    def __init__(self, value: Value) -> None:
        self.value = value

    @property
    def type(self) -> Type:
        return self.value.type

    @property
    def shape(self) -> list[Optional[int]]:
        return self.type.shape

    @property
    def is_tile(self) -> bool:
        return self.type.is_tile

    @property
    def is_tensor(self) -> bool:
        return self.type.is_tensor

    @property
    def dtype(self) -> str:
        """The element type (of a scalar: its type) as MLIR spells it."""
        kind = self.type
        return str(kind.element_type if kind.is_shaped else kind)

    def __repr__(self) -> str:
        return f"Var({self.type})"

    def __bool__(self) -> bool:
        raise BuildError(
            "a traced value has no truth value while the program is built: "
            "branch with Python on constants, or compute with pl ops"
        )

    # Elementwise arithmetic: pl.add etc. pick the tile, tensor or scalar op.
    def __add__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.add(self, other)

    def __radd__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.add(self, other)

    def __sub__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.sub(self, other)

    def __rsub__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.sub(other, self)

    def __mul__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.mul(self, other)

    def __rmul__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.mul(self, other)

    def __truediv__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.div(self, other)

    def __floordiv__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.floordiv(self, other)

    def __neg__(self) -> "Var":
        from . import ops
        return ops.neg(self)

    def __matmul__(self, other: "Var") -> "Var":
        from . import ops
        return ops.matmul(self, other)

    # Ordering comparisons of scalars (arith.cmpi / cmpf). `==` stays
    # Python's identity so values can sit in sets and dicts: use pl.eq.
    def __lt__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.compare("lt", self, other)

    def __le__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.compare("le", self, other)

    def __gt__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.compare("gt", self, other)

    def __ge__(self, other: "Operand") -> "Var":
        from . import ops
        return ops.compare("ge", self, other)


Operand = Union[Var, Value, int, float, bool]
