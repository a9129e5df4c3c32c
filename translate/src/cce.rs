//! `--mlir-to-cce`: one C++ file per kernel, a manifest, and for `a2a3sim`
//! a host driver per kernel.

use melior::{
    Context,
    ir::{BlockLike, Location, Module, OperationRef, ValueLike, operation::OperationLike},
    pass::PassManager,
    utility::parse_pass_pipeline,
};
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
    enums::FunctionKind,
    ops::OpKind,
    types::TensorLike,
};

use crate::{driver, ffi::translate_to_cpp, host_python};
use pto_passes::emitc::orchestration::kernels::signature;
use pto_passes::emitc::program::BUILTINS_FILE;

/// What the C++ is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The device: bisheng/ccec compiles the kernels. With `runtime_entry`
    /// each kernel is called through the runtime's packed-argument
    /// `kernel_entry` (docs/translate.md, "What the runtime gets"); without,
    /// it is PTOAS's launchable `__global__ AICORE` function.
    A2a3 { runtime_entry: bool },
    /// The CPU simulation in `sim/`: kernels plus host drivers for g++.
    /// With `runtime_entry` the kernels and orchestrations are the device's
    /// (packed-argument entries, PTO2 orchestrations) and the programs run
    /// them on the simulator's runtime (sim/include/runtime).
    A2a3Sim { runtime_entry: bool },
}

impl Target {
    /// Whether kernels are entered through the runtime's packed arguments.
    pub fn runtime_entry(self) -> bool {
        match self {
            Target::A2a3 { runtime_entry } | Target::A2a3Sim { runtime_entry } => runtime_entry,
        }
    }

    pub fn is_sim(self) -> bool {
        matches!(self, Target::A2a3Sim { .. })
    }
}

/// The translation failed; what went wrong was reported as diagnostics
/// through the context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagnosed;

impl std::fmt::Display for Diagnosed {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("the translation failed (see the diagnostics)")
    }
}

impl std::error::Error for Diagnosed {}

/// A file of the translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    pub name: String,
    pub contents: String,
}

/// The lowering of one kernel module to printable EmitC: for the device
/// with the runtime's packed-argument `kernel_entry`; for the simulator
/// without (its drivers call the kernel itself).
fn to_emitc(target: Target) -> String {
    let entry = if target.runtime_entry() {
        "{kernel-entry=true}"
    } else {
        ""
    };
    format!(
        "builtin.module(pl-verify-sync, convert-pl-to-emitc{entry}, canonicalize, cse, arith-expand, arith-signed-index-to-i64, scf-while-index-to-i64, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)"
    )
}

/// The lowering of a host driver module to printable EmitC.
const LOWER_HOST: &str = "builtin.module(canonicalize, cse, arith-expand, arith-signed-index-to-i64, scf-while-index-to-i64, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)";

pub use pto_passes::emitc::program::facts::Parameter;

/// Whether `kernel` still holds tensor-level computations (left by
/// pl-convert-tensor-to-tile, which warned): such a kernel is not
/// translated.
fn unconverted<'c, 'a>(kernel: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut found = None;
    pto_dialects::ir::walk(kernel, melior::ir::operation::WalkOrder::PreOrder, |op| {
        if OpKind::of(&op).is_some_and(|kind| kind.info().computes_on_tensors()) {
            found = Some(op);
            return melior::ir::operation::WalkResult::Interrupt;
        }
        melior::ir::operation::WalkResult::Advance
    });
    found
}

use pto_passes::emitc::orchestration::kernels::kind as kernel_kind;

fn functions<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    pto_passes::emitc::orchestration::kernels::functions(module.as_operation())
}

/// A pass manager running `pipeline` (errors are diagnosed).
fn pipeline_manager<'c>(
    context: &'c Context,
    pipeline: &str,
) -> Result<PassManager<'c>, Diagnosed> {
    let manager = crate::ffi::pass_manager(context).ok_or(Diagnosed)?;
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline).map_err(|_| Diagnosed)?;
    Ok(manager)
}

fn run_pipeline<'c>(
    context: &'c Context,
    module: &mut Module<'c>,
    pipeline: &str,
) -> Result<(), Diagnosed> {
    // The passes' timers nest under the pipeline's (--mlir-timing).
    let _timer = crate::ffi::Timer::start(pipeline);
    let manager = pipeline_manager(context, pipeline)?;
    manager.run(module).map_err(|_| Diagnosed)
}

