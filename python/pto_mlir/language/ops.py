"""The pl ops a kernel or an orchestration calls, as PyPTO spells them.

Each function appends one op (or a few: a scratch tile, a constant) at the
builder's insertion point, with the location of the calling Python line.
Elementwise ops are generic by name: ``unary("exp", x)`` emits
``pl.tile.exp`` for a tile and ``pl.tensor.exp`` for a tensor, and the
named functions (``exp``, ``add``...) are that with the name filled in;
:func:`op` emits any registered op. Result types follow the op reference
(docs/dialects/pl.md); the project's verifier has the last word.
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

from ..errors import BuildError
from ..ir import Attribute, Type, Value
from .. import types as T
from .dtypes import DataType, of as dtype_of
from .tracing import current
from .values import Operand, Var

Shape = Sequence[Union[int, Var]]
Memory = Optional[str]

# Elementwise ops that exist at tile and tensor level; the binary ones
# have a tile-and-scalar form named with an "s" (adds, muls, ...).
UNARY = ("exp", "log", "sqrt", "rsqrt", "abs", "neg", "recip", "relu", "sin", "cos", "not")
BINARY = ("add", "sub", "mul", "div", "maximum", "minimum", "and", "or", "xor", "shl", "shr", "rem", "fmod")
_COMMUTATIVE = ("add", "mul", "maximum", "minimum", "and", "or", "xor")
_ARITH_INT = {"add": "arith.addi", "sub": "arith.subi", "mul": "arith.muli", "div": "arith.divsi",
              "floordiv": "arith.floordivsi", "rem": "arith.remsi", "maximum": "arith.maxsi",
              "minimum": "arith.minsi", "and": "arith.andi", "or": "arith.ori", "xor": "arith.xori"}
_ARITH_FLOAT = {"add": "arith.addf", "sub": "arith.subf", "mul": "arith.mulf", "div": "arith.divf",
                "rem": "arith.remf", "maximum": "arith.maximumf", "minimum": "arith.minimumf"}
_CMPI = {"eq": 0, "ne": 1, "lt": 2, "le": 3, "gt": 4, "ge": 5}
_CMPF = {"eq": 1, "gt": 2, "ge": 3, "lt": 4, "le": 5, "ne": 6}
ROUND_MODES = ("none", "rint", "round", "floor", "ceil", "trunc", "odd")


# -- operands --------------------------------------------------------------


def _raw(value: Operand) -> Optional[Value]:
    if isinstance(value, Var):
        return value.value
    if isinstance(value, Value):
        return value
    return None


def value(x: Operand, kind: Union[Type, str, DataType, None] = None) -> Value:
    """The SSA value of ``x``: a traced value as is, a Python number as a
    constant of ``kind`` (default ``index`` for ints, ``f32`` for floats)."""
    raw = _raw(x)
    if raw is not None:
        return raw
    if not isinstance(x, (int, float, bool)):
        raise BuildError(f"expected a traced value or a number, got {type(x).__name__}")
    tracer = current()
    if kind is None:
        kind = "i1" if isinstance(x, bool) else "index" if isinstance(x, int) else "f32"
    if isinstance(kind, DataType):
        kind = kind.mlir
    if isinstance(kind, str):
        kind = T.scalar(kind, tracer.context)
    return tracer.constant(x, kind)


def _element(x: Value) -> Type:
    kind = x.type
    return kind.element_type if kind.is_shaped else kind


def _level(x: Value) -> str:
    kind = x.type
    if kind.is_tile:
        return "tile"
    if kind.is_tensor:
        return "tensor"
    return "scalar"


def _offsets(offsets: Shape) -> list[Value]:
    return [value(o, "index") for o in offsets]


def _results(op_results: list[Value]) -> Union[Var, tuple[Var, ...], None]:
    if not op_results:
        return None
    if len(op_results) == 1:
        return Var(op_results[0])
    return tuple(Var(r) for r in op_results)


def _like(kind: Type, shape: Sequence[Optional[int]], element: Optional[Type] = None) -> Type:
    """A tile or tensor type like ``kind`` with another shape (and element)."""
    context = kind.context
    element = element if element is not None else kind.element_type
    if kind.is_tile:
        return T.tile(shape, element, kind.memory_space, context)
    return T.tensor(shape, element, context)


def _broadcast(lhs: Type, rhs: Type) -> Type:
    """The result type of an elementwise op: the left operand's, widened to
    the right-aligned broadcast of both shapes when that differs."""
    if lhs == rhs or not (lhs.is_shaped and rhs.is_shaped):
        return lhs
    left, right = lhs.shape, rhs.shape
    rank = max(len(left), len(right))
    left = [1] * (rank - len(left)) + left
    right = [1] * (rank - len(right)) + right
    shape = []
    for a, b in zip(left, right):
        if a == b or b == 1:
            shape.append(a)
        elif a == 1:
            shape.append(b)
        else:
            return lhs  # incompatible: the verifier says so, at this line
    return lhs if shape == lhs.shape else _like(lhs, shape)


# -- generic emission ------------------------------------------------------


def op(
    name: str,
    *operands: Operand,
    results: Optional[Sequence[Union[Type, str]]] = (),
    attributes: Optional[dict] = None,
) -> Union[Var, tuple[Var, ...], None]:
    """Emits any registered op: ``op("pl.tile.exp", t, results=[t.type])``.
    ``results=None`` lets an op with type inference choose."""
    tracer = current()
    created = tracer.builder.create(name, [value(o) for o in operands], results, attributes)
    return _results(created.results)


def unary(name: str, x: Operand) -> Var:
    """``pl.tile.<name>`` or ``pl.tensor.<name>`` of ``x``: the result has
    the operand's type."""
    raw = value(x)
    level = _level(raw)
    if level == "scalar":
        raise BuildError(f"pl.{name} takes a tile or a tensor, not {raw.type}")
    return op(f"pl.{level}.{name}", raw, results=[raw.type])


