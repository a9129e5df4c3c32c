"""Typed wrappers of MLIR's IR objects: types, attributes, values,
operations, blocks and regions.

Types and attributes belong to their :class:`Context` and hold it. The
other wrappers are views into IR that something owns: a module
(:mod:`pto_mlir.module`), or an op created detached until a block takes
it. Each view holds that owner (an :class:`IROwner`), and every accessor
hands it on to the views it returns, so an op looked up in a module keeps
the module alive, as in MLIR's own bindings.

Before every call into C a wrapper checks that its context is still open
(:class:`~pto_mlir.errors.ClosedContextError` otherwise) and, for views,
that the IR they point into can still be there: a pass pipeline run on the
module may erase any op in it, so views looked up before the run raise
:class:`~pto_mlir.errors.StaleObjectError` (the module, its operation and
its body stay valid). A wrapper therefore raises instead of reading freed
memory.
"""

from __future__ import annotations

import sys
from typing import Callable, Iterable, Iterator, Optional, Sequence, Union

from . import _capi as C
from .context import Context, default_context as _context
from .errors import BuildError, ClosedContextError, DiagnosticError, PtoMlirError, StaleObjectError
from .locations import Location


def _check_parsed(handle: object, collected: list, what: str, text: str) -> None:
    if C.is_null(handle):
        raise DiagnosticError(f"cannot parse {what} {text!r}", collected)


def _same_context(item: object, context: Context, what: str) -> None:
    """Refuses an object of another context: MLIR would store a pointer into
    a context that may be destroyed first."""
    if getattr(item, "context", context) is not context:
        raise BuildError(f"{what} belongs to another context")


def _safe_repr(kind: str, describe: "Callable[[], str]") -> str:
    """``kind(description)``, or ``kind(<why not>)`` when the object can no
    longer be read (a closed context, stale IR): a repr never raises."""
    try:
        return f"{kind}({describe()})"
    except ClosedContextError:
        return f"{kind}(<closed context>)"
    except PtoMlirError:
        return f"{kind}(<stale>)"


class IROwner:
    """What keeps a piece of IR alive: a module, or an op created detached.

    ``parent`` is the owner a detached op was given to when a block took
    it (the root of the block's owner); ``keep`` holds the owners whose
    values its ops use, so that they outlive it. ``generation`` counts the
    pass pipelines run on a module; ``joined`` is the root's generation
    when an op joined it, so that :meth:`stamp` is unchanged by joining
    and changes with every later pipeline.
    """

    _release_rank = 1

    def __init__(self, context: Context) -> None:
        self.context = context
        self.parent: Optional[IROwner] = None
        self.joined = 0
        self.generation = 0
        self.keep: set[IROwner] = set()
        self.destroyed = False
        context._track(self)

    def root(self) -> "IROwner":
        owner = self
        while owner.parent is not None:
            owner = owner.parent
        return owner

    def stamp(self) -> int:
        """Changes whenever a pass pipeline runs on the IR this owner is in."""
        total = 0
        owner = self
        while owner.parent is not None:
            total -= owner.joined
            owner = owner.parent
        return total + owner.generation

    def check(self) -> None:
        """Raises unless the IR is still there (its context open, its owner
        not destroyed)."""
        self.context.check_alive()
        if self.root().destroyed:
            raise StaleObjectError("the IR this object points into was destroyed")

    def invalidate(self) -> None:
        """Marks every view looked up so far stale (a pass pipeline ran)."""
        self.generation += 1

    def _can_release(self) -> bool:
        """Whether destroying the C object is safe: the context is open and
        every owner whose values it uses still exists (a garbage cycle
        finalizes in any order; then the IR is left to the context)."""
        return (not self.destroyed and self.context.alive and not sys.is_finalizing()
                and not any(k.root().destroyed for k in self.keep))

    def _release(self) -> None:
        raise NotImplementedError

    def __del__(self) -> None:
        try:
            self._release()
        except Exception:  # never raise from a finalizer
            pass


