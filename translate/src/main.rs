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
use pto_translate::{OutputFile, Target, translate_with};

#[derive(Debug, Parser)]
#[command(
    name = "pto-translate",
    version,
    about = "Translate MLIR to C++ for Ascend a2a3"
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

fn write(output: &str, files: &[OutputFile]) -> io::Result<()> {
    if output == "-" {
        let mut stdout = io::stdout().lock();
        for file in files {
            writeln!(stdout, "// ----- {} -----", file.name)?;
            stdout.write_all(file.contents.as_bytes())?;
        }
        return stdout.flush();
    }
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
    let cli = match Cli::try_parse_from(arguments) {
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
    if !bytes.starts_with(BYTECODE_MAGIC)
        && let Err(message) = check_text(&name, &bytes)
    {
        eprintln!("{message}");
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
    let translated = std::panic::catch_unwind(|| {
        let context = context();
        let mut module = parse(&context, &name, &bytes)?;
        translate_with(&context, &mut module, target, cli.allow_partial).ok()
    });
    let files = match translated {
        Ok(Some(files)) => files,
        Ok(None) => return ExitCode::FAILURE,
        Err(_) => {
            let message = panic_message.lock().map(|m| m.clone()).unwrap_or_default();
            eprintln!("pto-translate: error: internal error: {message}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = write(&cli.output, &files) {
        eprintln!(
            "pto-translate: error: cannot write '{}': {error}",
            cli.output
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
