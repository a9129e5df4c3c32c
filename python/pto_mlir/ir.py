"""Typed wrappers of MLIR's IR objects: types, attributes, values,
operations, blocks and regions.

Each wrapper holds its C handle and the :class:`Context` it lives in, so
the context outlives everything built in it. Only a module
(:mod:`pto_mlir.module`) and an operation created detached own their C
object; the others are views into IR that a module owns, as in MLIR.
"""

from __future__ import annotations

import sys
from typing import Iterator, Optional, Sequence, Union

from . import _capi as C
from .context import Context, default_context as _context
from .errors import BuildError, DiagnosticError
from .locations import Location


def _check_parsed(handle: object, collected: list, what: str, text: str) -> None:
    if C.is_null(handle):
        raise DiagnosticError(f"cannot parse {what} {text!r}", collected)


class Type:
    """An MLIR type (builtin or a dialect's, ``!pl.tile<...>`` included)."""

    def __init__(self, handle: C.MlirType, context: Context) -> None:
        if C.is_null(handle):
            raise ValueError("null type")
        self.handle = handle
        self.context = context

    @staticmethod
    def parse(text: str, context: Optional[Context] = None) -> "Type":
        """Parses ``text`` (``f32``, ``index``, ``!pl.tensor<64xf32>``)."""
        context = _context(context)
        ref, _buffer = C.string_ref(text)
        with context.diagnostics() as collected:
            handle = C.mlirTypeParseGet(context.handle, ref)
        _check_parsed(handle, collected, "the type", text)
        return Type(handle, context)

    def __str__(self) -> str:
        return C.printed(C.mlirTypePrint, self.handle)

    def __repr__(self) -> str:
        return f"Type({self})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Type) and bool(C.mlirTypeEqual(self.handle, other.handle))

    def __hash__(self) -> int:
        return hash(self.handle.ptr)  # types are uniqued: one pointer per type

    @property
    def is_shaped(self) -> bool:
        return bool(C.mlirTypeIsAShaped(self.handle))

    @property
    def is_tile(self) -> bool:
        return bool(C.plTypeIsATile(self.handle))

    @property
    def is_tensor(self) -> bool:
        """Whether this is a ``!pl.tensor`` (read from the printed form: the
        C API has no ``plTypeIsATensor``)."""
        return str(self).startswith("!pl.tensor<")

    @property
    def is_index(self) -> bool:
        return bool(C.mlirTypeIsAIndex(self.handle))

    @property
    def is_integer(self) -> bool:
        return bool(C.mlirTypeIsAInteger(self.handle))

    @property
    def is_float(self) -> bool:
        return bool(C.mlirTypeIsAFloat(self.handle))

    @property
    def shape(self) -> list[Optional[int]]:
        """The extents of a shaped type (pl tensors and tiles are); ``None``
        for a dynamic one."""
        if not (self.is_shaped and C.mlirShapedTypeHasRank(self.handle)):
            raise TypeError(f"{self} has no shape")
        rank = C.mlirShapedTypeGetRank(self.handle)
        return [
            None if C.mlirShapedTypeIsDynamicDim(self.handle, i) else C.mlirShapedTypeGetDimSize(self.handle, i)
            for i in range(rank)
        ]

    @property
    def element_type(self) -> "Type":
        if not self.is_shaped:
            raise TypeError(f"{self} has no element type")
        return Type(C.mlirShapedTypeGetElementType(self.handle), self.context)

    @property
    def memory_space(self) -> Optional[str]:
        """A tile's memory space name (``vec``, ``mat``...), or ``None``."""
        if not self.is_tile:
            raise TypeError(f"{self} is not a tile")
        from .types import MemorySpace

        code = C.plTileTypeGetMemorySpace(self.handle)
        return None if code < 0 else MemorySpace(code).name.lower()