def binary(name: str, lhs: Operand, rhs: Operand) -> Var:
    """The elementwise ``name`` of two operands, dispatched on their types:
    tile/tensor with tile/tensor (``pl.tile.add``), with a scalar or a
    number (``pl.tile.adds``), or two scalars (``arith``)."""
    left, right = _raw(lhs), _raw(rhs)
    if left is None and right is not None and right.type.is_shaped and name in _COMMUTATIVE:
        lhs, rhs, left, right = rhs, lhs, right, left
    if left is None:
        if right is None:
            raise BuildError(f"pl.{name} needs at least one traced operand")
        if right.type.is_shaped:
            raise BuildError(f"pl.{name} of a number and a {_level(right)}: pl has only the "
                             f"{_level(right)}-then-scalar form ({name}s)")
        left = value(lhs, right.type)
    level = _level(left)
    if level == "scalar":
        return _scalar_binary(name, left, value(rhs, left.type))
    if right is None or not right.type.is_shaped:
        scalar = value(rhs, _element(left))
        return op(f"pl.{level}.{name}s", left, scalar, results=[left.type])
    return op(f"pl.{level}.{name}", left, right, results=[_broadcast(left.type, right.type)])


def _scalar_binary(name: str, lhs: Value, rhs: Value) -> Var:
    kind = lhs.type
    table = _ARITH_FLOAT if kind.is_float else _ARITH_INT
    if name not in table:
        raise BuildError(f"no scalar form of {name} for {kind}")
    return op(table[name], lhs, rhs, results=[kind])


def compare(predicate: str, lhs: Operand, rhs: Operand) -> Var:
    """A scalar comparison (``arith.cmpi``/``cmpf``): ``eq ne lt le gt ge``."""
    left = _raw(lhs)
    if left is None:
        left = value(lhs, _raw(rhs).type if _raw(rhs) is not None else None)
    right = value(rhs, left.type)
    tracer = current()
    i64 = T.scalar("i64", tracer.context)
    if left.type.is_float:
        name, code = "arith.cmpf", _CMPF[predicate]
    else:
        name, code = "arith.cmpi", _CMPI[predicate]
    return op(name, left, right, results=["i1"], attributes={"predicate": Attribute.integer(code, i64)})


def eq(lhs: Operand, rhs: Operand) -> Var:
    return compare("eq", lhs, rhs)


def ne(lhs: Operand, rhs: Operand) -> Var:
    return compare("ne", lhs, rhs)


def floordiv(lhs: Operand, rhs: Operand) -> Var:
    left = value(lhs)
    if _level(left) != "scalar" or left.type.is_float:
        raise BuildError("// is integer division of scalars")
    return op("arith.floordivsi", left, value(rhs, left.type), results=[left.type])


