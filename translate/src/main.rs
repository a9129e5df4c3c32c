//! `pto-translate`: translations out of MLIR, in the style of
//! `mlir-translate`. `--mlir-to-cce` turns a pl program (lowered by
//! `pto-a2a3-pipeline`, or lowered here first when it is not) into CCE C++
//! on the pto-isa API: one file per kernel, a manifest, and for
//! `--target=a2a3sim` a host driver per kernel for the CPU simulation.

use std::{
    io::{self, Read, Write},
    path::Path,
    process::ExitCode,
};

use clap::Parser;
use melior::{Context, ir::Module};
use pto_translate::{DiagnosticVerifier, OutputFile, Target, Timer, translate_with};

#[derive(Debug, Parser)]
#[command(
    name = "pto-translate",
    version,
    about = "Translate MLIR to C++ for Ascend a2a3",
    after_help = "MLIR's own options are accepted as mlir-translate takes them: \
--mlir-timing (and --mlir-timing-display=list|tree), --mlir-disable-threading, \
--mlir-print-ir-after-all and the other pass-manager options (for the lowering \
pto-translate runs), --mlir-print-op-on-diagnostic, --mlir-print-stacktrace-on-diagnostic, ..."
)]
struct Cli {
    /// Input file, or '-' for standard input.
    #[arg(default_value = "-")]
    input: String,

    /// Output: '-' prints every file to standard output, each after a
    /// `// ----- <file> -----` line; otherwise a directory to write them in.
    #[arg(short = 'o', value_name = "PATH", default_value = "-")]
    output: String,

    /// Translate pl/pld IR to CCE C++ on the pto-isa tile API.
    #[arg(long = "mlir-to-cce")]
    mlir_to_cce: bool,

    /// The target: a2a3 (device) or a2a3sim (CPU simulation, with drivers).
    #[arg(long = "target", value_parser = ["a2a3", "a2a3sim"], default_value = "a2a3")]
    target: String,

    /// How a2a3 kernels are entered: `runtime` adds the packed-argument
    /// `kernel_entry` the runtime calls (the kernel becomes `static`);
    /// `kernel` leaves PTOAS's `__global__ AICORE` kernel alone.
    /// (Default: `runtime` for a2a3; `kernel` for a2a3sim, whose programs
    /// then call the kernels directly.)
    #[arg(long = "entry", value_parser = ["runtime", "kernel"])]
    entry: Option<String>,

    /// Leave out, with a warning, the functions that cannot be translated
    /// (by default each is an error and nothing is written).
    #[arg(long = "allow-partial")]
    allow_partial: bool,

    /// Split the input at the lines that start with MARKER (default
    /// `// -----`) and translate each part on its own, as mlir-translate
    /// does; the parts' files are printed in order, a MARKER line between
    /// two parts (the output must be '-').
    #[arg(
        long = "split-input-file",
        value_name = "MARKER",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = SPLIT_MARKER
    )]
    split_input_file: Option<String>,

    /// Check the diagnostics against the input's `expected-error`,
    /// `expected-warning`, `expected-remark` and `expected-note` comments
    /// (MLIR's diagnostic verifier) instead of printing them: exit 0 when
    /// they are exactly the expected ones.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,
}

/// mlir-translate's default --split-input-file marker.
const SPLIT_MARKER: &str = "// -----";

/// The parts of `text` between the lines that start with `marker` (after
/// indentation), each with the number of the line it starts on.
fn split_input(text: &str, marker: &str) -> Vec<(usize, String)> {
    let mut parts = vec![(1, String::new())];
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_start().starts_with(marker) {
            parts.push((index + 2, String::new()));
        } else if let Some((_, part)) = parts.last_mut() {
            part.push_str(line);
        }
    }
    parts
}

/// The outcome of translating one part of the input.
struct Part {
    /// Translated, or (--verify-diagnostics) its diagnostics were the
    /// expected ones.
    ok: bool,
    files: Vec<OutputFile>,
}

/// Translates one part of the input (`bytes`, its first line numbered
/// `first_line` in the input).
fn translate_part(
    name: &str,
    bytes: &[u8],
    first_line: usize,
    target: Target,
    allow_partial: bool,
    verify: bool,
) -> Part {
    // Leading blank lines keep each part's line numbers those of the input.
    let mut source = vec![b'\n'; first_line - 1];
    source.extend_from_slice(bytes);
    let context = {
        let _timer = Timer::start("Context");
        context()
    };
    let verifier = verify
        .then(|| DiagnosticVerifier::start(&context, &String::from_utf8_lossy(&source), name));
    let files = (|| {
        let mut module = {
            let _timer = Timer::start("Parser");
            parse(&context, name, &source)?
        };
        let _timer = Timer::start("Translate");
        translate_with(&context, &mut module, target, allow_partial).ok()
    })();
    match verifier {
        Some(verifier) => Part {
            ok: verifier.finish(),
            files: files.unwrap_or_default(),
        },
        None => Part {
            ok: files.is_some(),
            files: files.unwrap_or_default(),
        },
    }
}

