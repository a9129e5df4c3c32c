"""PyPTO's data types, spelled as the MLIR element types pl uses.

docs/pl-guide.md maps PyPTO's dtypes to MLIR types (``FP32`` is ``f32``,
``INT32`` the signless ``i32``, ``INDEX`` is ``index``); the constants keep
PyPTO's names so kernels read as they do there.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DataType:
    """An element type: PyPTO's name and the MLIR type it is."""

    name: str
    mlir: str

    @property
    def is_float(self) -> bool:
        return self.mlir.startswith(("f", "bf"))

    def __str__(self) -> str:
        return self.mlir


BOOL = DataType("BOOL", "i1")
INT8 = DataType("INT8", "i8")
INT16 = DataType("INT16", "i16")
INT32 = DataType("INT32", "i32")
INT64 = DataType("INT64", "i64")
UINT8 = DataType("UINT8", "ui8")
UINT16 = DataType("UINT16", "ui16")
UINT32 = DataType("UINT32", "ui32")
UINT64 = DataType("UINT64", "ui64")
FP16 = DataType("FP16", "f16")
BF16 = DataType("BF16", "bf16")
FP32 = DataType("FP32", "f32")
INDEX = DataType("INDEX", "index")

ALL = (BOOL, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FP16, BF16, FP32, INDEX)
_BY_MLIR = {d.mlir: d for d in ALL}


def of(value: "DataType | str") -> DataType:
    """A data type from a :class:`DataType` or an MLIR name (``"f32"``)."""
    if isinstance(value, DataType):
        return value
    try:
        return _BY_MLIR[str(value)]
    except KeyError:
        raise ValueError(f"unknown data type {value!r}") from None
