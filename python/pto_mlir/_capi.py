"""The ctypes layer: the two libraries and the C functions the package calls.

Private: the rest of the package wraps these in typed classes. Every MLIR
handle is a struct holding one pointer, passed by value; each gets its own
``ctypes.Structure`` so that ctypes refuses a value of the wrong kind
instead of passing it through. The libraries are loaded on first use (an
attribute access on this module), so ``import pto_mlir`` works without a
build and the error comes when something needs MLIR.
"""

from __future__ import annotations

import ctypes
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_bool,
    c_char_p,
    c_int,
    c_int8,
    c_int32,
    c_int64,
    c_size_t,
    c_ssize_t,
    c_uint,
    c_uint64,
    c_void_p,
)
from typing import Any

from . import _paths
from .errors import LibraryNotFoundError

intptr_t = c_ssize_t


def _handle(name: str) -> type[Structure]:
    return type(name, (Structure,), {"_fields_": [("ptr", c_void_p)]})


MlirContext = _handle("MlirContext")
MlirDialectRegistry = _handle("MlirDialectRegistry")
MlirDialect = _handle("MlirDialect")
MlirModule = _handle("MlirModule")
MlirOperation = _handle("MlirOperation")
MlirType = _handle("MlirType")
MlirAttribute = _handle("MlirAttribute")
MlirValue = _handle("MlirValue")
MlirBlock = _handle("MlirBlock")
MlirRegion = _handle("MlirRegion")
MlirLocation = _handle("MlirLocation")
MlirIdentifier = _handle("MlirIdentifier")
MlirPassManager = _handle("MlirPassManager")
MlirOpPassManager = _handle("MlirOpPassManager")
MlirOpPrintingFlags = _handle("MlirOpPrintingFlags")
MlirDiagnostic = _handle("MlirDiagnostic")


class MlirDialectHandle(Structure):
    _fields_ = [("ptr", c_void_p)]


class MlirStringRef(Structure):
    _fields_ = [("data", c_void_p), ("length", c_size_t)]


class MlirLogicalResult(Structure):
    _fields_ = [("value", c_int8)]


class MlirNamedAttribute(Structure):
    _fields_ = [("name", MlirIdentifier), ("attribute", MlirAttribute)]


class MlirOperationState(Structure):
    _fields_ = [
        ("name", MlirStringRef),
        ("location", MlirLocation),
        ("nResults", intptr_t),
        ("results", POINTER(MlirType)),
        ("nOperands", intptr_t),
        ("operands", POINTER(MlirValue)),
        ("nRegions", intptr_t),
        ("regions", POINTER(MlirRegion)),
        ("nSuccessors", intptr_t),
        ("successors", POINTER(MlirBlock)),
        ("nAttributes", intptr_t),
        ("attributes", POINTER(MlirNamedAttribute)),
        ("enableResultTypeInference", c_bool),
    ]


# void (*)(MlirStringRef, void *)
MlirStringCallback = CFUNCTYPE(None, MlirStringRef, c_void_p)
# MlirLogicalResult (*)(MlirDiagnostic, void *). ctypes callbacks cannot
# return structs; {int8_t} is returned in a register exactly like int8_t
# on the SysV x86-64 and AArch64 ABIs, and {void *} is passed like a
# pointer, so the callback is declared with the scalar types.
MlirDiagnosticHandler = CFUNCTYPE(c_int8, c_void_p, c_void_p)
MlirDeleteUserData = CFUNCTYPE(None, c_void_p)

S = MlirStringRef
Ctx = MlirContext
Op = MlirOperation
T = MlirType
A = MlirAttribute
V = MlirValue
B = MlirBlock
R = MlirRegion
L = MlirLocation

