//===- PassAdapter.cpp - Rust passes as first-class MLIR passes -----------===//
//
// MLIR's C API can create an external pass but can neither give it options
// nor put it in the global pass registry. This glue defines one
// mlir::Pass subclass that forwards to a Rust pass described by a
// PtoPassSpec: options are real MLIR pass options (so `pass{opt=v}`, --help
// and pipeline printing behave as for upstream passes) and the Rust side
// receives their values as strings.
//
// Option text is parsed and checked in Rust, not by MLIR's option parser:
// MLIR's parser prints value errors itself and its callers report the rest
// at an unknown location. An invalid option text instead leaves the pass
// holding a located error (`<pass-options>:1:COL`, the column in the
// option text), which it emits when the pass manager initialises it, before
// anything runs, so mlir-opt and pto-opt both print it as a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/IR/Threading.h"
#include "mlir/Support/TypeID.h"
#include "llvm/Support/ErrorHandling.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;

extern "C" {

/// One option of a Rust pass. `kind` is "bool", "int" or "string"; enums
/// are strings whose values the Rust side checks.
typedef struct {
  MlirStringRef name;
  MlirStringRef kind;
  MlirStringRef description;
  MlirStringRef defaultValue;
} PtoPassOptionSpec;

// Callbacks the Rust side gives the glue.
typedef void (*PtoErrorCallback)(MlirStringRef message, void *userData);
typedef void (*PtoOptionValueCallback)(MlirStringRef name, MlirStringRef value,
                                       void *userData);
typedef void (*PtoOptionErrorCallback)(MlirStringRef message, intptr_t offset,
                                       void *userData);
/// Parses a pass's option text (passes/src/ffi.rs, parse_options_hook).
typedef bool (*PtoPassParseOptions)(intptr_t index, MlirStringRef text,
                                    PtoOptionValueCallback onValue,
                                    PtoOptionErrorCallback onError,
                                    void *userData);
/// Runs a pass on `op` (passes/src/ffi.rs, run_hook): PtoPassFailed,
/// PtoPassChanged, or PtoPassUnchanged when the pass left the IR as it was.
/// `facts` is what `gather` returned for a pass run on each function, else
/// null.
typedef int32_t (*PtoPassRun)(intptr_t index, MlirOperation op, void *facts,
                              intptr_t numOptions, const MlirStringRef *names,
                              const MlirStringRef *values);
enum : int32_t { PtoPassFailed = 0, PtoPassChanged = 1, PtoPassUnchanged = 2 };
/// For a pass run on each function of a module: gathers what its runs need
/// to know of the whole module (null when that failed, diagnosed), and frees
/// it after them (passes/src/ffi.rs, gather_hook and release_hook).
typedef void *(*PtoPassGather)(intptr_t index, MlirOperation module);
typedef void (*PtoPassRelease)(intptr_t index, void *facts);

/// A Rust pass as the registry sees it. `anchor` is the op the pass runs on
/// ("" for any op). `index` identifies the pass on the Rust side.
/// `eachFunction` says that the pass, scheduled on a module, runs `run` on
/// each of its functions in parallel. `parseOptions`, `run`, `gather` and
/// `release` are the Rust functions, passed as pointers: libpto_mlir.so
/// exports only its public C API, not them.
typedef struct {
  MlirStringRef argument;
  MlirStringRef className;
  MlirStringRef summary;
  MlirStringRef anchor;
  intptr_t numOptions;
  const PtoPassOptionSpec *options;
  intptr_t numDialects;
  const MlirDialectHandle *dialects;
  intptr_t index;
  bool eachFunction;
  PtoPassParseOptions parseOptions;
  PtoPassRun run;
  PtoPassGather gather;
  PtoPassRelease release;
} PtoPassSpec;
}