class Attribute:
    """An MLIR attribute."""

    def __init__(self, handle: C.MlirAttribute, context: Context) -> None:
        if C.is_null(handle):
            raise ValueError("null attribute")
        self.handle = handle
        self.context = context

    @staticmethod
    def parse(text: str, context: Optional[Context] = None) -> "Attribute":
        """Parses ``text`` (``#pl.kind<aiv>``, ``array<i32: 1, 2>``, ``0 : index``)."""
        context = _context(context)
        ref, _buffer = C.string_ref(text)
        with context.diagnostics() as collected:
            handle = C.mlirAttributeParseGet(context.handle, ref)
        _check_parsed(handle, collected, "the attribute", text)
        return Attribute(handle, context)

    @staticmethod
    def string(text: str, context: Optional[Context] = None) -> "Attribute":
        context = _context(context)
        ref, _buffer = C.string_ref(text)
        return Attribute(C.mlirStringAttrGet(context.handle, ref), context)

    @staticmethod
    def symbol(name: str, context: Optional[Context] = None) -> "Attribute":
        """``@name``: a flat symbol reference (a callee)."""
        context = _context(context)
        ref, _buffer = C.string_ref(name)
        return Attribute(C.mlirFlatSymbolRefAttrGet(context.handle, ref), context)

    @staticmethod
    def type(value: Type) -> "Attribute":
        return Attribute(C.mlirTypeAttrGet(value.handle), value.context)

    @staticmethod
    def unit(context: Optional[Context] = None) -> "Attribute":
        context = _context(context)
        return Attribute(C.mlirUnitAttrGet(context.handle), context)

    @staticmethod
    def array(items: Sequence["Attribute"], context: Optional[Context] = None) -> "Attribute":
        context = _context(context)
        handles = C.array(C.MlirAttribute, [a.handle for a in items])
        return Attribute(C.mlirArrayAttrGet(context.handle, len(items), handles), context)

    @staticmethod
    def dictionary(entries: dict[str, "Attribute"], context: Optional[Context] = None) -> "Attribute":
        context = _context(context)
        named = C.array(C.MlirNamedAttribute, [named_attribute(k, v, context) for k, v in entries.items()])
        return Attribute(C.mlirDictionaryAttrGet(context.handle, len(entries), named), context)

    @staticmethod
    def integer(value: int, type: Type) -> "Attribute":
        return Attribute(C.mlirIntegerAttrGet(type.handle, value), type.context)

    @staticmethod
    def float(value: float, type: Type) -> "Attribute":
        return Attribute(C.mlirFloatAttrDoubleGet(type.context.handle, type.handle, value), type.context)

    @staticmethod
    def dense_i32_array(values: Sequence[int], context: Optional[Context] = None) -> "Attribute":
        context = _context(context)
        data = C.array(C.c_int32, list(values))
        return Attribute(C.mlirDenseI32ArrayGet(context.handle, len(values), data), context)

    @staticmethod
    def dense_i64_array(values: Sequence[int], context: Optional[Context] = None) -> "Attribute":
        context = _context(context)
        data = C.array(C.c_int64, list(values))
        return Attribute(C.mlirDenseI64ArrayGet(context.handle, len(values), data), context)

    @property
    def string_value(self) -> str:
        if not C.mlirAttributeIsAString(self.handle):
            raise TypeError(f"{self} is not a string attribute")
        return C.to_str(C.mlirStringAttrGetValue(self.handle))

    @property
    def type_value(self) -> Type:
        if not C.mlirAttributeIsAType(self.handle):
            raise TypeError(f"{self} is not a type attribute")
        return Type(C.mlirTypeAttrGetValue(self.handle), self.context)

    def __str__(self) -> str:
        return C.printed(C.mlirAttributePrint, self.handle)

    def __repr__(self) -> str:
        return f"Attribute({self})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Attribute) and bool(C.mlirAttributeEqual(self.handle, other.handle))

    def __hash__(self) -> int:
        return hash(self.handle.ptr)


def named_attribute(name: str, value: Attribute, context: Context) -> C.MlirNamedAttribute:
    ref, _buffer = C.string_ref(name)
    return C.mlirNamedAttributeGet(C.mlirIdentifierGet(context.handle, ref), value.handle)


def as_attribute(value: Union[Attribute, str], context: Context) -> Attribute:
    """An attribute, parsing text (``"#pl.kind<aiv>"``) when given text."""
    return value if isinstance(value, Attribute) else Attribute.parse(value, context)


def as_type(value: Union[Type, str], context: Context) -> Type:
    return value if isinstance(value, Type) else Type.parse(value, context)