/// Whether `module` still needs the a2a3 lowering: a kernel not planned, an
/// InCore or SPMD scope not outlined, or windows not yet in comm domains.
fn needs_lowering(module: &Module) -> bool {
    let (mut scope, mut windows, mut domains) = (false, false, false);
    module
        .as_operation()
        .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
            let kind = OpKind::of(&op);
            scope |= matches!(kind, Some(OpKind::PlIncoreScope | OpKind::PlSpmdScope));
            windows |= kind == Some(OpKind::PldTensorAllocWindowBuffer);
            domains |= kind == Some(OpKind::PldCommDomain);
            melior::ir::operation::WalkResult::Advance
        });
    // Window buffers without comm domains: pld-lower-distributed has not run.
    scope
        || (windows && !domains)
        || functions(module).into_iter().any(|f| {
            matches!(
                kernel_kind(f),
                Some(FunctionKind::InCore | FunctionKind::Aic | FunctionKind::Aiv)
            ) && f.attribute("pl.memory").is_err()
        })
}

/// Why `name` cannot be a C++ function name, if it cannot: MLIR symbols may
/// hold any character and take C++ keywords.
fn cpp_identifier_problem(name: &str) -> Option<&'static str> {
    const KEYWORDS: &[&str] = &[
        "alignas",
        "alignof",
        "and",
        "and_eq",
        "asm",
        "auto",
        "bitand",
        "bitor",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char8_t",
        "char16_t",
        "char32_t",
        "class",
        "compl",
        "concept",
        "const",
        "consteval",
        "constexpr",
        "constinit",
        "const_cast",
        "continue",
        "co_await",
        "co_return",
        "co_yield",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "not",
        "not_eq",
        "nullptr",
        "operator",
        "or",
        "or_eq",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "requires",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "wchar_t",
        "while",
        "xor",
        "xor_eq",
        "main",
        "kernel_entry",
    ];
    let mut chars = name.chars();
    match chars.next() {
        None => Some("is empty"),
        Some(first) if !(first.is_ascii_alphabetic() || first == '_') => {
            Some("does not start with a letter or '_'")
        }
        _ if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            Some("holds characters other than letters, digits and '_'")
        }
        _ if KEYWORDS.contains(&name) => {
            Some("is a C++ keyword or a name the generated code defines")
        }
        _ => None,
    }
}

/// The chip orchestrations the module's host programs dispatch, in order
/// of first dispatch, each with how many comm domains the windows of its
/// dispatches belong to: the host passes one ordering token per domain
/// after the tensors (docs/translate.md, "What the runtime gets"). Windows
/// given to the host program from outside count as one domain.
fn dispatched_chips(module: &Module) -> Vec<(String, usize)> {
    let mut chips: Vec<(String, usize)> = Vec::new();
    module
        .as_operation()
        .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
            if OpKind::of(&op) == Some(OpKind::PldDispatch)
                && let Some(callee) = attrs::text_of(op, "callee")
            {
                let mut domains: Vec<Option<pto_dialects::ir::OpKey>> = Vec::new();
                for operand in op.operands() {
                    if !TensorLike::try_from(operand.r#type()).is_ok_and(|t| t.is_distributed()) {
                        continue;
                    }
                    let mut at = melior::ir::operation::OperationResult::try_from(operand)
                        .ok()
                        .map(|r| r.owner());
                    let mut domain = None;
                    while let Some(op) = at {
                        if OpKind::of(&op) == Some(OpKind::PldCommDomain) {
                            domain = Some(pto_dialects::ir::OpKey::of(&op));
                            break;
                        }
                        at = op.parent_operation();
                    }
                    if !domains.contains(&domain) {
                        domains.push(domain);
                    }
                }
                match chips.iter_mut().find(|(chip, _)| *chip == callee) {
                    Some((_, tokens)) => *tokens = (*tokens).max(domains.len()),
                    None => chips.push((callee, domains.len())),
                }
            }
            melior::ir::operation::WalkResult::Advance
        });
    chips
}

use pto_passes::pld::is_host;

use pto_passes::emitc::program::facts::parameters;

