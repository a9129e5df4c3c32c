/*===- pto-c/Dialects.h - C API of the pl and pld dialects ---------------===*\
|*                                                                            *|
|* Exported by libpto_mlir.so. Use with the MLIR C API of LLVM/MLIR 22        *|
|* (mlir-c/IR.h), linked as the shared libMLIR.so and libMLIR-C.so.           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTO_C_DIALECTS_H
#define PTO_C_DIALECTS_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The `pl` dialect (tensors in global memory, tiles on chip).
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(PL, pl);
/// The `pld` dialect (ranks, windows, signals, collectives).
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(PLD, pld);

/// Inserts `pl` and `pld` into `registry`. A context the registry is
/// appended to must also load them (mlirContextLoadAllAvailableDialects, or
/// mlirDialectHandleLoadDialect per dialect) before ops are built through
/// mlirOperationCreate: the generic C API does not load a registered
/// dialect on its own, and an op of an unloaded dialect is refused.
/// Parsing loads them as it goes. The type and attribute constructors
/// below load their dialect themselves.
void ptoRegisterDialects(MlirDialectRegistry registry);

/// Memory spaces of a tile (the `pl.MemorySpace` codes).
enum PlMemorySpace {
  PlMemorySpaceNone = -1,
  PlMemorySpaceDDR = 0,
  PlMemorySpaceVec = 1,
  PlMemorySpaceMat = 2,
  PlMemorySpaceLeft = 3,
  PlMemorySpaceRight = 4,
  PlMemorySpaceAcc = 5,
  PlMemorySpaceBias = 6,
  PlMemorySpaceScalarLocal = 7,
  PlMemorySpaceLeftScale = 8,
  PlMemorySpaceRightScale = 9,
};

/// Returns `!pl.tile<shape x element[, space]>`; `memorySpace` < 0: none.
MlirType plTileTypeGet(MlirContext context, intptr_t rank, const int64_t *shape,
                       MlirType element, int32_t memorySpace);
/// Whether `type` is a `!pl.tile`.
bool plTypeIsATile(MlirType type);
/// The memory space code of a `!pl.tile`, or -1 when it has none.
int32_t plTileTypeGetMemorySpace(MlirType type);
/// Returns `!pl.tensor<shape x element>`; dynamic dims are INT64_MIN
/// (mlirShapedTypeGetDynamicSize()).
MlirType plTensorTypeGet(MlirContext context, intptr_t rank,
                         const int64_t *shape, MlirType element);
/// Returns `!pld.dtensor<shape x element>`; dynamic dims as above.
MlirType pldDistributedTensorTypeGet(MlirContext context, intptr_t rank,
                                     const int64_t *shape, MlirType element);
/// Returns `!pld.comm_ctx`.
MlirType pldCommCtxTypeGet(MlirContext context);

/* Types with every parameter. The checked constructors return a null type
   (mlirTypeIsNull) and emit a diagnostic at `location` when the arguments
   make no valid type (an unknown enum code, a valid shape larger than the
   shape, a layout the element type cannot take, ...). */

/// Tile block/scatter layouts (`#pl` TileLayout codes).
enum PlTileLayout {
  PlTileLayoutDefault = -1,
  PlTileLayoutNoneBox = 0,
  PlTileLayoutRowMajor = 1,
  PlTileLayoutColMajor = 2,
};
/// Tensor layouts (TensorLayout codes).
enum PlTensorLayout {
  PlTensorLayoutDefault = -1,
  PlTensorLayoutND = 0,
  PlTensorLayoutDN = 1,
  PlTensorLayoutNZ = 2,
  PlTensorLayoutMxAZz = 3,
  PlTensorLayoutMxBNn = 4,
};
/// What fills the invalid region of a tile or tensor (PadValue codes).
enum PlPadValue {
  PlPadValueDefault = -1,
  PlPadValueNull = 0,
  PlPadValueZero = 1,
  PlPadValueMax = 2,
  PlPadValueMin = 3,
};

/// Returns `!pl.tile<shape x element, space, valid=..., blayout=...,
/// slayout=..., fractal=..., pad=...>` in canonical form. `memorySpace`,
/// `blayout`, `slayout`, `pad` < 0 and `fractal` 0 mean the implicit value;
/// `validRank` 0 means the whole tile, else it equals `rank` (dynamic
/// valid extents are INT64_MIN).
MlirType plTileTypeGetChecked(MlirLocation location, intptr_t rank,
                              const int64_t *shape, MlirType element,
                              int32_t memorySpace, intptr_t validRank,
                              const int64_t *validShape, int32_t blayout,
                              int32_t slayout, uint64_t fractal, int32_t pad);