class DetachedOp(IROwner):
    """The owner of an op created detached (``Builder.create(insert=False)``):
    destroys it when the last view of its IR goes, unless a block took it."""

    _release_rank = 0  # before modules: it may use their values

    def __init__(self, handle: C.MlirOperation, context: Context, keep: Iterable[IROwner] = ()) -> None:
        super().__init__(context)
        self.op = handle
        self.owned = True
        self.keep = set(keep)

    def _release(self) -> None:
        if self.owned and self._can_release():
            self.destroyed = True
            C.mlirOperationDestroy(self.op)

    def give_to(self, target: IROwner) -> None:
        """A block of ``target``'s IR took the op: it is ``target``'s now."""
        self.owned = False
        self.joined = target.stamp()
        self.parent = target
        self.context._untrack(self)  # the block's owner destroys it now
        target.keep = {k for k in target.keep | self.keep if k.root() is not target}


class _View:
    """A view into IR that an :class:`IROwner` owns: its handle, the owner
    and the owner's stamp when it was looked up."""

    _kind = "IR object"

    def __init__(self, handle: object, owner: IROwner, *, pinned: bool = False) -> None:
        if not isinstance(owner, IROwner):
            raise TypeError(f"a {type(self).__name__} is made from its owner (an IROwner), not {owner!r}")
        self._handle = handle
        self._owner = owner
        # A pinned view (a module's operation and body) survives passes.
        self._stamp: Optional[int] = None if pinned else owner.stamp()

    @property
    def context(self) -> Context:
        return self._owner.context

    @property
    def handle(self):
        """The C handle, after checking that the IR is still there."""
        self._owner.check()
        if self._stamp is not None and self._stamp != self._owner.stamp():
            raise StaleObjectError(
                f"this {self._kind} was looked up before a pass pipeline ran on its module, which may "
                "have erased it: look it up again")
        return self._handle

    def check(self) -> None:
        """Raises :class:`~pto_mlir.errors.ClosedContextError` or
        :class:`~pto_mlir.errors.StaleObjectError` when the object can no
        longer be used."""
        self.handle

    @property
    def valid(self) -> bool:
        """Whether the object can still be used (see :meth:`check`)."""
        try:
            self.check()
        except PtoMlirError:
            return False
        return True

    def _view(self, kind: type, handle: object) -> object:
        """A view of ``handle`` under the same owner."""
        return kind(handle, self._owner)


class _ContextObject:
    """A type or an attribute: uniqued in, and owned by, its context."""

    def __init__(self, handle: object, context: Context) -> None:
        if C.is_null(handle):
            raise ValueError(f"null {type(self).__name__.lower()}")
        self._handle = handle
        self.context = context

    @property
    def handle(self):
        self.context.check_alive()
        return self._handle

    def __eq__(self, other: object) -> bool:
        # Uniqued: equal objects of a context are one pointer (what
        # mlirTypeEqual and mlirAttributeEqual compare).
        return (type(other) is type(self) and other.context is self.context
                and other._handle.ptr == self._handle.ptr)

    def __hash__(self) -> int:
        return hash(self._handle.ptr)

    def __repr__(self) -> str:
        return _safe_repr(type(self).__name__, lambda: str(self))


class Type(_ContextObject):
    """An MLIR type (builtin or a dialect's, ``!pl.tile<...>`` included)."""

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


class Attribute(_ContextObject):
    """An MLIR attribute."""

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
        for item in items:
            _same_context(item, context, "an item of the array")
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


def named_attribute(name: str, value: Attribute, context: Context) -> C.MlirNamedAttribute:
    _same_context(value, context, f"the attribute {name!r}")
    ref, _buffer = C.string_ref(name)
    return C.mlirNamedAttributeGet(C.mlirIdentifierGet(context.handle, ref), value.handle)


def as_attribute(value: Union[Attribute, str], context: Context) -> Attribute:
    """An attribute, parsing text (``"#pl.kind<aiv>"``) when given text."""
    if isinstance(value, Attribute):
        _same_context(value, context, "the attribute")
        return value
    return Attribute.parse(value, context)


def as_type(value: Union[Type, str], context: Context) -> Type:
    if isinstance(value, Type):
        _same_context(value, context, "the type")
        return value
    return Type.parse(value, context)


class Value(_View):
    """An SSA value: an op's result or a block's argument."""

    _kind = "value"

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
            return self._view(Block, C.mlirBlockArgumentGetOwner(self.handle))
        return self._view(Operation, C.mlirOpResultGetOwner(self.handle))

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
        return isinstance(other, Value) and self._handle.ptr == other._handle.ptr

    def __hash__(self) -> int:
        return hash(self._handle.ptr)

    def __str__(self) -> str:
        return C.printed(C.mlirValuePrint, self.handle).strip()

    def __repr__(self) -> str:
        return _safe_repr("Value", lambda: str(self.type))