namespace {

/// The registry-owned copy of a PtoPassSpec.
struct RustPassKind {
  struct OptionSpec {
    std::string name, kind, description, defaultValue;
  };
  std::string argument, className, summary, anchor;
  std::vector<OptionSpec> options;
  std::vector<MlirDialectHandle> dialects;
  intptr_t index;
  bool eachFunction;
  PtoPassParseOptions parseOptions;
  PtoPassRun run;
  PtoPassGather gather;
  PtoPassRelease release;
  TypeID typeID;
};

TypeIDAllocator &typeIDAllocator() {
  static TypeIDAllocator allocator;
  return allocator;
}

/// An error in a pass's option text: the message and the 1-based column in
/// the text.
struct OptionError {
  std::string message;
  unsigned column;
};

/// The file name option errors are located in (see passes/src/options.rs).
constexpr const char *kOptionTextLocation = "<pass-options>";

void emitOptionError(MLIRContext *context, const OptionError &error) {
  emitError(FileLineColLoc::get(context, kOptionTextLocation, 1, error.column))
      << error.message;
}

/// Stands in a pipeline for a named pipeline that was given options (it
/// takes none): it fails with the located error when initialised.
class OptionErrorPass : public Pass {
public:
  explicit OptionErrorPass(OptionError error)
      : Pass(typeID(), std::nullopt), error(std::move(error)) {}

  StringRef getName() const override { return "PtoOptionError"; }
  std::unique_ptr<Pass> clonePass() const override {
    return std::make_unique<OptionErrorPass>(error);
  }
  bool canScheduleOn(RegisteredOperationName) const override { return true; }
  LogicalResult initialize(MLIRContext *context) override {
    emitOptionError(context, error);
    return failure();
  }
  void runOnOperation() override { signalPassFailure(); }

private:
  static TypeID typeID() {
    static TypeID id = typeIDAllocator().allocate();
    return id;
  }
  OptionError error;
};

class RustPass : public Pass {
public:
  explicit RustPass(const RustPassKind &kind)
      : Pass(kind.typeID, kind.anchor.empty()
                              ? std::nullopt
                              : std::optional<StringRef>(kind.anchor)),
        kind(kind) {
    for (const RustPassKind::OptionSpec &spec : kind.options)
      declareOption(spec);
  }

  StringRef getName() const override { return kind.className; }
  StringRef getArgument() const override { return kind.argument; }
  StringRef getDescription() const override { return kind.summary; }

  std::unique_ptr<Pass> clonePass() const override {
    auto copy = std::make_unique<RustPass>(kind);
    copy->copyOptionValuesFrom(this);
    copy->optionError = optionError;
    return copy;
  }

  bool canScheduleOn(RegisteredOperationName opName) const override {
    return kind.anchor.empty() || opName.getStringRef() == kind.anchor;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    for (MlirDialectHandle handle : kind.dialects)
      mlirDialectHandleInsertDialect(handle, wrap(&registry));
  }

  /// Parses `options` in Rust and sets the MLIR options from the checked
  /// values. An invalid text is not reported here (MLIR's callers would
  /// print it at an unknown location): the pass keeps the error and reports
  /// it, located, from initialize().
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    optionError.reset();
    struct Parsed {
      std::vector<std::pair<std::string, std::string>> values;
      std::optional<OptionError> error;
    } parsed;
    auto onValue = [](MlirStringRef name, MlirStringRef value, void *userData) {
      static_cast<Parsed *>(userData)->values.emplace_back(
          unwrap(name).str(), unwrap(value).str());
    };
    auto onError = [](MlirStringRef message, intptr_t offset, void *userData) {
      static_cast<Parsed *>(userData)->error =
          OptionError{unwrap(message).str(), static_cast<unsigned>(offset) + 1};
    };
    if (!kind.parseOptions(kind.index, wrap(options), onValue, onError,
                           &parsed)) {
      optionError = parsed.error ? *parsed.error
                                 : OptionError{kind.argument +
                                                   ": invalid options",
                                               1};
      return success();
    }
    for (const auto &[name, value] : parsed.values)
      setOption(name, value);
    return success();
  }

  /// The error in the option text this pass was created with, if any.
  const std::optional<OptionError> &getOptionError() const {
    return optionError;
  }

  LogicalResult initialize(MLIRContext *context) override {
    if (!optionError)
      return success();
    emitOptionError(context, *optionError);
    return failure();
  }

