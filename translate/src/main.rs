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
use pto_translate::{OutputFile, Target, translate};

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
}

fn context() -> Context {
    let context = pto_dialects::create_context();
    pto_dialects::diag::print_to_stderr(&context);
    context
}

fn parse<'c>(context: &'c Context, input: &str, text: &str) -> Option<Module<'c>> {
    let module = if input == "-" {
        Module::parse(context, text)
    } else {
        let name = melior::StringRef::new(input);
        // SAFETY: the context is live; MLIR copies the file name; a null
        // module (a parse error, already diagnosed) is checked first.
        let raw =
            unsafe { mlir_sys::mlirModuleCreateParseFromFile(context.to_raw(), name.to_raw()) };
        // SAFETY: non-null module just created, owned here.
        (!raw.ptr.is_null()).then(|| unsafe { Module::from_raw(raw) })
    }?;
    melior::ir::operation::OperationLike::verify(&module.as_operation()).then_some(module)
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
    let text = if cli.input == "-" {
        let mut text = String::new();
        if let Err(error) = io::stdin().read_to_string(&mut text) {
            eprintln!("pto-translate: error: cannot read standard input: {error}");
            return ExitCode::FAILURE;
        }
        text
    } else {
        match std::fs::read_to_string(&cli.input) {
            Ok(text) => text,
            Err(error) => {
                eprintln!(
                    "pto-translate: error: cannot open input file '{}': {error}",
                    cli.input
                );
                return ExitCode::FAILURE;
            }
        }
    };
    let context = context();
    let Some(mut module) = parse(&context, &cli.input, &text) else {
        return ExitCode::FAILURE;
    };
    let target = if cli.target == "a2a3sim" {
        Target::A2a3Sim {
            runtime_entry: cli.entry.as_deref() == Some("runtime"),
        }
    } else {
        Target::A2a3 {
            runtime_entry: cli.entry.as_deref() != Some("kernel"),
        }
    };
    let Ok(files) = translate(&context, &mut module, Some(&text), target) else {
        return ExitCode::FAILURE;
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
