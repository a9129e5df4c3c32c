//===- PLDialect.td - the pl dialect record ----------------*- tablegen -*-===//
//
// The dialect record only, so that every other .td file can include it
// without pulling in the ops.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_DIALECT_TD
#define PTO_PL_DIALECT_TD

include "mlir/IR/OpBase.td"
include "PTOOpInfo.td"

def PL_Dialect : Dialect {
  let name = "pl";
  let summary = "The PyPTO core tile language: tensors in global memory, tiles on chip";
  let description = [{
    `pl` models single-chip programs for Ascend a2a3 NPUs. A `!pl.tensor` lives
    in global memory (GM/DDR); a `!pl.tile` lives in one on-chip buffer (the
    unified buffer `vec`, L1 `mat`, L0A `left`, L0B `right`, L0C `acc`, the
    bias table `bias`). Kernels move data GM -> tile, compute on tiles, and
    store tiles back; orchestration functions dispatch kernels.

    Rules that ODS constraints cannot express (legal memory-space pairs,
    dtype sets, shape contracts) are checked by the Rust verifier that every
    op's `verify()` reaches through one C ABI entry, so the same rules hold
    in `pto-opt`, in stock `mlir-opt` with the plugin, and for embedders.
  }];
  let cppNamespace = "::pto::pl";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // pl.kind / pl.level / pl.role on functions and pl.direction on their
  // arguments are checked in Rust (dialects/src/verify/functions.rs).
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  // Folders (dialects/cpp/Folds.cpp) that fold to a constant get it as an
  // arith.constant.
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

// Every op's semantic rules run in Rust (dialects/src/verify/) through this
// trait, after ODS has checked operand and attribute kinds.
def PL_RustVerified : NativeOpTrait<"RustVerified"> {
  let cppNamespace = "::pto";
}

class PL_Op<string mnemonic, list<Trait> traits = []>
    : Op<PL_Dialect, mnemonic, !listconcat(traits, [PL_RustVerified])>, PTO_OpInfo;

#endif // PTO_PL_DIALECT_TD
