//===- OptMain.cpp - pto-opt's bridge to MLIR's opt driver ----------------===//
//
// pto-opt parses its command line in Rust (clap) and hands the result here.
// This glue fills an mlir::MlirOptMainConfig and calls mlir::MlirOptMain, so
// parsing, --split-input-file, --verify-diagnostics, bytecode, IR printing
// and timing behave exactly as in mlir-opt. Output goes to a string that
// Rust writes out only on success.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

extern "C" {

/// One pass given as its own flag: `--<name>="<options>"`.
typedef struct {
  MlirStringRef name;
  MlirStringRef options;
} PtoPassFlag;

/// What pto-opt's command line asks for (see opt-tool/src/cli.rs).
typedef struct {
  MlirStringRef inputName;
  MlirStringRef passPipeline; // empty: use passFlags
  intptr_t numPassFlags;
  const PtoPassFlag *passFlags;
  MlirStringRef splitInputMarker;  // empty: do not split
  MlirStringRef outputSplitMarker; // joins split outputs
  int32_t verifyDiagnostics;       // 0 none, 1 all, 2 only-expected
  bool emitBytecode;
  bool allowUnregisteredDialects;
  bool showDialects;
  bool listPasses;
  bool verifyEachPass;
  bool verifyRoundtrip;
  bool noImplicitModule;
  bool dumpPassPipeline;
  intptr_t numMlirOptions;           // MLIR's own global options,
  const MlirStringRef *mlirOptions;  // e.g. "--mlir-print-ir-after-all"
} PtoOptConfig;

typedef void (*PtoBytesCallback)(MlirStringRef bytes, void *userData);
}

namespace {

/// MLIR's own global options (IR printing, timing, threading, printing
/// flags). Registered once; values come from pto-opt's command line.
void registerMlirGlobalOptions() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
}

void reportFatalError(void *, const char *reason, bool) {
  // LLVM exits with status 1 after this handler returns.
  llvm::errs() << "pto-opt: error: " << reason << "\n";
}

} // namespace

extern "C" {

/// Returns whether `name` is a registered pass or pass pipeline.
bool ptoGlue_isRegisteredPass(MlirStringRef name) {
  return PassInfo::lookup(unwrap(name)) ||
         PassPipelineInfo::lookup(unwrap(name));
}

/// Returns the LLVM version the tool runs on.
MlirStringRef ptoGlue_llvmVersion() { return wrap(StringRef(LLVM_VERSION_STRING)); }

/// Runs MLIR's opt driver on `input`. On success the printed output is
/// handed to `onOutput` and true is returned; diagnostics go to stderr.
bool ptoGlue_optMain(const PtoOptConfig *options, MlirDialectRegistry registry,
                     MlirStringRef input, PtoBytesCallback onOutput,
                     void *userData) {
  static bool handlerInstalled = false;
  if (!handlerInstalled) {
    llvm::install_fatal_error_handler(reportFatalError);
    handlerInstalled = true;
  }
  registerMlirGlobalOptions();

  std::vector<std::string> argStorage = {"pto-opt"};
  for (intptr_t i = 0; i < options->numMlirOptions; ++i)
    argStorage.push_back(unwrap(options->mlirOptions[i]).str());
  std::vector<const char *> argv;
  for (const std::string &arg : argStorage)
    argv.push_back(arg.c_str());
  std::string optionErrors;
  llvm::raw_string_ostream optionErrorStream(optionErrors);
  if (!llvm::cl::ParseCommandLineOptions(argv.size(), argv.data(), "",
                                         &optionErrorStream)) {
    llvm::errs() << optionErrors;
    return false;
  }

  MlirOptMainConfig config;
  config.splitInputFile(unwrap(options->splitInputMarker).str());
  config.outputSplitMarker(unwrap(options->outputSplitMarker).str());
  config.verifyDiagnostics(
      static_cast<SourceMgrDiagnosticVerifierHandler::Level>(
          options->verifyDiagnostics));
  config.emitBytecode(options->emitBytecode);
  config.allowUnregisteredDialects(options->allowUnregisteredDialects);
  config.showDialects(options->showDialects);
  config.listPasses(options->listPasses);
  config.verifyPasses(options->verifyEachPass);
  config.verifyRoundtrip(options->verifyRoundtrip);
  config.useExplicitModule(options->noImplicitModule);

  std::string pipeline = unwrap(options->passPipeline).str();
  std::vector<std::pair<std::string, std::string>> passFlags;
  for (intptr_t i = 0; i < options->numPassFlags; ++i)
    passFlags.emplace_back(unwrap(options->passFlags[i].name).str(),
                           unwrap(options->passFlags[i].options).str());
  bool dumpPipeline = options->dumpPassPipeline;
  auto buildPipeline = [&](PassManager &pm) -> LogicalResult {
    // Errors adding a pass flag's pass. The project's passes report option
    // errors themselves, located in the option text, when the pass manager
    // starts; what reaches this handler (upstream passes' option errors)
    // has no location in the input, so it is a command-line error. MLIR's
    // option parser may have printed the reason itself and pass an empty
    // message.
    bool reported = false;
    auto errorHandler = [&](const Twine &message) {
      std::string text = StringRef(message.str()).trim().str();
      if (!text.empty()) {
        llvm::errs() << "pto-opt: error: " << text << "\n";
        reported = true;
      }
      return failure();
    };
    if (!pipeline.empty()) {
      // An anchored pipeline (`builtin.module(...)`) replaces the top-level
      // pass manager, as mlir-opt's --pass-pipeline does.
      std::string message;
      llvm::raw_string_ostream messageStream(message);
      FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, messageStream);
      if (failed(parsed)) {
        // Some pipeline errors come without a severity; every error line
        // pto-opt prints says "error:".
        if (StringRef(message).contains("error:"))
          llvm::errs() << message;
        else
          llvm::errs() << "pto-opt: error: " << message;
        return failure();
      }
      static_cast<OpPassManager &>(pm) = std::move(*parsed);
      return success();
    }
    for (const auto &[name, passOptions] : passFlags) {
      const PassRegistryEntry *entry = PassPipelineInfo::lookup(name);
      if (!entry)
        entry = PassInfo::lookup(name);
      if (!entry)
        return errorHandler("'" + name + "' is not a registered pass");
      reported = false;
      if (failed(entry->addToPipeline(pm, passOptions, errorHandler))) {
        if (!reported)
          llvm::errs() << "pto-opt: error: invalid options '" << passOptions
                       << "' for '--" << name << "'\n";
        return failure();
      }
    }
    return success();
  };
  config.setPassPipelineSetupFn([&](PassManager &pm) -> LogicalResult {
    if (failed(buildPipeline(pm)))
      return failure();
    if (dumpPipeline) {
      pm.dump();
      llvm::errs() << "\n";
    }
    return success();
  });

  std::string output;
  llvm::raw_string_ostream outputStream(output);
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(unwrap(input),
                                                     unwrap(options->inputName));
  if (failed(MlirOptMain(outputStream, std::move(buffer), *unwrap(registry),
                         config)))
    return false;
  outputStream.flush();
  onOutput(wrap(StringRef(output)), userData);
  return true;
}

} // extern "C"
