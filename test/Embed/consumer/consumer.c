/* Embeds pto-mlir in a C program: registers the dialects and passes, builds
 * and parses pl/pld IR, runs the Rust verifier and a pass pipeline. */

#include "mlir-c/BuiltinAttributes.h"
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

  /* A tile with a view, checked: a valid shape larger than the tile is a
     diagnostic and a null type, not an invalid type. */
  MlirLocation loc = mlirLocationUnknownGet(context);
  int64_t valid[2] = {64, 100};
  MlirType viewed = plTileTypeGetChecked(loc, 2, shape, mlirF32TypeGet(context), PlMemorySpaceVec,
                                         2, valid, PlTileLayoutDefault, PlTileLayoutDefault, 0,
                                         PlPadValueZero);
  printf("viewed tile: ");
  mlirTypePrint(viewed, print_to_stdout, NULL);
  printf("\n");
  int64_t too_wide[2] = {64, 256};
  MlirType invalid = plTileTypeGetChecked(loc, 2, shape, mlirF32TypeGet(context), PlMemorySpaceVec,
                                          2, too_wide, -1, -1, 0, -1);
  printf("invalid tile is null: %d\n", mlirTypeIsNull(invalid));
  MlirType unknown = plTileTypeGetChecked(loc, 2, shape, mlirF32TypeGet(context), 42, 0, NULL, -1,
                                          -1, 0, -1);
  printf("unknown space is null: %d\n", mlirTypeIsNull(unknown));
  int64_t strides[2] = {1, 64};
  MlirType dn = plTensorTypeGetChecked(loc, 2, shape, mlirF16TypeGet(context), PlTensorLayoutDN, 0,
                                       strides, 0, NULL, -1);
  printf("tensor: ");
  mlirTypePrint(dn, print_to_stdout, NULL);
  printf("\n");
  int64_t dshape[2] = {mlirShapedTypeGetDynamicSize(), 1};
  MlirType bound = pldDistributedTensorTypeGetChecked(loc, 2, dshape, mlirIntegerTypeGet(context, 32),
                                                      mlirStringRefCreateFromCString("signal"));
  printf("dtensor: ");
  mlirTypePrint(bound, print_to_stdout, NULL);
  printf(" (is dtensor %d)\n", pldTypeIsADistributedTensor(bound));
  for (int32_t code = PlUnitTypeTaskId; code <= PlUnitTypeWindowBuffer; ++code) {
    MlirType unit = plUnitTypeGet(context, code);
    printf("unit %d: ", plUnitTypeGetCode(unit));
    mlirTypePrint(unit, print_to_stdout, NULL);
    printf("\n");
  }
  MlirAttribute kind = plEnumAttrGet(context, PlEnumAttrKindFunctionKind, PlFunctionKindAIV);
  MlirAttribute split = plEnumAttrGet(context, PlEnumAttrKindSplit, PlCoreSplitLeftRight);
  int32_t which = 0;
  printf("attributes: ");
  mlirAttributePrint(kind, print_to_stdout, NULL);
  printf(" ");
  mlirAttributePrint(split, print_to_stdout, NULL);
  printf(" (value %d", plEnumAttrGetValue(kind, &which));
  printf(", kind %d; unknown code null: %d)\n", which,
         mlirAttributeIsNull(plEnumAttrGet(context, PlEnumAttrKindRole, 9)));

  /* An op built through the generic C API: the context loads the
     registered dialects first. */
  mlirContextLoadAllAvailableDialects(context);
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("pl.tile.create"), loc);
  mlirOperationStateAddResults(&state, 1, &viewed);
  MlirOperation create = mlirOperationCreate(&state);
  printf("built: ");
  mlirOperationPrint(create, print_to_stdout, NULL);
  printf(" (verifies %d)\n", mlirOperationVerify(create));
  mlirOperationDestroy(create);

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