  void runOnOperation() override {
    OptionValues values = collectOptionValues();
#ifdef PTO_CHECK_UNCHANGED_CLAIMS
    // Debug builds check the claim below, as upstream's pass manager checks
    // preserved analyses under EXPENSIVE_CHECKS: a wrong claim would skip
    // the verification of changed IR.
    OperationFingerPrint before(getOperation());
#endif
    int32_t outcome = kind.eachFunction
                          ? runOnEachFunction(values)
                          : kind.run(kind.index, wrap(getOperation()), nullptr,
                                     values.size(), values.names.data(),
                                     values.values.data());
    switch (outcome) {
    case PtoPassChanged:
      break;
    case PtoPassUnchanged:
#ifdef PTO_CHECK_UNCHANGED_CLAIMS
      if (before != OperationFingerPrint(getOperation()))
        llvm::report_fatal_error(llvm::Twine("pass '") + getArgument() +
                                 "' changed the IR but said it did not");
#endif
      // Nothing changed: every analysis holds, and the pass manager need
      // not verify the op again.
      markAllAnalysesPreserved();
      break;
    default:
      signalPassFailure();
    }
  }

private:
  struct DeclaredOption {
    std::unique_ptr<Option<bool>> boolOption;
    std::unique_ptr<Option<int64_t>> intOption;
    std::unique_ptr<Option<std::string>> stringOption;
  };

  /// Option values rendered as strings, with MlirStringRef views over them.
  struct OptionValues {
    std::vector<std::string> storage;
    std::vector<MlirStringRef> names, values;
    size_t size() const { return names.size(); }
  };

  void declareOption(const RustPassKind::OptionSpec &spec) {
    DeclaredOption option;
    auto description = llvm::cl::desc(spec.description);
    if (spec.kind == "bool")
      option.boolOption = std::make_unique<Option<bool>>(
          *this, spec.name, description,
          llvm::cl::init(spec.defaultValue == "true"));
    else if (spec.kind == "int")
      option.intOption = std::make_unique<Option<int64_t>>(
          *this, spec.name, description,
          llvm::cl::init(std::stoll(spec.defaultValue)));
    else
      option.stringOption = std::make_unique<Option<std::string>>(
          *this, spec.name, description, llvm::cl::init(spec.defaultValue));
    declared.push_back(std::move(option));
  }

  /// Sets a declared option from its canonical spelling (checked in Rust).
  void setOption(StringRef name, const std::string &value) {
    for (size_t i = 0; i < declared.size(); ++i) {
      if (kind.options[i].name != name)
        continue;
      DeclaredOption &option = declared[i];
      if (option.boolOption)
        *option.boolOption = value == "true";
      else if (option.intOption)
        *option.intOption = std::stoll(value);
      else
        *option.stringOption = value;
    }
  }

  OptionValues collectOptionValues() const {
    OptionValues values;
    values.storage.reserve(declared.size());
    for (const DeclaredOption &option : declared) {
      if (option.boolOption)
        values.storage.push_back(*option.boolOption ? "true" : "false");
      else if (option.intOption)
        values.storage.push_back(std::to_string(int64_t(*option.intOption)));
      else
        values.storage.push_back(*option.stringOption);
    }
    for (size_t i = 0; i < declared.size(); ++i) {
      values.names.push_back(wrap(StringRef(kind.options[i].name)));
      values.values.push_back(wrap(StringRef(values.storage[i])));
    }
    return values;
  }

  /// Runs the pass on each function of the module it is scheduled on, in
  /// parallel as the pass manager runs a function pass (diagnostics in the
  /// functions' order), with the module's facts gathered once before. A
  /// function pass may not look at other functions; these passes need what
  /// every caller of a kernel passes it. Every function is run, so every
  /// failure is reported whatever the threading.
  int32_t runOnEachFunction(const OptionValues &values) {
    Operation *module = getOperation();
    void *facts = kind.gather(kind.index, wrap(module));
    if (!facts)
      return PtoPassFailed;
    std::vector<Operation *> functions;
    for (Region &region : module->getRegions())
      for (Block &block : region)
        for (Operation &op : block)
          if (op.getName().getStringRef() == "func.func")
            functions.push_back(&op);
    std::atomic<bool> failed(false), changed(false);
    parallelForEach(module->getContext(), functions, [&](Operation *function) {
      switch (kind.run(kind.index, wrap(function), facts, values.size(),
                       values.names.data(), values.values.data())) {
      case PtoPassChanged:
        changed = true;
        break;
      case PtoPassUnchanged:
        break;
      default:
        failed = true;
      }
    });
    kind.release(kind.index, facts);
    if (failed)
      return PtoPassFailed;
    return changed ? PtoPassChanged : PtoPassUnchanged;
  }