/// `convert-pl-orchestration-to-emitc{runtime=...}` on `program`.
/// `Ok(Err(message))` when the pass refuses it (its diagnostic is taken,
/// not printed: the caller reports it where the translation wants it).
fn orchestration_pass<'c>(
    context: &'c Context,
    program: &mut Module<'c>,
    runtime: &str,
) -> Result<Result<(), Refusal<'c>>, Diagnosed> {
    refusable_pass(
        context,
        program,
        &format!("convert-pl-orchestration-to-emitc{{runtime={runtime}}}"),
    )
}

/// What pto-translate's passes say when they refuse a function.
const REFUSALS: &[&str] = &[
    "convert-pl-orchestration-to-emitc: ",
    "convert-pl-program-to-emitc: ",
];

/// A pass's refusal of a function: why, and where the construct it refuses
/// is (the pass ran on a copy, so it is known by its source position).
struct Refusal<'c> {
    message: String,
    location: Option<Location<'c>>,
}

/// The location `file:line:col` names; `None` for any other text (an
/// unknown location).
fn file_location<'c>(context: &'c Context, text: &str) -> Option<Location<'c>> {
    let mut parts = text.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let file = parts.next()?;
    Some(Location::new(context, file, line, column))
}

impl std::fmt::Display for Refusal<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str(&self.message)
    }
}

/// `pass` (with its options) on `program`. `Ok(Err(refusal))` when it
/// refuses it: the first of its diagnostics ([`REFUSALS`]) is taken, not
/// printed, for the caller to report where the translation wants it.
fn refusable_pass<'c>(
    context: &'c Context,
    program: &mut Module<'c>,
    pass: &str,
) -> Result<Result<(), Refusal<'c>>, Diagnosed> {
    // The message and `file:line:col` (the handler's diagnostic does not
    // outlive it).
    let refusal = std::rc::Rc::new(std::cell::RefCell::new(None::<(String, String)>));
    let taken = refusal.clone();
    let handler = context.attach_diagnostic_handler(move |diagnostic| {
        let text = diagnostic.to_string();
        let Some((at, prefix)) = REFUSALS
            .iter()
            .find_map(|prefix| text.find(prefix).map(|at| (at, prefix)))
        else {
            return false;
        };
        taken.borrow_mut().get_or_insert_with(|| {
            (
                text[at + prefix.len()..].to_string(),
                pto_dialects::source::location_text(diagnostic.location()),
            )
        });
        true
    });
    let converted = run_pipeline(context, program, &format!("builtin.module({pass})"));
    context.detach_diagnostic_handler(handler);
    match converted {
        Ok(()) => Ok(Ok(())),
        Err(_) => {
            let (message, at) = refusal.borrow_mut().take().ok_or(Diagnosed)?;
            Ok(Err(Refusal {
                message,
                location: file_location(context, &at),
            }))
        }
    }
}

/// The simulator program of `entry` (`run_<entry>.cpp`):
/// `convert-pl-program-to-emitc{entry=... runtime=...}` on a module of it,
/// the translated `kernels` (each with its `pto2.func_id`) and the
/// dispatched `chips` (each with its `pto2.ordering_tokens`).
/// `Ok(Err(message))` when the pass refuses it.
fn program_pass<'c>(
    context: &'c Context,
    entry: OperationRef<'c, '_>,
    kernels: &[(String, usize, OperationRef<'c, '_>)],
    chips: &[(OperationRef<'c, '_>, usize)],
    groups: &[OperationRef<'c, '_>],
    runtime: &str,
) -> Result<Result<Module<'c>, Refusal<'c>>, Diagnosed> {
    use pto_passes::emitc::orchestration::{ORDERING_TOKENS, kernels::FUNC_ID};
    let mut program = Module::new(Location::unknown(context));
    for (_, func_id, kernel) in kernels {
        program
            .body()
            .append_operation(annotated_clone(*kernel, FUNC_ID, *func_id));
    }
    for group in groups {
        program
            .body()
            .append_operation(pto_dialects::ir::clone(group));
    }
    for (chip, tokens) in chips {
        program
            .body()
            .append_operation(annotated_clone(*chip, ORDERING_TOKENS, *tokens));
    }
    program
        .body()
        .append_operation(pto_dialects::ir::clone(&entry));
    let name = attrs::text_of(entry, "sym_name").unwrap_or_default();
    let pass = format!("convert-pl-program-to-emitc{{entry={name} runtime={runtime}}}");
    Ok(refusable_pass(context, &mut program, &pass)?.map(|()| program))
}