class Block(_View):
    """A block: arguments and a list of operations."""

    _kind = "block"

    @property
    def arguments(self) -> list[Value]:
        handle = self.handle
        return [self._view(Value, C.mlirBlockGetArgument(handle, i))
                for i in range(C.mlirBlockGetNumArguments(handle))]

    @property
    def operations(self) -> Iterator["Operation"]:
        op = C.mlirBlockGetFirstOperation(self.handle)
        while not C.is_null(op):
            current = self._view(Operation, op)
            yield current
            # Checked again: the block may have changed while the caller
            # held the generator.
            op = C.mlirOperationGetNextInBlock(current.handle)

    @property
    def parent(self) -> Optional["Operation"]:
        op = C.mlirBlockGetParentOperation(self.handle)
        return None if C.is_null(op) else self._view(Operation, op)

    def _take(self, op: "Operation", verb: str) -> DetachedOp:
        """Checks that ``op`` is a detached op this block may take, and
        returns its owner."""
        if not isinstance(op, Operation):
            raise BuildError(f"a block takes an Operation, not a {type(op).__name__}")
        if op.context is not self.context:
            raise BuildError(f"'{op.name}' belongs to another context than the block")
        record = op._owner
        if not (isinstance(record, DetachedOp) and record.owned and record.op.ptr == op._handle.ptr):
            raise BuildError(f"'{op.name}' already belongs to a block")
        parent = C.mlirBlockGetParentOperation(self.handle)
        while not C.is_null(parent):
            if parent.ptr == op.handle.ptr:
                raise BuildError(f"'{op.name}' cannot be {verb} a block nested in itself")
            parent = C.mlirOperationGetParentOperation(parent)
        return record

    def _adopted(self, record: DetachedOp) -> None:
        record.give_to(self._owner.root())

    def _check_reference(self, reference: "Operation") -> C.MlirOperation:
        handle = reference.handle
        if C.mlirOperationGetBlock(handle).ptr != self.handle.ptr:
            raise BuildError(f"'{reference.name}' is not in this block")
        return handle

    def append(self, op: "Operation") -> "Operation":
        """Moves a detached op to the end of this block (the block owns it)."""
        record = self._take(op, "appended to")
        C.mlirBlockAppendOwnedOperation(self.handle, op.handle)
        self._adopted(record)
        return op

    def insert_before(self, reference: "Operation", op: "Operation") -> "Operation":
        record = self._take(op, "inserted into")
        C.mlirBlockInsertOwnedOperationBefore(self.handle, self._check_reference(reference), op.handle)
        self._adopted(record)
        return op

    def insert_after(self, reference: "Operation", op: "Operation") -> "Operation":
        record = self._take(op, "inserted into")
        C.mlirBlockInsertOwnedOperationAfter(self.handle, self._check_reference(reference), op.handle)
        self._adopted(record)
        return op

    @property
    def first_operation(self) -> Optional["Operation"]:
        op = C.mlirBlockGetFirstOperation(self.handle)
        return None if C.is_null(op) else self._view(Operation, op)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Block) and self._handle.ptr == other._handle.ptr

    def __hash__(self) -> int:
        return hash(self._handle.ptr)


class Region(_View):
    """A region of an op: a list of blocks."""

    _kind = "region"

    @property
    def blocks(self) -> list[Block]:
        found = []
        block = C.mlirRegionGetFirstBlock(self.handle)
        while not C.is_null(block):
            found.append(self._view(Block, block))
            block = C.mlirBlockGetNextInRegion(block)
        return found

    def append_block(self, argument_types: Sequence[Type] = (),
                     locations: Optional[Sequence[Location]] = None) -> Block:
        """Appends a new block with arguments of these types."""
        region = self.handle
        if locations is None:
            locations = [Location.caller(self.context)] * len(argument_types)
        if len(locations) != len(argument_types):
            raise BuildError(f"{len(argument_types)} argument types but {len(locations)} locations")
        for item in [*argument_types, *locations]:
            _same_context(item, self.context, "an argument's type or location")
        types = C.array(C.MlirType, [t.handle for t in argument_types])
        locs = C.array(C.MlirLocation, [loc.handle for loc in locations])
        block = C.mlirBlockCreate(len(argument_types), types, locs)
        C.mlirRegionAppendOwnedBlock(region, block)
        return self._view(Block, block)


