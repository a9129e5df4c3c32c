//===- PLDialect.cpp - the pl dialect: registration, types, op hooks ------===//

#include "Dialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pto::pl;

#include "PLEnums.cpp.inc"
#include "PLDialect.cpp.inc"

void PLDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "PLAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "PLTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "PLOps.cpp.inc"
      >();
  addInterfaces<pto::DialectInliner>();
}

//===----------------------------------------------------------------------===//
// TensorType: `!pl.tensor<?x128xf16>`
//===----------------------------------------------------------------------===//

namespace {

/// Parses `?` or an integer into `value` (kDynamic for `?`).
ParseResult parseDimOrDynamic(AsmParser &parser, int64_t &value) {
  if (succeeded(parser.parseOptionalQuestion())) {
    value = ShapedType::kDynamic;
    return success();
  }
  return parser.parseInteger(value);
}

/// Parses `= <null|zero|max|min>` (after the `pad` keyword).
ParseResult parsePadField(AsmParser &parser, std::optional<PadValue> &pad) {
  StringRef name;
  if (parser.parseEqual())
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&name))
    return failure();
  pad = symbolizePadValue(name);
  if (!pad)
    return parser.emitError(loc)
           << "expected null, zero, max or min, got '" << name << "'";
  return success();
}

/// Parses `= AxB` (after the `valid` keyword); `?` extents are dynamic.
ParseResult parseValidField(AsmParser &parser, SmallVectorImpl<int64_t> &valid) {
  if (parser.parseEqual())
    return failure();
  return parser.parseDimensionList(valid, /*allowDynamic=*/true,
                                   /*withTrailingX=*/false);
}

/// Reads the next `, keyword` of a type's field list, rejecting repeats.
/// Returns false at the end of the list (no comma) or on an error.
bool parseFieldKeyword(AsmParser &parser, llvm::StringSet<> &seen,
                       StringRef &keyword, SMLoc &loc, bool &error) {
  error = false;
  if (failed(parser.parseOptionalComma()))
    return false;
  loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword) ||
      (!seen.insert(keyword).second &&
       (parser.emitError(loc) << "'" << keyword << "' given twice", true))) {
    error = true;
    return false;
  }
  return true;
}

void printDims(AsmPrinter &printer, ArrayRef<int64_t> dims, StringRef separator) {
  llvm::interleave(
      dims, printer,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          printer << '?';
        else
          printer << dim;
      },
      separator);
}

} // namespace

pto::pl::TensorType pto::pl::TensorType::getCanonical(
    MLIRContext *context, ArrayRef<int64_t> shape, Type elementType,
    std::optional<TensorLayout> layout, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> validShape, std::optional<PadValue> pad) {
  return get(context, shape, elementType,
             layout == TensorLayout::ND ? std::nullopt : layout, strides,
             validShape == shape ? ArrayRef<int64_t>() : validShape,
             pad == PadValue::Null ? std::nullopt : pad);
}

pto::pl::TensorType pto::pl::TensorType::getCanonicalChecked(
    function_ref<InFlightDiagnostic()> emitError, MLIRContext *context,
    ArrayRef<int64_t> shape, Type elementType,
    std::optional<TensorLayout> layout, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> validShape, std::optional<PadValue> pad) {
  return getChecked(emitError, context, shape, elementType,
                    layout == TensorLayout::ND ? std::nullopt : layout, strides,
                    validShape == shape ? ArrayRef<int64_t>() : validShape,
                    pad == PadValue::Null ? std::nullopt : pad);
}