fn context() -> Context {
    let context = pto_dialects::create_context();
    pto_dialects::diag::print_to_stderr(&context);
    context
}

/// MLIR bytecode starts with these bytes.
const BYTECODE_MAGIC: &[u8] = b"ML\xefR";

/// `name:LINE:COLUMN` of byte `offset` of `bytes` (MLIR's columns: bytes,
/// from 1).
fn position(name: &str, bytes: &[u8], offset: usize) -> String {
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = offset
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
        + 1;
    format!("{name}:{line}:{column}")
}

/// Textual input must be UTF-8 (it becomes C++ source) without NUL bytes
/// (MLIR's lexer would take one for the end of the input): the first byte
/// that is neither is reported where it is.
fn check_text<'a>(name: &str, bytes: &'a [u8]) -> Result<&'a str, String> {
    let text = std::str::from_utf8(bytes).map_err(|error| {
        let at = error.valid_up_to();
        format!(
            "{}: error: the input is not valid UTF-8 (byte 0x{:02x})",
            position(name, bytes, at),
            bytes[at]
        )
    })?;
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(format!(
            "{}: error: the input contains a NUL byte",
            position(name, bytes, at)
        ));
    }
    Ok(text)
}

fn parse<'c>(context: &'c Context, name: &str, bytes: &[u8]) -> Option<Module<'c>> {
    // Text MLIR's parser would crash on is reported before it parses.
    if let Some(message) = std::str::from_utf8(bytes)
        .ok()
        .and_then(|text| pto_dialects::source::unparsable(name, text))
    {
        eprintln!("{message}");
        return None;
    }
    let module = pto_translate::parse_module(context, bytes, name)?;
    melior::ir::operation::OperationLike::verify(&module.as_operation()).then_some(module)
}

/// Replaces the default panic message (a backtrace) with a record of the
/// message, for the internal error the guard in main prints.
fn install_panic_hook() -> std::sync::Arc<std::sync::Mutex<String>> {
    let message = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let recorded = message.clone();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        let location = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut message) = recorded.lock() {
            *message = format!("{payload}{location}");
        }
    }));
    message
}

/// Writes the parts' files: to standard output, a part's after the
/// `separator` line when there is one; else into the directory `output`.
fn write(output: &str, parts: &[Vec<OutputFile>], separator: Option<&str>) -> io::Result<()> {
    if output == "-" {
        let mut stdout = io::stdout().lock();
        for (index, files) in parts.iter().enumerate() {
            if index > 0
                && let Some(separator) = separator
            {
                writeln!(stdout, "{separator}")?;
            }
            for file in files {
                writeln!(stdout, "// ----- {} -----", file.name)?;
                stdout.write_all(file.contents.as_bytes())?;
            }
        }
        return stdout.flush();
    }
    let files = parts.iter().flatten().collect::<Vec<_>>();
    let directory = Path::new(output);
    std::fs::create_dir_all(directory)?;
    for file in files {
        // Each file appears whole or not at all.
        let temporary = directory.join(format!(".{}.tmp-{}", file.name, std::process::id()));
        std::fs::write(&temporary, &file.contents)?;
        std::fs::rename(&temporary, directory.join(&file.name))?;
    }
    Ok(())
}

/// Whether `argument` is one of MLIR's options (`--mlir-timing`), not the
/// translation (`--mlir-to-cce`).
fn is_mlir_option(argument: &str) -> bool {
    argument.starts_with("--mlir-") && argument != "--mlir-to-cce"
}