/// A copy of `function` carrying what the translation knows of it as the
/// i64 attribute `name` (`pto2.func_id`, `pto2.ordering_tokens`).
fn annotated_clone<'c>(
    function: OperationRef<'c, '_>,
    name: &str,
    value: usize,
) -> melior::ir::Operation<'c> {
    use melior::ir::{
        attribute::IntegerAttribute, operation::OperationMutLike, r#type::IntegerType,
    };
    let context = pto_dialects::ir::context(&function);
    let mut clone = pto_dialects::ir::clone(&function);
    clone.set_attribute(
        name,
        IntegerAttribute::new(IntegerType::new(context, 64).into(), value as i64).into(),
    );
    clone
}

/// The PTO2 runtime's C++ of `orchestration`:
/// `convert-pl-orchestration-to-emitc{runtime=pto2}` on a module of it and
/// the translated `kernels` (each with its `pto2.func_id`; the
/// orchestration with its `pto2.ordering_tokens`), then the upstream EmitC
/// conversions. `Ok(Err(message))` when the pass refuses the orchestration
/// (its diagnostic is taken, not printed: the caller reports it at the
/// orchestration, as a warning with `--allow-partial`).
fn pto2_orchestration<'c>(
    context: &'c Context,
    orchestration: OperationRef<'c, '_>,
    kernels: &[(String, usize, OperationRef<'c, '_>)],
    groups: &[OperationRef<'c, '_>],
    tokens: usize,
) -> Result<Result<String, Refusal<'c>>, Diagnosed> {
    use pto_passes::emitc::orchestration::{ORDERING_TOKENS, kernels::FUNC_ID};
    let mut program = Module::new(Location::unknown(context));
    for (_, func_id, kernel) in kernels {
        program
            .body()
            .append_operation(annotated_clone(*kernel, FUNC_ID, *func_id));
    }
    for group in groups {
        program
            .body()
            .append_operation(pto_dialects::ir::clone(group));
    }
    program
        .body()
        .append_operation(annotated_clone(orchestration, ORDERING_TOKENS, tokens));
    if let Err(refusal) = orchestration_pass(context, &mut program, "pto2")? {
        return Ok(Err(refusal));
    }
    run_pipeline(context, &mut program, LOWER_HOST)?;
    translate_to_cpp(&program.as_operation())
        .map(Ok)
        .ok_or(Diagnosed)
}

/// Translates `module` (pl IR; lowered with `pto-a2a3-pipeline` first when
/// it is not yet). Problems are reported as diagnostics; `Err` then. A
/// function that cannot be translated is an error: nothing is written.
pub fn translate<'c>(
    context: &'c Context,
    module: &mut Module<'c>,
    target: Target,
) -> Result<Vec<OutputFile>, Diagnosed> {
    translate_with(context, module, target, false)
}

/// A function the translation has to leave out: an error, or with
/// `allow_partial` a warning (the rest is still written).
fn left_out(allow_partial: bool, failed: &mut bool, at: OperationRef, message: String) {
    left_out_refused(allow_partial, failed, at, message, None);
}

/// [`left_out`], with a note at the construct a pass refused (when it is
/// not `at` itself).
fn left_out_refused(
    allow_partial: bool,
    failed: &mut bool,
    at: OperationRef,
    message: String,
    refused: Option<Location>,
) {
    let severity = if allow_partial {
        Severity::Warning
    } else {
        Severity::Error
    };
    let mut diagnostic = OpDiagnostic::new(message);
    let here = pto_dialects::source::location_text(at.location());
    if let Some(location) = refused.filter(|l| pto_dialects::source::location_text(*l) != here) {
        diagnostic = diagnostic.with_note(location, "the construct refused");
    }
    diagnostic.emit(at, severity);
    *failed |= !allow_partial;
}

