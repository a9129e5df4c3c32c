//===- Common.cpp - helpers shared by the pl and pld glue -----------------===//

#include "Dialects.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;

namespace {
/// The Rust functions (dialects/src/ir/hooks.rs), installed before either
/// dialect's handle is handed out.
PtoDialectHooks rustHooks;

/// Whether the hooks are in; an op verified without them fails loudly.
LogicalResult requireHooks(Operation *op) {
  if (rustHooks.verifyOperation)
    return success();
  return op->emitOpError("the pl/pld verifier is not installed: register the "
                         "dialects through ptoRegisterDialects or their "
                         "dialect handles");
}
} // namespace

extern "C" void ptoGlue_setDialectHooks(const PtoDialectHooks *hooks) {
  rustHooks = *hooks;
}

LogicalResult pto::verifyInRust(Operation *op) {
  if (failed(requireHooks(op)))
    return failure();
  return unwrap(rustHooks.verifyOperation(wrap(op)));
}

LogicalResult pto::verifySymbolUsesInRust(Operation *op) {
  if (failed(requireHooks(op)))
    return failure();
  return unwrap(rustHooks.verifySymbolUses(wrap(op)));
}

LogicalResult pto::verifyAttributeInRust(Operation *op, StringRef name,
                                         int64_t regionIndex,
                                         int64_t argIndex) {
  if (failed(requireHooks(op)))
    return failure();
  return unwrap(
      rustHooks.verifyAttribute(wrap(op), wrap(name), regionIndex, argIndex));
}

bool pto::isLegalToInlineInRust(Operation *op, Region *dest) {
  return rustHooks.isLegalToInline &&
         rustHooks.isLegalToInline(wrap(op), wrap(dest->getParentOp()));
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

void pto::getTensorComputeEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  auto isTensor = [](Type type) {
    return isa<pl::TensorType, pld::DistributedTensorType>(type);
  };
  if (llvm::any_of(op->getOperandTypes(), isTensor))
    effects.emplace_back(MemoryEffects::Read::get());
  for (OpResult result : op->getResults())
    if (isTensor(result.getType()))
      effects.emplace_back(MemoryEffects::Allocate::get(), result);
}
