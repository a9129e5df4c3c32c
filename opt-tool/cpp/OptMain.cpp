//===- OptMain.cpp - pto-opt's bridge to MLIR's opt driver ----------------===//
//
// pto-opt's command line is MLIR's own: main (Rust) registers the dialects
// and passes and hands argc/argv here, where MLIR registers mlir-opt's
// options and LLVM's cl parses them, so every mlir-opt flag, its spelling,
// its help text and its error messages are the same in pto-opt. What this
// glue adds is what docs/pto-opt.md describes: `-o` takes its value joined
// (`-oFILE`) as well, `--version` names pto-opt, --list-passes lists the
// pipelines too, a misspelt flag starting with `p` gets the nearest flag as
// its suggestion, the input goes through the project's pre-parse check
// before MLIR parses it, errors building the pass pipeline name the tool,
// fatal errors exit with 1, and the output is handed to Rust, which writes
// it only on success.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;

extern "C" {

/// What Rust does around MLIR's driver (see opt-tool/src/driver.rs).
typedef struct {
  /// Checks the input before MLIR parses it; false when it reported an
  /// error (the input is not run).
  bool (*checkInput)(MlirStringRef name, MlirStringRef bytes, void *userData);
  /// Writes the output of a successful run to `path` ('-': stdout); false
  /// when it reported an error.
  bool (*writeOutput)(MlirStringRef path, MlirStringRef bytes, void *userData);
  void *userData;
} PtoOptCallbacks;
}

namespace {

/// LLVM's fatal errors here come from requests pto-opt cannot honour (a
/// plugin registering pto-opt's own dialects or passes again): an error
/// and exit code 1, not the abort LLVM falls back to.
void reportFatalError(void *, const char *reason, bool) {
  llvm::errs() << "pto-opt: error: " << reason << "\n";
  llvm::sys::RunInterruptHandlers();
  std::_Exit(1);
}

/// Prints an error MLIR's pass pipeline setup reports without a location
/// (a pipeline that does not parse, an upstream pass's bad option, a
/// pipeline combined with pass flags) as the tool's own error, as for any
/// other command-line error. Errors the pipeline parser located in the
/// pipeline text keep their location.
LogicalResult reportPipelineError(Diagnostic &diagnostic) {
  if (diagnostic.getSeverity() != DiagnosticSeverity::Error ||
      !isa<UnknownLoc>(diagnostic.getLocation()))
    return failure();
  std::string message = StringRef(diagnostic.str()).trim().str();
  if (StringRef(message).contains("error:"))
    llvm::errs() << message << "\n";
  else if (!message.empty())
    llvm::errs() << "pto-opt: error: " << message << "\n";
  else
    // LLVM's option parser printed the reason itself (`pto-opt: for the
    // --max-iterations option: ...`) and left the message empty.
    llvm::errs() << "pto-opt: error: invalid pass options\n";
  return success();
}

/// The registered option whose name is nearest to the flag `argument`
/// (dashes and any `=value` dropped), as LLVM's "Did you mean" picks it,
/// leaving out the single-letter options: LLVM tries those as a prefix of
/// the argument first, so for any misspelt flag starting with `p` it
/// suggests `-p` (the --pass-pipeline alias).
std::string nearestOption(StringRef argument) {
  StringRef name = argument.ltrim('-').split('=').first;
  std::string best;
  unsigned bestDistance = ~0u;
  for (const auto &entry : llvm::cl::getRegisteredOptions()) {
    StringRef candidate = entry.first;
    if (candidate.size() < 2)
      continue;
    unsigned distance = name.edit_distance(candidate, true, bestDistance);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate.str();
    }
  }
  return best;
}

/// Prints LLVM's error for an unknown flag, with a suggestion.
void reportUnknownArgument(StringRef argv0, StringRef argument) {
  StringRef tool = llvm::sys::path::filename(argv0);
  llvm::errs() << tool << ": Unknown command line argument '" << argument
               << "'.  Try: '" << argv0 << " --help'\n";
  std::string nearest = nearestOption(argument);
  if (!nearest.empty())
    llvm::errs() << tool << ": Did you mean '--" << nearest << "'?\n";
}

/// Prints LLVM's command-line errors, with the suggestion for a misspelt
/// flag that starts with `p` (LLVM suggests `-p`) replaced by the nearest
/// option.
void printOptionErrors(StringRef argv0, StringRef errors) {
  StringRef unknownPrefix = ": Unknown command line argument '";
  SmallVector<StringRef> lines;
  errors.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (size_t i = 0; i < lines.size(); ++i) {
    StringRef line = lines[i];
    size_t unknown = line.find(unknownPrefix);
    if (unknown != StringRef::npos && i + 1 < lines.size() &&
        lines[i + 1].ends_with(": Did you mean '-p'?")) {
      StringRef argument = line.substr(unknown + unknownPrefix.size());
      reportUnknownArgument(argv0, argument.take_until([](char c) {
        return c == '\'';
      }));
      ++i;
      continue;
    }
    llvm::errs() << line << "\n";
  }
}

/// Prints the registered pass pipelines after --list-passes' passes, as
/// --help lists them (MLIR 22's --list-passes prints the passes only). The
/// pipelines are the names of MLIR's pass flags that name a pipeline.
void printRegisteredPipelines() {
  std::vector<const PassPipelineInfo *> pipelines;
  size_t width = 0;
  for (const auto &entry : llvm::cl::getRegisteredOptions()) {
    if (const PassInfo *pass = PassInfo::lookup(entry.first))
      width = std::max(width, pass->getOptionWidth() + 4);
    if (const PassPipelineInfo *pipeline = PassPipelineInfo::lookup(entry.first)) {
      width = std::max(width, pipeline->getOptionWidth() + 4);
      pipelines.push_back(pipeline);
    }
  }
  llvm::sort(pipelines, [](const PassPipelineInfo *a, const PassPipelineInfo *b) {
    return a->getPassArgument() < b->getPassArgument();
  });
  pipelines.erase(std::unique(pipelines.begin(), pipelines.end()),
                  pipelines.end());
  llvm::outs() << "Pass Pipelines:\n";
  for (const PassPipelineInfo *pipeline : pipelines)
    pipeline->printHelpStr(2, width);
}