def _named_unary(name: str):
    def emit(x: Operand) -> Var:
        return unary(name, x)

    emit.__name__ = name
    emit.__doc__ = f"Elementwise ``{name}`` of a tile (``pl.tile.{name}``) or tensor (``pl.tensor.{name}``)."
    return emit


def _named_binary(name: str):
    def emit(lhs: Operand, rhs: Operand) -> Var:
        return binary(name, lhs, rhs)

    emit.__name__ = name
    emit.__doc__ = (f"Elementwise ``{name}``: ``pl.tile.{name}``/``pl.tensor.{name}``, "
                    f"``{name}s`` with a scalar, ``arith`` for two scalars.")
    return emit


exp, log, sqrt, rsqrt, abs, neg, recip, relu, sin, cos = (
    _named_unary(n) for n in ("exp", "log", "sqrt", "rsqrt", "abs", "neg", "recip", "relu", "sin", "cos"))
add, sub, mul, div, maximum, minimum = (
    _named_binary(n) for n in ("add", "sub", "mul", "div", "maximum", "minimum"))


# -- memory ------------------------------------------------------------------


def load(tensor: Operand, offsets: Shape, shapes: Sequence[int], target_memory: Memory = "vec") -> Var:
    """``pl.tile.load``: the window of ``tensor`` at ``offsets`` with extents
    ``shapes`` into a tile in ``target_memory`` (``vec`` or ``mat``)."""
    source = value(tensor)
    if not source.type.is_shaped:
        raise BuildError(f"pl.load reads a tensor, not {source.type}")
    tracer = current()
    tile = T.tile(list(shapes), _element(source), target_memory, tracer.context)
    indices = _offsets(offsets)
    segments = Attribute.dense_i32_array([1, len(indices), 0], tracer.context)
    return op("pl.tile.load", source, *indices, results=[tile], attributes={"operandSegmentSizes": segments})


def store(tile: Operand, offsets: Shape, output: Operand) -> Var:
    """``pl.tile.store``: writes ``tile`` into ``output`` at ``offsets`` and
    returns the written tensor (use it from then on, as PyPTO does)."""
    source, destination = value(tile), value(output)
    return op("pl.tile.store", source, destination, *_offsets(offsets), results=[destination.type])


def create_tensor(shape: Shape, dtype: Union[DataType, str]) -> Var:
    """``pl.tensor.create``: a new tensor in global memory (a traced
    ``index`` in ``shape`` is a dynamic extent)."""
    tracer = current()
    extents = [None if isinstance(e, (Var, Value)) else int(e) for e in shape]
    sizes = [value(e) for e in shape if isinstance(e, (Var, Value))]
    kind = T.tensor(extents, dtype_of(dtype).mlir, tracer.context)
    return op("pl.tensor.create", *sizes, results=[kind])


def create_tile(shape: Sequence[int], dtype: Union[DataType, str], target_memory: Memory = "vec") -> Var:
    """``pl.tile.create``: an uninitialised tile (scratch, accumulators)."""
    tracer = current()
    return op("pl.tile.create", results=[T.tile(list(shape), dtype_of(dtype).mlir, target_memory, tracer.context)])


def full(shape: Sequence[int], dtype: Union[DataType, str], fill: Union[int, float]) -> Var:
    """``pl.tile.full``: a ``vec`` tile whose every element is ``fill``."""
    tracer = current()
    element = dtype_of(dtype)
    kind = T.tile(list(shape), element.mlir, "vec", tracer.context)
    return op("pl.tile.full", value(fill, element), results=[kind])


def move(tile: Operand, target_memory: str) -> Var:
    """``pl.tile.move`` into another memory space (``mat -> left``...)."""
    source = value(tile)
    kind = source.type
    return op("pl.tile.move", source,
              results=[T.tile(kind.shape, kind.element_type, target_memory, kind.context)])


def cast(x: Operand, dtype: Union[DataType, str], mode: str = "round") -> Var:
    """``pl.tile.cast``/``pl.tensor.cast`` to another element type."""
    source = value(x)
    level = _level(source)
    if level == "scalar":
        raise BuildError("pl.cast takes a tile or a tensor")
    if mode not in ROUND_MODES:
        raise BuildError(f"unknown rounding mode {mode!r} (one of {', '.join(ROUND_MODES)})")
    kind = source.type
    element = T.scalar(dtype_of(dtype).mlir, kind.context)
    i32 = T.scalar("i32", kind.context)
    return op(f"pl.{level}.cast", source, results=[_like(kind, kind.shape, element)],
              attributes={"mode": Attribute.integer(ROUND_MODES.index(mode), i32)})


