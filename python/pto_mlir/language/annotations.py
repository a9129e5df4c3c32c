"""Parameter and result annotations: ``Tensor[[128, 128], FP32]``, ``Out[...]``.

They are read, not executed: the front end turns a function's annotations
into its MLIR signature (types, ``pl.direction`` argument attributes), as
PyPTO's parser reads the same annotations.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Sequence, Union

from ..context import Context
from ..ir import Type
from .. import types as T
from .dtypes import DataType, of as dtype_of


def _shape(shape: Union[int, Sequence[Optional[int]]]) -> tuple[Optional[int], ...]:
    return (shape,) if isinstance(shape, int) else tuple(shape)


@dataclass(frozen=True)
class TensorSpec:
    """``!pl.tensor<shape x dtype>``, and the parameter's direction."""

    shape: tuple[Optional[int], ...]
    dtype: DataType
    direction: str = "in"

    def mlir_type(self, context: Context) -> Type:
        return T.tensor(self.shape, self.dtype.mlir, context)


@dataclass(frozen=True)
class TileSpec:
    """``!pl.tile<shape x dtype, space>``."""

    shape: tuple[int, ...]
    dtype: DataType
    memory_space: Optional[str] = "vec"
    direction: str = "in"

    def mlir_type(self, context: Context) -> Type:
        return T.tile(self.shape, self.dtype.mlir, self.memory_space, context)


@dataclass(frozen=True)
class ScalarSpec:
    """A scalar parameter (``f32``, ``i32``, ``index``...)."""

    dtype: DataType
    direction: str = "in"

    def mlir_type(self, context: Context) -> Type:
        return T.scalar(self.dtype.mlir, context)


Spec = Union[TensorSpec, TileSpec, ScalarSpec]


class Tensor:
    """``Tensor[[rows, cols], FP32]``: a tensor in global memory (``None``
    for a dynamic extent)."""

    def __class_getitem__(cls, item: tuple) -> TensorSpec:
        shape, dtype = item
        return TensorSpec(_shape(shape), dtype_of(dtype))


class Tile:
    """``Tile[[rows, cols], FP32]`` or ``Tile[[r, c], FP16, "mat"]``."""

    def __class_getitem__(cls, item: tuple) -> TileSpec:
        shape, dtype, *space = item
        return TileSpec(_shape(shape), dtype_of(dtype), space[0] if space else "vec")


class Scalar:
    """``Scalar[FP32]``."""

    def __class_getitem__(cls, dtype: Union[DataType, str]) -> ScalarSpec:
        return ScalarSpec(dtype_of(dtype))


class Out:
    """``Out[Tensor[...]]``: a parameter the function only writes."""

    def __class_getitem__(cls, spec: Spec) -> Spec:
        return replace(spec, direction="out")


class InOut:
    """``InOut[Tensor[...]]``: a parameter the function reads and writes."""

    def __class_getitem__(cls, spec: Spec) -> Spec:
        return replace(spec, direction="inout")


def is_spec(value: object) -> bool:
    return isinstance(value, (TensorSpec, TileSpec, ScalarSpec))
