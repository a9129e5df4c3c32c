// A pass and dialect plugin for test/CLI/plugins.test: a pass that tags the
// module and a dialect `clitest` that accepts any op.

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

using namespace mlir;

namespace {
struct TagModulePass
    : public PassWrapper<TagModulePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TagModulePass)
  StringRef getArgument() const final { return "clitest-tag-module"; }
  StringRef getDescription() const final { return "Tag the module"; }
  void runOnOperation() override {
    getOperation()->setAttr("clitest.tagged", UnitAttr::get(&getContext()));
  }
};

struct CliTestDialect : public Dialect {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CliTestDialect)
  explicit CliTestDialect(MLIRContext *context)
      : Dialect(getDialectNamespace(), context, TypeID::get<CliTestDialect>()) {
    allowUnknownOperations();
  }
  static StringRef getDialectNamespace() { return "clitest"; }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "CliTestPasses", "0.1",
          [] { PassRegistration<TagModulePass>(); }};
}

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "CliTestDialect", "0.1",
          [](DialectRegistry *registry) { registry->insert<CliTestDialect>(); }};
}
