"""Constructors of the types pl programs use.

``pl`` and ``pld`` types come from the project's C constructors, which
build canonical types (a view field equal to its default is not stored,
docs/pl-guide.md); builtin scalar types are parsed from their names, which
is the one spelling every MLIR user knows.
"""

from __future__ import annotations

import enum
from typing import Optional, Sequence, Union

from . import _capi as C
from .context import Context, default_context as _context
from .ir import Type, as_type


class MemorySpace(enum.IntEnum):
    """A tile's memory space (the ``pl.MemorySpace`` codes of the C API)."""

    DDR = 0
    VEC = 1
    MAT = 2
    LEFT = 3
    RIGHT = 4
    ACC = 5
    BIAS = 6
    SCALAR_LOCAL = 7
    LEFT_SCALE = 8
    RIGHT_SCALE = 9

    @classmethod
    def of(cls, value: Union["MemorySpace", str, None]) -> Optional["MemorySpace"]:
        """``"vec"``, ``MemorySpace.VEC`` or ``None`` (no space yet)."""
        if value is None or isinstance(value, MemorySpace):
            return value
        try:
            return cls[value.upper()]
        except KeyError:
            names = ", ".join(m.name.lower() for m in cls)
            raise ValueError(f"unknown memory space {value!r} (one of {names})") from None


Element = Union[Type, str]

DYNAMIC = None  # a dynamic extent (``?``) in a shape


def _shape(shape: Sequence[Optional[int]]) -> tuple[int, object]:
    dynamic = C.mlirShapedTypeGetDynamicSize()
    values = [dynamic if extent is None else int(extent) for extent in shape]
    return len(values), C.array(C.c_int64, values)


def scalar(name: str, context: Optional[Context] = None) -> Type:
    """A builtin scalar type by name: ``f32``, ``f16``, ``bf16``, ``i32``, ``index``..."""
    return Type.parse(name, _context(context))


def index(context: Optional[Context] = None) -> Type:
    context = _context(context)
    return Type(C.mlirIndexTypeGet(context.handle), context)


def tensor(shape: Sequence[Optional[int]], element: Element, context: Optional[Context] = None) -> Type:
    """``!pl.tensor<shape x element>``; ``None`` extents are dynamic."""
    context = _context(context)
    element_type = as_type(element, context)
    rank, extents = _shape(shape)
    return Type(C.plTensorTypeGet(context.handle, rank, extents, element_type.handle), context)


def tile(
    shape: Sequence[int],
    element: Element,
    memory_space: Union[MemorySpace, str, None] = None,
    context: Optional[Context] = None,
) -> Type:
    """``!pl.tile<shape x element[, space]>`` with the space's default view."""
    context = _context(context)
    element_type = as_type(element, context)
    space = MemorySpace.of(memory_space)
    rank, extents = _shape(shape)
    code = -1 if space is None else int(space)
    return Type(C.plTileTypeGet(context.handle, rank, extents, element_type.handle, code), context)


def dtensor(shape: Sequence[Optional[int]], element: Element, context: Optional[Context] = None) -> Type:
    """``!pld.dtensor<shape x element>``: a tensor with a copy on every rank."""
    context = _context(context)
    element_type = as_type(element, context)
    rank, extents = _shape(shape)
    return Type(C.pldDistributedTensorTypeGet(context.handle, rank, extents, element_type.handle), context)


def comm_ctx(context: Optional[Context] = None) -> Type:
    """``!pld.comm_ctx``."""
    context = _context(context)
    return Type(C.pldCommCtxTypeGet(context.handle), context)


def function(inputs: Sequence[Type], results: Sequence[Type], context: Optional[Context] = None) -> Type:
    """A builtin function type."""
    context = _context(context)
    ins = C.array(C.MlirType, [t.handle for t in inputs])
    outs = C.array(C.MlirType, [t.handle for t in results])
    return Type(C.mlirFunctionTypeGet(context.handle, len(inputs), ins, len(results), outs), context)