Type pto::pl::TensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, strides, validShape;
  Type elementType;
  std::optional<TensorLayout> layout;
  std::optional<PadValue> pad;
  if (parser.parseLess() ||
      pto::parseShapeAndElementType(parser, shape, elementType,
                                    /*allowDynamic=*/true))
    return {};
  llvm::StringSet<> seen;
  StringRef keyword;
  SMLoc loc;
  bool error = false;
  while (parseFieldKeyword(parser, seen, keyword, loc, error)) {
    if (auto tensorLayout = symbolizeTensorLayout(keyword)) {
      layout = tensorLayout;
      continue;
    }
    ParseResult field = failure();
    if (keyword == "strides") {
      field = failed(parser.parseEqual())
                  ? failure()
                  : parser.parseCommaSeparatedList(
                        AsmParser::Delimiter::Square, [&]() -> ParseResult {
                          return parseDimOrDynamic(parser,
                                                   strides.emplace_back());
                        });
    } else if (keyword == "valid") {
      field = parseValidField(parser, validShape);
    } else if (keyword == "pad") {
      field = parsePadField(parser, pad);
    } else {
      parser.emitError(loc) << "unknown tensor layout or view field '"
                            << keyword << "'";
      return {};
    }
    if (failed(field))
      return {};
  }
  if (error || parser.parseGreater())
    return {};
  return pto::pl::TensorType::getCanonicalChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), shape, elementType, layout, strides, validShape, pad);
}

void pto::pl::TensorType::print(AsmPrinter &printer) const {
  printer << '<';
  pto::printShapeAndElementType(printer, getShape(), getElementType());
  if (auto layout = getLayout())
    printer << ", " << stringifyTensorLayout(*layout);
  if (!getStrides().empty()) {
    printer << ", strides = [";
    printDims(printer, getStrides(), ", ");
    printer << ']';
  }
  if (!getValidShape().empty()) {
    printer << ", valid = ";
    printDims(printer, getValidShape(), "x");
  }
  if (auto pad = getPad())
    printer << ", pad = " << stringifyPadValue(*pad);
  printer << '>';
}

LogicalResult pto::pl::ArrayType::verify(
    function_ref<InFlightDiagnostic()> emitError, Type elementType,
    int64_t extent) {
  if (extent <= 0)
    return emitError() << "a pl.array needs a positive extent, got " << extent;
  if (!isa<IntegerType, IndexType, TaskIdType>(elementType))
    return emitError() << "pl.array elements are integers or task ids, got "
                       << elementType;
  return success();
}

LogicalResult pto::pl::TensorType::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> shape,
    Type elementType, std::optional<TensorLayout> layout,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> validShape,
    std::optional<PadValue> pad) {
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim) && dim <= 0)
      return emitError() << "pl.tensor dimensions must be positive or '?', got "
                         << dim;
  if (!pto::isScalarElementType(elementType))
    return emitError() << "pl.tensor element type must be an integer, index or "
                          "float type, got "
                       << elementType;
  if (pto::isPackedFourBit(elementType) && !shape.empty() &&
      !ShapedType::isDynamic(shape.back()) && shape.back() % 2 != 0)
    return emitError() << "a pl.tensor of 4-bit elements needs an even last "
                          "dimension, got "
                       << shape.back();
  if (layout == TensorLayout::NZ)
    return emitError() << "the nz layout is tile-only; a pl.tensor is nd or dn";
  if (layout == TensorLayout::DN && shape.size() < 2)
    return emitError() << "a dn pl.tensor needs rank 2 or more";
  if (!strides.empty()) {
    if (strides.size() != shape.size())
      return emitError() << "pl.tensor has " << strides.size()
                         << " strides for rank " << shape.size();
    for (int64_t stride : strides)
      if (!ShapedType::isDynamic(stride) && stride <= 0)
        return emitError() << "pl.tensor strides must be positive or '?', got "
                           << stride;
  }
  if (!validShape.empty()) {
    if (validShape.size() != shape.size())
      return emitError() << "pl.tensor valid shape has rank " << validShape.size()
                         << " but the tensor has rank " << shape.size();
    for (auto [valid, dim] : llvm::zip(validShape, shape))
      if (!ShapedType::isDynamic(valid) && !ShapedType::isDynamic(dim) &&
          (valid < 0 || valid > dim))
        return emitError() << "pl.tensor valid extent " << valid
                           << " is outside [0, " << dim << "]";
  }
  if (layout == TensorLayout::ND || pad == PadValue::Null ||
      (!validShape.empty() && validShape == shape))
    return emitError() << "pl.tensor view stores a default field (build it "
                          "with TensorType::getCanonical)";
  return success();
}