# name: (restype, argtypes); "pto" marks libpto_mlir.so.
_MLIR: dict[str, tuple[Any, list[Any]]] = {
    # context and dialects
    "mlirContextCreateWithThreading": (Ctx, [c_bool]),
    "mlirContextDestroy": (None, [Ctx]),
    "mlirContextAppendDialectRegistry": (None, [Ctx, MlirDialectRegistry]),
    "mlirContextLoadAllAvailableDialects": (None, [Ctx]),
    "mlirContextGetNumLoadedDialects": (intptr_t, [Ctx]),
    "mlirContextIsRegisteredOperation": (c_bool, [Ctx, S]),
    "mlirContextGetAllowUnregisteredDialects": (c_bool, [Ctx]),
    "mlirContextSetAllowUnregisteredDialects": (None, [Ctx, c_bool]),
    "mlirContextAttachDiagnosticHandler": (
        c_uint64, [Ctx, MlirDiagnosticHandler, c_void_p, c_void_p]),
    "mlirContextDetachDiagnosticHandler": (None, [Ctx, c_uint64]),
    "mlirDialectRegistryCreate": (MlirDialectRegistry, []),
    "mlirDialectRegistryDestroy": (None, [MlirDialectRegistry]),
    "mlirRegisterAllDialects": (None, [MlirDialectRegistry]),
    "mlirRegisterAllPasses": (None, []),
    # diagnostics
    "mlirDiagnosticPrint": (None, [MlirDiagnostic, MlirStringCallback, c_void_p]),
    "mlirDiagnosticGetLocation": (L, [MlirDiagnostic]),
    "mlirDiagnosticGetSeverity": (c_int, [MlirDiagnostic]),
    "mlirDiagnosticGetNumNotes": (intptr_t, [MlirDiagnostic]),
    "mlirDiagnosticGetNote": (MlirDiagnostic, [MlirDiagnostic, intptr_t]),
    "mlirEmitError": (None, [L, c_char_p]),
    # locations
    "mlirLocationUnknownGet": (L, [Ctx]),
    "mlirLocationFileLineColGet": (L, [Ctx, S, c_uint, c_uint]),
    "mlirLocationNameGet": (L, [Ctx, S, L]),
    "mlirLocationIsAFileLineColRange": (c_bool, [L]),
    "mlirLocationFileLineColRangeGetFilename": (MlirIdentifier, [L]),
    "mlirLocationFileLineColRangeGetStartLine": (c_int, [L]),
    "mlirLocationFileLineColRangeGetStartColumn": (c_int, [L]),
    "mlirLocationIsAName": (c_bool, [L]),
    "mlirLocationNameGetName": (MlirIdentifier, [L]),
    "mlirLocationNameGetChildLoc": (L, [L]),
    "mlirLocationIsACallSite": (c_bool, [L]),
    "mlirLocationCallSiteGetCallee": (L, [L]),
    "mlirLocationIsAFused": (c_bool, [L]),
    "mlirLocationFusedGetNumLocations": (c_uint, [L]),
    "mlirLocationFusedGetLocations": (None, [L, POINTER(L)]),
    "mlirLocationPrint": (None, [L, MlirStringCallback, c_void_p]),
    "mlirIdentifierGet": (MlirIdentifier, [Ctx, S]),
    "mlirIdentifierStr": (S, [MlirIdentifier]),
    # modules
    "mlirModuleCreateEmpty": (MlirModule, [L]),
    "mlirModuleCreateParse": (MlirModule, [Ctx, S]),
    "mlirModuleCreateParseFromFile": (MlirModule, [Ctx, S]),
    "mlirModuleDestroy": (None, [MlirModule]),
    "mlirModuleGetOperation": (Op, [MlirModule]),
    "mlirModuleGetBody": (B, [MlirModule]),
    "mlirModuleFromOperation": (MlirModule, [Op]),
    # operations
    "mlirOperationStateGet": (MlirOperationState, [S, L]),
    "mlirOperationStateAddResults": (None, [POINTER(MlirOperationState), intptr_t, POINTER(T)]),
    "mlirOperationStateAddOperands": (None, [POINTER(MlirOperationState), intptr_t, POINTER(V)]),
    "mlirOperationStateAddOwnedRegions": (None, [POINTER(MlirOperationState), intptr_t, POINTER(R)]),
    "mlirOperationStateAddAttributes": (
        None, [POINTER(MlirOperationState), intptr_t, POINTER(MlirNamedAttribute)]),
    "mlirOperationStateEnableResultTypeInference": (None, [POINTER(MlirOperationState)]),
    "mlirOperationCreate": (Op, [POINTER(MlirOperationState)]),
    "mlirOperationDestroy": (None, [Op]),
    "mlirOperationClone": (Op, [Op]),
    "mlirOperationVerify": (c_bool, [Op]),
    "mlirOperationGetName": (MlirIdentifier, [Op]),
    "mlirOperationGetContext": (Ctx, [Op]),
    "mlirOperationGetLocation": (L, [Op]),
    "mlirOperationGetBlock": (B, [Op]),
    "mlirOperationGetParentOperation": (Op, [Op]),
    "mlirOperationGetNextInBlock": (Op, [Op]),
    "mlirOperationGetNumRegions": (intptr_t, [Op]),
    "mlirOperationGetRegion": (R, [Op, intptr_t]),
    "mlirOperationGetNumOperands": (intptr_t, [Op]),
    "mlirOperationGetOperand": (V, [Op, intptr_t]),
    "mlirOperationGetNumResults": (intptr_t, [Op]),
    "mlirOperationGetResult": (V, [Op, intptr_t]),
    "mlirOperationGetAttributeByName": (A, [Op, S]),
    "mlirOperationSetAttributeByName": (None, [Op, S, A]),
    "mlirOperationRemoveAttributeByName": (c_bool, [Op, S]),
    "mlirOperationPrint": (None, [Op, MlirStringCallback, c_void_p]),
    "mlirOperationPrintWithFlags": (None, [Op, MlirOpPrintingFlags, MlirStringCallback, c_void_p]),
    "mlirOpPrintingFlagsCreate": (MlirOpPrintingFlags, []),
    "mlirOpPrintingFlagsDestroy": (None, [MlirOpPrintingFlags]),
    "mlirOpPrintingFlagsEnableDebugInfo": (None, [MlirOpPrintingFlags, c_bool, c_bool]),
    "mlirOpPrintingFlagsPrintGenericOpForm": (None, [MlirOpPrintingFlags]),
    "mlirOpPrintingFlagsPrintNameLocAsPrefix": (None, [MlirOpPrintingFlags]),
    # regions and blocks
    "mlirRegionCreate": (R, []),
    "mlirRegionGetFirstBlock": (B, [R]),
    "mlirRegionAppendOwnedBlock": (None, [R, B]),
    "mlirBlockGetNextInRegion": (B, [B]),
    "mlirBlockCreate": (B, [intptr_t, POINTER(T), POINTER(L)]),
    "mlirBlockGetParentOperation": (Op, [B]),
    "mlirBlockGetNumArguments": (intptr_t, [B]),
    "mlirBlockGetArgument": (V, [B, intptr_t]),
    "mlirBlockArgumentSetLocation": (None, [V, L]),
    "mlirBlockGetFirstOperation": (Op, [B]),
    "mlirBlockGetTerminator": (Op, [B]),
    "mlirBlockAppendOwnedOperation": (None, [B, Op]),
    "mlirBlockInsertOwnedOperationBefore": (None, [B, Op, Op]),
    "mlirBlockInsertOwnedOperationAfter": (None, [B, Op, Op]),
    # values
    "mlirValueGetType": (T, [V]),
    "mlirValueGetLocation": (L, [V]),
    "mlirValueIsABlockArgument": (c_bool, [V]),
    "mlirValueIsAOpResult": (c_bool, [V]),
    "mlirBlockArgumentGetArgNumber": (intptr_t, [V]),
    "mlirBlockArgumentGetOwner": (B, [V]),
    "mlirOpResultGetOwner": (Op, [V]),
    "mlirOpResultGetResultNumber": (intptr_t, [V]),
    "mlirValuePrint": (None, [V, MlirStringCallback, c_void_p]),
    # types
    "mlirTypeParseGet": (T, [Ctx, S]),
    "mlirTypeEqual": (c_bool, [T, T]),
    "mlirTypePrint": (None, [T, MlirStringCallback, c_void_p]),
    "mlirTypeGetContext": (Ctx, [T]),
    "mlirTypeIsAShaped": (c_bool, [T]),
    "mlirShapedTypeHasRank": (c_bool, [T]),
    "mlirShapedTypeGetRank": (c_int64, [T]),
    "mlirShapedTypeGetDimSize": (c_int64, [T, intptr_t]),
    "mlirShapedTypeIsDynamicDim": (c_bool, [T, intptr_t]),
    "mlirShapedTypeGetElementType": (T, [T]),
    "mlirShapedTypeGetDynamicSize": (c_int64, []),
    "mlirTypeIsAIndex": (c_bool, [T]),
    "mlirTypeIsAInteger": (c_bool, [T]),
    "mlirTypeIsAFloat": (c_bool, [T]),
    "mlirIndexTypeGet": (T, [Ctx]),
    "mlirFunctionTypeGet": (T, [Ctx, intptr_t, POINTER(T), intptr_t, POINTER(T)]),
    "mlirFunctionTypeGetNumInputs": (intptr_t, [T]),
    "mlirFunctionTypeGetInput": (T, [T, intptr_t]),
    "mlirFunctionTypeGetNumResults": (intptr_t, [T]),
    "mlirFunctionTypeGetResult": (T, [T, intptr_t]),
    # attributes
    "mlirAttributeParseGet": (A, [Ctx, S]),
    "mlirAttributeEqual": (c_bool, [A, A]),
    "mlirAttributePrint": (None, [A, MlirStringCallback, c_void_p]),
    "mlirAttributeGetNull": (A, []),
    "mlirNamedAttributeGet": (MlirNamedAttribute, [MlirIdentifier, A]),
    "mlirStringAttrGet": (A, [Ctx, S]),
    "mlirAttributeIsAString": (c_bool, [A]),
    "mlirStringAttrGetValue": (S, [A]),
    "mlirFlatSymbolRefAttrGet": (A, [Ctx, S]),
    "mlirTypeAttrGet": (A, [T]),
    "mlirAttributeIsAType": (c_bool, [A]),
    "mlirTypeAttrGetValue": (T, [A]),
    "mlirUnitAttrGet": (A, [Ctx]),
    "mlirArrayAttrGet": (A, [Ctx, intptr_t, POINTER(A)]),
    "mlirDictionaryAttrGet": (A, [Ctx, intptr_t, POINTER(MlirNamedAttribute)]),
    "mlirIntegerAttrGet": (A, [T, c_int64]),
    "mlirFloatAttrDoubleGet": (A, [Ctx, T, ctypes.c_double]),
    "mlirDenseI32ArrayGet": (A, [Ctx, intptr_t, POINTER(c_int32)]),
    "mlirDenseI64ArrayGet": (A, [Ctx, intptr_t, POINTER(c_int64)]),
    # passes
    "mlirPassManagerCreate": (MlirPassManager, [Ctx]),
    "mlirPassManagerDestroy": (None, [MlirPassManager]),
    "mlirPassManagerGetAsOpPassManager": (MlirOpPassManager, [MlirPassManager]),
    "mlirPassManagerRunOnOp": (MlirLogicalResult, [MlirPassManager, Op]),
    "mlirPassManagerEnableVerifier": (None, [MlirPassManager, c_bool]),
    "mlirOpPassManagerAddPipeline": (
        MlirLogicalResult, [MlirOpPassManager, S, MlirStringCallback, c_void_p]),
    "mlirParsePassPipeline": (
        MlirLogicalResult, [MlirOpPassManager, S, MlirStringCallback, c_void_p]),
    "mlirPrintPassPipeline": (None, [MlirOpPassManager, MlirStringCallback, c_void_p]),
}