/// Returns `!pl.tensor<shape x element, layout, strides=..., valid=...,
/// pad=...>` in canonical form; `layout`, `pad` < 0, no strides and no
/// valid extents mean the defaults.
MlirType plTensorTypeGetChecked(MlirLocation location, intptr_t rank,
                                const int64_t *shape, MlirType element,
                                int32_t layout, intptr_t numStrides,
                                const int64_t *strides, intptr_t validRank,
                                const int64_t *validShape, int32_t pad);
/// Returns `!pld.dtensor<shape x element>` bound to the window buffer named
/// `window` (an empty string: unbound).
MlirType pldDistributedTensorTypeGetChecked(MlirLocation location,
                                            intptr_t rank,
                                            const int64_t *shape,
                                            MlirType element,
                                            MlirStringRef window);
/// Returns `!pl.array<element, extent>`.
MlirType plArrayTypeGetChecked(MlirLocation location, MlirType element,
                               int64_t extent);

/// The pl and pld types without parameters.
enum PlUnitType {
  PlUnitTypeTaskId = 0,          ///< !pl.task_id
  PlUnitTypePtr = 1,             ///< !pl.ptr
  PlUnitTypePrefetchContext = 2, ///< !pl.prefetch_context
  PlUnitTypeAsyncEvent = 3,      ///< !pl.async_event
  PlUnitTypeAsyncSession = 4,    ///< !pl.async_session
  PlUnitTypeHiFloat8 = 5,        ///< !pl.hf8
  PlUnitTypeHiFloat4 = 6,        ///< !pl.hf4
  PlUnitTypeCommCtx = 7,         ///< !pld.comm_ctx
  PlUnitTypeWindowBuffer = 8,    ///< !pld.window_buffer
};
/// Returns the unit type `code` (PlUnitType), or a null type.
MlirType plUnitTypeGet(MlirContext context, int32_t code);
/// The PlUnitType code of `type`, or -1.
int32_t plUnitTypeGetCode(MlirType type);

/// Whether `type` is a `!pl.tensor`.
bool plTypeIsATensor(MlirType type);
/// Whether `type` is a `!pl.array`.
bool plTypeIsAnArray(MlirType type);
/// Whether `type` is a `!pld.dtensor`.
bool pldTypeIsADistributedTensor(MlirType type);

/* Attributes. The op attributes of pl's enums (memory spaces, layouts,
   rounding, comparison, ...) are builtin i32 integer attributes holding the
   codes above: build them with mlirIntegerAttrGet. */

/// The pl enum attributes.
enum PlEnumAttrKind {
  PlEnumAttrKindNone = 0,
  PlEnumAttrKindFunctionKind = 1, ///< #pl.kind<...>, PlFunctionKind
  PlEnumAttrKindLevel = 2,        ///< #pl.level<...>, PlLevel
  PlEnumAttrKindRole = 3,         ///< #pl.role<...>, PlRole
  PlEnumAttrKindDirection = 4,    ///< #pl.direction<...>, PlParamDirection
  PlEnumAttrKindSplit = 5,        ///< #pl.split<...>, PlCoreSplit
};
enum PlFunctionKind {
  PlFunctionKindOpaque = 0,
  PlFunctionKindOrchestration = 1,
  PlFunctionKindInCore = 2,
  PlFunctionKindAIC = 3,
  PlFunctionKindAIV = 4,
  PlFunctionKindGroup = 5,
  PlFunctionKindSpmd = 6,
  PlFunctionKindInline = 7,
  PlFunctionKindGraph = 8,
};
enum PlLevel {
  PlLevelAIV = 0,
  PlLevelAIC = 1,
  PlLevelCoreGroup = 2,
  PlLevelChipDie = 3,
  PlLevelChip = 4,
  PlLevelHost = 5,
  PlLevelCluster0 = 6,
  PlLevelCluster1 = 7,
  PlLevelCluster2 = 8,
  PlLevelGlobal = 9,
};
enum PlRole { PlRoleOrchestrator = 0, PlRoleSubWorker = 1 };
enum PlParamDirection {
  PlParamDirectionIn = 0,
  PlParamDirectionOut = 1,
  PlParamDirectionInOut = 2,
};
enum PlCoreSplit {
  PlCoreSplitNone = 0,
  PlCoreSplitUpDown = 1,
  PlCoreSplitLeftRight = 2,
};
/// Returns the enum attribute of kind `kind` (PlEnumAttrKind) with value
/// `code`, or a null attribute for an unknown kind or code.
MlirAttribute plEnumAttrGet(MlirContext context, int32_t kind, int32_t code);
/// The value of a pl enum attribute (live, not null), or -1 when it is
/// none; `*kind` (when `kind` is not null) receives its PlEnumAttrKind.
int32_t plEnumAttrGetValue(MlirAttribute attribute, int32_t *kind);

#ifdef __cplusplus
}
#endif

#endif // PTO_C_DIALECTS_H