/// The parser verifies the input and the pass manager the IR after every
/// pass that changes it, so the output is verified IR: printing it need
/// not verify it again (by default the printer does, to fall back to the
/// generic form for invalid IR; on a large module that is a tenth of the
/// run). Left alone when the user turned either verification off or set
/// --mlir-print-assume-verified themselves.
void assumeVerifiedOutput(const MlirOptMainConfig &config) {
  if (!config.shouldVerifyPasses() || !config.shouldVerifyOnParsing())
    return;
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find("mlir-print-assume-verified");
  if (found == options.end() || found->second->getNumOccurrences() > 0)
    return;
  // registerAsmPrinterCLOptions declares it as a cl::opt<bool>.
  static_cast<llvm::cl::opt<bool> *>(found->second)->setValue(true);
}

} // namespace

extern "C" {

/// pto-opt's main after registration: parses the command line with MLIR's
/// options and runs MLIR's opt driver. Returns the exit code.
int ptoGlue_optMain(int argc, const char *const *argv,
                    MlirDialectRegistry registryHandle, MlirStringRef version,
                    const PtoOptCallbacks *callbacks) {
  llvm::install_fatal_error_handler(reportFatalError);
  // Rust ignores SIGPIPE; LLVM's streams then report a closed pipe
  // (`pto-opt --help | head`) as a fatal error. Like mlir-opt, end quietly.
  std::signal(SIGPIPE, SIG_DFL);
  DialectRegistry &registry = *unwrap(registryHandle);

  std::string toolVersion = unwrap(version).str();
  llvm::cl::SetVersionPrinter([toolVersion](llvm::raw_ostream &os) {
    os << "pto-opt " << toolVersion << " (LLVM/MLIR " LLVM_VERSION_STRING
       << ")\n";
  });

  // mlir-opt's options (what registerAndParseCLIOptions registers), with
  // the input and output declared here: `-o` is a prefix option, so
  // `-oFILE` works as in LLVM's other tools.
  std::string helpHeader = registerCLIOptions(
      "pto-opt: MLIR modular optimizer driver with the pl and pld dialects",
      registry);
  static llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input file>"),
      llvm::cl::init("-"));
  static llvm::cl::opt<std::string> outputFilename(
      "o",
      llvm::cl::desc("Output filename, written only if the run succeeds"),
      llvm::cl::value_desc("filename"), llvm::cl::init("-"),
      llvm::cl::Prefix);
  // With an error stream, a bad command line returns here (exit code 1)
  // instead of exiting inside LLVM.
  std::string optionErrors;
  llvm::raw_string_ostream optionErrorStream(optionErrors);
  bool parsed = llvm::cl::ParseCommandLineOptions(argc, argv, helpHeader,
                                                  &optionErrorStream);
  printOptionErrors(argv[0], optionErrors);
  if (!parsed)
    return 1;
  // `-oFILE` is `-o FILE`, but LLVM also reads a misspelt flag starting
  // with `o` (`--output-split-markr=x`) as `-o` and a value (dropping any
  // `=...`): a value joined to two dashes, an argument holding `=`, or one
  // that is nearly an option's name, is an unknown flag.
  if (outputFilename.getNumOccurrences()) {
    StringRef argument = argv[outputFilename.getPosition()];
    StringRef name = argument.ltrim('-');
    bool joined = argument != outputFilename.getValue() &&
                  argument.starts_with("-") && !name.starts_with("o=");
    if (joined && (argument.starts_with("--") || name.contains('=') ||
                   name.edit_distance(nearestOption(argument)) <= 2)) {
      reportUnknownArgument(argv[0], argument);
      return 1;
    }
  }

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses()) {
    if (failed(MlirOptMain(llvm::outs(), llvm::MemoryBuffer::getMemBuffer(""),
                           registry, config)))
      return 1;
    if (!config.shouldShowDialects())
      printRegisteredPipelines();
    return 0;
  }

  // As mlir-opt does: a terminal on stdin is usually a forgotten input.
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "pto-opt: error: " << errorMessage << "\n";
    return 1;
  }
  if (!callbacks->checkInput(wrap(input->getBufferIdentifier()),
                             wrap(input->getBuffer()), callbacks->userData))
    return 1;

  // Pipeline setup errors are the tool's errors (reportPipelineError), but
  // --verify-diagnostics sees them as MLIR reports them, so that tests
  // written for mlir-opt check the same diagnostics.
  bool verifying = config.shouldVerifyDiagnostics();
  MlirOptMainConfig upstream = config;
  config.setPassPipelineSetupFn(
      [upstream, verifying](PassManager &pm) -> LogicalResult {
        std::optional<ScopedDiagnosticHandler> handler;
        if (!verifying)
          handler.emplace(pm.getContext(), reportPipelineError);
        return upstream.setupPassPipeline(pm);
      });

  assumeVerifiedOutput(config);
  std::string output;
  llvm::raw_string_ostream outputStream(output);
  if (failed(MlirOptMain(outputStream, std::move(input), registry, config)))
    return 1;
  outputStream.flush();
  return callbacks->writeOutput(wrap(StringRef(outputFilename)),
                                wrap(StringRef(output)), callbacks->userData)
             ? 0
             : 1;
}

} // extern "C"