/// MLIR's command-line parser's message, without its tool-name prefix and
/// its "Try: --help" advice.
fn mlir_option_error(message: &str) -> String {
    message
        .lines()
        .map(|line| {
            let line = line.trim().trim_start_matches("pto-translate: ");
            line.split("  Try:").next().unwrap_or(line).trim()
        })
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() -> ExitCode {
    let arguments = std::env::args().map(|argument| {
        // LLVM tools accept one-dash long flags (-mlir-to-cce).
        if argument.starts_with('-')
            && !argument.starts_with("--")
            && argument.len() > 2
            && !argument.starts_with("-o")
        {
            format!("-{argument}")
        } else {
            argument
        }
    });
    // MLIR's own options (--mlir-*, but not the translation's name) go to
    // MLIR's command-line parser, the others to ours.
    let (mut mlir_options, mut ours) = (Vec::new(), Vec::new());
    for (index, argument) in arguments.enumerate() {
        if index > 0 && is_mlir_option(&argument) {
            mlir_options.push(argument);
        } else {
            ours.push(argument);
        }
    }
    if let Err(message) = pto_translate::parse_mlir_options("pto-translate", &mlir_options) {
        eprintln!("pto-translate: error: {}", mlir_option_error(&message));
        return ExitCode::FAILURE;
    }
    let cli = match Cli::try_parse_from(ours) {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            let rendered = error.render().to_string();
            eprintln!(
                "pto-translate: error: {}",
                rendered.trim_start_matches("error: ").trim_end()
            );
            return ExitCode::FAILURE;
        }
    };
    if !cli.mlir_to_cce {
        eprintln!("pto-translate: error: no translation requested (use --mlir-to-cce)");
        return ExitCode::FAILURE;
    }
    let (name, bytes) = if cli.input == "-" {
        let mut bytes = Vec::new();
        if let Err(error) = io::stdin().read_to_end(&mut bytes) {
            eprintln!("pto-translate: error: cannot read standard input: {error}");
            return ExitCode::FAILURE;
        }
        ("<stdin>".to_string(), bytes)
    } else {
        match std::fs::read(&cli.input) {
            Ok(bytes) => (cli.input.clone(), bytes),
            Err(error) => {
                eprintln!(
                    "pto-translate: error: cannot open input file '{}': {error}",
                    cli.input
                );
                return ExitCode::FAILURE;
            }
        }
    };
    // Bytecode is binary; text is checked first.
    let bytecode = bytes.starts_with(BYTECODE_MAGIC);
    if !bytecode && let Err(message) = check_text(&name, &bytes) {
        eprintln!("{message}");
        return ExitCode::FAILURE;
    }
    if bytecode && (cli.split_input_file.is_some() || cli.verify_diagnostics) {
        eprintln!(
            "pto-translate: error: --split-input-file and --verify-diagnostics read text; '{name}' is bytecode"
        );
        return ExitCode::FAILURE;
    }
    if cli.split_input_file.is_some() && cli.output != "-" {
        eprintln!(
            "pto-translate: error: --split-input-file prints the parts' files in order: use -o - (not a directory)"
        );
        return ExitCode::FAILURE;
    }
    let target = if cli.target == "a2a3sim" {
        Target::A2a3Sim {
            runtime_entry: cli.entry.as_deref() == Some("runtime"),
        }
    } else {
        Target::A2a3 {
            runtime_entry: cli.entry.as_deref() != Some("kernel"),
        }
    };
    // Bad input is diagnosed, never a panic; should a bug panic anyway,
    // it is reported as an internal error and nothing is written.
    let panic_message = install_panic_hook();
    let inputs = match &cli.split_input_file {
        // Checked above: a split input is text.
        Some(marker) => split_input(&String::from_utf8_lossy(&bytes), marker)
            .into_iter()
            .map(|(line, part)| (line, part.into_bytes()))
            .collect(),
        None => vec![(1, bytes.clone())],
    };
    let translated = std::panic::catch_unwind(|| {
        inputs
            .iter()
            .map(|(line, part)| {
                translate_part(
                    &name,
                    part,
                    *line,
                    target,
                    cli.allow_partial,
                    cli.verify_diagnostics,
                )
            })
            .collect::<Vec<_>>()
    });
    let parts = match translated {
        Ok(parts) => parts,
        Err(_) => {
            let message = panic_message.lock().map(|m| m.clone()).unwrap_or_default();
            eprintln!("pto-translate: error: internal error: {message}");
            return ExitCode::FAILURE;
        }
    };
    // The timing report covers the output too, whether or not it is written.
    let status = write_parts(&cli, parts);
    pto_translate::timing_report();
    status
}

/// Writes every part's files, unless a part failed (then nothing is).
fn write_parts(cli: &Cli, parts: Vec<Part>) -> ExitCode {
    if parts.iter().any(|part| !part.ok) {
        return ExitCode::FAILURE;
    }
    let files: Vec<Vec<OutputFile>> = parts.into_iter().map(|part| part.files).collect();
    let written = {
        let _timer = Timer::start("Output");
        write(&cli.output, &files, cli.split_input_file.as_deref())
    };
    if let Err(error) = written {
        eprintln!(
            "pto-translate: error: cannot write '{}': {error}",
            cli.output
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