class Value:
    """An SSA value: an op's result or a block's argument."""

    def __init__(self, handle: C.MlirValue, context: Context) -> None:
        self.handle = handle
        self.context = context

    @property
    def type(self) -> Type:
        return Type(C.mlirValueGetType(self.handle), self.context)

    @property
    def is_block_argument(self) -> bool:
        return bool(C.mlirValueIsABlockArgument(self.handle))

    @property
    def owner(self) -> Union["Operation", "Block"]:
        """The defining op, or the block of an argument."""
        if self.is_block_argument:
            return Block(C.mlirBlockArgumentGetOwner(self.handle), self.context)
        return Operation(C.mlirOpResultGetOwner(self.handle), self.context)

    @property
    def location(self) -> Location:
        return Location(C.mlirValueGetLocation(self.handle), self.context)

    def set_name(self, name: str) -> None:
        """Names a block argument (printed as ``%name``, read by pto-run's
        ``--input NAME=``)."""
        if not self.is_block_argument:
            raise BuildError("only block arguments take a name")
        C.mlirBlockArgumentSetLocation(self.handle, Location.name(name, self.location).handle)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Value) and self.handle.ptr == other.handle.ptr

    def __hash__(self) -> int:
        return hash(self.handle.ptr)

    def __str__(self) -> str:
        return C.printed(C.mlirValuePrint, self.handle).strip()

    def __repr__(self) -> str:
        return f"Value({self.type})"


class Block:
    """A block: arguments and a list of operations."""

    def __init__(self, handle: C.MlirBlock, context: Context) -> None:
        self.handle = handle
        self.context = context

    @property
    def arguments(self) -> list[Value]:
        return [
            Value(C.mlirBlockGetArgument(self.handle, i), self.context)
            for i in range(C.mlirBlockGetNumArguments(self.handle))
        ]

    @property
    def operations(self) -> Iterator["Operation"]:
        op = C.mlirBlockGetFirstOperation(self.handle)
        while not C.is_null(op):
            yield Operation(op, self.context)
            op = C.mlirOperationGetNextInBlock(op)

    @property
    def parent(self) -> Optional["Operation"]:
        op = C.mlirBlockGetParentOperation(self.handle)
        return None if C.is_null(op) else Operation(op, self.context)

    def append(self, op: "Operation") -> "Operation":
        """Moves a detached op to the end of this block (the block owns it)."""
        op._give_up_ownership()
        C.mlirBlockAppendOwnedOperation(self.handle, op.handle)
        return op

    def insert_before(self, reference: "Operation", op: "Operation") -> "Operation":
        op._give_up_ownership()
        C.mlirBlockInsertOwnedOperationBefore(self.handle, reference.handle, op.handle)
        return op

    def insert_after(self, reference: "Operation", op: "Operation") -> "Operation":
        op._give_up_ownership()
        C.mlirBlockInsertOwnedOperationAfter(self.handle, reference.handle, op.handle)
        return op

    @property
    def first_operation(self) -> Optional["Operation"]:
        op = C.mlirBlockGetFirstOperation(self.handle)
        return None if C.is_null(op) else Operation(op, self.context)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Block) and self.handle.ptr == other.handle.ptr

    def __hash__(self) -> int:
        return hash(self.handle.ptr)


class Region:
    """A region of an op: a list of blocks."""

    def __init__(self, handle: C.MlirRegion, context: Context) -> None:
        self.handle = handle
        self.context = context

    @property
    def blocks(self) -> list[Block]:
        found = []
        block = C.mlirRegionGetFirstBlock(self.handle)
        while not C.is_null(block):
            found.append(Block(block, self.context))
            block = C.mlirBlockGetNextInRegion(block)
        return found

    def append_block(self, argument_types: Sequence[Type] = (),
                     locations: Optional[Sequence[Location]] = None) -> Block:
        """Appends a new block with arguments of these types."""
        if locations is None:
            locations = [Location.caller(self.context)] * len(argument_types)
        types = C.array(C.MlirType, [t.handle for t in argument_types])
        locs = C.array(C.MlirLocation, [loc.handle for loc in locations])
        block = C.mlirBlockCreate(len(argument_types), types, locs)
        C.mlirRegionAppendOwnedBlock(self.handle, block)
        return Block(block, self.context)


