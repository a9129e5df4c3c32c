// An out-of-tree mlir-opt with the pl/pld dialects and passes: upstream's
// func, arith and scf dialects and its transform passes (canonicalize,
// cse, inline, ...), plus pto-mlir's dialects and passes through its C
// API, in MlirOptMain.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "pto-c/Dialects.h"
#include "pto-c/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::scf::SCFDialect>();
  ptoRegisterDialects(wrap(&registry));
  mlir::registerTransformsPasses();
  ptoRegisterPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "my-opt: mlir-opt with pl and pld\n", registry));
}