/// [`translate`]; with `allow_partial` functions it cannot translate are
/// left out with a warning (`pto-translate --allow-partial`).
pub fn translate_with<'c>(
    context: &'c Context,
    module: &mut Module<'c>,
    target: Target,
    allow_partial: bool,
) -> Result<Vec<OutputFile>, Diagnosed> {
    pto_passes::register_passes();
    melior::utility::register_all_passes();
    if needs_lowering(module) {
        run_pipeline(context, module, "builtin.module(pto-a2a3-pipeline)")?;
    }
    let functions = functions(module);
    let mut translation = Translation {
        context,
        target,
        allow_partial,
        files: Vec::new(),
        manifest: Vec::new(),
        calls: Vec::new(),
        members: Vec::new(),
        groups: Vec::new(),
        failed: false,
        to_emitc: None,
    };
    // An InCore kernel the pipeline did not make an aic or aiv one.
    for &kernel in functions
        .iter()
        .filter(|f| kernel_kind(**f) == Some(FunctionKind::InCore))
    {
        let name = attrs::text_of(kernel, "sym_name").unwrap_or_default();
        let at = unconverted(kernel).unwrap_or(kernel);
        translation.left_out(
            at,
            format!(
                "pto-translate: kernel @{name} is still an incore kernel (pto-a2a3-pipeline could not lower it to an aic or aiv kernel); it is not translated"
            ),
        );
    }
    // Core groups (pl-expand-mixed-kernel's, or written so): their kernels
    // are translated, each with its imports' peer addresses recorded
    // first; programs and runtime orchestrations launch the group.
    pto_passes::emitc::convert_pl_to_emitc::record_peer_bases(module.as_operation());
    for &group in functions
        .iter()
        .filter(|f| kernel_kind(**f) == Some(FunctionKind::Group))
    {
        pto_dialects::ir::walk(group, melior::ir::operation::WalkOrder::PreOrder, |op| {
            if pto_dialects::op_table::kind(&op) == Some(pto_dialects::op_table::OpKind::PlCall) {
                translation.members.extend(attrs::text_of(op, "callee"));
            }
            melior::ir::operation::WalkResult::Advance
        });
        translation.groups.push(group);
    }
    for (func_id, &kernel) in functions
        .iter()
        .filter(|f| {
            matches!(
                kernel_kind(**f),
                Some(FunctionKind::Aic | FunctionKind::Aiv)
            )
        })
        .enumerate()
    {
        translation.kernel(func_id, kernel)?;
    }
    // Programs: entry orchestrations and host programs run on the simulator
    // with their kernels; chip orchestrations (dispatched by a host program)
    // become functions of those programs.
    let dispatched = dispatched_chips(module);
    let (orchestrations, orchestration_files) =
        translation.orchestrations(&functions, &dispatched)?;
    let hosts = translation.hosts(&functions);
    let Translation {
        mut files,
        manifest,
        calls,
        groups,
        mut failed,
        ..
    } = translation;
    if target.is_sim() && !failed {
        let programs = Programs {
            context,
            functions,
            calls: &calls,
            dispatched: &dispatched,
            orchestration_files: &orchestration_files,
            groups,
            target,
            allow_partial,
        };
        programs.write(&mut files, &mut failed)?;
    }
    if failed {
        return Err(Diagnosed);
    }
    let target_name = if target.is_sim() { "a2a3sim" } else { "a2a3" };

    files.push(OutputFile {
        name: "manifest.json".into(),
        contents: format!(
            "{{\n  \"target\": \"{target_name}\",\n  \"kernels\": [\n{}\n  ],\n  \"orchestrations\": [\n{}\n  ],\n  \"hosts\": [\n{}\n  ]\n}}\n",
            manifest.join(",\n"),
            orchestrations.join(",\n"),
            hosts.join(",\n")
        ),
    });
    Ok(files)
}

/// What the translation has made so far.
struct Translation<'c, 'a> {
    context: &'c Context,
    target: Target,
    allow_partial: bool,
    files: Vec<OutputFile>,
    /// The manifest's kernel entries.
    manifest: Vec<String>,
    /// The translated kernels: name, func_id and the function.
    calls: Vec<(String, usize, OperationRef<'c, 'a>)>,
    /// The kernels of core groups: no driver runs one alone.
    members: Vec<String>,
    /// The core groups: programs and orchestrations launch them.
    groups: Vec<OperationRef<'c, 'a>>,
    failed: bool,
    /// The kernels' lowering to EmitC, made once: a pass manager's passes
    /// (canonicalize's pattern sets) are initialised on its first run
    /// only, which per kernel was most of a kernel's translation.
    to_emitc: Option<PassManager<'c>>,
}

