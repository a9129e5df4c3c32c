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
}

//===----------------------------------------------------------------------===//
// DistributedTensorType: `!pld.dtensor<?x1xi32>`
//===----------------------------------------------------------------------===//

Type DistributedTensorType::parse(AsmParser &parser) {
  return pto::parseShapedType<DistributedTensorType>(parser, /*allowDynamic=*/true);
}

void DistributedTensorType::print(AsmPrinter &printer) const {
  pto::printShapedType(printer, *this);
}

LogicalResult
DistributedTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<int64_t> shape, Type elementType) {
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
  return success();
}

ShapedType
DistributedTensorType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                 Type elementType) const {
  return DistributedTensorType::get(getContext(), shape ? *shape : getShape(),
                                    elementType);
}

#define GET_TYPEDEF_CLASSES
#include "PLDTypes.cpp.inc"
#define GET_OP_CLASSES
#include "PLDOps.cpp.inc"
