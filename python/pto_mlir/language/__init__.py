"""A PyPTO-style front end: kernels and orchestrations written in Python.

``import pto_mlir.language as pl`` reads as PyPTO's ``pypto.language``:
annotated functions (``pl.Tensor[[128, 128], pl.FP32]``, ``pl.Out[...]``)
decorated ``@pl.kernel`` or ``@pl.orchestration``, bodies calling
``pl.load``, ``pl.add``, ``pl.exp``, ``pl.store``, loops with
``pl.range``. :func:`program` traces them into a verified MLIR module of
the ``pl`` dialect. docs/python.md is the tutorial.
"""

from ..types import MemorySpace
from .annotations import InOut, Out, Scalar, Tensor, Tile
from .control import range, yield_
from .dtypes import (
    BF16, BOOL, FP16, FP32, INDEX, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, DataType,
)
from .functions import FunctionType, KernelFunction, function, kernel, orchestration, program
from .ops import (
    BINARY, UNARY, abs, add, binary, cast, col_max, col_sum, compare, cos, create_tensor, create_tile, div,
    eq, exp, full, load, log, matmul, matmul_acc, maximum, minimum, move, mul, ne, neg, op, recip, relu,
    row_expand, row_expand_div, row_expand_mul, row_expand_sub, row_max, row_min, row_sum, rsqrt, sin,
    sqrt, store, sub, unary,
)
from .values import Var

Vec, Mat, Left, Right, Acc, Bias = "vec", "mat", "left", "right", "acc", "bias"

__all__ = [
    "Acc", "BF16", "BINARY", "BOOL", "Bias", "DataType", "FP16", "FP32", "FunctionType", "INDEX", "INT16",
    "INT32", "INT64", "INT8", "InOut", "KernelFunction", "Left", "Mat", "MemorySpace", "Out", "Right",
    "Scalar", "Tensor", "Tile", "UINT16", "UINT32", "UINT64", "UINT8", "UNARY", "Var", "Vec", "abs", "add",
    "binary", "cast", "col_max", "col_sum", "compare", "cos", "create_tensor", "create_tile", "div", "eq",
    "exp", "full", "function", "kernel", "load", "log", "matmul", "matmul_acc", "maximum", "minimum",
    "move", "mul", "ne", "neg", "op", "orchestration", "program", "range", "recip", "relu", "row_expand",
    "row_expand_div", "row_expand_mul", "row_expand_sub", "row_max", "row_min", "row_sum", "rsqrt", "sin",
    "sqrt", "store", "sub", "unary", "yield_",
]
