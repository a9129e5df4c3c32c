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
    A tensor in global memory: a shape whose dimensions are static or
    dynamic (`?`) and an element type, plus an optional view:

    - a layout: `nd` (row-major, the default), `dn` (last two axes
      swapped), or the A5 MX layouts; `nz` is tile-only;
    - `strides`: the element step of each axis (`?` where dynamic); absent:
      packed for the layout;
    - `valid`: the extents holding data (default: all);
    - `pad`: what fills the rest (`null`, `zero`, `max`, `min`).

    A view equal to the default (nd, packed, fully valid, no pad) is not
    stored, so `!pl.tensor<4x8xf32, nd>` is `!pl.tensor<4x8xf32>`.
    Examples:

    ```mlir
    !pl.tensor<?x128xf16>
    !pl.tensor<128x64xf16, dn>
    !pl.tensor<64x64xf32, strides = [128, 1], valid = ?x64, pad = zero>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "dimensions; ShapedType::kDynamic for `?`">:$shape,
    "::mlir::Type":$elementType,
    "std::optional<::pto::pl::TensorLayout>":$layout,
    ArrayRefParameter<"int64_t", "strides; empty: packed for the layout">:$strides,
    ArrayRefParameter<"int64_t", "valid extents; empty: the whole tensor">:$validShape,
    "std::optional<::pto::pl::PadValue>":$pad
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;

    /// Returns the canonical tensor type: a valid shape equal to the shape
    /// and the nd layout and null pad are dropped.
    static TensorType getCanonical(::mlir::MLIRContext *context,
        ::llvm::ArrayRef<int64_t> shape, ::mlir::Type elementType,
        std::optional<TensorLayout> layout = std::nullopt,
        ::llvm::ArrayRef<int64_t> strides = {},
        ::llvm::ArrayRef<int64_t> validShape = {},
        std::optional<PadValue> pad = std::nullopt);
    static TensorType getCanonicalChecked(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        ::mlir::MLIRContext *context, ::llvm::ArrayRef<int64_t> shape,
        ::mlir::Type elementType, std::optional<TensorLayout> layout,
        ::llvm::ArrayRef<int64_t> strides, ::llvm::ArrayRef<int64_t> validShape,
        std::optional<PadValue> pad);
  }];
}

def PL_TileType : PL_Type<"Tile", "tile", [ShapedTypeInterface]> {
  let summary = "A tile in an on-chip buffer";
  let description = [{
    A tile is a static-shaped block of elements held in one on-chip buffer.
    The memory space is optional until memory-space inference assigns one.
    A tile also has a view:

    - `valid`: the extents holding data (`?` where only known at run time;
      default: the whole tile); data outside is undefined unless padded;
    - `blayout`, `slayout`: block and scatter (inner-box) layout, each
      `none_box`, `row_major` or `col_major`;
    - `fractal`: the inner box size in bytes (32, 512 or 1024);
    - `pad`: what fills the invalid region (`null`, `zero`, `max`, `min`).

    Every field has an implicit value that depends on the memory space
    (e.g. `mat` is col_major/row_major/512, the "NZ" fractal layout; `acc`
    uses 1024-byte boxes; `vec` is row_major, or col_major for a `[R, 1]`
    column). A type stores only the fields that differ from the implicit
    view, so equal views are equal types; the parser drops fields written
    with their implicit value. Examples:

    ```mlir
    !pl.tile<64x128xf16>                           // space not yet inferred
    !pl.tile<64x128xf16, vec>                      // unified buffer (UB)
    !pl.tile<16x16xf32, acc>                       // L0C accumulator
    !pl.tile<64x128xf16, vec, valid = ?x100, pad = zero>
    !pl.tile<64x1xf32, vec>                        // a column: col_major blocks
    !pl.tile<1x64xf16, mat, blayout = row_major, slayout = none_box>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "static dimensions">:$shape,
    "::mlir::Type":$elementType,
    "std::optional<::pto::pl::MemorySpace>":$memorySpace,
    ArrayRefParameter<"int64_t", "valid extents; empty: the whole tile">:$validShape,
    "std::optional<::pto::pl::TileLayout>":$blayout,
    "std::optional<::pto::pl::TileLayout>":$slayout,
    "uint64_t":$fractal,
    "std::optional<::pto::pl::PadValue>":$pad
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;

    /// Returns the canonical tile type: view fields equal to the implicit
    /// view of the memory space and a valid shape equal to the shape are
    /// dropped.
    static TileType getCanonical(::mlir::MLIRContext *context,
        ::llvm::ArrayRef<int64_t> shape, ::mlir::Type elementType,
        std::optional<MemorySpace> memorySpace,
        ::llvm::ArrayRef<int64_t> validShape = {},
        std::optional<TileLayout> blayout = std::nullopt,
        std::optional<TileLayout> slayout = std::nullopt, uint64_t fractal = 0,
        std::optional<PadValue> pad = std::nullopt);
    static TileType getCanonicalChecked(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        ::mlir::MLIRContext *context, ::llvm::ArrayRef<int64_t> shape,
        ::mlir::Type elementType, std::optional<MemorySpace> memorySpace,
        ::llvm::ArrayRef<int64_t> validShape, std::optional<TileLayout> blayout,
        std::optional<TileLayout> slayout, uint64_t fractal,
        std::optional<PadValue> pad);

    /// The view fields in effect (explicit, else implicit).
    ::llvm::SmallVector<int64_t> getEffectiveValidShape() const;
    TileLayout getEffectiveBLayout() const;
    TileLayout getEffectiveSLayout() const;
    uint64_t getEffectiveFractal() const;
    PadValue getEffectivePad() const;
  }];
}

