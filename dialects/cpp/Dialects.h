//===- Dialects.h - C++ declarations of the pl and pld dialects -*- C++ -*-===//
//
// Glue only: includes what mlir-tblgen generated from dialects/td and the
// few helpers the generated code and the C API share. Semantic rules live
// in Rust (dialects/src/verify/), reached through ptoVerifyOperation.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_DIALECTS_H
#define PTO_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/InliningUtils.h"

extern "C" {
/// The Rust functions the glue calls (dialects/src/ir/hooks.rs), handed
/// over as pointers so that libpto_mlir.so need not export them.
typedef struct PtoDialectHooks {
  MlirLogicalResult (*verifyOperation)(MlirOperation op);
  MlirLogicalResult (*verifySymbolUses)(MlirOperation op);
  MlirLogicalResult (*verifyAttribute)(MlirOperation op, MlirStringRef name,
                                       int64_t regionIndex, int64_t argIndex);
  bool (*isLegalToInline)(MlirOperation op, MlirOperation destParent);
} PtoDialectHooks;

/// Installs `hooks` (copied).
void ptoGlue_setDialectHooks(const PtoDialectHooks *hooks);
}

namespace pto {

/// Runs the Rust verifier on `op` (the rules the op descriptions in
/// docs/dialects/ state); diagnostics are emitted at the op.
mlir::LogicalResult verifyInRust(mlir::Operation *op);

/// Runs the Rust checks of the symbols `op` refers to (callees).
mlir::LogicalResult verifySymbolUsesInRust(mlir::Operation *op);

/// Runs the Rust checks of the dialect attribute `name` on `op` (or, with
/// `argIndex` >= 0, on that argument of region `regionIndex`).
mlir::LogicalResult verifyAttributeInRust(mlir::Operation *op,
                                          llvm::StringRef name,
                                          int64_t regionIndex, int64_t argIndex);

/// The op trait that routes verification to Rust (ODS: PL_RustVerified).
template <typename ConcreteType>
class RustVerified
    : public mlir::OpTrait::TraitBase<ConcreteType, RustVerified> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyInRust(op);
  }
};

/// Whether `op` (with the ops it nests) may be inlined into `dest`: the
/// rules of the function kind the region belongs to, in Rust
/// (dialects/src/verify/functions.rs).
bool isLegalToInlineInRust(mlir::Operation *op, mlir::Region *dest);

