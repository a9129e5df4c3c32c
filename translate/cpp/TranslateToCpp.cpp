//===- TranslateToCpp.cpp - pto-translate's bridge to the C++ emitter -----===//
//
// MLIR's C API has no entry for the EmitC C++ emitter: this one function
// prints an operation (a module of EmitC) with mlir::emitc::translateToCpp
// and hands the text to a Rust callback. Errors are reported through the
// context's diagnostics.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

extern "C" bool ptoGlue_translateToCpp(MlirOperation op,
                                       void (*callback)(const char *, size_t,
                                                        void *),
                                       void *userData) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool ok = mlir::succeeded(mlir::emitc::translateToCpp(
      unwrap(op), os, /*declareVariablesAtTop=*/false));
  os.flush();
  callback(text.data(), text.size(), userData);
  return ok;
}