ShapedType pto::pl::TensorType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                          Type elementType) const {
  if (!shape || *shape == getShape())
    return getCanonical(getContext(), getShape(), elementType, getLayout(),
                        getStrides(), getValidShape(), getPad());
  return getCanonical(getContext(), *shape, elementType, getLayout(), {}, {},
                      getPad());
}

//===----------------------------------------------------------------------===//
// TileType: `!pl.tile<64x128xf16, vec, valid = ?x128, pad = zero>`
//===----------------------------------------------------------------------===//

namespace {

/// The view a tile has when none is written: the defaults per memory space
/// (docs/pl-guide.md, "Tensors and tiles").
struct ImplicitTileView {
  TileLayout blayout;
  TileLayout slayout;
  uint64_t fractal;
};

ImplicitTileView implicitTileView(std::optional<MemorySpace> space,
                                  ArrayRef<int64_t> shape) {
  // A column (any leading dims): one value per row, stored contiguously.
  bool isColumn = shape.size() >= 2 && shape[shape.size() - 2] > 1 && shape.back() == 1;
  switch (space.value_or(MemorySpace::Vec)) {
  case MemorySpace::Mat:
  case MemorySpace::Left:
    return {TileLayout::ColMajor, TileLayout::RowMajor, 512};
  case MemorySpace::Right:
    return {TileLayout::RowMajor, TileLayout::ColMajor, 512};
  case MemorySpace::Acc:
    return {TileLayout::ColMajor, TileLayout::RowMajor, 1024};
  case MemorySpace::LeftScale:
    return {TileLayout::RowMajor, TileLayout::RowMajor, 32};
  case MemorySpace::RightScale:
    return {TileLayout::ColMajor, TileLayout::ColMajor, 32};
  default: // none, vec, bias, ddr, scalar_local: flat ND
    return {isColumn ? TileLayout::ColMajor : TileLayout::RowMajor,
            TileLayout::NoneBox, 512};
  }
}

template <typename T>
std::optional<T> unlessImplicit(std::optional<T> value, T implicit) {
  return value == implicit ? std::nullopt : value;
}

/// Canonical parameters: fields equal to their implicit value dropped.
struct CanonicalTileView {
  SmallVector<int64_t> validShape;
  std::optional<TileLayout> blayout, slayout;
  uint64_t fractal;
  std::optional<PadValue> pad;
};

CanonicalTileView canonicalize(ArrayRef<int64_t> shape,
                               std::optional<MemorySpace> space,
                               ArrayRef<int64_t> validShape,
                               std::optional<TileLayout> blayout,
                               std::optional<TileLayout> slayout,
                               uint64_t fractal, std::optional<PadValue> pad) {
  ImplicitTileView implicit = implicitTileView(space, shape);
  CanonicalTileView view;
  if (validShape != shape)
    view.validShape.assign(validShape.begin(), validShape.end());
  view.blayout = unlessImplicit(blayout, implicit.blayout);
  view.slayout = unlessImplicit(slayout, implicit.slayout);
  view.fractal = fractal == implicit.fractal ? 0 : fractal;
  view.pad = unlessImplicit(pad, PadValue::Null);
  return view;
}

} // namespace

TileType TileType::getCanonical(MLIRContext *context, ArrayRef<int64_t> shape,
                                Type elementType,
                                std::optional<MemorySpace> memorySpace,
                                ArrayRef<int64_t> validShape,
                                std::optional<TileLayout> blayout,
                                std::optional<TileLayout> slayout,
                                uint64_t fractal, std::optional<PadValue> pad) {
  CanonicalTileView view = canonicalize(shape, memorySpace, validShape, blayout,
                                        slayout, fractal, pad);
  return get(context, shape, elementType, memorySpace, view.validShape,
             view.blayout, view.slayout, view.fractal, view.pad);
}