# -- reductions and broadcasts ---------------------------------------------


def _reduce(kind: str, axis: str, x: Operand, tmp: Optional[Operand]) -> Var:
    source = value(x)
    level = _level(source)
    shape = source.type.shape
    result_shape = shape[:-1] + [1] if axis == "row" else shape[:-2] + [1, shape[-1]]
    result = _like(source.type, result_shape)
    operands: list[Value] = [source]
    if level == "tile" and axis == "row":
        # A tile row reduction takes a scratch tile of the input's type.
        operands.append(value(tmp) if tmp is not None else value(op("pl.tile.create", results=[source.type])))
    return op(f"pl.{level}.{axis}_{kind}", *operands, results=[result])


def row_sum(x: Operand, tmp: Optional[Operand] = None) -> Var:
    """Each row's sum: ``[..., R, C] -> [..., R, 1]`` (a tile takes a scratch
    tile; one is created when ``tmp`` is not given)."""
    return _reduce("sum", "row", x, tmp)


def row_max(x: Operand, tmp: Optional[Operand] = None) -> Var:
    """Each row's maximum: ``[..., R, C] -> [..., R, 1]``."""
    return _reduce("max", "row", x, tmp)


def row_min(x: Operand, tmp: Optional[Operand] = None) -> Var:
    """Each row's minimum: ``[..., R, C] -> [..., R, 1]``."""
    return _reduce("min", "row", x, tmp)


def col_sum(x: Operand) -> Var:
    """Each column's sum: ``[..., R, C] -> [..., 1, C]``."""
    return _reduce("sum", "col", x, None)


def col_max(x: Operand) -> Var:
    """Each column's maximum: ``[..., R, C] -> [..., 1, C]``."""
    return _reduce("max", "col", x, None)


def row_expand(kind: str, x: Operand, column: Operand) -> Var:
    """``pl.tile.row_expand_<kind>``: ``x`` combined with a ``[R, 1]``
    column broadcast along each row (``add sub mul div max min expdif``)."""
    source = value(x)
    return op(f"pl.{_level(source)}.row_expand_{kind}", source, value(column), results=[source.type])


def row_expand_sub(x: Operand, column: Operand) -> Var:
    return row_expand("sub", x, column)


def row_expand_div(x: Operand, column: Operand) -> Var:
    return row_expand("div", x, column)


def row_expand_mul(x: Operand, column: Operand) -> Var:
    return row_expand("mul", x, column)


# -- the cube ----------------------------------------------------------------


def matmul(lhs: Operand, rhs: Operand, out_dtype: Union[DataType, str, None] = None) -> Var:
    """``lhs x rhs``: a tile product into an ``acc`` tile (f32 for float
    operands, i32 for integers, unless ``out_dtype``), or a tensor product."""
    left, right = value(lhs), value(rhs)
    level = _level(left)
    if level == "scalar":
        raise BuildError("pl.matmul multiplies tiles or tensors")
    m, n = left.type.shape[-2], right.type.shape[-1]
    context = left.type.context
    if out_dtype is not None:
        element = T.scalar(dtype_of(out_dtype).mlir, context)
    elif level == "tile":
        element = T.scalar("f32" if left.type.element_type.is_float else "i32", context)
    else:
        element = left.type.element_type
    if level == "tile":
        result = T.tile([m, n], element, "acc", context)
    else:
        result = T.tensor(left.type.shape[:-2] + [m, n], element, context)
    return op(f"pl.{level}.matmul", left, right, results=[result])


def matmul_acc(acc: Operand, lhs: Operand, rhs: Operand, init: Optional[Operand] = None) -> Var:
    """``acc + lhs x rhs`` on tiles (``pl.tile.matmul_acc``); with ``init``
    true (an ``i1``, e.g. ``pl.eq(k, 0)``) the accumulator is overwritten."""
    accumulator = value(acc)
    operands = [accumulator, value(lhs), value(rhs)]
    if init is not None:
        operands.append(value(init, "i1"))
    return op("pl.tile.matmul_acc", *operands, results=[accumulator.type])