impl<'c, 'a> Translation<'c, 'a> {
    /// [`left_out`] of this translation.
    fn left_out(&mut self, at: OperationRef, message: String) {
        left_out(self.allow_partial, &mut self.failed, at, message);
    }

    fn left_out_refused(&mut self, at: OperationRef, message: String, refused: Option<Location>) {
        left_out_refused(self.allow_partial, &mut self.failed, at, message, refused);
    }

    /// An aic/aiv kernel as `<name>.cpp` (and for `a2a3sim` its driver).
    fn kernel(&mut self, func_id: usize, kernel: OperationRef<'c, 'a>) -> Result<(), Diagnosed> {
        let context = self.context;
        let name = attrs::text_of(kernel, "sym_name").unwrap_or_default();
        if let Some(problem) = cpp_identifier_problem(&name) {
            OpDiagnostic::new(format!("pto-translate: the kernel's name @{name} {problem}; C++ cannot name it (rename the kernel)")).emit(kernel, Severity::Error);
            self.failed = true;
            return Ok(());
        }
        if let Some(op) = unconverted(kernel) {
            self.left_out(
                op,
                format!(
                    "pto-translate: kernel @{name} still computes on tensors here (pto-a2a3-pipeline could not convert it); it is not translated"
                ),
            );
            return Ok(());
        }
        let core = if kernel_kind(kernel) == Some(FunctionKind::Aic) {
            "aic"
        } else {
            "aiv"
        };
        let parameters = match self.target {
            Target::A2a3Sim { runtime_entry } => match parameters(kernel) {
                Ok(parameters) => Some(parameters),
                // Runtime programs reach it through its packed arguments.
                Err(message) if runtime_entry => {
                    OpDiagnostic::new(format!(
                        "pto-translate: {message}; @{name} gets no driver of its own"
                    ))
                    .emit(kernel, Severity::Warning);
                    None
                }
                Err(message) => {
                    OpDiagnostic::new(format!("pto-translate: {message}"))
                        .emit(kernel, Severity::Error);
                    self.failed = true;
                    return Ok(());
                }
            },
            Target::A2a3 { .. } => None,
        };
        // The kernel alone, lowered to EmitC.
        let mut single = Module::new(Location::unknown(context));
        let clone = pto_dialects::ir::clone(&kernel);
        single.body().append_operation(clone);
        let pipeline = to_emitc(self.target);
        if self.to_emitc.is_none() {
            self.to_emitc = Some(pipeline_manager(context, &pipeline)?);
        }
        let lowered = {
            // The passes' timers nest under the pipeline's (--mlir-timing).
            let _timer = crate::ffi::Timer::start(&pipeline);
            let manager = self.to_emitc.as_ref().expect("made above");
            manager.run(&mut single)
        };
        if lowered.is_err() {
            self.failed = true;
            return Ok(());
        }
        let Some(text) = translate_to_cpp(&single.as_operation()) else {
            self.failed = true;
            return Ok(());
        };
        let file = format!("{name}.cpp");
        self.files.push(OutputFile {
            name: file.clone(),
            contents: text,
        });
        self.calls.push((name.clone(), func_id, kernel));
        self.manifest.push(format!("    {{\"func_id\": {func_id}, \"name\": \"{name}\", \"core_type\": \"{core}\", \"source\": \"{file}\"}}"));
        // Kernels of windows and contexts run only under a host program,
        // a group's kernels only with their peer.
        if parameters.is_some_and(|p| !p.iter().any(|p| p.distributed))
            && !self.members.contains(&name)
        {
            match kernel_driver(context, kernel, &name)? {
                Some(driver) => self.files.push(driver),
                None => self.failed = true,
            }
        }
        Ok(())
    }

