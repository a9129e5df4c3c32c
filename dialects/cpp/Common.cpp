//===- Common.cpp - helpers shared by the pl and pld glue -----------------===//

#include "Dialects.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;

// Implemented in Rust (dialects/src/verify/mod.rs).
extern "C" MlirLogicalResult ptoVerifyOperation(MlirOperation op);
extern "C" MlirLogicalResult ptoVerifySymbolUses(MlirOperation op);
extern "C" MlirLogicalResult ptoVerifyAttribute(MlirOperation op,
                                                MlirStringRef name,
                                                int64_t regionIndex,
                                                int64_t argIndex);
extern "C" bool ptoIsLegalToInline(MlirOperation op, MlirOperation destParent);

LogicalResult pto::verifyInRust(Operation *op) {
  return unwrap(ptoVerifyOperation(wrap(op)));
}

LogicalResult pto::verifySymbolUsesInRust(Operation *op) {
  return unwrap(ptoVerifySymbolUses(wrap(op)));
}

LogicalResult pto::verifyAttributeInRust(Operation *op, StringRef name,
                                         int64_t regionIndex,
                                         int64_t argIndex) {
  return unwrap(ptoVerifyAttribute(wrap(op), wrap(name), regionIndex, argIndex));
}

bool pto::isLegalToInlineInRust(Operation *op, Region *dest) {
  return ptoIsLegalToInline(wrap(op), wrap(dest->getParentOp()));
}

ParseResult pto::parseShapeAndElementType(AsmParser &parser,
                                          llvm::SmallVectorImpl<int64_t> &shape,
                                          Type &elementType,
                                          bool allowDynamic) {
  if (parser.parseDimensionList(shape, allowDynamic, /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

void pto::printShapeAndElementType(AsmPrinter &printer, ArrayRef<int64_t> shape,
                                   Type elementType) {
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim))
      printer << '?';
    else
      printer << dim;
    printer << 'x';
  }
  printer << elementType;
}

bool pto::isScalarElementType(Type type) {
  return isa<IntegerType, IndexType, FloatType, pl::HiFloat8Type,
             pl::HiFloat4Type>(type);
}

bool pto::isPackedFourBit(Type type) {
  if (isa<pl::HiFloat4Type, Float4E2M1FNType>(type))
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() == 4;
}

bool pto::isPlanned(Operation *op) {
  if (op->hasAttr("pl.addresses"))
    return true;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->hasAttr("pl.memory"))
      return true;
  return false;
}

void pto::getPlannedBufferEffects(
    Operation *op, unsigned global,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (global & 1)
    effects.emplace_back(MemoryEffects::Read::get());
  if (global & 2)
    effects.emplace_back(MemoryEffects::Write::get());
  if (!isPlanned(op))
    return;
  auto *buffers = PlannedBufferResource::get();
  auto isTile = [](Type type) { return isa<pl::TileType>(type); };
  if (llvm::any_of(op->getOperandTypes(), isTile))
    effects.emplace_back(MemoryEffects::Read::get(), buffers);
  if (llvm::any_of(op->getResultTypes(), isTile))
    effects.emplace_back(MemoryEffects::Write::get(), buffers);
}
