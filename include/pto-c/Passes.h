/*===- pto-c/Passes.h - C API of the pl and pld passes -------------------===*\
|*                                                                            *|
|* Exported by libpto_mlir.so.                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTO_C_PASSES_H
#define PTO_C_PASSES_H

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every pl/pld pass in MLIR's global pass registry, so that
/// mlirParsePassPipeline and mlirOpPassManagerAddPipeline accept them by
/// name (e.g. "pld-specialize-nranks{nranks=4}"). Idempotent.
void ptoRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif // PTO_C_PASSES_H
