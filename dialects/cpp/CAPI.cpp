//===- CAPI.cpp - C entry points of the dialect glue ----------------------===//
//
// Internal C ABI between the C++ glue and the Rust crate. Every function
// here is one line of unwrap / call / wrap. The public C API (include/pto-c)
// is defined in Rust on top of these, so that it is exported from the shared
// library.
//
//===----------------------------------------------------------------------===//

#include "Dialects.h"

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;

namespace {
/// Type getters load their dialect first: building a type of a registered
/// but unloaded dialect would abort inside MLIR.
template <typename DialectT> MLIRContext *loaded(MlirContext ctx) {
  unwrap(ctx)->getOrLoadDialect<DialectT>();
  return unwrap(ctx);
}
} // namespace

namespace {

/// Reads an enum code into `value`: < 0 is "none"; an unknown code is an
/// error at `loc`.
template <typename Enum, typename Symbolize>
bool readCode(Location loc, StringRef what, int32_t code, Symbolize symbolize,
              std::optional<Enum> &value) {
  value = std::nullopt;
  if (code < 0)
    return true;
  value = symbolize(static_cast<uint32_t>(code));
  if (!value)
    emitError(loc) << "unknown " << what << " code " << code;
  return value.has_value();
}

/// Whether `count` entries at `data` can be read (a null pointer only for
/// none).
bool readable(Location loc, StringRef what, intptr_t count,
              const int64_t *data) {
  if (count == 0 || (count > 0 && data))
    return true;
  emitError(loc) << what << ": " << count << " entries at "
                 << (data ? "an address" : "a null pointer");
  return false;
}

/// The parameterless types, in the order of their C API codes
/// (include/pto-c/Dialects.h): one list for both directions.
template <typename... Types> struct UnitTypeList {
  static Type get(MLIRContext *context, int32_t code) {
    int32_t index = 0;
    Type found;
    ((index++ == code ? (void)(found = Types::get(context)) : (void)0), ...);
    return found;
  }
  static int32_t codeOf(Type type) {
    int32_t index = 0, code = -1;
    ((code < 0 && isa<Types>(type) ? (void)(code = index) : (void)0, ++index),
     ...);
    return code;
  }
};
using UnitTypes =
    UnitTypeList<pto::pl::TaskIdType, pto::pl::PtrType,
                 pto::pl::PrefetchContextType, pto::pl::AsyncEventType,
                 pto::pl::AsyncSessionType, pto::pl::HiFloat8Type,
                 pto::pl::HiFloat4Type, pto::pld::CommCtxType,
                 pto::pld::WindowBufferType>;

} // namespace