class Operation(_View):
    """An operation: a view into IR that a module owns, or an op created
    detached, which owns itself until a block takes it. Either way the
    view keeps its owner alive."""

    _kind = "operation"

    def __init__(self, handle: C.MlirOperation, owner: IROwner, *, pinned: bool = False) -> None:
        if C.is_null(handle):
            raise ValueError("null operation")
        super().__init__(handle, owner, pinned=pinned)

    @staticmethod
    def _detached(handle: C.MlirOperation, context: Context, uses: Iterable[IROwner] = ()) -> "Operation":
        """The view of a new detached op, which it owns until a block takes
        it; ``uses`` are the owners of its operands (kept alive)."""
        return Operation(handle, DetachedOp(handle, context, uses))

    @property
    def is_detached(self) -> bool:
        """Whether the op is in no block yet (created with ``insert=False``)."""
        record = self._owner
        return isinstance(record, DetachedOp) and record.owned and record.op.ptr == self._handle.ptr

    @property
    def name(self) -> str:
        return C.identifier_str(C.mlirOperationGetName(self.handle))

    @property
    def location(self) -> Location:
        return Location(C.mlirOperationGetLocation(self.handle), self.context)

    @property
    def operands(self) -> list[Value]:
        handle = self.handle
        return [self._view(Value, C.mlirOperationGetOperand(handle, i))
                for i in range(C.mlirOperationGetNumOperands(handle))]

    @property
    def results(self) -> list[Value]:
        handle = self.handle
        return [self._view(Value, C.mlirOperationGetResult(handle, i))
                for i in range(C.mlirOperationGetNumResults(handle))]

    @property
    def result(self) -> Value:
        """The single result."""
        results = self.results
        if len(results) != 1:
            raise BuildError(f"'{self.name}' has {len(results)} results, not one")
        return results[0]

    @property
    def regions(self) -> list[Region]:
        handle = self.handle
        return [self._view(Region, C.mlirOperationGetRegion(handle, i))
                for i in range(C.mlirOperationGetNumRegions(handle))]

    @property
    def parent(self) -> Optional["Operation"]:
        op = C.mlirOperationGetParentOperation(self.handle)
        return None if C.is_null(op) else self._view(Operation, op)

    @property
    def block(self) -> Optional[Block]:
        block = C.mlirOperationGetBlock(self.handle)
        return None if C.is_null(block) else self._view(Block, block)

    def attribute(self, name: str) -> Optional[Attribute]:
        """The attribute ``name`` (inherent or discardable), or ``None``."""
        ref, _buffer = C.string_ref(name)
        handle = C.mlirOperationGetAttributeByName(self.handle, ref)
        return None if C.is_null(handle) else Attribute(handle, self.context)

    def set_attribute(self, name: str, value: Union[Attribute, str]) -> None:
        handle = self.handle
        attribute = as_attribute(value, self.context).handle
        ref, _buffer = C.string_ref(name)
        C.mlirOperationSetAttributeByName(handle, ref, attribute)

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
        handle = self.handle
        with self.context.diagnostics() as collected:
            ok = C.mlirOperationVerify(handle)
        if not ok:
            raise DiagnosticError(f"'{self.name}' failed to verify", collected)

    def to_text(self, *, debug_info: bool = False, generic: bool = False) -> str:
        """The printed op. Function arguments that have source names print
        as ``%name``; ``debug_info`` adds every location."""
        handle = self.handle
        flags = C.mlirOpPrintingFlagsCreate()
        try:
            C.mlirOpPrintingFlagsPrintNameLocAsPrefix(flags)
            if debug_info:
                C.mlirOpPrintingFlagsEnableDebugInfo(flags, True, False)
            if generic:
                C.mlirOpPrintingFlagsPrintGenericOpForm(flags)
            return C.printed(C.mlirOperationPrintWithFlags, handle, flags)
        finally:
            C.mlirOpPrintingFlagsDestroy(flags)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return _safe_repr("Operation", lambda: self.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Operation) and self._handle.ptr == other._handle.ptr

    def __hash__(self) -> int:
        return hash(self._handle.ptr)
