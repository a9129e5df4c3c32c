//===- Tooling.cpp - mlir-translate's conventions for pto-translate -------===//
//
// What mlir-translate's driver gives a translation and the C API does not:
// MLIR's own command-line options (--mlir-*), the diagnostic verifier
// behind --verify-diagnostics, and the timing manager behind --mlir-timing,
// nested over the pass pipelines the translation runs.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>
#include <memory>
#include <string>

namespace {

/// The timing manager and the scopes open under its root (--mlir-timing).
/// A deque: a pass manager keeps a reference to the scope it times under,
/// which opening a nested one must not move.
struct Timing {
  mlir::DefaultTimingManager manager;
  std::deque<mlir::TimingScope> scopes;
  /// Whether ptoGlue_parseMlirOptions ran: MLIR's pass-manager options
  /// exist only then (applying them before is a failure).
  bool optionsParsed = false;
};

Timing &timing() {
  static Timing instance;
  return instance;
}

/// A --verify-diagnostics run over one input buffer.
struct DiagnosticVerifier {
  llvm::SourceMgr sources;
  std::unique_ptr<mlir::SourceMgrDiagnosticVerifierHandler> handler;
};

} // namespace

extern "C" {

/// Parses MLIR's command-line options given to the tool (`argv[1..]` are
/// --mlir-* flags; `argv[0]` is the tool's name): those of the context
/// (threading, printing the op or a stack trace with a diagnostic), the
/// printer, the pass manager (IR printing, crash reproducers, statistics)
/// and the timing manager. Contexts created afterwards take them. Returns
/// false and hands the message to `onError` when one is unknown or bad.
bool ptoGlue_parseMlirOptions(int argc, const char *const *argv,
                              void (*onError)(MlirStringRef, void *),
                              void *userData) {
  mlir::registerMLIRContextCLOptions();
  mlir::registerAsmPrinterCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  std::string message;
  llvm::raw_string_ostream errors(message);
  bool parsed = llvm::cl::ParseCommandLineOptions(argc, argv, "", &errors);
  if (!parsed) {
    onError(wrap(llvm::StringRef(message)), userData);
    return false;
  }
  Timing &state = timing();
  state.optionsParsed = true;
  mlir::applyDefaultTimingManagerCLOptions(state.manager);
  state.scopes.push_back(state.manager.getRootScope());
  return true;
}

/// Opens a timer named `name` under the innermost open one (a no-op
/// without --mlir-timing).
void ptoGlue_timingPush(MlirStringRef name) {
  Timing &state = timing();
  if (state.scopes.empty())
    return;
  state.scopes.push_back(state.scopes.back().nest(unwrap(name)));
}

/// Closes the innermost timer ptoGlue_timingPush opened.
void ptoGlue_timingPop() {
  Timing &state = timing();
  if (state.scopes.size() > 1)
    state.scopes.pop_back();
}

/// Applies the pass-manager options (--mlir-print-ir-*, ...), when a tool
/// parsed them, to `pm` and times its passes under the innermost open
/// timer. False when the options do not apply (an error was printed).
bool ptoGlue_configurePassManager(MlirPassManager pm) {
  mlir::PassManager *manager = unwrap(pm);
  Timing &state = timing();
  if (state.optionsParsed &&
      mlir::failed(mlir::applyPassManagerCLOptions(*manager)))
    return false;
  if (!state.scopes.empty() && state.manager.isEnabled())
    manager->enableTiming(state.scopes.back());
  return true;
}

/// Prints the timing report (to stderr, as mlir-translate does) when
/// --mlir-timing asked for one, and ends timing.
void ptoGlue_timingReport() {
  Timing &state = timing();
  state.scopes.clear();
  if (state.manager.isEnabled())
    state.manager.print();
  state.manager.setEnabled(false);
}

/// Starts verifying the diagnostics of `context` against the expected-*
/// comments of `buffer` (named `name`, as the parsed locations are):
/// diagnostics go to the verifier, not to the other handlers.
void *ptoGlue_diagnosticVerifierCreate(MlirContext context,
                                       MlirStringRef buffer,
                                       MlirStringRef name) {
  auto *verifier = new DiagnosticVerifier;
  verifier->sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(buffer), unwrap(name)),
      llvm::SMLoc());
  verifier->handler = std::make_unique<mlir::SourceMgrDiagnosticVerifierHandler>(
      verifier->sources, unwrap(context));
  // As mlir-opt does when it verifies: the op a diagnostic is about is not
  // printed as a note the expected-* comments would have to list.
  unwrap(context)->printOpOnDiagnostic(false);
  return verifier;
}

/// Whether every expected diagnostic was emitted and nothing else was; the
/// mismatches are printed. Ends the verifier.
bool ptoGlue_diagnosticVerifierFinish(void *opaque) {
  auto *verifier = static_cast<DiagnosticVerifier *>(opaque);
  bool matched = mlir::succeeded(verifier->handler->verify());
  delete verifier;
  return matched;
}

} // extern "C"
