//===- PLDialect.cpp - the pl dialect: registration, types, op hooks ------===//

#include "Dialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pto::pl;

#include "PLEnums.cpp.inc"
#include "PLDialect.cpp.inc"

void PLDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "PLTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "PLOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TensorType: `!pl.tensor<?x128xf16>`
//===----------------------------------------------------------------------===//

Type pto::pl::TensorType::parse(AsmParser &parser) {
  return pto::parseShapedType<pto::pl::TensorType>(parser, /*allowDynamic=*/true);
}

void pto::pl::TensorType::print(AsmPrinter &printer) const {
  pto::printShapedType(printer, *this);
}

LogicalResult
pto::pl::TensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<int64_t> shape, Type elementType) {
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim) && dim <= 0)
      return emitError() << "pl.tensor dimensions must be positive or '?', got "
                         << dim;
  if (!pto::isScalarElementType(elementType))
    return emitError() << "pl.tensor element type must be an integer, index or "
                          "float type, got "
                       << elementType;
  return success();
}

ShapedType pto::pl::TensorType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                 Type elementType) const {
  return pto::pl::TensorType::get(getContext(), shape ? *shape : getShape(),
                         elementType);
}

//===----------------------------------------------------------------------===//
// TileType: `!pl.tile<64x128xf16, vec>`
//===----------------------------------------------------------------------===//

Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  std::optional<MemorySpace> memorySpace;
  if (parser.parseLess() ||
      pto::parseShapeAndElementType(parser, shape, elementType,
                                    /*allowDynamic=*/false))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    memorySpace = symbolizeMemorySpace(keyword);
    if (!memorySpace) {
      parser.emitError(loc) << "unknown memory space '" << keyword << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return TileType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), shape, elementType, memorySpace);
}

void TileType::print(AsmPrinter &printer) const {
  printer << '<';
  pto::printShapeAndElementType(printer, getShape(), getElementType());
  if (auto space = getMemorySpace())
    printer << ", " << stringifyMemorySpace(*space);
  printer << '>';
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               std::optional<MemorySpace> memorySpace) {
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
  if (memorySpace == MemorySpace::DDR || memorySpace == MemorySpace::ScalarLocal)
    return emitError() << "a pl.tile lives in an on-chip buffer, not in '"
                       << stringifyMemorySpace(*memorySpace) << "'";
  return success();
}

ShapedType TileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  return TileType::get(getContext(), shape ? *shape : getShape(), elementType,
                       getMemorySpace());
}

//===----------------------------------------------------------------------===//
// Ops: every semantic rule is checked in Rust.
//===----------------------------------------------------------------------===//

LogicalResult TileMoveOp::verify() { return pto::verifyInRust(*this); }
LogicalResult TileAddOp::verify() { return pto::verifyInRust(*this); }

#define GET_TYPEDEF_CLASSES
#include "PLTypes.cpp.inc"
#define GET_OP_CLASSES
#include "PLOps.cpp.inc"
