//===- PLTypes.td - pl types -------------------------------*- tablegen -*-===//

#ifndef PTO_PL_TYPES_TD
#define PTO_PL_TYPES_TD

include "PLAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class PL_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<PL_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def PL_TensorType : PL_Type<"Tensor", "tensor", [ShapedTypeInterface]> {
  let summary = "A tensor in global memory (GM/DDR)";
  let description = [{
    A row-major tensor in global memory: a shape whose dimensions are static
    or dynamic (`?`), and an element type. Example:

    ```mlir
    !pl.tensor<?x128xf16>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "dimensions; ShapedType::kDynamic for `?`">:$shape,
    "::mlir::Type":$elementType
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
  }];
}

def PL_TileType : PL_Type<"Tile", "tile", [ShapedTypeInterface]> {
  let summary = "A tile in an on-chip buffer";
  let description = [{
    A tile is a static-shaped block of elements held in one on-chip buffer.
    The memory space is optional until memory-space inference assigns one.
    Examples:

    ```mlir
    !pl.tile<64x128xf16>          // space not yet inferred
    !pl.tile<64x128xf16, vec>     // unified buffer (UB)
    !pl.tile<16x16xf32, acc>      // L0C accumulator
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "static dimensions">:$shape,
    "::mlir::Type":$elementType,
    "std::optional<::pto::pl::MemorySpace>":$memorySpace
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
  }];
}

def PL_AnyTile : Type<CPred<"::llvm::isa<::pto::pl::TileType>($_self)">,
                      "pl tile", "::pto::pl::TileType">;
def PL_AnyTensor : Type<CPred<"::llvm::isa<::pto::pl::TensorType>($_self)">,
                        "pl tensor", "::pto::pl::TensorType">;

#endif // PTO_PL_TYPES_TD