_PTO: dict[str, tuple[Any, list[Any]]] = {
    "ptoRegisterDialects": (None, [MlirDialectRegistry]),
    "ptoRegisterPasses": (None, []),
    "plTileTypeGet": (T, [Ctx, intptr_t, POINTER(c_int64), T, c_int32]),
    "plTypeIsATile": (c_bool, [T]),
    "plTileTypeGetMemorySpace": (c_int32, [T]),
    "plTensorTypeGet": (T, [Ctx, intptr_t, POINTER(c_int64), T]),
    "pldDistributedTensorTypeGet": (T, [Ctx, intptr_t, POINTER(c_int64), T]),
    "pldCommCtxTypeGet": (T, [Ctx]),
}

_loaded: dict[str, Any] = {}


def _load() -> None:
    directory = _paths.library_dir()
    try:
        # libpto_mlir.so resolves the C API's symbols from libMLIR-C.so:
        # load that one first, into the global namespace.
        mlir = ctypes.CDLL(str(directory / "libMLIR-C.so"), mode=ctypes.RTLD_GLOBAL)
        pto = ctypes.CDLL(str(directory / "libpto_mlir.so"), mode=ctypes.RTLD_GLOBAL)
    except OSError as error:
        raise LibraryNotFoundError(f"cannot load the libraries in {directory}: {error}") from error
    for library, table in ((mlir, _MLIR), (pto, _PTO)):
        for name, (restype, argtypes) in table.items():
            try:
                function = getattr(library, name)
            except AttributeError as error:
                raise LibraryNotFoundError(
                    f"{library._name} does not export {name}: is it an older build?"
                ) from error
            function.restype = restype
            function.argtypes = argtypes
            _loaded[name] = function
    _loaded["library_dir"] = directory


