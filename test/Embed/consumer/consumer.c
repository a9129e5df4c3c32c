/* Embeds pto-mlir in a C program: registers the dialects and passes, builds
 * and parses pl/pld IR, runs the Rust verifier and a pass pipeline. */

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "pto-c/Dialects.h"
#include "pto-c/Passes.h"

#include <stdio.h>
#include <string.h>

static void print_to_stdout(MlirStringRef text, void *user_data) {
  (void)user_data;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirLogicalResult print_diagnostic(MlirDiagnostic diagnostic, void *user_data) {
  (void)user_data;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, print_to_stdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static const char *kProgram =
    "func.func @f(%s: !pld.dtensor<?x1xi32>) -> i32 {\n"
    "  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<?x1xi32>\n"
    "  %n = pld.system.nranks %ctx : i32\n"
    "  return %n : i32\n"
    "}\n";

static const char *kBadMove =
    "func.func @g(%l: !pl.tile<16x16xi32, left>) {\n"
    "  %r = pl.tile.move %l : !pl.tile<16x16xi32, left> -> !pl.tile<16x16xi32, right>\n"
    "  return\n"
    "}\n";

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  ptoRegisterDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(context, print_diagnostic, NULL, NULL);
  mlirRegisterAllPasses();
  ptoRegisterPasses();

  /* A type built through the C API. */
  int64_t shape[2] = {64, 128};
  MlirType tile = plTileTypeGet(context, 2, shape, mlirF16TypeGet(context), PlMemorySpaceVec);
  printf("tile type: ");
  mlirTypePrint(tile, print_to_stdout, NULL);
  printf(" (space %d, is tile %d)\n", plTileTypeGetMemorySpace(tile), plTypeIsATile(tile));

  /* The Rust verifier, reached through the dialect's verify() hook. */
  MlirModule bad = mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kBadMove));
  printf("bad module parsed: %d\n", !mlirModuleIsNull(bad));

  /* A pipeline with a Rust pass next to an upstream one. */
  MlirModule module = mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kProgram));
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm, mlirStringRefCreateFromCString("builtin.module(func.func(pld-specialize-nranks{nranks=8}),canonicalize)"),
      print_to_stdout, NULL);
  if (mlirLogicalResultIsFailure(parsed))
    return 1;
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return 1;
  mlirOperationPrint(mlirModuleGetOperation(module), print_to_stdout, NULL);
  printf("\n");

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return 0;
}