TileType TileType::getCanonicalChecked(
    function_ref<InFlightDiagnostic()> emitError, MLIRContext *context,
    ArrayRef<int64_t> shape, Type elementType,
    std::optional<MemorySpace> memorySpace, ArrayRef<int64_t> validShape,
    std::optional<TileLayout> blayout, std::optional<TileLayout> slayout,
    uint64_t fractal, std::optional<PadValue> pad) {
  CanonicalTileView view = canonicalize(shape, memorySpace, validShape, blayout,
                                        slayout, fractal, pad);
  return getChecked(emitError, context, shape, elementType, memorySpace,
                    view.validShape, view.blayout, view.slayout, view.fractal,
                    view.pad);
}

SmallVector<int64_t> TileType::getEffectiveValidShape() const {
  ArrayRef<int64_t> valid = getValidShape().empty() ? getShape() : getValidShape();
  return SmallVector<int64_t>(valid.begin(), valid.end());
}
TileLayout TileType::getEffectiveBLayout() const {
  return getBlayout().value_or(
      implicitTileView(getMemorySpace(), getShape()).blayout);
}
TileLayout TileType::getEffectiveSLayout() const {
  return getSlayout().value_or(
      implicitTileView(getMemorySpace(), getShape()).slayout);
}
uint64_t TileType::getEffectiveFractal() const {
  return getFractal() ? getFractal()
                      : implicitTileView(getMemorySpace(), getShape()).fractal;
}
PadValue TileType::getEffectivePad() const {
  return getPad().value_or(PadValue::Null);
}

Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, validShape;
  Type elementType;
  std::optional<MemorySpace> memorySpace;
  std::optional<TileLayout> blayout, slayout;
  std::optional<PadValue> pad;
  uint64_t fractal = 0;
  if (parser.parseLess() ||
      pto::parseShapeAndElementType(parser, shape, elementType,
                                    /*allowDynamic=*/false))
    return {};
  llvm::StringSet<> seen;
  StringRef keyword;
  SMLoc loc;
  bool error = false;
  while (parseFieldKeyword(parser, seen, keyword, loc, error)) {
    if (auto space = symbolizeMemorySpace(keyword)) {
      memorySpace = space;
      continue;
    }
    auto parseLayout = [&](std::optional<TileLayout> &layout) -> ParseResult {
      StringRef name;
      if (parser.parseEqual())
        return failure();
      SMLoc valueLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&name))
        return failure();
      layout = symbolizeTileLayout(name);
      if (!layout)
        return parser.emitError(valueLoc)
               << "expected none_box, row_major or col_major, got '" << name
               << "'";
      return success();
    };
    ParseResult field = failure();
    if (keyword == "valid")
      field = parseValidField(parser, validShape);
    else if (keyword == "blayout" || keyword == "slayout")
      field = parseLayout(keyword == "blayout" ? blayout : slayout);
    else if (keyword == "fractal")
      field = failed(parser.parseEqual()) ? failure()
                                          : parser.parseInteger(fractal);
    else if (keyword == "pad")
      field = parsePadField(parser, pad);
    else {
      parser.emitError(loc) << "unknown memory space or tile view field '"
                            << keyword << "'";
      return {};
    }
    if (failed(field))
      return {};
  }
  if (error || parser.parseGreater())
    return {};
  return TileType::getCanonicalChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), shape, elementType, memorySpace, validShape, blayout,
      slayout, fractal, pad);
}

