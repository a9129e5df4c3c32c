//===- Parse.cpp - pto-translate's parser entry ----------------------------===//
//
// melior's Module::parse copies its text into a C string (a NUL byte in the
// input panics) and mlirModuleCreateParse names no source buffer. This
// parses the bytes as they are, text or bytecode, with a buffer name for
// the locations (the input path, or <stdin>), as mlir-opt does. Errors are
// reported through the context's diagnostics.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

extern "C" MlirModule ptoGlue_parseModule(MlirContext context,
                                          MlirStringRef source,
                                          MlirStringRef name) {
  mlir::ParserConfig config(unwrap(context));
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(unwrap(source), config,
                                              unwrap(name));
  return wrap(module.release());
}