class Operation:
    """An operation. Views into a module's IR, unless created detached, in
    which case it owns the op until a block takes it."""

    def __init__(self, handle: C.MlirOperation, context: Context, *, owned: bool = False) -> None:
        if C.is_null(handle):
            raise ValueError("null operation")
        self.handle = handle
        self.context = context
        self._owned = owned

    def _give_up_ownership(self) -> None:
        if not self._owned:
            raise BuildError(f"'{self.name}' already belongs to a block")
        self._owned = False

    @property
    def name(self) -> str:
        return C.identifier_str(C.mlirOperationGetName(self.handle))

    @property
    def location(self) -> Location:
        return Location(C.mlirOperationGetLocation(self.handle), self.context)

    @property
    def operands(self) -> list[Value]:
        return [
            Value(C.mlirOperationGetOperand(self.handle, i), self.context)
            for i in range(C.mlirOperationGetNumOperands(self.handle))
        ]

    @property
    def results(self) -> list[Value]:
        return [
            Value(C.mlirOperationGetResult(self.handle, i), self.context)
            for i in range(C.mlirOperationGetNumResults(self.handle))
        ]

    @property
    def result(self) -> Value:
        """The single result."""
        results = self.results
        if len(results) != 1:
            raise BuildError(f"'{self.name}' has {len(results)} results, not one")
        return results[0]

    @property
    def regions(self) -> list[Region]:
        return [
            Region(C.mlirOperationGetRegion(self.handle, i), self.context)
            for i in range(C.mlirOperationGetNumRegions(self.handle))
        ]

    @property
    def parent(self) -> Optional["Operation"]:
        op = C.mlirOperationGetParentOperation(self.handle)
        return None if C.is_null(op) else Operation(op, self.context)

    @property
    def block(self) -> Optional[Block]:
        block = C.mlirOperationGetBlock(self.handle)
        return None if C.is_null(block) else Block(block, self.context)

    def attribute(self, name: str) -> Optional[Attribute]:
        """The attribute ``name`` (inherent or discardable), or ``None``."""
        ref, _buffer = C.string_ref(name)
        handle = C.mlirOperationGetAttributeByName(self.handle, ref)
        return None if C.is_null(handle) else Attribute(handle, self.context)

    def set_attribute(self, name: str, value: Union[Attribute, str]) -> None:
        ref, _buffer = C.string_ref(name)
        C.mlirOperationSetAttributeByName(self.handle, ref, as_attribute(value, self.context).handle)

    @property
    def symbol_name(self) -> Optional[str]:
        attribute = self.attribute("sym_name")
        return None if attribute is None else attribute.string_value

    def walk(self) -> Iterator["Operation"]:
        """This op and every op nested in it, in pre-order."""
        yield self
        for region in self.regions:
            for block in region.blocks:
                for op in block.operations:
                    yield from op.walk()

    def verify(self) -> None:
        """Runs the verifiers (the project's included); raises
        :class:`DiagnosticError` with every diagnostic on failure."""
        with self.context.diagnostics() as collected:
            ok = C.mlirOperationVerify(self.handle)
        if not ok:
            raise DiagnosticError(f"'{self.name}' failed to verify", collected)

    def to_text(self, *, debug_info: bool = False, generic: bool = False) -> str:
        """The printed op. Function arguments that have source names print
        as ``%name``; ``debug_info`` adds every location."""
        flags = C.mlirOpPrintingFlagsCreate()
        try:
            C.mlirOpPrintingFlagsPrintNameLocAsPrefix(flags)
            if debug_info:
                C.mlirOpPrintingFlagsEnableDebugInfo(flags, True, False)
            if generic:
                C.mlirOpPrintingFlagsPrintGenericOpForm(flags)
            return C.printed(C.mlirOperationPrintWithFlags, self.handle, flags)
        finally:
            C.mlirOpPrintingFlagsDestroy(flags)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Operation({self.name})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Operation) and self.handle.ptr == other.handle.ptr

    def __hash__(self) -> int:
        return hash(self.handle.ptr)

    def __del__(self) -> None:
        if getattr(self, "_owned", False) and self.context.alive and not sys.is_finalizing():
            self._owned = False
            C.mlirOperationDestroy(self.handle)