  const RustPassKind &kind;
  std::vector<DeclaredOption> declared;
  std::optional<OptionError> optionError;
};

std::vector<std::unique_ptr<RustPassKind>> &passKinds() {
  static std::vector<std::unique_ptr<RustPassKind>> kinds;
  return kinds;
}

} // namespace

extern "C" {

/// Records a Rust pass and registers it in MLIR's global pass registry
/// (so it is usable by name in pass pipelines and listed in --help).
void ptoGlue_registerPass(const PtoPassSpec *spec) {
  auto kind = std::make_unique<RustPassKind>();
  kind->argument = unwrap(spec->argument).str();
  kind->className = unwrap(spec->className).str();
  kind->summary = unwrap(spec->summary).str();
  kind->anchor = unwrap(spec->anchor).str();
  for (intptr_t i = 0; i < spec->numOptions; ++i)
    kind->options.push_back({unwrap(spec->options[i].name).str(),
                             unwrap(spec->options[i].kind).str(),
                             unwrap(spec->options[i].description).str(),
                             unwrap(spec->options[i].defaultValue).str()});
  kind->dialects.assign(spec->dialects, spec->dialects + spec->numDialects);
  kind->index = spec->index;
  kind->eachFunction = spec->eachFunction;
  kind->parseOptions = spec->parseOptions;
  kind->run = spec->run;
  kind->gather = spec->gather;
  kind->release = spec->release;
  kind->typeID = typeIDAllocator().allocate();
  const RustPassKind &registered = *kind;
  passKinds().push_back(std::move(kind));
  registerPass([&registered] { return std::make_unique<RustPass>(registered); });
}

/// Creates an instance of a registered Rust pass with `options` (the text
/// inside `{...}` of a pipeline). Returns null and calls `onError` when the
/// options are invalid.
MlirPass ptoGlue_createPass(MlirStringRef argument, MlirStringRef options,
                            PtoErrorCallback onError, void *userData) {
  for (const auto &kind : passKinds()) {
    if (kind->argument != unwrap(argument))
      continue;
    auto pass = std::make_unique<RustPass>(*kind);
    auto ignore = [](const Twine &) { return failure(); };
    (void)pass->initializeOptions(unwrap(options), ignore);
    if (const std::optional<OptionError> &error = pass->getOptionError()) {
      onError(wrap(StringRef(error->message)), userData);
      return MlirPass{nullptr};
    }
    return wrap(static_cast<Pass *>(pass.release()));
  }
  std::string text = "no pass named '" + unwrap(argument).str() + "'";
  onError(wrap(StringRef(text)), userData);
  return MlirPass{nullptr};
}

/// Registers a named pipeline (`--<argument>` and `<argument>` inside
/// `--pass-pipeline`) that expands to `pipeline`, a textual pass list for
/// the op the pipeline is nested under.
void ptoGlue_registerPipeline(MlirStringRef argument, MlirStringRef summary,
                              MlirStringRef pipeline) {
  // The registry keeps references to the argument and summary: own them.
  static std::vector<std::unique_ptr<std::string>> strings;
  strings.push_back(std::make_unique<std::string>(unwrap(argument).str()));
  const std::string &name = *strings.back();
  strings.push_back(std::make_unique<std::string>(unwrap(summary).str()));
  const std::string &description = *strings.back();
  std::string text = unwrap(pipeline).str();
  auto build = [name, text](OpPassManager &pm, StringRef options,
                            function_ref<LogicalResult(const Twine &)>) {
    // The pipeline takes no options; given some, it fails when the pass
    // manager starts, with the error located in the option text.
    StringRef given = options.ltrim();
    if (!given.empty()) {
      unsigned column = options.size() - given.size() + 1;
      pm.addPass(std::make_unique<OptionErrorPass>(
          OptionError{name + ": takes no options, got '" +
                          given.rtrim().str() + "'",
                      column}));
      return success();
    }
    // The text names registered passes only, so it parses; a failure would
    // print the error.
    return parsePassPipeline(text, pm, llvm::errs());
  };
  registerPassPipeline(name, description, build,
                       [](function_ref<void(const detail::PassOptions &)>) {});
}

} // extern "C"