extern "C" {

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(PL, pto_glue_pl, pto::pl::PLDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(PLD, pto_glue_pld, pto::pld::PLDDialect)

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

MlirType ptoGlue_plTensorTypeGet(MlirContext ctx, intptr_t rank,
                                 const int64_t *shape, MlirType elementType) {
  return wrap(pto::pl::TensorType::getCanonical(loaded<pto::pl::PLDialect>(ctx), ArrayRef(shape, rank),
                                       unwrap(elementType)));
}

/// The view of a tensor: layout and pad codes (-1: default), and how many
/// strides and valid extents it stores (0: default).
void ptoGlue_plTensorTypeGetView(MlirType type, int32_t *layout, int32_t *pad,
                                 intptr_t *numStrides, intptr_t *numValid) {
  auto tensor = cast<pto::pl::TensorType>(unwrap(type));
  *layout = tensor.getLayout() ? static_cast<int32_t>(*tensor.getLayout()) : -1;
  *pad = tensor.getPad() ? static_cast<int32_t>(*tensor.getPad()) : -1;
  *numStrides = tensor.getStrides().size();
  *numValid = tensor.getValidShape().size();
}

/// Writes the valid extents a tensor type stores (as many as
/// ptoGlue_plTensorTypeGetView counts), dynamic ones as ShapedType::kDynamic.
void ptoGlue_plTensorTypeGetValidShape(MlirType type, int64_t *validShape) {
  llvm::copy(cast<pto::pl::TensorType>(unwrap(type)).getValidShape(), validShape);
}

bool ptoGlue_plTypeIsATensor(MlirType type) {
  return isa<pto::pl::TensorType>(unwrap(type));
}

MlirType ptoGlue_plTileTypeGet(MlirContext ctx, intptr_t rank,
                               const int64_t *shape, MlirType elementType,
                               int32_t memorySpace) {
  std::optional<pto::pl::MemorySpace> space;
  if (memorySpace >= 0)
    space = pto::pl::symbolizeMemorySpace(memorySpace);
  return wrap(pto::pl::TileType::getCanonical(loaded<pto::pl::PLDialect>(ctx),
                                              ArrayRef(shape, rank),
                                              unwrap(elementType), space));
}

/// Builds a canonical tile type with a view. Enum arguments < 0 mean "the
/// implicit value"; `validRank` 0 means "the whole tile"; `fractal` 0 means
/// implicit.
MlirType ptoGlue_plTileTypeGetWithView(
    MlirContext ctx, intptr_t rank, const int64_t *shape, MlirType elementType,
    int32_t memorySpace, intptr_t validRank, const int64_t *validShape,
    int32_t blayout, int32_t slayout, uint64_t fractal, int32_t pad) {
  auto optionalEnum = [](int32_t code, auto symbolize)
      -> decltype(symbolize(0u)) {
    if (code < 0)
      return std::nullopt;
    return symbolize(static_cast<uint32_t>(code));
  };
  return wrap(pto::pl::TileType::getCanonical(
      loaded<pto::pl::PLDialect>(ctx), ArrayRef(shape, rank),
      unwrap(elementType),
      optionalEnum(memorySpace, [](uint32_t c) { return pto::pl::symbolizeMemorySpace(c); }),
      ArrayRef(validShape, validRank),
      optionalEnum(blayout, [](uint32_t c) { return pto::pl::symbolizeTileLayout(c); }),
      optionalEnum(slayout, [](uint32_t c) { return pto::pl::symbolizeTileLayout(c); }),
      fractal,
      optionalEnum(pad, [](uint32_t c) { return pto::pl::symbolizePadValue(c); })));
}

/// The tile type `type` with another element type: shape, memory space
/// and view kept.
MlirType ptoGlue_plTileTypeWithElement(MlirType type, MlirType elementType) {
  return wrap(cast<pto::pl::TileType>(unwrap(type))
                  .cloneWith(std::nullopt, unwrap(elementType)));
}

/// The effective view of a tile: writes the valid shape (rank entries) and
/// returns blayout, slayout, fractal and pad through the out-parameters.
void ptoGlue_plTileTypeGetEffectiveView(MlirType type, int64_t *validShape,
                                        int32_t *blayout, int32_t *slayout,
                                        uint64_t *fractal, int32_t *pad) {
  auto tile = cast<pto::pl::TileType>(unwrap(type));
  llvm::copy(tile.getEffectiveValidShape(), validShape);
  *blayout = static_cast<int32_t>(tile.getEffectiveBLayout());
  *slayout = static_cast<int32_t>(tile.getEffectiveSLayout());
  *fractal = tile.getEffectiveFractal();
  *pad = static_cast<int32_t>(tile.getEffectivePad());
}

bool ptoGlue_plTypeIsATile(MlirType type) {
  return isa<pto::pl::TileType>(unwrap(type));
}

/// Returns the tile's memory space code, or -1 when it has none.
int32_t ptoGlue_plTileTypeGetMemorySpace(MlirType type) {
  auto space = cast<pto::pl::TileType>(unwrap(type)).getMemorySpace();
  return space ? static_cast<int32_t>(*space) : -1;
}

MlirType ptoGlue_pldDistributedTensorTypeGet(MlirContext ctx, intptr_t rank,
                                             const int64_t *shape,
                                             MlirType elementType) {
  return wrap(pto::pld::DistributedTensorType::get(
      loaded<pto::pld::PLDDialect>(ctx), ArrayRef(shape, rank), unwrap(elementType)));
}

bool ptoGlue_pldTypeIsADistributedTensor(MlirType type) {
  return isa<pto::pld::DistributedTensorType>(unwrap(type));
}

MlirType ptoGlue_plArrayTypeGet(MlirType elementType, int64_t extent) {
  Type element = unwrap(elementType);
  return wrap(pto::pl::ArrayType::get(element.getContext(), element, extent));
}

bool ptoGlue_plTypeIsAnArray(MlirType type) {
  return isa<pto::pl::ArrayType>(unwrap(type));
}

MlirType ptoGlue_plArrayTypeGetElement(MlirType type) {
  return wrap(cast<pto::pl::ArrayType>(unwrap(type)).getElementType());
}

int64_t ptoGlue_plArrayTypeGetExtent(MlirType type) {
  return cast<pto::pl::ArrayType>(unwrap(type)).getExtent();
}

MlirType ptoGlue_pldCommCtxTypeGet(MlirContext ctx) {
  return wrap(pto::pld::CommCtxType::get(loaded<pto::pld::PLDDialect>(ctx)));
}

bool ptoGlue_pldTypeIsACommCtx(MlirType type) {
  return isa<pto::pld::CommCtxType>(unwrap(type));
}

/// The code of a pl enum attribute (#pl.kind, #pl.level, #pl.role,
/// #pl.direction) and which one it is (1..4); -1 for any other attribute.
int32_t ptoGlue_plEnumAttrGetValue(MlirAttribute attribute, int32_t *which) {
  Attribute attr = unwrap(attribute);
  if (auto kind = dyn_cast<pto::pl::FunctionKindAttr>(attr))
    return *which = 1, static_cast<int32_t>(kind.getValue());
  if (auto level = dyn_cast<pto::pl::LevelAttr>(attr))
    return *which = 2, static_cast<int32_t>(level.getValue());
  if (auto role = dyn_cast<pto::pl::RoleAttr>(attr))
    return *which = 3, static_cast<int32_t>(role.getValue());
  if (auto direction = dyn_cast<pto::pl::ParamDirectionAttr>(attr))
    return *which = 4, static_cast<int32_t>(direction.getValue());
  if (auto split = dyn_cast<pto::pl::KernelSplitAttr>(attr))
    return *which = 5, static_cast<int32_t>(split.getValue());
  *which = 0;
  return -1;
}

//===----------------------------------------------------------------------===//
// The checked constructors and the unit types and attributes of the public
// C API (include/pto-c/Dialects.h; the exported wrappers are in
// dialects/src/ir/capi.rs). Invalid arguments give a diagnostic at `loc`
// and a null type, never an invalid type.
//===----------------------------------------------------------------------===//


MlirType ptoGlue_plTileTypeGetChecked(MlirLocation location, intptr_t rank,
                                      const int64_t *shape, MlirType element,
                                      int32_t memorySpace, intptr_t validRank,
                                      const int64_t *validShape,
                                      int32_t blayout, int32_t slayout,
                                      uint64_t fractal, int32_t pad) {
  Location loc = unwrap(location);
  std::optional<pto::pl::MemorySpace> space;
  std::optional<pto::pl::TileLayout> b, sl;
  std::optional<pto::pl::PadValue> padValue;
  auto memory = [](uint32_t c) { return pto::pl::symbolizeMemorySpace(c); };
  auto layout = [](uint32_t c) { return pto::pl::symbolizeTileLayout(c); };
  auto padding = [](uint32_t c) { return pto::pl::symbolizePadValue(c); };
  if (!readable(loc, "shape", rank, shape) ||
      !readable(loc, "valid shape", validRank, validShape) ||
      !readCode(loc, "memory space", memorySpace, memory, space) ||
      !readCode(loc, "tile layout", blayout, layout, b) ||
      !readCode(loc, "tile layout", slayout, layout, sl) ||
      !readCode(loc, "pad value", pad, padding, padValue))
    return MlirType{nullptr};
  loaded<pto::pl::PLDialect>(wrap(loc.getContext()));
  return wrap(pto::pl::TileType::getCanonicalChecked(
      [&] { return emitError(loc); }, loc.getContext(), ArrayRef(shape, rank),
      unwrap(element), space, ArrayRef(validShape, validRank), b, sl, fractal,
      padValue));
}

MlirType ptoGlue_plTensorTypeGetChecked(
    MlirLocation location, intptr_t rank, const int64_t *shape,
    MlirType element, int32_t layout, intptr_t numStrides,
    const int64_t *strides, intptr_t validRank, const int64_t *validShape,
    int32_t pad) {
  Location loc = unwrap(location);
  std::optional<pto::pl::TensorLayout> tensorLayout;
  std::optional<pto::pl::PadValue> padValue;
  auto layouts = [](uint32_t c) { return pto::pl::symbolizeTensorLayout(c); };
  auto padding = [](uint32_t c) { return pto::pl::symbolizePadValue(c); };
  if (!readable(loc, "shape", rank, shape) ||
      !readable(loc, "strides", numStrides, strides) ||
      !readable(loc, "valid shape", validRank, validShape) ||
      !readCode(loc, "tensor layout", layout, layouts, tensorLayout) ||
      !readCode(loc, "pad value", pad, padding, padValue))
    return MlirType{nullptr};
  loaded<pto::pl::PLDialect>(wrap(loc.getContext()));
  return wrap(pto::pl::TensorType::getCanonicalChecked(
      [&] { return emitError(loc); }, loc.getContext(), ArrayRef(shape, rank),
      unwrap(element), tensorLayout, ArrayRef(strides, numStrides),
      ArrayRef(validShape, validRank), padValue));
}

MlirType ptoGlue_pldDistributedTensorTypeGetChecked(MlirLocation location,
                                                    intptr_t rank,
                                                    const int64_t *shape,
                                                    MlirType element,
                                                    MlirStringRef window) {
  Location loc = unwrap(location);
  if (!readable(loc, "shape", rank, shape))
    return MlirType{nullptr};
  MLIRContext *ctx = loaded<pto::pld::PLDDialect>(wrap(loc.getContext()));
  StringAttr bound =
      window.length ? StringAttr::get(ctx, unwrap(window)) : StringAttr();
  return wrap(pto::pld::DistributedTensorType::getChecked(
      [&] { return emitError(loc); }, ctx, ArrayRef(shape, rank),
      unwrap(element), bound));
}

MlirType ptoGlue_plArrayTypeGetChecked(MlirLocation location,
                                       MlirType element, int64_t extent) {
  Location loc = unwrap(location);
  loaded<pto::pl::PLDialect>(wrap(loc.getContext()));
  return wrap(pto::pl::ArrayType::getChecked([&] { return emitError(loc); },
                                             loc.getContext(), unwrap(element),
                                             extent));
}

/// A unit type by its code; null for an unknown code.
MlirType ptoGlue_unitTypeGet(MlirContext context, int32_t code) {
  // Both dialects load: the list spans them.
  loaded<pto::pl::PLDialect>(context);
  return wrap(UnitTypes::get(loaded<pto::pld::PLDDialect>(context), code));
}

/// The code of a unit type (as ptoGlue_unitTypeGet), or -1.
int32_t ptoGlue_unitTypeGetCode(MlirType type) {
  return UnitTypes::codeOf(unwrap(type));
}

/// A pl enum attribute: `which` as ptoGlue_plEnumAttrGetValue returns it
/// (1 kind, 2 level, 3 role, 4 direction, 5 split); null for an unknown
/// `which` or `code`.
MlirAttribute ptoGlue_plEnumAttrGet(MlirContext context, int32_t which,
                                    int32_t code) {
  MLIRContext *ctx = loaded<pto::pl::PLDialect>(context);
  auto value = static_cast<uint32_t>(code);
  auto make = [&](auto symbolized, auto get) -> MlirAttribute {
    if (code < 0 || !symbolized)
      return MlirAttribute{nullptr};
    return wrap(get(ctx, *symbolized));
  };
  switch (which) {
  case 1:
    return make(pto::pl::symbolizeFunctionKind(value),
                [](MLIRContext *c, auto v) { return pto::pl::FunctionKindAttr::get(c, v); });
  case 2:
    return make(pto::pl::symbolizeLevel(value),
                [](MLIRContext *c, auto v) { return pto::pl::LevelAttr::get(c, v); });
  case 3:
    return make(pto::pl::symbolizeRole(value),
                [](MLIRContext *c, auto v) { return pto::pl::RoleAttr::get(c, v); });
  case 4:
    return make(pto::pl::symbolizeParamDirection(value),
                [](MLIRContext *c, auto v) { return pto::pl::ParamDirectionAttr::get(c, v); });
  case 5:
    return make(pto::pl::symbolizeCoreSplit(value),
                [](MLIRContext *c, auto v) { return pto::pl::KernelSplitAttr::get(c, v); });
  default:
    return MlirAttribute{nullptr};
  }
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

/// Emits `'<op name>' op <message>` at the op (as Operation::emitOpError
/// does), with one note per (location, text) pair. Severity: 0 error,
/// 1 warning, 2 remark.
void ptoGlue_emitOpDiagnostic(MlirOperation op, int32_t severity,
                              MlirStringRef message, intptr_t numNotes,
                              const MlirLocation *noteLocations,
                              const MlirStringRef *noteMessages) {
  Operation *operation = unwrap(op);
  InFlightDiagnostic diag =
      severity == 1   ? operation->emitWarning()
      : severity == 2 ? operation->emitRemark()
                      : operation->emitOpError();
  if (severity != 0)
    diag << "'" << operation->getName() << "' op ";
  diag << unwrap(message);
  for (intptr_t i = 0; i < numNotes; ++i)
    diag.attachNote(unwrap(noteLocations[i])) << unwrap(noteMessages[i]);
}

//===----------------------------------------------------------------------===//
// Inlining
//===----------------------------------------------------------------------===//

/// Splices the callee of the call `op` in its place (mlir::inlineCall with
/// the loaded dialects' inliner interfaces; the callee is cloned, not
/// moved) and erases the call. Returns false, with the IR unchanged, when
/// `op` is not a call of a function with a body or a dialect refuses an op.
bool ptoGlue_inlineCall(MlirOperation op) {
  auto call = dyn_cast<CallOpInterface>(unwrap(op));
  if (!call)
    return false;
  auto callable =
      dyn_cast_or_null<CallableOpInterface>(call.resolveCallable());
  Region *body = callable ? callable.getCallableRegion() : nullptr;
  if (!body || body->empty())
    return false;
  InlinerInterface interface(call->getContext());
  auto cloneBody = [](OpBuilder &, Region *src, Block *inlineBlock,
                      Block *postInsertBlock, IRMapping &mapper,
                      bool) {
    src->cloneInto(inlineBlock->getParent(), postInsertBlock->getIterator(),
                   mapper);
  };
  if (failed(inlineCall(interface, cloneBody, call, callable, body,
                        /*shouldCloneInlinedRegion=*/true)))
    return false;
  call->erase();
  return true;
}

/// Replaces the scf.for `op`, whose bounds and step are constants and
/// which runs at least once, by a copy of its body per iteration
/// (mlir::loopUnrollFull), then folds the copies (each iteration's index
/// becomes a constant). Returns false, with the IR unchanged, when `op` is
/// not such a loop.
bool ptoGlue_unrollLoopFull(MlirOperation op) {
  auto loop = dyn_cast<scf::ForOp>(unwrap(op));
  if (!loop || !loop->getNextNode())
    return false;
  Block *block = loop->getBlock();
  Operation *before = loop->getPrevNode();
  Operation *after = loop->getNextNode();
  if (failed(loopUnrollFull(loop)))
    return false;
  SmallVector<Operation *> copies;
  auto first = before ? std::next(before->getIterator()) : block->begin();
  for (Operation &copy : llvm::make_range(first, after->getIterator()))
    copy.walk([&](Operation *nested) { copies.push_back(nested); });
  GreedyRewriteConfig config;
  config.enableFolding();
  (void)applyOpPatternsGreedily(copies, FrozenRewritePatternSet(), config);
  return true;
}

/// Unrolls the scf.for `op` by `factor` (mlir::loopUnrollByFactor: a loop
/// of `factor` copies of the body per iteration, and a loop of the
/// remaining iterations after it when the trip count is not known to be a
/// multiple) and marks each top-level op of copy k with the integer
/// attribute `attrName` = k; the remainder loop's ops are not marked.
/// Returns false, with the IR unchanged, when `op` is not an scf.for or
/// cannot be unrolled.
bool ptoGlue_unrollLoopByFactor(MlirOperation op, unsigned factor,
                                MlirStringRef attrName) {
  auto loop = dyn_cast<scf::ForOp>(unwrap(op));
  if (!loop || factor < 2)
    return false;
  StringRef name = unwrap(attrName);
  auto annotate = [&](unsigned copy, Operation *copyOp, OpBuilder builder) {
    copyOp->setAttr(name, builder.getI64IntegerAttr(copy));
  };
  return succeeded(loopUnrollByFactor(loop, factor, annotate));
}

} // extern "C"
