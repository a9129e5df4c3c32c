//===- PLDDialect.cpp - the pld dialect: registration, types, op hooks ----===//

#include "Dialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pto::pld;

#include "PLDEnums.cpp.inc"
#include "PLDDialect.cpp.inc"

void PLDDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "PLDTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "PLDOps.cpp.inc"
      >();
  addInterfaces<pto::DialectInliner>();
}

//===----------------------------------------------------------------------===//
// DistributedTensorType: `!pld.dtensor<?x1xi32>`
//===----------------------------------------------------------------------===//

Type DistributedTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  StringAttr window;
  if (parser.parseLess() ||
      pto::parseShapeAndElementType(parser, shape, elementType,
                                    /*allowDynamic=*/true))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("window") || parser.parseEqual() ||
        parser.parseAttribute(window))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return DistributedTensorType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), shape, elementType, window);
}

void DistributedTensorType::print(AsmPrinter &printer) const {
  printer << '<';
  pto::printShapeAndElementType(printer, getShape(), getElementType());
  if (getWindow())
    printer << ", window = " << getWindow();
  printer << '>';
}

LogicalResult
DistributedTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<int64_t> shape, Type elementType,
                              StringAttr window) {
  if (shape.empty())
    return emitError() << "pld.dtensor must have at least one dimension";
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim) && dim <= 0)
      return emitError()
             << "pld.dtensor dimensions must be positive or '?', got " << dim;
  if (!pto::isScalarElementType(elementType))
    return emitError() << "pld.dtensor element type must be an integer, index "
                          "or float type, got "
                       << elementType;
  if (window && window.getValue().empty())
    return emitError() << "pld.dtensor window name must not be empty";
  return success();
}

ShapedType
DistributedTensorType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                 Type elementType) const {
  return DistributedTensorType::get(getContext(), shape ? *shape : getShape(),
                                    elementType, getWindow());
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &) {
  return pto::verifySymbolUsesInRust(*this);
}

#define GET_TYPEDEF_CLASSES
#include "PLDTypes.cpp.inc"
#define GET_OP_CLASSES
#include "PLDOps.cpp.inc"