def PL_TaskIdType : PL_Type<"TaskId", "task_id"> {
  let summary = "Handle of a submitted task";
  let description = [{
    Returned by `pl.submit`; passed to later submissions as a dependency.
    Opaque: no arithmetic. Example:

    ```mlir
    !pl.task_id
    ```
  }];
}

def PL_ArrayType : PL_Type<"Array", "array"> {
  let summary = "A small array of integers or task ids";
  let description = [{
    A fixed number (`extent`, positive) of integers (any width, `index`,
    `i1`) or task ids (`!pl.task_id`), held in a core's scalar registers or
    on its stack: counters of a kernel's scalar loops, the task ids an
    orchestration fans in. Arrays are values: `pl.array.update_element`
    makes a new one and leaves its operand as it was (the lowerings update
    in place where nothing reads the operand afterwards, and copy
    elsewhere). An array is made, read and updated in
    one function: no parameter or result is one. Examples:

    ```mlir
    !pl.array<i32, 8>
    !pl.array<!pl.task_id, 4>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType, "int64_t":$extent);
  let assemblyFormat = "`<` $elementType `,` $extent `>`";
  let genVerifyDecl = 1;
}

def PL_PtrType : PL_Type<"Ptr", "ptr"> {
  let summary = "The identity of an on-chip allocation";
  let description = [{
    Returned by `pl.tile.alloc`: the buffer that memory planning places and
    tiles are assigned to. Example:

    ```mlir
    !pl.ptr
    ```
  }];
}

def PL_PrefetchContextType : PL_Type<"PrefetchContext", "prefetch_context"> {
  let summary = "A vector core's context for asynchronous L2 prefetches";
  let description = [{
    Returned by `pl.prefetch.make_context`: the state pto-isa's
    TPREFETCH_ASYNC keeps between prefetches (a session with the SDMA
    engine). Opaque. Example:

    ```mlir
    !pl.prefetch_context
    ```
  }];
}

def PL_AsyncEventType : PL_Type<"AsyncEvent", "async_event"> {
  let summary = "The completion of one asynchronous prefetch";
  let description = [{
    Returned by `pl.prefetch.async_prefetch`, waited for by
    `pl.prefetch.wait`. Opaque. Example:

    ```mlir
    !pl.async_event
    ```
  }];
}

def PL_AsyncSessionType : PL_Type<"AsyncSession", "async_session"> {
  let summary = "The SDMA session of a prefetch context";
  let description = [{
    Returned by `pl.prefetch.session`, the session an event is waited for
    in. Opaque. Example:

    ```mlir
    !pl.async_session
    ```
  }];
}

def PL_HiFloat8Type : PL_Type<"HiFloat8", "hf8"> {
  let summary = "The 8-bit HiFloat element type (HF8)";
  let description = [{
    Hisilicon's 8-bit float format, as an element type of tensors and tiles.
    Example:

    ```mlir
    !pl.tile<32x32x!pl.hf8>
    ```
  }];
}

def PL_HiFloat4Type : PL_Type<"HiFloat4", "hf4"> {
  let summary = "The 4-bit HiFloat element type (HF4)";
  let description = [{
    Hisilicon's 4-bit float format, packed two per byte. Example:

    ```mlir
    !pl.tensor<64x!pl.hf4>
    ```
  }];
}

def PL_AnyTile : Type<CPred<"::llvm::isa<::pto::pl::TileType>($_self)">,
                      "pl tile", "::pto::pl::TileType">;
def PL_AnyTensor : Type<CPred<"::llvm::isa<::pto::pl::TensorType>($_self)">,
                        "pl tensor", "::pto::pl::TensorType">;

// A tensor in global memory: a plain pl tensor or a window-bound pld
// distributed tensor (the local copy), as PyPTO's "tensor-like".
def PL_TensorLike : AnyTypeOf<[PL_AnyTensor,
    Type<CPred<"::llvm::isa<::pto::pld::DistributedTensorType>($_self)">,
         "pld distributed tensor", "::pto::pld::DistributedTensorType">],
    "pl tensor or pld distributed tensor">;

def PL_Scalar : AnyTypeOf<[AnyInteger, Index, AnyFloat], "scalar">;

#endif // PTO_PL_TYPES_TD