    /// Orchestrations: with runtime entries, their runtime C++
    /// (docs/translate.md, "What the runtime gets") where it can be made
    /// ("source": null, with a warning, where not). The manifest's
    /// entries and each orchestration's file.
    fn orchestrations(
        &mut self,
        functions: &[OperationRef<'c, 'a>],
        dispatched: &[(String, usize)],
    ) -> Result<(Vec<String>, std::collections::HashMap<String, String>), Diagnosed> {
        let mut orchestrations = Vec::new();
        let mut orchestration_files: std::collections::HashMap<String, String> =
            std::collections::HashMap::new();
        for function in functions
            .iter()
            .copied()
            .filter(|f| kernel_kind(*f) == Some(FunctionKind::Orchestration))
        {
            let name = attrs::text_of(function, "sym_name").unwrap_or_default();
            let mut source = "null".to_string();
            if self.target.runtime_entry() && !self.failed {
                let tokens = dispatched
                    .iter()
                    .find(|(chip, _)| *chip == name)
                    .map_or(0, |(_, tokens)| *tokens);
                match pto2_orchestration(self.context, function, &self.calls, &self.groups, tokens)?
                {
                    Ok(text) => {
                        let file = format!("{name}_orchestration.cpp");
                        self.files.push(OutputFile {
                            name: file.clone(),
                            contents: text,
                        });
                        source = format!("\"{file}\"");
                        orchestration_files.insert(name.clone(), file);
                    }
                    Err(refusal) => {
                        self.left_out_refused(
                            function,
                            format!(
                                "pto-translate: {refusal}; @{name} gets no runtime orchestration"
                            ),
                            refusal.location,
                        );
                    }
                }
            }
            orchestrations.push(format!(
                "    {{\"name\": \"{name}\", \"source\": {source}}}"
            ));
        }
        Ok((orchestrations, orchestration_files))
    }

    /// Host programs for the device: the runtime's Python host
    /// orchestrator. The manifest's entries.
    fn hosts(&mut self, functions: &[OperationRef<'c, 'a>]) -> Vec<String> {
        let mut hosts = Vec::new();
        if !self.target.is_sim() && !self.failed {
            let mut chip_directions = std::collections::HashMap::new();
            for function in functions
                .iter()
                .copied()
                .filter(|f| kernel_kind(*f) == Some(FunctionKind::Orchestration) && !is_host(*f))
            {
                let name = attrs::text_of(function, "sym_name").unwrap_or_default();
                chip_directions.insert(name, signature(function));
            }
            for host in functions.iter().copied().filter(|f| is_host(*f)) {
                let name = attrs::text_of(host, "sym_name").unwrap_or_default();
                match host_python::build(host, &chip_directions) {
                    Ok(text) => {
                        hosts.push(format!(
                            "    {{\"name\": \"{name}\", \"source\": \"{name}_host_orch.py\"}}"
                        ));
                        self.files.push(OutputFile {
                            name: format!("{name}_host_orch.py"),
                            contents: text,
                        });
                    }
                    Err(message) => {
                        hosts.push(format!("    {{\"name\": \"{name}\", \"source\": null}}"));
                        self.left_out(
                            host,
                            format!("pto-translate: {message}; @{name} gets no host orchestrator"),
                        );
                    }
                }
            }
        }
        hosts
    }
}

/// The driver of `kernel` (`run_<name>.cpp`); `None` when it cannot be
/// made (reported).
fn kernel_driver<'c>(
    context: &'c Context,
    kernel: OperationRef<'c, '_>,
    name: &str,
) -> Result<Option<OutputFile>, Diagnosed> {
    let driver = match program_pass(context, kernel, &[], &[], &[], "direct")? {
        Ok(driver) => driver,
        Err(refusal) => {
            let mut failed = false;
            left_out_refused(
                false,
                &mut failed,
                kernel,
                format!("pto-translate: {refusal}"),
                refusal.location,
            );
            return Ok(None);
        }
    };
    Ok(
        translate_to_cpp(&driver.as_operation()).map(|text| OutputFile {
            name: format!("run_{name}.cpp"),
            contents: text,
        }),
    )
}

/// What the simulator programs of a module are made of: its functions, the
/// translated kernels (name, func_id, function), the dispatched chips with
/// their ordering tokens, and the chips' PTO2 files.
struct Programs<'c, 'a, 'r> {
    context: &'c Context,
    functions: Vec<OperationRef<'c, 'a>>,
    calls: &'r [(String, usize, OperationRef<'c, 'a>)],
    dispatched: &'r [(String, usize)],
    orchestration_files: &'r std::collections::HashMap<String, String>,
    /// The core groups whose kernels were translated: a program launches
    /// them.
    groups: Vec<OperationRef<'c, 'a>>,
    target: Target,
    allow_partial: bool,
}

