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

/// Inserts `pl` and `pld` into `registry`.
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

#ifdef __cplusplus
}
#endif

#endif // PTO_C_DIALECTS_H