def __getattr__(name: str) -> Any:
    """Loads the libraries on the first access to a C function."""
    if name.startswith("__"):
        raise AttributeError(name)
    if not _loaded:
        _load()
    try:
        return _loaded[name]
    except KeyError:
        raise AttributeError(f"the C function {name} is not declared in pto_mlir._capi") from None


# -- small conversions every wrapper needs ---------------------------------


def string_ref(text: str | bytes) -> tuple[MlirStringRef, bytes]:
    """A string ref over ``text`` and the buffer that must outlive the call."""
    data = text.encode() if isinstance(text, str) else text
    buffer = ctypes.create_string_buffer(data, len(data))
    return MlirStringRef(ctypes.cast(buffer, c_void_p), len(data)), buffer


def to_str(ref: MlirStringRef) -> str:
    """The Python string of a string ref (copied)."""
    if not ref.length:
        return ""
    return ctypes.string_at(ref.data, ref.length).decode(errors="replace")


def identifier_str(identifier: Any) -> str:
    return to_str(__getattr__("mlirIdentifierStr")(identifier))


class Printer:
    """Collects what a print callback writes.

    The ctypes callback object must stay alive while C calls it, so the
    printer holds it.
    """

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.callback = MlirStringCallback(self._append)

    def _append(self, ref: MlirStringRef, _user: Any) -> None:
        self.parts.append(to_str(ref))

    def text(self) -> str:
        return "".join(self.parts)


def printed(print_function: Any, handle: Any, *flags: Any) -> str:
    """What ``print_function(handle, [flags,] callback, NULL)`` writes."""
    printer = Printer()
    print_function(handle, *flags, printer.callback, None)
    return printer.text()


def array(kind: Any, items: list[Any]) -> Any:
    """A C array of ``kind`` holding ``items`` (NULL-safe for no items)."""
    return (kind * len(items))(*items)


def is_null(handle: Any) -> bool:
    return not handle.ptr