impl<'c, 'a> Programs<'c, 'a, '_> {
    /// `run_<entry>.cpp` for each host program and entry orchestration.
    fn write(&self, files: &mut Vec<OutputFile>, failed: &mut bool) -> Result<(), Diagnosed> {
        for &entry in &self.functions {
            let name = attrs::text_of(entry, "sym_name").unwrap_or_default();
            let dispatched = self.dispatched.iter().any(|(chip, _)| *chip == name);
            let is_entry = (kernel_kind(entry) == Some(FunctionKind::Orchestration) && !dispatched)
                || is_host(entry);
            if is_entry {
                self.program(entry, &name, files, failed)?;
            }
        }
        Ok(())
    }

    /// The chips `entry` may dispatch, with their ordering tokens.
    fn chips(&self, name: &str) -> Vec<(OperationRef<'c, 'a>, usize)> {
        self.functions
            .iter()
            .filter_map(|&f| {
                let chip = attrs::text_of(f, "sym_name")?;
                let (_, tokens) = self.dispatched.iter().find(|(c, _)| *c == chip)?;
                (chip != name).then_some((f, *tokens))
            })
            .collect()
    }

    /// The program of `entry`: the device's way where it can be, else
    /// calling its kernels directly.
    fn program(
        &self,
        entry: OperationRef<'c, 'a>,
        name: &str,
        files: &mut Vec<OutputFile>,
        failed: &mut bool,
    ) -> Result<(), Diagnosed> {
        let context = self.context;
        let chips = self.chips(name);
        // The device's way: the orchestration's PTO2 C++ on the
        // simulator's runtime.
        if self.orchestration_files.contains_key(name) && !is_host(entry) {
            match program_pass(context, entry, self.calls, &chips, &self.groups, "pto2")? {
                Ok(program) => {
                    match translate_to_cpp(&program.as_operation()) {
                        Some(text) => files.push(OutputFile {
                            name: format!("run_{name}.cpp"),
                            contents: text,
                        }),
                        None => *failed = true,
                    }
                    return Ok(());
                }
                Err(message) => {
                    OpDiagnostic::new(format!("pto-translate: {message}; @{name}'s simulator program calls its kernels directly")).emit(entry, Severity::Warning);
                }
            }
        }
        // A host program the device's way: its chips' PTO2 entries, when
        // every chip it dispatches has one.
        let host_runtime = self.target.runtime_entry() && is_host(entry);
        let runtime = host_runtime
            && self
                .dispatched
                .iter()
                .all(|(chip, _)| self.orchestration_files.contains_key(chip));
        if host_runtime && !runtime {
            OpDiagnostic::new(format!("pto-translate: a chip orchestration has no runtime C++; @{name}'s simulator program calls its kernels directly")).emit(entry, Severity::Warning);
        }
        let runtime = if runtime { "pto2" } else { "direct" };
        let mut program =
            match program_pass(context, entry, self.calls, &chips, &self.groups, runtime)? {
                Ok(program) => program,
                Err(refusal) => {
                    // Reported at the entry (the op that failed is in a
                    // half-rewritten copy), with a note at the construct.
                    left_out_refused(
                        self.allow_partial,
                        failed,
                        entry,
                        format!("pto-translate: {refusal}; @{name} gets no simulator program"),
                        refusal.location,
                    );
                    return Ok(());
                }
            };
        if run_pipeline(context, &mut program, LOWER_HOST).is_err() {
            *failed = true;
            return Ok(());
        }
        let Some(text) = translate_to_cpp(&program.as_operation()) else {
            *failed = true;
            return Ok(());
        };
        if text.contains(BUILTINS_FILE) && !files.iter().any(|f| f.name == BUILTINS_FILE) {
            files.push(OutputFile {
                name: BUILTINS_FILE.into(),
                contents: driver::BUILTINS_SOURCE.into(),
            });
        }
        files.push(OutputFile {
            name: format!("run_{name}.cpp"),
            contents: text,
        });
        Ok(())
    }
}
