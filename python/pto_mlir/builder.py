"""Building IR through MLIR's generic operation API.

Any registered op can be built by name with operands, result types,
attributes and regions (``mlirOperationStateGet`` / ``mlirOperationCreate``),
so the builder does not need a wrapper per op and stays in step with the
ODS. Each op gets the location of the Python line that asked for it, so a
verifier's diagnostic points at the user's source.
"""

from __future__ import annotations

import ctypes
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Mapping, Optional, Sequence, Union

from . import _capi as C
from .context import Context
from .errors import BuildError, Diagnostic, DiagnosticError
from .context import default_context
from .ir import Attribute, Block, Operation, Type, Value, as_attribute, as_type, named_attribute
from .locations import Location
from .module import Module
from . import types as T

AttributeLike = Union[Attribute, str]
TypeLike = Union[Type, str]


@dataclass
class Argument:
    """A function parameter: its name, type and argument attributes."""

    name: str
    type: TypeLike
    attributes: Optional[Mapping[str, AttributeLike]] = None


@dataclass
class Function:
    """A ``func.func`` being built: the op, its entry block, its arguments."""

    op: Operation
    entry: Block
    arguments: list[Value]

    @property
    def name(self) -> str:
        return self.op.symbol_name or ""


class Builder:
    """Creates ops at an insertion point: the end of a block."""

    def __init__(self, context: Optional[Context] = None, block: Optional[Block] = None) -> None:
        self.context = default_context(context if block is None else block.context)
        self._blocks: list[Block] = [block] if block is not None else []

    @staticmethod
    def for_module(module: Module) -> "Builder":
        """A builder appending to ``module``'s body."""
        return Builder(module.context, module.body)

    @property
    def block(self) -> Block:
        """The block new ops are appended to."""
        if not self._blocks:
            raise BuildError("the builder has no insertion point (use builder.at(block))")
        return self._blocks[-1]

    @contextmanager
    def at(self, block: Block) -> Iterator[Block]:
        """Appends to ``block`` inside the ``with``, then returns to the
        previous insertion point."""
        self._blocks.append(block)
        try:
            yield block
        finally:
            self._blocks.pop()

    def push(self, block: Block) -> None:
        """Makes ``block`` the insertion point until :meth:`pop` (for
        builders whose scope is not a ``with``, such as a loop iterator)."""
        self._blocks.append(block)

    def pop(self) -> Block:
        return self._blocks.pop()

    def location(self, location: Optional[Location] = None) -> Location:
        return location if location is not None else Location.caller(self.context)

    def create(
        self,
        name: str,
        operands: Sequence[Value] = (),
        results: Optional[Sequence[TypeLike]] = (),
        attributes: Optional[Mapping[str, AttributeLike]] = None,
        regions: int = 0,
        location: Optional[Location] = None,
        insert: bool = True,
        before: Optional[Operation] = None,
    ) -> Operation:
        """Creates op ``name`` and appends it at the insertion point.

        ``results=None`` asks the op to infer its result types (ops with
        ``InferTypeOpInterface``). Attribute values may be text, parsed in
        this context. ``regions`` empty regions are added; fill them with
        ``op.regions[i].append_block(...)``. With ``before`` the op goes
        before that op (in its block); with ``insert=False`` nowhere (the
        caller owns it).
        """
        context = self.context
        if not context.is_registered_operation(name) and not context.allow_unregistered:
            raise BuildError(f"'{name}' is not an operation of a registered dialect")
        for i, operand in enumerate(operands):
            if not isinstance(operand, Value):
                raise BuildError(f"operand #{i} of '{name}' is a {type(operand).__name__}, not a Value")
            if operand.context is not context:
                raise BuildError(f"operand #{i} of '{name}' belongs to another context")
        target = self.block if insert and before is None else None
        if before is not None:
            if before.context is not context:
                raise BuildError(f"'{before.name}' belongs to another context than the builder")
            target = before.block
            if target is None:
                raise BuildError(f"'{before.name}' is in no block: nothing can go before it")
        if target is not None and target.context is not context:
            raise BuildError("the insertion block belongs to another context than the builder")
        location = self.location(location)
        if location.context is not context:
            raise BuildError(f"the location of '{name}' belongs to another context")
        # Everything that may raise comes before the C state exists: the
        # state owns malloc'd arrays and regions that only
        # mlirOperationCreate releases. That includes the handles, which
        # raise when their context was closed or their IR may be gone.
        result_types = None if results is None else [as_type(r, context) for r in results]
        result_handles = [] if result_types is None else [t.handle for t in result_types]
        named = [named_attribute(k, as_attribute(v, context), context) for k, v in (attributes or {}).items()]
        operand_handles = [v.handle for v in operands]
        location_handle = location.handle
        if target is not None:
            target.check()
        name_ref, _name_buffer = C.string_ref(name)
        state = C.mlirOperationStateGet(name_ref, location_handle)
        pointer = ctypes.byref(state)
        if result_types is None:
            C.mlirOperationStateEnableResultTypeInference(pointer)
        elif result_types:
            C.mlirOperationStateAddResults(pointer, len(result_types), C.array(C.MlirType, result_handles))
        if operands:
            C.mlirOperationStateAddOperands(
                pointer, len(operands), C.array(C.MlirValue, operand_handles))
        if regions:
            owned = [C.mlirRegionCreate() for _ in range(regions)]
            C.mlirOperationStateAddOwnedRegions(pointer, regions, C.array(C.MlirRegion, owned))
        if named:
            C.mlirOperationStateAddAttributes(pointer, len(named), C.array(C.MlirNamedAttribute, named))
        with context.diagnostics() as collected:
            handle = C.mlirOperationCreate(pointer)
        if C.is_null(handle):
            if not collected:  # inference fails without a word
                file, line, column = location.file_line_col
                collected.append(Diagnostic("error", f"cannot infer the result types of '{name}'",
                                            file, line, column, str(location)))
            raise DiagnosticError(f"cannot create '{name}'", collected)
        # The op owns itself (and keeps the IR whose values it uses alive)
        # until a block takes it.
        op = Operation._detached(handle, context, {v._owner for v in operands})
        if before is not None:
            target.insert_before(before, op)
        elif target is not None:
            target.append(op)
        return op

    # -- conveniences over `create` ---------------------------------------

    def constant(self, value: Union[int, float, bool], type: TypeLike = "index",
                 location: Optional[Location] = None) -> Value:
        """``arith.constant``."""
        result_type = as_type(type, self.context)
        if isinstance(value, bool) or result_type.is_integer or result_type.is_index:
            attribute = Attribute.integer(int(value), result_type)
        else:
            attribute = Attribute.float(float(value), result_type)
        return self.create("arith.constant", results=[result_type],
                           attributes={"value": attribute}, location=location).result

    def function(
        self,
        name: str,
        arguments: Sequence[Union[Argument, tuple]],
        results: Sequence[TypeLike] = (),
        attributes: Optional[Mapping[str, AttributeLike]] = None,
        location: Optional[Location] = None,
        before: Optional[Operation] = None,
        argument_locations: Optional[Sequence[Location]] = None,
    ) -> Function:
        """A ``func.func`` with an entry block whose arguments carry their
        names (``%name`` when printed); build its body with
        ``builder.at(function.entry)`` and end it with :meth:`return_`.
        Arguments are located at ``argument_locations`` (default: the
        function's location)."""
        context = self.context
        location = self.location(location)
        parameters = [a if isinstance(a, Argument) else Argument(*a) for a in arguments]
        input_types = [as_type(p.type, context) for p in parameters]
        result_types = [as_type(r, context) for r in results]
        inherent: dict[str, AttributeLike] = {
            "sym_name": Attribute.string(name, context),
            "function_type": Attribute.type(T.function(input_types, result_types, context)),
        }
        if any(p.attributes for p in parameters):
            inherent["arg_attrs"] = Attribute.array(
                [
                    Attribute.dictionary({k: as_attribute(v, context) for k, v in (p.attributes or {}).items()},
                                         context)
                    for p in parameters
                ],
                context,
            )
        inherent.update(attributes or {})
        op = self.create("func.func", attributes=inherent, regions=1, location=location, before=before)
        places = list(argument_locations) if argument_locations is not None else [location] * len(parameters)
        names = [Location.name(p.name, place) for p, place in zip(parameters, places)]
        entry = op.regions[0].append_block(input_types, names)
        return Function(op, entry, entry.arguments)

    def return_(self, values: Sequence[Value] = (), location: Optional[Location] = None) -> Operation:
        """``func.return``."""
        return self.create("func.return", operands=list(values), location=location)