/// The pl and pld inliner interface: the upstream inliner (and
/// pl-inline-functions) may splice pl/pld ops into any region whose
/// function kind admits them. Their calls (pl.call, pld.dispatch) are
/// tasks, run by other cores or another device, and are never inlined.
struct DialectInliner : public mlir::DialectInlinerInterface {
  using mlir::DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(mlir::Operation *call, mlir::Operation *,
                       bool) const final {
    return !mlir::isa<mlir::CallOpInterface>(call);
  }
  bool isLegalToInline(mlir::Region *, mlir::Region *, bool,
                       mlir::IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(mlir::Operation *op, mlir::Region *dest, bool,
                       mlir::IRMapping &) const final {
    return isLegalToInlineInRust(op, dest);
  }
};

/// The on-chip buffers pl-plan-memory places tiles in. Once a function is
/// planned, tile ops read and write this resource (see PL_PlannedBufferEffects
/// in dialects/td/PLTraits.td).
struct PlannedBufferResource
    : public mlir::SideEffects::Resource::Base<PlannedBufferResource> {
  llvm::StringRef getName() final { return "pl.planned_buffer"; }
};

/// Whether `op`'s tiles have addresses: the op carries `pl.addresses`, or
/// it sits in a function pl-plan-memory has planned (`pl.memory`).
bool isPlanned(mlir::Operation *op);

/// The effects of a tile op: on the default resource as `global` says (bit
/// 0 read, bit 1 write), and, once planned, reads of its tile operands' and
/// writes of its tile results' buffers.
void getPlannedBufferEffects(
    mlir::Operation *op, unsigned global,
    llvm::SmallVectorImpl<
        mlir::SideEffects::EffectInstance<mlir::MemoryEffects::Effect>>
        &effects);

/// The op trait behind PL_PlannedBufferEffects<global>: implements
/// MemoryEffectOpInterface and ConditionallySpeculatable for tile ops.
template <unsigned Global> struct PlannedBufferEffects {
  template <typename ConcreteType>
  class Impl : public mlir::OpTrait::TraitBase<ConcreteType, Impl> {
  public:
    void getEffects(
        llvm::SmallVectorImpl<
            mlir::SideEffects::EffectInstance<mlir::MemoryEffects::Effect>>
            &effects) {
      getPlannedBufferEffects(this->getOperation(), Global, effects);
    }
    mlir::Speculation::Speculatability getSpeculatability() {
      if (Global != 0 || isPlanned(this->getOperation()))
        return mlir::Speculation::NotSpeculatable;
      return mlir::Speculation::Speculatable;
    }
  };
};

/// The effects of a tensor computation (ODS PL_TensorCompute): a read of
/// memory when it has tensor operands, an allocation of each tensor result.
void getTensorComputeEffects(
    mlir::Operation *op,
    llvm::SmallVectorImpl<
        mlir::SideEffects::EffectInstance<mlir::MemoryEffects::Effect>>
        &effects);

/// ODS PL_TensorComputeEffects: MemoryEffectOpInterface of a tensor
/// computation.
template <typename ConcreteType>
class TensorComputeEffects
    : public mlir::OpTrait::TraitBase<ConcreteType, TensorComputeEffects> {
public:
  void getEffects(
      llvm::SmallVectorImpl<
          mlir::SideEffects::EffectInstance<mlir::MemoryEffects::Effect>>
          &effects) {
    getTensorComputeEffects(this->getOperation(), effects);
  }
};

/// ODS PL_ViewOfFirstOperand: the view a ViewLikeOpInterface op makes is of
/// its first operand.
template <typename ConcreteType>
class ViewOfFirstOperand
    : public mlir::OpTrait::TraitBase<ConcreteType, ViewOfFirstOperand> {
public:
  mlir::Value getViewSource() { return this->getOperation()->getOperand(0); }
};

/// ODS PL_TaskCallMethods: CallOpInterface over an op's `callee` symbol and
/// `args` operands. Task calls carry no argument or result attributes.
template <typename ConcreteType>
class TaskCall : public mlir::OpTrait::TraitBase<ConcreteType, TaskCall> {
  ConcreteType self() { return mlir::cast<ConcreteType>(this->getOperation()); }

public:
  mlir::CallInterfaceCallable getCallableForCallee() {
    return self().getCalleeAttr();
  }
  void setCalleeFromCallable(mlir::CallInterfaceCallable callee) {
    self().setCalleeAttr(mlir::cast<mlir::FlatSymbolRefAttr>(
        mlir::cast<mlir::SymbolRefAttr>(callee)));
  }
  mlir::Operation::operand_range getArgOperands() { return self().getArgs(); }
  mlir::MutableOperandRange getArgOperandsMutable() {
    return self().getArgsMutable();
  }
  mlir::ArrayAttr getArgAttrsAttr() { return nullptr; }
  mlir::ArrayAttr getResAttrsAttr() { return nullptr; }
  void setArgAttrsAttr(mlir::ArrayAttr) {}
  void setResAttrsAttr(mlir::ArrayAttr) {}
  mlir::Attribute removeArgAttrsAttr() { return nullptr; }
  mlir::Attribute removeResAttrsAttr() { return nullptr; }
};

} // namespace pto

#include "PLEnums.h.inc"
#include "PLDialect.h.inc"
#define GET_ATTRDEF_CLASSES
#include "PLAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "PLTypes.h.inc"
#define GET_OP_CLASSES
#include "PLOps.h.inc"

#include "PLDEnums.h.inc"
#include "PLDDialect.h.inc"
#define GET_TYPEDEF_CLASSES
#include "PLDTypes.h.inc"
#define GET_OP_CLASSES
#include "PLDOps.h.inc"

namespace pto {

/// Parses `<dims x element-type` (the opening `<` already consumed).
mlir::ParseResult parseShapeAndElementType(mlir::AsmParser &parser,
                                           llvm::SmallVectorImpl<int64_t> &shape,
                                           mlir::Type &elementType,
                                           bool allowDynamic);

/// Prints `dims x element-type` (no angle brackets).
void printShapeAndElementType(mlir::AsmPrinter &printer,
                              llvm::ArrayRef<int64_t> shape,
                              mlir::Type elementType);

/// Element types a pl/pld shaped type may hold: integers, index, floats,
/// the HiFloat formats.
bool isScalarElementType(mlir::Type type);

/// Whether elements of `type` are 4 bits, packed two per byte.
bool isPackedFourBit(mlir::Type type);

} // namespace pto

#endif // PTO_DIALECTS_H