void TileType::print(AsmPrinter &printer) const {
  printer << '<';
  pto::printShapeAndElementType(printer, getShape(), getElementType());
  if (auto space = getMemorySpace())
    printer << ", " << stringifyMemorySpace(*space);
  if (!getValidShape().empty()) {
    printer << ", valid = ";
    llvm::interleave(
        getValidShape(), printer,
        [&](int64_t dim) {
          if (ShapedType::isDynamic(dim))
            printer << '?';
          else
            printer << dim;
        },
        "x");
  }
  if (auto layout = getBlayout())
    printer << ", blayout = " << stringifyTileLayout(*layout);
  if (auto layout = getSlayout())
    printer << ", slayout = " << stringifyTileLayout(*layout);
  if (getFractal())
    printer << ", fractal = " << getFractal();
  if (auto pad = getPad())
    printer << ", pad = " << stringifyPadValue(*pad);
  printer << '>';
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               std::optional<MemorySpace> memorySpace,
                               ArrayRef<int64_t> validShape,
                               std::optional<TileLayout> blayout,
                               std::optional<TileLayout> slayout,
                               uint64_t fractal, std::optional<PadValue> pad) {
  if (shape.empty())
    return emitError() << "pl.tile must have at least one dimension";
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "pl.tile dimensions must be static and positive, got "
                         << dim;
  if (!pto::isScalarElementType(elementType))
    return emitError() << "pl.tile element type must be an integer, index or "
                          "float type, got "
                       << elementType;
  if (pto::isPackedFourBit(elementType) && shape.back() % 2 != 0)
    return emitError() << "a pl.tile of 4-bit elements needs an even last "
                          "dimension, got "
                       << shape.back();
  if (memorySpace == MemorySpace::DDR || memorySpace == MemorySpace::ScalarLocal)
    return emitError() << "a pl.tile lives in an on-chip buffer, not in '"
                       << stringifyMemorySpace(*memorySpace) << "'";
  if (!validShape.empty()) {
    if (validShape.size() != shape.size())
      return emitError() << "pl.tile valid shape has rank " << validShape.size()
                         << " but the tile has rank " << shape.size();
    for (auto [valid, dim] : llvm::zip(validShape, shape))
      if (!ShapedType::isDynamic(valid) && (valid < 0 || valid > dim))
        return emitError() << "pl.tile valid extent " << valid
                           << " is outside [0, " << dim << "]";
  }
  if (fractal != 0 && fractal != 32 && fractal != 512 && fractal != 1024)
    return emitError() << "pl.tile fractal must be 32, 512 or 1024 bytes, got "
                       << fractal;
  // Coherence: a stored field never repeats the implicit view, so that one
  // view has one type.
  CanonicalTileView canonical = canonicalize(shape, memorySpace, validShape,
                                             blayout, slayout, fractal, pad);
  if (canonical.blayout != blayout || canonical.slayout != slayout ||
      canonical.fractal != fractal || canonical.pad != pad ||
      canonical.validShape.size() != validShape.size())
    return emitError() << "pl.tile view stores a field equal to its implicit "
                          "value (build it with TileType::getCanonical)";
  return success();
}

ShapedType TileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  if (!shape || *shape == getShape())
    return getCanonical(getContext(), getShape(), elementType,
                        getMemorySpace(), getValidShape(), getBlayout(),
                        getSlayout(), getFractal(), getPad());
  // A new shape keeps the memory space and padding; the layout becomes the
  // implicit one of the new shape.
  return getCanonical(getContext(), *shape, elementType, getMemorySpace(), {},
                      std::nullopt, std::nullopt, 0, getPad());
}

//===----------------------------------------------------------------------===//
// Verification hooks: the rules are in Rust.
//===----------------------------------------------------------------------===//

LogicalResult PLDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attribute) {
  return pto::verifyAttributeInRust(op, attribute.getName().strref(), -1, -1);
}

LogicalResult PLDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attribute) {
  return pto::verifyAttributeInRust(op, attribute.getName().strref(),
                                    regionIndex, argIndex);
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &) {
  return pto::verifySymbolUsesInRust(*this);
}

LogicalResult SubmitOp::verifySymbolUses(SymbolTableCollection &) {
  return pto::verifySymbolUsesInRust(*this);
}

LogicalResult ImportPeerBufferOp::verifySymbolUses(SymbolTableCollection &) {
  return pto::verifySymbolUsesInRust(*this);
}

#define GET_ATTRDEF_CLASSES
#include "PLAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "PLTypes.cpp.inc"
#define GET_OP_CLASSES
#include "PLOps.cpp.inc"
