//===- PLDTypes.td - pld types -----------------------------*- tablegen -*-===//

#ifndef PTO_PLD_TYPES_TD
#define PTO_PLD_TYPES_TD

include "PLDAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class PLD_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<PLD_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def PLD_DistributedTensorType : PLD_Type<"DistributedTensor", "dtensor", [ShapedTypeInterface]> {
  let summary = "A window-bound tensor with one copy per rank";
  let description = [{
    A tensor placed in the symmetric window memory of a comm domain: every
    rank holds a copy of the same shape at the same window offset. It is a
    kind of its own, distinct from `!pl.tensor`. Dimensions are static or
    dynamic (`?`); a rank-count dimension is usually dynamic. Example:

    ```mlir
    !pld.dtensor<?x1xi32>      // a mesh signal: one i32 cell per rank
    !pld.dtensor<4x256xf32>
    !pld.dtensor<4x256xf32, window = "buf">   // bound to window buffer `buf`

    The binding (set when comm domains are materialised) names the window
    buffer the tensor views; two types differing only in it are distinct.
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "dimensions; ShapedType::kDynamic for `?`">:$shape,
    "::mlir::Type":$elementType,
    OptionalParameter<"::mlir::StringAttr", "the window buffer it is bound to">:$window
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType), [{
      return $_get($_ctxt, shape, elementType, ::mlir::StringAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
  }];
}

def PLD_CommCtxType : PLD_Type<"CommCtx", "comm_ctx"> {
  let summary = "Handle to the runtime comm context of one domain on one device";
  let description = [{
    Produced by `pld.system.get_comm_ctx`; gives the domain-local rank id
    (`pld.system.rank`) and the domain size (`pld.system.nranks`). Example:

    ```mlir
    !pld.comm_ctx
    ```
  }];
}

def PLD_WindowBufferType : PLD_Type<"WindowBuffer", "window_buffer"> {
  let summary = "A symmetric window buffer of a comm domain";
  let description = [{
    The per-rank allocation a comm domain carves out of every rank's window
    at the same offset; comm-domain scopes list theirs. Example:

    ```mlir
    !pld.window_buffer
    ```
  }];
}

def PLD_AnyDistributedTensor
    : Type<CPred<"::llvm::isa<::pto::pld::DistributedTensorType>($_self)">,
           "pld distributed tensor", "::pto::pld::DistributedTensorType">;

// pl types used by pld ops (declared by the pl dialect; no .td include, so
// the generated pld code does not repeat pl's enums).
def PLD_PlTile : Type<CPred<"::llvm::isa<::pto::pl::TileType>($_self)">,
                      "pl tile", "::pto::pl::TileType">;
def PLD_PlTensor : Type<CPred<"::llvm::isa<::pto::pl::TensorType>($_self)">,
                        "pl tensor", "::pto::pl::TensorType">;
def PLD_PlPtr : Type<CPred<"::llvm::isa<::pto::pl::PtrType>($_self)">,
                     "pl ptr", "::pto::pl::PtrType">;
def PLD_TensorLike : AnyTypeOf<[PLD_PlTensor, PLD_AnyDistributedTensor],
                               "pl tensor or pld distributed tensor">;

#endif // PTO_PLD_TYPES_TD
